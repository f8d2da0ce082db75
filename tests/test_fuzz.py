"""The quick fuzzing profile of issue 26 (the long one is ``scripts/fuzz.py``).

Each format's generator (``tests/fuzzing.py``) is driven by hypothesis with a fixed seed
(``derandomize``): the same examples on every run, shrunk when one fails. Each input is linted and
fixed in-process; it must give no internal error, stay under the CPU budget, and its fixes must
parse, change no byte outside their edits, and converge in one run.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzzing import GENERATORS, HOSTILE, Counts, HypothesisChooser, judge_in_tmp

QUICK = settings(max_examples=60, derandomize=True, deadline=None, database=None,
                 suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("fmt", sorted(GENERATORS))
def test_quick_fuzz(fmt):
    @QUICK
    @given(st.data())
    def run(data):
        files = GENERATORS[fmt](HypothesisChooser(data.draw))
        counts = Counts()
        judge_in_tmp(files, counts, cpu_budget=5.0)  # generous here: the test machine is shared
        assert counts.bad() == 0, (counts, files)

    run()


@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_quick_fuzz_each_hostile_shape(shape):
    """Every hostile shape (issue 30: doubling through each expander, include graphs, repeated work,
    control characters in values) in every run, not only those the hostile generator happens to draw."""
    @settings(QUICK, max_examples=3)
    @given(st.data())
    def run(data):
        files = HOSTILE[shape](HypothesisChooser(data.draw))
        counts = Counts()
        judge_in_tmp(files, counts, cpu_budget=5.0)
        assert counts.bad() == 0, (counts, {k: v[:200] for k, v in files.items()})

    run()


def test_the_oracle_sees_what_it_must_count(monkeypatch):
    """The judge is not blind: a fixer that writes one byte too many is counted."""
    import linter.fixes as fixes
    from tests.helpers import FOLDED_H100

    real = fixes.write_atomic

    def sloppy(source, text, read_stat=None):
        real(source, text + "\n", read_stat)

    monkeypatch.setattr(fixes, "write_atomic", sloppy)
    counts = Counts()
    judge_in_tmp({"compose.yaml": FOLDED_H100}, counts)
    assert counts.bytes_outside_edits == 1 and counts.inputs == 1


@pytest.mark.parametrize("shape", ["link-out-linted", "link-out-include", "link-out-config"])
def test_the_oracle_sees_a_file_outside_the_root_read(monkeypatch, shape):
    """The judge is not blind outside the tree: with the root's refusals switched off, the file a link
    points to outside the repository is read (and its fixable launch written), and that is counted."""
    from linter import boundary
    from tests.fuzzing import HOSTILE, RandomChooser

    files = HOSTILE[shape](RandomChooser(3))
    counts = Counts()
    judge_in_tmp(files, counts)
    assert counts.outside_touched == 0 and counts.bad() == 0, counts
    monkeypatch.setattr(boundary.Boundary, "may_read", lambda self, path: True)
    monkeypatch.setattr(boundary.Boundary, "may_write", lambda self, path: True)
    counts = Counts()
    judge_in_tmp(files, counts)
    assert counts.outside_touched == 1, counts
