"""The progress bar of long runs (linter/progress.py): on a terminal's standard error only, after a second,
never in CI logs, pipes, --quiet or machine-readable output; the report itself is unchanged."""

from __future__ import annotations

import io
import sys

import pytest

from linter import progress
from linter.cli import main
from tests.helpers import FOLDED_H100, chdir, write_tree


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("fmt, quiet, environ, tty, shown", [
    ("text", False, {}, True, True),
    ("concise", False, {"TERM": "xterm"}, True, True),
    ("text", False, {}, False, False),  # a pipe or a file
    ("text", False, {"CI": "true"}, True, False),  # GitHub Actions, GitLab CI … set CI
    ("text", False, {"TERM": "dumb"}, True, False),
    ("text", True, {}, True, False),  # --quiet, --silent
    ("json", False, {}, True, False),
    ("sarif", False, {}, True, False),
    ("github", False, {}, True, False),
    ("gitlab", False, {}, True, False),
    ("csv", False, {}, True, False),
])
def test_when_a_bar_may_be_shown(fmt, quiet, environ, tty, shown):
    stream = Terminal() if tty else io.StringIO()
    assert progress.wanted(stream, fmt, quiet, environ) is shown


def test_the_bar_appears_after_a_second_and_goes_when_the_run_ends():
    now = [0.0]
    stream = Terminal()
    bar = progress.Progress(stream, clock=lambda: now[0])
    for _ in range(100):
        bar.add(1)
    assert bar.bar is None and stream.getvalue() == ""  # a short run shows nothing
    now[0] = 1.5
    for _ in range(32):
        bar.add(2)
    # shown at the next look at the clock (every 16 files), then redrawn at most every 0.1 s
    assert bar.bar is not None and "112 files, 124 launches" in stream.getvalue()
    assert "132 files" not in stream.getvalue()
    now[0] = 1.7
    bar.add(0)
    assert "133 files, 164 launches" in stream.getvalue()
    bar.close()
    assert bar.bar is None and stream.getvalue().endswith("\x1b[2K")  # (rich's transient display: erased)


def run_on_a_terminal(tmp_path, monkeypatch, *args: str) -> tuple[str, str]:
    write_tree(tmp_path, {f"s{k}/docker-compose.yml": FOLDED_H100 for k in range(40)})
    monkeypatch.setattr(progress, "AFTER", 0.0)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    err, out = Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", out)
    with chdir(tmp_path):
        main(["--jobs", "1", "--color", "never", *args, "."])
    return out.getvalue(), err.getvalue()


def test_a_long_run_on_a_terminal_shows_it_on_stderr_only(tmp_path, monkeypatch):
    out, err = run_on_a_terminal(tmp_path, monkeypatch, "--format", "concise")
    assert "Linting" in err and " files, " in err and " launches" in err
    assert "Linting" not in out and out.count("SGL101") == 40


@pytest.mark.parametrize("args", [["--format", "json"], ["--quiet"], ["--format", "sarif"]])
def test_never_with_machine_output_or_quiet(tmp_path, monkeypatch, args):
    out, err = run_on_a_terminal(tmp_path, monkeypatch, *args)
    assert "Linting" not in err and "Linting" not in out


def test_never_in_ci(tmp_path, monkeypatch):
    monkeypatch.setenv("CI", "true")
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100})
    monkeypatch.setattr(progress, "AFTER", 0.0)
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with chdir(tmp_path):
        main(["--format", "concise", "."])
    assert "Linting" not in err.getvalue()
