from mechlint.cli import run

run()
