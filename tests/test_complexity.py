"""No function or method of linter/ is above cyclomatic complexity 30 (radon's measure, as McCabe
counts it): the drivers name their stages, formats and readers dispatch through tables (issue 39)."""

from __future__ import annotations

from radon.complexity import cc_visit

from tests.helpers import ROOT

LIMIT = 30


def _blocks(path):
    for block in cc_visit(path.read_text("utf-8")):
        yield block
        # a class's methods are listed inside it
        yield from getattr(block, "methods", ())


def test_no_function_of_linter_is_above_complexity_30():
    over = sorted((b.complexity, f"{p.relative_to(ROOT)}:{b.lineno} {b.name}")
                  for p in sorted((ROOT / "linter").rglob("*.py")) for b in _blocks(p)
                  if type(b).__name__ != "Class" and b.complexity > LIMIT)
    assert over == []


def test_the_measure_sees_a_function_above_the_limit():
    text = "def f(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(LIMIT + 1)) + "    return -1\n"
    [block] = cc_visit(text)
    assert block.complexity == LIMIT + 2
