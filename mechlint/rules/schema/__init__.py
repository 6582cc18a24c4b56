"""Rules of the ``schema`` family: the file is a well-formed mechanism."""
