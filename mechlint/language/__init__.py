"""What several rule families and the configuration share about language: the plain-language word lists, BCP 47
tags and the IANA Language Subtag Registry."""
