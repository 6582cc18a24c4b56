"""Rules of the ``reference`` family: names resolve and agree."""
