"""Plain-language rules over the prose of a mechanism file."""
