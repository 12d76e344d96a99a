"""Reading a judging's tests: which stored files, in which order, read by whom, encoded for the wire.

Nothing here imports numpy, so the command line can start reading the tests right after it
launches the sandbox, while numpy loads in the judge and in the sandbox (issue 8's speed):
a test's JSON is parsed and its arrays packed as raw bytes with the standard library alone
(`encode_array`). The judge turns the expected output into an array when it checks a run.
"""

from __future__ import annotations

import fnmatch
import json
import math
import os
import re
import signal
import sys
import threading
from array import array
from functools import cached_property
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from judge.inside import wire
from judge.partcache import cached_parts
from problems import Problem, ProblemError, TestCase
from problems.testfile import check_input, not_json, test_decoder, test_from, test_text

if TYPE_CHECKING:
    import numpy as np

LARGE_FILE_BYTES = 256 << 10  # a test file this large takes ~5 ms or more to parse
_ORDER = "<" if sys.byteorder == "little" else ">"  # array's bytes are native, as numpy's dtype.str says


class ReaderLost(Exception):
    """A reader process of the judge's own stopped before it sent every test: the judge's fault."""


def select_tests(problem: Problem, patterns: list[str] | None) -> list[Path]:
    """The problem's tests in order, kept when a name or number matches one of the patterns."""
    files = problem.test_files()
    if not files:
        raise ProblemError(f"{problem.tests_dir}: no stored tests (run make testcases)")
    if not patterns:
        return files
    kept = [f for f in files if any(_matches(f.stem, p) for p in patterns)]
    if not kept:
        raise ProblemError(f"--tests {' '.join(patterns)}: no test of {problem.slug} matches "
                           f"(names look like {files[0].stem})")
    return kept


def _matches(name: str, pattern: str) -> bool:
    number = name.partition("-")[0]
    return fnmatch.fnmatchcase(name, pattern) or name == pattern or number == pattern.zfill(len(number))


class Cases:
    """A judging's tests, each read (and its arrays encoded) once, ahead of the runs; iterated as
    (index, test) as they are read, a large one first (the order they run in).

    Stored tests are read by forked processes of the judge's own and come back as raw arrays:
    parsing 3 MiB of JSON then takes the judge's interpreter for none of its time. Each comes in
    two halves, its arguments first (`stored_parts`): its run starts while the rest is read
    (masked's largest test reached the sandbox ~50 ms sooner).
    A function problem's large files (`_apart`) are read by a reader of their own, largest
    first, beside the one that reads the others in order (and then the large files it is given):
    the small tests run as soon as the sandbox is up, and a long run starts as soon as its file
    is read, beside them, instead of last and alone (masked's 3.9 MiB test, read and run after
    the 31 others, was a third of its judging).
    The report still lists, and stops at the first failure, in the tests' own order. An
    interactive problem's tests run one at a time: one reader, in order.

    A thread receives each reader's tests; the judge's own thread only ever waits for one. Where
    the judge already runs threads (judging the bundled submissions side by side, the web page),
    a fork could inherit a lock held by one of them, so a thread reads the files itself, in the
    same order. Tests made in memory are prepared by the thread. A file that cannot be read is
    raised when it comes, as a ProblemError naming it; `stop` must be called in any case.
    """

    def __init__(self, problem: Problem | None, paths: list[Path] = (), ready: list[TestCase] = ()):
        self.problem = problem
        self.total = len(paths) + len(ready)
        self._read: list[tuple[int, Prepared | BaseException]] = []  # read, not yet handed out
        self._first: set[int] = set()  # the large tests: handed out before the others read already
        self._arrived = threading.Condition()
        self._stopped = False
        self._reader_pids: list[int] = []
        if not self.total:
            return
        items = list(enumerate([*ready, *paths]))
        if problem is not None and not problem.interactive:
            groups, self._first = _apart(items)
        else:
            groups = [items]
        if paths and not ready and threading.active_count() == 1:
            # every reader is forked before any receiving thread starts: none inherits its locks
            work = [self._receive_from(*self._fork_reader(group), len(group)) for group in groups]
        else:
            work = [self._read_here([pair for group in groups for pair in group])]
        for receive in work:
            threading.Thread(target=receive, name="test-reader", daemon=True).start()

    def __len__(self) -> int:
        return self.total

    def _fork_reader(self, todo: list[tuple[int, Path]]) -> tuple[int, int]:
        def read(fd: int) -> None:
            for index, path in todo:
                try:
                    for header, blobs in stored_parts(self.problem, path):
                        wire.send(fd, dict(header, index=index), blobs)
                except ProblemError as exc:
                    wire.send(fd, {"error": str(exc), "index": index})
                    return

        # a reader holds nothing of the judge's but its pipe (the fork server's stdin among them)
        pid, read_end = wire.forked_writer(read, keep_only_pipe=True)
        self._reader_pids.append(pid)
        return pid, read_end

    def _receive_from(self, pid: int, fd: int, count: int) -> Callable[[], None]:
        def receive() -> None:
            pending: dict[int, Prepared] = {}  # arguments here, the rest still to come
            left = count
            try:
                while left:
                    header, blobs = wire.receive(fd)
                    index = header["index"]
                    if "error" in header:  # a test whose run started raises it when it is checked
                        error = ProblemError(str(header["error"]))
                        if index in pending:
                            pending.pop(index).fail(error)
                        self._arrive(index, error)
                        return
                    if header["part"] == "input":
                        pending[index] = Prepared.from_input(header, blobs)
                        self._arrive(index, pending[index])
                    else:
                        pending.pop(index).complete_from(header, blobs)
                        left -= 1
            except BaseException as exc:  # the judge's thread waits for an item: it must get one
                lost = ReaderLost(f"the judge's test reader stopped ({type(exc).__name__}: {exc})")
                for test in pending.values():
                    test.fail(lost)
                self._arrive(-1, lost)
            finally:
                os.close(fd)
                os.waitpid(pid, 0)
        return receive

    def _read_here(self, todo: list[tuple[int, TestCase | Path]]) -> Callable[[], None]:
        def read() -> None:
            for index, item in todo:
                if self._stopped:
                    return
                try:
                    self._arrive(index, prepare(self.problem, item))
                except BaseException as exc:  # raised in the judge's thread when it comes
                    self._arrive(index, exc)
                    return
        return read

    def _arrive(self, index: int, item: Prepared | BaseException) -> None:
        with self._arrived:
            self._read.append((index, item))
            self._arrived.notify()

    def __iter__(self) -> Iterator[tuple[int, Prepared]]:
        """Each test once read: a large one before the others read already, else the earliest."""
        for _ in range(self.total):
            with self._arrived:
                while not self._read:
                    self._arrived.wait()
                first = next((n for n, (index, _) in enumerate(self._read) if index in self._first), 0)
                index, item = self._read.pop(first)  # its run holds it from here
            if isinstance(item, BaseException):
                raise item
            yield index, item

    def stop(self) -> None:
        """Read nothing more: the judging has ended (early, or with every test read)."""
        self._stopped = True
        for pid in self._reader_pids:
            try:
                os.kill(pid, signal.SIGKILL)  # reaped by its receiving thread
            except ProcessLookupError:
                pass


def _apart(items: list[tuple[int, TestCase | Path]]) -> tuple[list[list[tuple[int, TestCase | Path]]], set[int]]:
    """The tests in reading groups, and which are large: stored files of at least
    LARGE_FILE_BYTES and a quarter of the largest's size. The first group is the others, in
    order (a failure among them is then still met early); the large ones, largest first, go each
    to the group with fewer bytes to read so far, a group of their own or the end of the first:
    two readers then finish at about the same time (mla's three large files, read by one reader
    one after the other, ended its judging alone). One group when there is nothing to set apart."""
    sizes = {}
    for index, item in items:
        try:
            sizes[index] = item.stat().st_size if isinstance(item, Path) else 0
        except OSError:
            sizes[index] = 0  # reading it will name the problem
    bound = max(LARGE_FILE_BYTES, max(sizes.values()) / 4)
    large = sorted((pair for pair in items if sizes[pair[0]] >= bound), key=lambda pair: -sizes[pair[0]])
    rest = [pair for pair in items if sizes[pair[0]] < bound]
    if not large or not rest:
        return [items], set()
    groups, loads = [rest, []], [sum(sizes[index] for index, _ in rest), 0]
    for pair in large:
        group = 0 if loads[0] < loads[1] else 1
        groups[group].append(pair)
        loads[group] += sizes[pair[0]]
    return groups, {index for index, _ in large}


def prepare(problem: Problem, item: TestCase | Path) -> Prepared:
    """A test made in memory, or a stored one read (`stored_parts`: a file that cannot be read,
    or whose arrays cannot be encoded, which the validator refuses, is a ProblemError naming it)."""
    if isinstance(item, TestCase):
        return Prepared.of(problem, item)
    (head, blobs), (rest, arrays) = stored_parts(problem, item)
    test = Prepared.from_input(head, blobs)
    test.complete_from(rest, arrays)
    return test


class Prepared:
    """A test as the wire carries it: its arguments encoded (`specs`, `blobs`); its expected output
    (and an interactive problem's stream) as float64 bytes with their shapes (`arrays`); and what
    the report shows.

    A stored test comes in two halves: its arguments as soon as they are parsed, the rest after.
    Its run starts while its expected output is still being read (in a large file, most of its
    numbers). `note`, `arrays`, `expected` and `rows` wait for the rest (or raise why it never
    came); `expected_count` is known from the arguments' sizes, for the run's result limit."""

    def __init__(self, name: str, sizes: dict[str, int], specs: list[dict], blobs: list[bytes], expected_count: int,
                 note: str | None = None, arrays: list[tuple[list[int], bytes]] | None = None):
        self.name, self.sizes, self.specs, self.blobs = name, sizes, specs, blobs
        self.expected_count = expected_count
        self._note, self._arrays, self._error = note or "", arrays or [], None
        self._rest = threading.Event()
        if arrays is not None:
            self._rest.set()

    @classmethod
    def of(cls, problem: Problem, case: TestCase) -> Prepared:
        specs, blobs = _encoded_input(problem, case.input)
        arrays = _encoded_rest(problem, case)
        return cls(case.name, problem.sizes_of(case.input), specs, blobs, len(arrays[0][1]) // 8,
                   str(case.meta.get("note", "")), arrays)

    @classmethod
    def from_input(cls, header: dict, blobs: list[bytes]) -> Prepared:
        """A stored test from its first message (`stored_parts`), waiting for the rest."""
        return cls(header["name"], header["sizes"], header["specs"], blobs, header["count"])

    def complete_from(self, header: dict, blobs: list[bytes]) -> None:
        """The rest of a stored test, from its second message."""
        self.complete(header["note"], list(zip(header["shapes"], blobs)))

    def complete(self, note: str, arrays: list[tuple[list[int], bytes]]) -> None:
        self._note, self._arrays = note, arrays
        self._rest.set()

    def fail(self, error: BaseException) -> None:
        """The rest will never come: whoever waits for it gets `error`."""
        self._error = error
        self._rest.set()

    def _wait(self) -> None:
        self._rest.wait()
        if self._error is not None:
            raise self._error

    @property
    def note(self) -> str:
        self._wait()
        return self._note

    @property
    def arrays(self) -> list[tuple[list[int], bytes]]:  # the expected output; interactive: then the stream
        self._wait()
        return self._arrays

    @cached_property
    def expected(self) -> np.ndarray:
        return self._array(0)

    @cached_property
    def rows(self) -> np.ndarray | None:
        """Interactive: the stream, one row per step."""
        return self._array(1) if len(self.arrays) > 1 else None

    def _array(self, which: int) -> np.ndarray:
        import numpy as np

        shape, data = self.arrays[which]
        return np.frombuffer(data, dtype=np.float64).reshape(shape)


def stored_parts(problem: Problem, path: Path) -> Iterator[tuple[dict, list[bytes]]]:
    """A stored test in two messages for a reader's pipe: its arguments as soon as the file's
    'input' is parsed, then its expected output and the rest. The file is parsed member by
    member, in its own order (the generator writes 'input' first), the first time; after that
    the messages come from the copy kept beside it (judge/partcache.py) until the file, its
    problem.toml or the reading code changes. Raises ProblemError naming the file, as
    `read_test` would, at whichever point it finds the file broken."""
    return cached_parts(problem.root / "problem.toml", path, lambda: _parsed_parts(problem, path))


def _parsed_parts(problem: Problem, path: Path) -> Iterator[tuple[dict, list[bytes]]]:
    data: dict = {}
    count = None  # how many numbers the output will hold, from the arguments' sizes
    for key, value in _members(test_text(path), path):
        if key in data:  # (inside a member, the decoder refuses it)
            raise ProblemError(f"{path}: the key {key!r} appears twice")
        data[key] = value
        if key == "input":
            check_input(problem, path, value)
            sizes = problem.sizes_of(value)
            specs, blobs = _arrays_of(path, _encoded_input, problem, value)
            try:
                count = math.prod(problem.output_shape_for(problem.dims(sizes)))
            except Exception:  # sizes that say nothing of the output: the rest is read first
                pass
            else:
                yield {"part": "input", "name": path.stem, "sizes": sizes, "specs": specs, "count": count}, blobs
    case = test_from(problem, path, data)
    arrays = _arrays_of(path, _encoded_rest, problem, case)
    if count is None:
        yield ({"part": "input", "name": path.stem, "sizes": problem.sizes_of(case.input), "specs": specs,
                "count": len(arrays[0][1]) // 8}, blobs)
    yield {"part": "rest", "note": str(case.meta.get("note", "")), "shapes": [shape for shape, _ in arrays]}, \
        [data for _, data in arrays]


def _encoded_input(problem: Problem, values: dict) -> tuple[list[dict], list[bytes]]:
    names = problem.constructor if problem.interactive else problem.arg_names
    return encode_args([values[name] for name in names])


def _encoded_rest(problem: Problem, case: TestCase) -> list[tuple[list[int], bytes]]:
    arrays = [encode_array(case.expected, floats=True)[1:]]
    if problem.interactive:
        arrays.append(encode_array(case.input[problem.stream], floats=True)[1:])
    return arrays


def _arrays_of(path: Path, encode: Callable, *args):
    """`encode(*args)`, with arrays that are not numbers (ragged, strings...) a ProblemError naming the file."""
    try:
        return encode(*args)
    except (ValueError, TypeError, KeyError) as exc:
        raise ProblemError(f"{path}: its arrays cannot be read as numbers ({type(exc).__name__}: {exc})") from None


_SPACE = re.compile(r"[ \t\n\r]*")


def _members(text: str, path: Path) -> Iterator[tuple[str, object]]:
    """The members of the JSON object `text` holds, each parsed when it is reached. Anything
    else (not an object, not JSON) goes to the whole decoder, for its own message."""
    decoder, space = test_decoder(path), _SPACE.match
    seen: set[str] = set()
    i = space(text).end()
    if text.startswith("{", i):
        i = space(text, i + 1).end()
        if text.startswith("}", i):
            if space(text, i + 1).end() == len(text):
                return
        else:
            while True:
                try:
                    key, i = decoder.raw_decode(text, i)
                    i = space(text, i).end()
                    if type(key) is not str or not text.startswith(":", i):
                        break
                    value, i = decoder.raw_decode(text, space(text, i + 1).end())
                except ValueError:
                    break
                seen.add(key)
                yield key, value
                i = space(text, i).end()
                if text.startswith(",", i):
                    i = space(text, i + 1).end()
                    continue
                if text.startswith("}", i) and space(text, i + 1).end() == len(text):
                    return
                break
    try:  # not what was expected: the decoder says why (or reads what this walk could not)
        data = decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise not_json(path, exc) from None
    if isinstance(data, dict):  # (otherwise nothing: the caller says a test is one JSON object)
        yield from ((k, v) for k, v in data.items() if k not in seen)


def encode_args(args: list) -> tuple[list[dict], list[bytes]]:
    """Arguments as the wire carries them: arrays as raw bytes with dtype and shape, ints as values."""
    specs, blobs = [], []
    for value in args:
        if isinstance(value, list):
            dtype, shape, data = encode_array(value)
            specs.append({"kind": "array", "dtype": dtype, "shape": shape, "blob": len(blobs)})
            blobs.append(data)
        else:
            specs.append({"kind": "value", "value": value})
    return specs, blobs


def encode_array(value: list, floats: bool = False) -> tuple[str, list[int], bytes]:
    """A nested list of numbers as (dtype, shape, native bytes), as numpy.asarray would make it:
    int64 when every number is an int, float64 otherwise (or when `floats`). ValueError for a
    ragged list, TypeError for anything that is not a number."""
    shape, level = [], value
    while isinstance(level, list):
        shape.append(len(level))
        level = level[0] if level else None
    flat = value
    for width in shape[1:]:
        if any(type(row) is not list or len(row) != width for row in flat):
            raise ValueError(f"the nested lists are ragged (shape {shape} from their first elements)")
        flat = list(chain.from_iterable(flat))
    if not floats and flat and type(flat[0]) in (int, bool):
        # numpy: ints (with bools among them) are int64. array("q") takes ints and bools and
        # refuses anything else (TypeError), so only bools alone need looking at every element
        # (that pass cost masked's 3.9 MiB test ~17 ms of its ~45 ms of encoding).
        if type(flat[0]) is int or int in set(map(type, flat)):
            try:
                return f"{_ORDER}i8", shape, array("q", flat).tobytes()
            except OverflowError:  # past int64: numpy keeps objects, the judge made them floats
                pass
            except TypeError:  # a float among them (or something that is not a number: raised below)
                pass
    return f"{_ORDER}f8", shape, array("d", flat).tobytes()  # a list among the numbers: TypeError
