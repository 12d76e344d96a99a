"""The practice layer: starter files, the history of a user's judgings, the problem list.

It sits above the judge and the problems (it calls them, they never call it); the program's
entry point, judge/__main__.py, routes the practice commands here.
"""

COMMANDS = ("start", "list", "history", "run", "editorial", "stress")  # routed here by judge/__main__.py
