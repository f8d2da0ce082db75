"""Snapshots of what users read: every rule's cases (``tests/snapshot_cases.py``) rendered in the
text, concise and github formats, checked in under ``tests/snapshots/`` and compared here, so a change
in the output is seen in review. ``python scripts/update_snapshots.py`` rewrites them."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from tests.snapshot_cases import FORMATS, SNAPSHOTS, WIDTH, cases, planned

FIX = "python scripts/update_snapshots.py"


@pytest.fixture(scope="module")
def wanted() -> dict:
    return planned()


def _sections(text: str, fmt: str) -> list[str]:
    return re.findall(rf"^-------- {fmt}\n(.*?)(?=^-------- |^======== |\Z)", text, re.M | re.S)


def test_the_snapshots_are_current(wanted):
    outdated = [p.name for p, text in wanted.items() if not p.is_file() or p.read_text("utf-8") != text]
    stale = sorted(p.name for p in SNAPSHOTS.glob("*.txt") if p not in wanted)
    assert not outdated and not stale, f"out of date: {outdated}, stale: {stale}; review the change and run `{FIX}`"


def test_every_rule_is_covered_in_every_format(wanted):
    from linter.rules import ALL_RULES

    by_code = cases()
    assert sorted(by_code) == sorted(r.code for r in ALL_RULES)
    for rule in ALL_RULES:
        assert by_code[rule.code], f"{rule.code} has no snapshot case"
        text = wanted[SNAPSHOTS / f"{rule.code}.txt"]
        word = "error" if rule.severity == "error" else "warning"
        for fmt in FORMATS:
            shown = _sections(text, fmt)
            assert len(shown) == len(by_code[rule.code])
            for out in shown:
                mark = {"text": f"{word}[{rule.code}]: ", "concise": f": {word}[{rule.code}] ",
                        "github": f"::{word} file="}[fmt]
                assert mark in out, (rule.code, fmt, out)
                assert "Traceback" not in out


def test_every_finding_fits_a_dozen_lines_of_the_width(wanted):
    for path, text in wanted.items():
        for out in _sections(text, "text"):
            findings = out.split("\n\n")[:-1]  # the last block is the summary
            assert findings, (path.name, out)
            for finding in findings:
                lines = finding.splitlines()
                assert len(lines) <= 12, (path.name, finding)
                assert max(cell_len(x) for x in lines) <= WIDTH, (path.name, finding)
                assert lines[-1].endswith(f"= help: lint-configs --show-rule {path.stem}"), finding
