"""A run over files: find and read them, check each, in parallel, with the result cache; what changed since a
commit; suppressions and baselines; the findings located in the configuration; the services the rules share."""
