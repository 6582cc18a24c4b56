"""Text shared by the rule families, the schema messages and the configuration: the name a misspelt one was
probably meant to be, characters that only look alike, and the names of characters."""
