"""``mechlint server``: a language server over stdio, on pygls.

The modules are small and, except :mod:`mechlint.lsp.server`, free of pygls
and of the protocol's transport: :mod:`~mechlint.lsp.positions` maps offsets
to UTF-16 positions, :mod:`~mechlint.lsp.checker` checks an unsaved buffer as
``check`` would, :mod:`~mechlint.lsp.diagnostics` turns results into LSP
diagnostics, :mod:`~mechlint.lsp.actions` builds quick fixes from the fixes
of :mod:`mechlint.fixes` and :mod:`mechlint.authoring.pin`, and :mod:`~mechlint.lsp.authoring`
answers completion, hover, definition and references.
"""
