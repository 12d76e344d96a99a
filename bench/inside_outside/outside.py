"""A Solution file driven outside the judge: the `outside` of `make bench`'s inside-outside table.

    python outside.py SOLUTION.py PROTOCOL_JSON TEST.json

A plain Python process (whoever starts it sets the sandbox's environment: one BLAS thread, no
huge pages for numpy) loads the file and the test's JSON, then constructs and calls as the
judge's run does: a function problem's method once with the test's arguments; an interactive
problem's Solution with the constructor's arguments, then `method` once per row of the stream,
each row a list of floats. PROTOCOL_JSON is {"method", "arguments", "stream"}: the names of the
arguments (the constructor's for an interactive problem), and the stream's name or null. It
prints one JSON line: the user and system CPU time of the construction and calls alone (not the
imports or the JSON), in milliseconds, and their minor page faults.

No module of the project is imported here: the process holds only what a run would, plus the
test's JSON, read first (as a plain interpreter reads its input before it computes).
"""

import importlib.util
import json
import resource
import sys


def main() -> None:
    path, protocol, test = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
    spec = importlib.util.spec_from_file_location("solution", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(test) as f:
        given = json.load(f)["input"]
    arguments = [given[name] for name in protocol["arguments"]]
    stream = given[protocol["stream"]] if protocol["stream"] else None

    before = resource.getrusage(resource.RUSAGE_SELF)
    if stream is not None:
        call = getattr(module.Solution(*arguments), protocol["method"])
        for row in stream:
            call(row)
    else:
        getattr(module.Solution(), protocol["method"])(*arguments)
    after = resource.getrusage(resource.RUSAGE_SELF)

    print(json.dumps({"user_ms": (after.ru_utime - before.ru_utime) * 1000,
                      "sys_ms": (after.ru_stime - before.ru_stime) * 1000,
                      "faults": after.ru_minflt - before.ru_minflt}))


if __name__ == "__main__":
    main()
