from mechlint.cli.entry import run

run()
