"""Rules of the ``mechlint`` family: problems of the tool and its inputs."""
