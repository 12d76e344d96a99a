"""Problem tags (issues 34 and 35): declared in problem.toml, listed easiest first and filtered by
`python -m judge list --tag`, a column of the README's generated table and of the web page's list."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from problems import all_problems

ROOT = Path(__file__).resolve().parent.parent


def judge(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600, env={"PATH": "/usr/bin:/bin", "JUDGE_HOME": str(home)})


def slugs(listing: str) -> list[str]:
    return [line.split()[1] for line in listing.splitlines()[2:]]


def test_the_list_is_easiest_first_with_its_tags(tmp_path):
    listed = judge(tmp_path, "list")
    assert listed.returncode == 0, listed.stderr
    packages = all_problems()
    assert slugs(listed.stdout) == [p.slug for p in sorted(packages, key=lambda p: (p.difficulty or 11, p.slug))]
    mla = next(line for line in listed.stdout.splitlines()[2:] if line.split()[1] == "mla")
    assert re.search(r"  attention,efficiency,position +7  new ", mla), mla


def test_the_list_filters_by_tag(tmp_path):
    def tagged(*tags: str) -> list[str]:
        chosen = [p for p in all_problems() if set(tags) <= set(p.tags)]
        return [p.slug for p in sorted(chosen, key=lambda p: (p.difficulty or 11, p.slug))]

    assert "window" in tagged("efficiency") and "mla" in tagged("efficiency", "position")
    assert slugs(judge(tmp_path, "list", "--tag", "efficiency").stdout) == tagged("efficiency")
    assert slugs(judge(tmp_path, "list", "--tag", "efficiency", "--tag", "position").stdout) == \
        tagged("efficiency", "position")
    missing = judge(tmp_path, "list", "--tag", "nope")
    assert (missing.returncode, missing.stdout) == (2, "")
    every_tag = sorted({t for p in all_problems() for t in p.tags})
    assert missing.stderr == f"error: no problem has the tag nope (tags: {', '.join(every_tag)})\n"


def test_the_readme_table_has_difficulty_and_tags():
    readme = (ROOT / "README.md").read_text()
    assert "| problem | id | difficulty | tags | method | statement |" in readme
    assert "| `gqa_decode` (`GQAD`) | 6 | attention, decoding |" in readme


@pytest.mark.parametrize("tags", ['"attention"', '["Attention"]', '["attention", "attention"]', '["a b"]'])
def test_a_bad_tags_key_is_one_line(tmp_path, tags):
    folder = tmp_path / "softmax"
    shutil.copytree(ROOT / "tests" / "newproblem" / "softmax", folder)
    toml = folder / "problem.toml"
    toml.write_text(toml.read_text().replace('method = "row_softmax"\n', f'method = "row_softmax"\ntags = {tags}\n'))
    made = subprocess.run([sys.executable, "-m", "testcases", str(folder)], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert (made.returncode, made.stderr.count("\n")) == (2, 1)
    assert made.stderr.startswith(f"error: {toml}: 'tags' must be a list of distinct short lower-case words (a-z, 0-9, "
                                  "-; up to 20 characters), got ")


def test_the_web_list_shows_and_filters_tags(tmp_path, monkeypatch):
    pytest.importorskip("starlette", reason="the web extras are not installed (make installs them)")
    from starlette.testclient import TestClient

    from web.app import create_app

    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    with TestClient(create_app("test-token-0123456789", practice=tmp_path / "practice", workers=1),
                    base_url="http://127.0.0.1:8000") as client:
        everything = client.get("/?token=test-token-0123456789").text
        every_tag = sorted({t for p in all_problems() for t in p.tags})
        assert "Tags: <strong>all</strong>" + "".join(f' · <a href="/?tag={t}">{t}</a>' for t in every_tag) + "</p>" \
            in everything
        assert everything.index('data-slug="mha"') < everything.index('data-slug="mla"')
        decoding = client.get("/?tag=decoding").text
        assert [s for s in ("mha", "gqa", "gqa_decode", "mla") if f'data-slug="{s}"' in decoding] == ["gqa_decode"]
        assert '<strong>decoding</strong>' in decoding
        assert "No problem has the tag nope." in client.get("/?tag=nope").text
