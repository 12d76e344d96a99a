"""A problem statement as HTML: Markdown rendered on the server, the math left in elements the page
typesets with KaTeX (so `$d_k$` is never mangled into emphasis by the Markdown parser). Raw HTML is
off, so the generated blocks' markers (`<!-- BEGIN generated: ... -->`, for `make testcases`) are
taken out before rendering rather than shown as text."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

_MARKER = re.compile(r"^<!-- (BEGIN|END) generated: \w+ -->\n", re.M)


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    dollarmath_plugin(md, allow_space=True, allow_digits=True, double_inline=True)
    return md


def render(path: Path) -> str:
    stat = path.stat()
    return _render(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _render(path: Path, mtime_ns: int, size: int) -> str:
    return _parser().render(_MARKER.sub("", path.read_text(encoding="utf-8")))
