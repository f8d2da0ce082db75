"""No dead links in what a user reads: every relative link of README.md and docs/ names a file of the
repository (and a heading there, when it has an anchor), every repository path written in backticks
exists, and no file outside the repository (a design document, a semantics reference, an issue
tracker entry) is named as if it were there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
TICKED = re.compile(r"`([^`\s]+)`")
TOP = ("linter/", "tests/", "scripts/", "hooks/", "docs/", "examples/")
PLACEHOLDER = re.compile(r"X\.Y\.Z|SGLxxx|<|\*|\{|NAME|\.\.\.|…")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (lines in fenced blocks are not headings)."""
    out, fence = set(), ""
    for line in page.read_text("utf-8").splitlines():
        m = re.match(r"\s*(`{3,}|~{3,})", line)
        if m and (not fence or m.group(1).startswith(fence)):
            fence = "" if fence else m.group(1)
            continue
        h = re.match(r"#+ (.+)$", line)
        if h and not fence:
            out.add(_slug(h.group(1)))
    return out


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_resolve(page):
    text = page.read_text("utf-8")
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page.relative_to(ROOT)}: {target} does not exist"
        assert dest.is_relative_to(ROOT), target
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{page.relative_to(ROOT)}: no heading #{anchor} in {path or page.name}"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_repository_paths_in_backticks_exist(page):
    text = page.read_text("utf-8")
    for token in TICKED.findall(text):
        token = token.rstrip(".,:;")
        if not token.startswith(TOP) or PLACEHOLDER.search(token):
            continue
        path = token.split(":", 1)[0]  # linter/x.py:12
        assert (ROOT / path).exists(), f"{page.relative_to(ROOT)} names {token}, which is not in the repository"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_no_file_outside_the_repository_is_named(page):
    text = page.read_text("utf-8")
    for name in ("DESIGN", "sglang-semantics", "field-notes", "peer-linters", "gpu-names.md", "reference/"):
        assert name not in text, f"{page.relative_to(ROOT)} names {name}, which is not in the repository"
    assert not re.search(r"\b[Ii]ssue \d+\b", text), f"{page.relative_to(ROOT)} names an issue of another tracker"
