"""What a run's child does once its walls are up: run the submission, write back what it returned.

The result descriptor is writable by the submission too, so nothing written here is trusted by
the judge beyond being the run's own claim about its return value.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import NoReturn

import wire
from protocol import STEP, Compiled, Phase, Result, ResultStatus, to_wire


class Runner:
    """Every function it needs is bound before submission code runs, so a submission that patches
    json, numpy or builtins changes at most what it reports about itself, never how."""

    def __init__(self, result_fd: int, filename: str):
        import numpy as np

        self.fd = result_fd
        self.filename = filename
        self.asarray = np.asarray
        self.ascontiguous = np.ascontiguousarray
        self.float64 = np.float64
        self.ndarray = np.ndarray
        self.dumps = json.dumps
        self.to_wire = to_wire
        self.write = os.write
        self.exit = os._exit
        self.extract_tb = traceback.extract_tb
        self.format_list = traceback.format_list
        self.format_exception_only = traceback.format_exception_only
        self.flushables = (sys.stdout, sys.stderr)
        self.frombuffer = np.frombuffer
        self.read_frame = wire.read_frame
        self.write_frame = wire.write_frame

    def load(self, source: bytes, method: str | None, code=None) -> type:
        """Execute the file (compiled already, or now); its class Solution, or finish with why not."""
        phase = Phase.COMPILE
        try:
            if code is None:
                code = compile(source, self.filename, "exec", dont_inherit=True)
            phase = Phase.IMPORT
            namespace = {"__name__": "solution", "__file__": self.filename, "__builtins__": __builtins__}
            exec(code, namespace)
            phase = Phase.LOOKUP
            cls = namespace.get("Solution")
            if not isinstance(cls, type):
                self.finish(Result(ResultStatus.LOOKUP, message="the file defines no class Solution"))
            if method is not None and not callable(getattr(cls, method, None)):
                self.finish(Result(ResultStatus.LOOKUP, message=f"class Solution has no method {method}()"))
            return cls
        except BaseException as exc:
            self.fail(phase, exc)

    def check(self, source: bytes, method: str, code=None) -> None:
        """The import check: import, find the method, and report only that."""
        self.load(source, method, code)
        self.finish(Result(ResultStatus.OK))

    def run(self, source: bytes, method: str, args: list, code=None) -> None:
        cls = self.load(source, method, code)
        phase = Phase.INIT
        try:
            instance = cls()
            phase = Phase.CALL
            value = getattr(instance, method)(*args)
            phase = Phase.RETURN
            self.finish_value(value)
        except BaseException as exc:
            self.fail(phase, exc)

    def fail(self, phase: str, exc: BaseException) -> NoReturn:
        if isinstance(exc, MemoryError):
            self.finish(Result(ResultStatus.MEMORY, phase, message=self._text(exc)))  # numpy's names the size
        self.finish(Result(ResultStatus.EXCEPTION, phase, type(exc).__name__, self._text(exc),  # SystemExit
                           self._own_frames(exc)))  # and KeyboardInterrupt are the submission's too

    def interact(self, source: bytes, method: str, args: list, code, step_in: int, step_out: int) -> None:
        """An interactive run: Solution(*args) once, then one call of `method` per row received on
        step_in, each answer written to step_out as a frame, until the judge's empty frame."""
        cls = self.load(source, method, code)
        try:
            bound = getattr(cls(*args), method)
        except BaseException as exc:
            self.fail(Phase.INIT, exc)
        self.write_frame(step_out, self.header(Result(ResultStatus.CONSTRUCTED)))
        step = 0
        while True:
            try:
                row = self.read_frame(step_in, 1 << 24)
            except EOFError:
                row = b""
            if not row:  # the judge wants no more steps
                self.finish(Result(ResultStatus.OK, steps=step))
            x = self.frombuffer(row, dtype=self.float64).tolist()
            try:
                value = bound(x)
                payload = self.encoded(value)
            except BaseException as exc:
                self.fail(f"{STEP}{step}", exc)
            self.write_frame(step_out, payload)
            step += 1

    def finish_value(self, value) -> NoReturn:
        self.finish_raw(self.encoded(value))

    def encoded(self, value) -> bytes:
        """A returned value as the judge reads it: a JSON header line, then float64 bytes."""
        if value is None:
            return self.header(Result(ResultStatus.INVALID, message="the method returned None"))
        try:
            array = self.asarray(value)
        except (ValueError, TypeError) as exc:
            return self.header(Result(ResultStatus.INVALID, message="the returned value is not a rectangular "
                                      f"array of numbers ({_first_line(str(exc))})"))
        if not isinstance(array, self.ndarray) or array.dtype.kind not in "iuf":
            kind = getattr(getattr(array, "dtype", None), "name", type(array).__name__)
            return self.header(Result(ResultStatus.INVALID, message=_describe(value, kind)))
        data = self.ascontiguous(array, dtype=self.float64)
        return self.header(Result(ResultStatus.OK, type=type(value).__name__, shape=list(data.shape))) + data.tobytes()

    def header(self, result: Result) -> bytes:
        """The result's header line (protocol.py), as the judge reads it."""
        return self.dumps(self.to_wire(result)).encode() + b"\n"

    def finish(self, result: Result) -> NoReturn:
        self.finish_raw(self.header(result))

    def finish_raw(self, payload: bytes) -> NoReturn:
        for stream in self.flushables:
            try:
                stream.flush()
            except BaseException:
                pass
        view = memoryview(payload)
        try:
            while view:
                view = view[self.write(self.fd, view):]
        except OSError:
            self.exit(122)
        self.exit(0)

    def _text(self, exc: BaseException) -> str:
        try:
            return "".join(self.format_exception_only(type(exc), exc)).strip()[:2000]
        except BaseException:
            return type(exc).__name__

    def _own_frames(self, exc: BaseException) -> str:
        """The traceback cut to the submission's own frames: the judge's are noise to its author."""
        try:
            frames = [f for f in self.extract_tb(exc.__traceback__) if f.filename == self.filename]
            return "".join(self.format_list(frames))[-4000:]
        except BaseException:
            return ""


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text


def _describe(value, kind: str) -> str:
    """Why a returned value is not an array of numbers, pointing at the first bad element."""
    stack = [("", value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack += [(f"{path}[{i}]", x) for i, x in reversed(list(enumerate(node)))]
        elif isinstance(node, bool) or not isinstance(node, (int, float)):
            if path and not hasattr(node, "__array__"):
                return f"element {path} is {type(node).__name__} {node!r:.40}, expected a number"
    return f"the returned value has element type {kind}, expected numbers"


def compile_only(source: bytes, filename: str) -> tuple[Compiled, bytes]:
    """Compile without running anything: Python's own rules (BOM, coding line), the methods of a
    top-level class Solution for problem detection, or the compiler's message; and the code
    object, marshalled, for the fork server to hand to every run (no code of the file has run
    in this process, so these bytes are the compiler's own)."""
    import ast
    import marshal

    try:
        tree = ast.parse(source, filename)
        code = compile(tree, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError) as exc:
        return Compiled(False, error=_syntax_message(exc)), b""
    except RecursionError:
        return Compiled(False, error="the file is nested too deeply for Python's compiler (RecursionError)"), b""
    except MemoryError:
        return Compiled(False, error="compiling the file ran out of memory (MemoryError)"), b""
    methods = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Solution":
            methods = [n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return Compiled(True, methods), marshal.dumps(code)


def _syntax_message(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
        text = (exc.text or "").strip()
        text = text if len(text) <= 120 else text[:117] + "..."  # a bomb's line can be megabytes
        return f"{type(exc).__name__}: {exc.msg} ({where})" + (f"\n    {text}" if text else "")
    return f"{type(exc).__name__}: {exc}"
