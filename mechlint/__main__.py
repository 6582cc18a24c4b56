from mechlint.entry import run

run()
