"""Reviewing a change: what changed in a source since its pin (``mechlint diff``, the language server's hover).

:mod:`~mechlint.review.drift` finds, from the provenance facts, where each
changed source's pinned bytes are and what is there now;
:mod:`~mechlint.review.unified` turns the two into a unified diff (or, for
files that are not text, sizes and digests); :mod:`~mechlint.review.render`
writes that for a terminal, as JSON data, or as Markdown for an editor.
"""
