"""Markdown made for a terminal: how ``mechlint rule ID`` shows a rule's documentation.

The rule pages are Markdown (``docs/rules/``, the SARIF help); in a terminal
the marks are noise. :func:`render` draws the small subset the pages use:
headings (bold, or underlined with ``=`` and ``-`` without colour), paragraphs
and list items wrapped at word boundaries to the width, code blocks indented by
four (a diff's added and removed lines green and red), tables as aligned
columns, inline code and bold without their backticks and asterisks (code in
colour when there is colour), links as ``text (URL)``. Colour only when asked:
the caller decides it (a terminal, ``NO_COLOR``, ``FORCE_COLOR``).

The input is made printable before it gets here (the documentation of an
invariant comes from the user's files); the escape sequences are this
module's own.
"""

from __future__ import annotations

import re

from mechlint.report.wrap import text_width, wrap_words

__all__ = ["render"]

_BOLD, _CODE, _ADDED, _REMOVED, _RESET = "\033[1m", "\033[36m", "\033[32m", "\033[31m", "\033[0m"
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{_RESET}" if color and text else text


def _words(text: str, color: bool) -> list[tuple[str, str]]:
    """The words of a paragraph, marks removed: each as (the text measured, the text written)."""
    text = _LINK.sub(lambda match: f"{match.group(1)} ({match.group(2)})", text)
    words: list[tuple[str, str]] = []
    in_code = in_bold = False
    for raw in text.split():
        pieces = re.split(r"(`|\*\*)", raw)
        plain, shown = "", ""
        for piece in pieces:
            if piece == "`":
                in_code = not in_code
            elif piece == "**" and not in_code:
                in_bold = not in_bold
            elif piece:
                plain += piece
                shown += _paint(piece, _CODE if in_code else _BOLD if in_bold else "", color)
        if plain:
            words.append((plain, shown))
    return words


def _heading(level: int, text: str, color: bool) -> list[str]:
    title = " ".join(word for word, _ in _words(text, False))
    if color:
        return [_paint(title, _BOLD + ("\033[4m" if level == 1 else ""), color)]
    return [title, ("=" if level == 1 else "-") * text_width(title)]


def _code(lines: list[str], language: str, color: bool) -> list[str]:
    shown = []
    for line in lines:
        code = ""
        if language == "diff" and not line.startswith(("---", "+++")):
            code = _ADDED if line.startswith("+") else _REMOVED if line.startswith("-") else ""
        shown.append("    " + _paint(line, code, color))
    return shown


def _table(rows: list[str], color: bool) -> list[str]:
    cells = [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows]
    cells = [row for row in cells if not all(re.fullmatch(r":?-+:?", cell) for cell in row)]
    words = [[_words(cell, color) for cell in row] for row in cells]
    plain = [[" ".join(p for p, _ in cell) for cell in row] for row in words]
    widths = [max(text_width(row[i]) for row in plain if i < len(row)) for i in range(max(map(len, plain)))]
    lines = []
    for number, row in enumerate(words):
        parts = []
        for i, cell in enumerate(row):
            text = " ".join(s for _, s in cell)
            pad = " " * (widths[i] - text_width(plain[number][i])) if i < len(row) - 1 else ""
            parts.append(_paint(text, _BOLD, color and number == 0) + pad)
        lines.append("  " + "  ".join(parts).rstrip())
    return lines


def render(markdown: str, width: int, color: bool) -> str:
    """``markdown`` drawn for a terminal ``width`` columns wide; colour codes only with ``color``."""
    out: list[str] = []
    lines = markdown.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            end = next((i for i in range(index + 1, len(lines)) if lines[i].startswith("```")), len(lines))
            out += _code(lines[index + 1 : end], line[3:].strip(), color)
            index = end + 1
            continue
        heading = re.match(r"(#{1,6}) (.*)", line)
        if heading:
            out += _heading(len(heading.group(1)), heading.group(2), color)
        elif line.startswith("|"):
            end = index
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            out += _table(lines[index:end], color)
            index = end
            continue
        elif line.startswith("- "):
            out += ["  " + text for text in wrap_words(_words(line, color), width - 2, indent="  ")]
        elif line.strip():
            end = index
            while end < len(lines) and lines[end].strip() and not re.match(r"#|```|\||- ", lines[end]):
                end += 1
            out += wrap_words(_words(" ".join(lines[index:end]), color), width)
            index = end
            continue
        else:
            out.append("")
        index += 1
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"
