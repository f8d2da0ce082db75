"""Where ruff users expect things, and the small things of everyday use: ``check`` as the default
command, ``--output-format`` beside ``--format``, ``--exclude``/``--extend-exclude`` on the command
line, ``server --help``, commands in ``--help``, a two-line usage error naming the bad argument, shell
completion; the severity in the concise output, the launch inventory broken between words within the
width, and ``--explain`` in the report's own terms."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from linter.cli import main
from tests.helpers import FOLDED_H100, run, write_tree

ROOT = Path(__file__).resolve().parent.parent
GOOD = FOLDED_H100.replace("--attention-backend fa4", "--attention-backend fa3")


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")


# --- ruff's spellings ------------------------------------------------------------------------------------

def test_check_is_the_default_command(tmp_path, capsys):
    write_tree(tmp_path, {"deploy/compose.yaml": FOLDED_H100})
    plain = run(tmp_path, capsys, "deploy")
    assert plain[0] == 1 and "error[SGL101]" in plain[1]
    assert run(tmp_path, capsys, "check", "deploy") == plain
    assert run(tmp_path, capsys, "check") == run(tmp_path, capsys)  # no path: the current folder
    # a folder named check is linted as ./check
    write_tree(tmp_path, {"check/compose.yaml": FOLDED_H100})
    code, out, _ = run(tmp_path, capsys, "./check")
    assert code == 1 and " --> check/compose.yaml:9:27" in out


def test_output_format_is_format(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    for fmt in ("concise", "json", "github"):
        assert run(tmp_path, capsys, "--output-format", fmt, ".") == run(tmp_path, capsys, "--format", fmt, ".")


def test_exclude_and_extend_exclude_on_the_command_line(tmp_path, capsys):
    write_tree(tmp_path, {"a/compose.yaml": FOLDED_H100, "b/compose.yaml": FOLDED_H100, "c/compose.yaml": FOLDED_H100,
                          ".lint-configs.toml": 'exclude = ["a/"]\n'})

    def linted(*args: str) -> list[str]:
        code, out, _ = run(tmp_path, capsys, "--output-format", "json", *args, ".")
        return sorted({d["path"] for d in json.loads(out)})

    assert linted() == ["b/compose.yaml", "c/compose.yaml"]                       # the configuration's exclude
    assert linted("--extend-exclude", "b/") == ["c/compose.yaml"]                 # added to it
    assert linted("--exclude", "b/") == ["a/compose.yaml", "c/compose.yaml"]      # instead of it
    assert linted("--exclude", "b/,c/**") == ["a/compose.yaml"]                   # comma-separated, gitignore-style
    assert linted("--exclude", "b/", "--extend-exclude", "*/compose.yaml") == []
    # a file named on the command line is linted unless --force-exclude
    code, out, _ = run(tmp_path, capsys, "--output-format", "concise", "--exclude", "b/", "b/compose.yaml")
    assert code == 1 and out.startswith("b/compose.yaml:9:27: error[SGL101]")
    code, out, _ = run(tmp_path, capsys, "--output-format", "concise", "--exclude", "b/", "--force-exclude",
                       "b/compose.yaml")
    assert (code, out) == (0, "No file linted.\n")


def test_server_help_describes_the_server_and_starts_nothing(capsys):
    assert main(["server", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: lint-configs server [--help]") and "Language Server Protocol" in out
    assert main(["server", "--stdio-please"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == ["lint-configs server: error: unrecognized argument '--stdio-please'",
                                "Run 'lint-configs server --help' for the options."]


def test_help_lists_the_commands(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: lint-configs [check] [OPTIONS] [PATH ...]\n       lint-configs server [--help]\n")
    assert re.search(r"^  check +lint PATHs", out, re.M) and re.search(r"^  server +the language server", out, re.M)
    for flag in ("--output-format", "--exclude", "--extend-exclude", "--generate-shell-completion"):
        assert flag in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--exlude", "x"], "unrecognized argument '--exlude' (did you mean --exclude?)"),
    (["--bogus"], "unrecognized argument '--bogus'"),
    (["--output-format", "xml"], "argument --output-format/--format: invalid choice: 'xml' (choose from"),
    (["--jobs", "zero"], "argument -j/--jobs: 'zero' is not a number of processes"),
    (["--target-gpu"], "argument --target-gpu: expected one argument"),
])
def test_a_usage_error_is_two_lines_naming_the_argument(capsys, argv, message):
    assert main(argv) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines  # argparse printed a 14-line usage block before the error
    assert lines[0].startswith(f"lint-configs: error: {message}"), lines
    assert lines[1] == "Run 'lint-configs --help' for the options."


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish", "tcsh"])
def test_completion_scripts(capsys, shell):
    assert main(["--generate-shell-completion", shell]) == 0
    script = capsys.readouterr().out
    assert "lint-configs" in script and ("_ARGCOMPLETE" in script or shell == "tcsh")


def _complete(line: str, tmp_path: Path) -> list[str]:
    """What argcomplete's protocol answers for the command line ``line`` (as the shell scripts ask)."""
    out = tmp_path / "completions"
    env = {**os.environ, "_ARGCOMPLETE": "1", "_ARGCOMPLETE_SHELL": "bash", "COMP_LINE": line,
           "COMP_POINT": str(len(line)), "_ARGCOMPLETE_IFS": "\n", "_ARGCOMPLETE_STDOUT_FILENAME": str(out)}
    proc = subprocess.run([sys.executable, "-m", "linter"], env=env, capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return sorted(w.strip() for w in out.read_text().split("\n") if w.strip())


def test_completion_answers_options_choices_and_commands(tmp_path):
    assert _complete("lint-configs --output-f", tmp_path) == ["--output-file", "--output-format"]
    assert _complete("lint-configs --output-format ", tmp_path) == sorted(
        ["text", "full", "concise", "json", "sarif", "github", "gitlab", "csv"])
    assert "server" in _complete("lint-configs se", tmp_path) and "check" in _complete("lint-configs ch", tmp_path)
    (tmp_path / "deploy").mkdir()
    assert "deploy/" in _complete("lint-configs check dep", tmp_path)


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_through_the_generated_script(tmp_path):
    script = ('source <(lint-configs --generate-shell-completion bash); COMP_LINE="lint-configs --col"; '
              'COMP_POINT=${#COMP_LINE}; COMP_WORDS=(lint-configs --col); COMP_CWORD=1; '
              '_python_argcomplete lint-configs; printf "%s\\n" "${COMPREPLY[@]}"')
    exe = Path(sys.executable).parent / "lint-configs"
    if not exe.is_file():
        pytest.skip("the lint-configs console script is not installed beside this interpreter")
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env={**os.environ, "PATH": f"{exe.parent}{os.pathsep}{os.environ['PATH']}"})
    assert proc.stdout.split() == ["--color"], proc.stderr


# --- small things ----------------------------------------------------------------------------------------

def test_concise_output_names_the_severity(tmp_path, capsys):
    write_tree(tmp_path, {"a/compose.yaml": FOLDED_H100, "b/compose.yaml": FOLDED_H100.replace(
        "# lint-configs: target-gpu=H100\n", "")})
    code, out, _ = run(tmp_path, capsys, "--output-format", "concise", ".")
    lines = out.splitlines()
    assert lines[0].startswith("a/compose.yaml:9:27: error[SGL101] [*] fa4 with deterministic inference")
    assert lines[1].startswith("b/compose.yaml:8:27: warning[SGL901] cannot verify")  # a warning looks like one


@pytest.mark.parametrize("width", [60, 100, 120])
def test_the_launch_inventory_fits_the_width_and_never_splits_a_word(monkeypatch, capsys, width):
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, _ = run(ROOT, capsys, "--list-launches", "examples/")
    assert code == 0
    for line in out.splitlines():
        assert len(line) <= width or " " not in line.strip(), line  # only a word wider than the line overflows
    rows = json.loads(run(ROOT, capsys, "--list-launches", "--output-format", "json", "examples/")[1])
    words = set(out.split())
    for r in rows:
        assert f"{r['path']}:{r['line']}" in words  # whole, never cut across lines
        assert r["model"] in words and r["architecture"] in words
        for t in r["targets"]:
            assert f"({t['sm']}):" in words
    # piped (not a terminal): the width is COLUMNS, else 100 -- not 180
    monkeypatch.delenv("COLUMNS")
    out = run(ROOT, capsys, "--list-launches", "examples/")[1]
    assert max(len(line) for line in out.splitlines()) <= 100


def test_explain_names_the_rule_not_sglangs_internal_letters(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    out = run(tmp_path, capsys, "--explain", "compose.yaml")[1]
    assert "refused at start-up (SGL101)" in out
    assert not re.search(r"\(error [ABC]\)", out)
