"""Provenance: every source's pinned sha256 against the working tree and git history.

:mod:`.paths` validates and hashes a source without trusting it; :mod:`.git`
reads history through git's plumbing with fixed arguments; :mod:`.cache`
remembers blob digests; :mod:`.resolve` classifies each source once per run.
"""
