"""The table of rules and each rule's page: every rule by id, the pages of docs/rules/ with their examples, and a
page drawn for a terminal."""
