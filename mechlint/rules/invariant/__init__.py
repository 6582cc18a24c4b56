"""Rules about the invariants themselves; the invariants are declared as data in ``rules/invariants/``."""
