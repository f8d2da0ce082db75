"""The text report's counting paths give what its general walks give.

:func:`linter.report.snippet.window` counts cells on a slice of printable ASCII instead of walking it a
cell at a time, and :func:`linter.report.lines.wrap` fills lines of single-spaced text greedily instead
of loading ``textwrap``. Both are there for speed (a third of the text report's time over 2,400
launch files); here each is compared with the walk it replaces over a grid of lines, foci, widths
and fixed starts, beside a few shown values."""

from __future__ import annotations

import itertools
import random
import textwrap

import pytest

from linter.report import snippet
from linter.report.lines import wrap


def _by_cells(text: str, start: int, end: int, focus: tuple[int, int], room: int, at: int | None):
    """The general walk of :func:`snippet.window` on the same slice."""
    n = end - start
    f0, f1, lo, hi = snippet._slice(n, focus, room, at)
    cells = [(c, 1) for c in text[start + lo:start + hi]]
    return snippet._window_cells(cells, n, f0, f1, lo, hi, room, at)


LINES = ["", "x", "short line", "a" * 79, "b" * 80, "c" * 81,
         "  command: python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 "
         "--attention-backend fa4 --enable-deterministic-inference --host 0.0.0.0 --port 30000",
         "word " * 90]


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("room", [1, 2, 3, 10, 40, 80, 200])
def test_counting_window_matches_the_cell_walk(line, room):
    prefix = "# before\n"
    text = prefix + line + "\nafter\n"
    start, end = len(prefix), len(prefix) + len(line)
    n = len(line)
    points = sorted({0, 1, n // 3, n // 2, n - 1, n, n + 5} - {-1})
    for f0, f1 in itertools.combinations_with_replacement(points, 2):
        for at in (None, 0, f0, max(0, f0 - 7), n + 3):
            got = snippet.window(text, start, end, (f0, f1), room, at)
            want = _by_cells(text, start, end, (f0, f1), room, at)
            assert (got.text, got.first, got.last, got.n, got.cols) == \
                (want.text, want.first, want.last, want.n, want.cols), (f0, f1, at)


def test_counting_window_on_random_lines():
    rng = random.Random(7)
    for _ in range(3000):
        line = "".join(rng.choice("ab -=") for _ in range(rng.randrange(0, 300)))
        n = len(line)
        f0 = rng.randrange(0, n + 3)
        f1 = f0 + rng.randrange(0, 120)
        room = rng.randrange(1, 130)
        at = rng.choice([None, rng.randrange(0, n + 3)])
        got = snippet.window(line, 0, n, (f0, f1), room, at)
        want = _by_cells(line, 0, n, (f0, f1), room, at)
        assert (got.text, got.first, got.last, got.cols) == (want.text, want.first, want.last, want.cols)


def test_window_shows_the_focus_with_ellipses():
    line = "0123456789" * 10
    shown = snippet.window(line, 0, len(line), (50, 55), 22)
    assert shown.text == "…34567890123456789012…"
    assert (shown.first, shown.last) == (43, 63)
    assert shown.col(50) == 8
    assert snippet.window("fits", 0, 4, (1, 2), 10).text == "fits"


def test_a_non_ascii_line_still_walks_its_cells():
    line = "name: 模型 " + "x" * 60 + " end"
    shown = snippet.window(line, 0, len(line), (0, 4), 20)
    assert shown.text.startswith("name: 模型 ")
    assert shown.text.endswith("…")
    assert shown.cols[6:9] == [6, 8, 10]  # each wide character takes two cells


WRAP_TEXTS = ["", "one", "two words", "a " * 40 + "end",
              "use --attention-backend fa3 on SM90: fa4 needs an SM100/SM110 GPU for absorbed MLA",
              "https://docs.sglang.ai/advanced_features/server_arguments.html#a-very-long-anchor-name then words",
              "x" * 30 + " " + "y" * 5 + " " + "z" * 31, "ends with a long " + "w" * 40]


@pytest.mark.parametrize("text", WRAP_TEXTS)
@pytest.mark.parametrize("width", [1, 9, 10, 11, 20, 35, 80])
def test_greedy_wrap_matches_textwrap(text, width):
    want = textwrap.wrap(text, max(width, 10), break_long_words=False, break_on_hyphens=False) or [""]
    assert wrap(text, width) == want


def test_greedy_wrap_on_random_texts():
    rng = random.Random(11)
    for _ in range(3000):
        words = ["".join("ab-/." [rng.randrange(5)] for _ in range(rng.randrange(1, 25)))
                 for _ in range(rng.randrange(1, 30))]
        text = " ".join(words)
        width = rng.randrange(1, 60)
        want = textwrap.wrap(text, max(width, 10), break_long_words=False, break_on_hyphens=False) or [""]
        assert wrap(text, width) == want, (text, width)


@pytest.mark.parametrize("text", ["two  spaces inside a text longer than the width", " leading space and more words",
                                  "a tab\there and more words than fit", "trailing space and more words "])
def test_other_whitespace_goes_to_textwrap(text):
    assert wrap(text, 12) == textwrap.wrap(text, 12, break_long_words=False, break_on_hyphens=False)
