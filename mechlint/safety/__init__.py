"""The lowest layer: safe reads and writes, regexes from rule files checked before they run,
terminal escaping, SQLite, and how paths are shown and compared."""
