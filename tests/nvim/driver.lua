-- Drives Neovim's own LSP client against mechlint server (tests/test_lsp_neovim.py).
-- The README's snippet has attached the server to this JSON buffer; the results go to $MECHLINT_OUT as JSON.
local out = os.getenv("MECHLINT_OUT")
local result = { steps = {} }

local function finish(error)
  result.error = error
  local handle = io.open(out, "w")
  handle:write(vim.fn.json_encode(result))
  handle:close()
  vim.cmd("qa!")
end

local function codes()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(found, { code = code, lnum = d.lnum, col = d.col, source = d.source })
  end
  return found
end

local function has(code)
  for _, d in ipairs(codes()) do
    if d.code == code then
      return d
    end
  end
  return nil
end

local ok, error = pcall(function()
  if not vim.wait(30000, function() return has("plain/typography-consistency") ~= nil end, 50) then
    return finish("no diagnostics on open")
  end
  result.on_open = codes()

  -- An unsaved edit: every step gets time to be read.
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  for index, line in ipairs(lines) do
    lines[index] = line:gsub('"duration": 3000', '"duration": 9000')
  end
  vim.api.nvim_buf_set_lines(0, 0, -1, false, lines)
  if not vim.wait(30000, function() return has("a11y/reading-time") == nil end, 50) then
    return finish("the unsaved edit did not clear a11y/reading-time")
  end
  result.after_edit = codes()
  result.modified = vim.bo.modified

  -- The typography quick fix, chosen and applied by the editor.
  local typography = has("plain/typography-consistency")
  vim.api.nvim_win_set_cursor(0, { typography.lnum + 1, typography.col })
  result.line_before = vim.api.nvim_buf_get_lines(0, typography.lnum, typography.lnum + 1, false)[1]
  -- Neovim 0.7's code_action() has no filter: ask as it does, and let its LSP utilities apply the edit.
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0) }
  local answers = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 30000) or {}
  local chosen
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      if action.title:find("this string", 1, true) and not chosen then
        chosen = action
      end
    end
  end
  if not chosen then
    return finish("no typography quick fix was offered")
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, "utf-16")
  local function fixed()
    local line = vim.api.nvim_buf_get_lines(0, typography.lnum, typography.lnum + 1, false)[1]
    return line ~= result.line_before
  end
  if not vim.wait(30000, fixed, 50) then
    return finish("the quick fix was not applied")
  end
  result.line_after = vim.api.nvim_buf_get_lines(0, typography.lnum, typography.lnum + 1, false)[1]
  vim.wait(30000, function()
    local now = has("plain/typography-consistency")
    return now == nil or now.lnum ~= typography.lnum
  end, 50)
  result.after_fix = codes()
  result.text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n") .. "\n"

  -- Every safe fix at once (source.fixAll.mechlint), as an editor does on save.
  local all_params = vim.lsp.util.make_range_params()
  all_params.context = { diagnostics = {}, only = { "source.fixAll" } }
  local all_answers = vim.lsp.buf_request_sync(0, "textDocument/codeAction", all_params, 30000) or {}
  local fix_all
  for _, answer in pairs(all_answers) do
    for _, action in ipairs(answer.result or {}) do
      if action.kind == "source.fixAll.mechlint" and not fix_all then
        fix_all = action
      end
    end
  end
  if not fix_all then
    return finish("no source.fixAll.mechlint action was offered")
  end
  vim.lsp.util.apply_workspace_edit(fix_all.edit, "utf-16")
  result.text_fixed_all = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n") .. "\n"
  finish(nil)
end)
if not ok then
  finish(tostring(error))
end
