"""The practice layer: starter files, the history of a user's judgings, the problem list.

It sits above the judge and the problems (it calls them, they never call it); the program's
entry point, judge/__main__.py, routes the practice commands here.
"""

# Routed here by judge/__main__.py; each line is its help, in `python -m judge --help` too.
COMMANDS = {
    "start": "write a starter file for a problem (never over an existing one)",
    "run": "run a file on the sample, or on your own input, beside the reference",
    "stress": "small random inputs against the reference; the first disagreement, shrunk and saved",
    "list": "every problem with your status, attempts, best time and last verdict",
    "history": "your judgings, oldest first",
    "editorial": "the bundled accepted solutions, once you have solved the problem",
}
