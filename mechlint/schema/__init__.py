"""JSON Schema: the mechanism schema compiled to Python, ECMA-262 patterns, jsonschema's validator with them, a
violation said plainly, and data files read and checked against their schemas."""
