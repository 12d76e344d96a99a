"""A problem statement as HTML: Markdown rendered on the server, the math left in elements the page
typesets with KaTeX (so `$d_k$` is never mangled into emphasis by the Markdown parser)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    dollarmath_plugin(md, allow_space=True, allow_digits=True, double_inline=True)
    return md


def render(path: Path) -> str:
    return _parser().render(path.read_text(encoding="utf-8"))
