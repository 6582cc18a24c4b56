"""Provenance: every source's pinned sha256 against the working tree and git history.

:mod:`.paths` validates and hashes a source without trusting it; :mod:`.git`
reads history through git's plumbing with fixed arguments, and
:mod:`.nohistory` stands in for it where there is none; :mod:`.cache`
remembers blob digests; :mod:`.source` computes the facts about one source
(where its pinned bytes are: :mod:`.pinned`; whether a commit is history,
that is reachable from ``HEAD``: :mod:`.reach`; where a gone file went:
:mod:`.departure`), and :mod:`.resolve` lists each
document's sources with their facts, once per run. The ``provenance/`` rules
in ``mechlint/rules/provenance/`` decide from those facts.
"""
