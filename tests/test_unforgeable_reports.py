"""A linted file cannot forge what a report says: values and file names holding ``::``, ``##[``,
newlines, ANSI escapes and ``%0A`` go through every output format, and a GitHub Actions runner reading
the output (emulated below as actions/runner reads a step's lines) sees only lint-configs' own
annotations."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import chdir, write_tree

from linter.cli import main

HOSTILE_VALUE = "x\n::error file=forged.py,line=1::forged%0A ##[error]legacy \x1b[2J\x1b]0;title\x07 \u202eevil"
HOSTILE_NAME = "deploy/::warning file=f::n ##[error]x %0A.yaml"
NEWLINE_NAME = "deploy/a\n::error::nl.yaml"

COMPOSE = """\
services:
  s:
    image: lmsysorg/sglang:v0.5.23
    command:
      - python3
      - -m
      - sglang.launch_server
      - --model-path
      - Qwen/Qwen3-8B
      - {value}
"""


def runner_commands(output: str) -> list[tuple[str, str, str]]:
    """The workflow commands a GitHub Actions runner would act on in ``output``: (name, properties,
    data) for ``::name props::data`` at a line's start (after trimming, ``TryParseV2``) and for
    ``##[name props]data`` anywhere in a line (``TryParse``), none between ``::stop-commands::TOKEN``
    and ``::TOKEN::`` (actions/runner src/Runner.Worker/ActionCommandManager.cs)."""
    found, stop = [], None
    for raw in output.split("\n"):
        line = raw.strip()
        if stop is not None:
            if line == f"::{stop}::":
                stop = None
            continue
        if line.startswith("::"):
            end = line.find("::", 2)
            if end > 2:
                head = line[2:end]
                name, _, props = head.partition(" ")
                if name == "stop-commands":
                    stop = line[end + 2:]
                    continue
                found.append((name, props, line[end + 2:]))
                continue
        at = raw.find("##[")
        if at >= 0 and raw.find("]", at) > at:
            head = raw[at + 3:raw.find("]", at)]
            found.append(("v1:" + head.partition(" ")[0], head, raw[raw.find("]", at) + 1:]))
    return found


def unescape_property(value: str) -> str:
    return value.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")


@pytest.fixture
def hostile(tmp_path):
    write_tree(tmp_path, {
        "deploy/compose.yaml": COMPOSE.format(value=json.dumps("--bogus" + HOSTILE_VALUE)),
        HOSTILE_NAME: COMPOSE.format(value="--bogus-two"),
        NEWLINE_NAME: COMPOSE.format(value="--bogus-three"),
    })
    return tmp_path


def run(root, capsys, monkeypatch, fmt: str, github: bool) -> tuple[int, str, str]:
    if github:
        monkeypatch.setenv("GITHUB_ACTIONS", "true")
    else:
        monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    capsys.readouterr()
    with chdir(root):
        code = main(["--format", fmt, "--color", "never", "."])
    got = capsys.readouterr()
    return code, got.out, got.err


@pytest.mark.parametrize("github", [False, True])
@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "gitlab", "github"])
def test_no_format_lets_a_file_forge_a_command_or_a_terminal_escape(hostile, capsys, monkeypatch, fmt, github):
    code, out, err = run(hostile, capsys, monkeypatch, fmt, github)
    assert code == 1
    assert "\x1b" not in out + err and "\x07" not in out + err and "\u202e" not in out + err
    commands = runner_commands(out) + runner_commands(err)
    if fmt != "github":
        if github or fmt not in ("text", "concise"):  # a terminal reads no workflow commands
            assert commands == [], commands
        if fmt in ("json", "sarif", "gitlab"):
            text = json.dumps(json.loads(out))
            assert "SGL201" in text and json.loads(out)  # valid JSON, the hostile text kept as a value
            assert HOSTILE_VALUE.split("\n")[1][:20] in json.loads(out).__repr__()
        return
    # the github format: one annotation per finding, each for a real file, and nothing else
    assert [c[0] for c in commands] == ["error", "error", "error"], commands
    files = {unescape_property(re.search(r"file=([^,]*)", props).group(1)) for _, props, _ in commands}
    assert files == {"deploy/compose.yaml", HOSTILE_NAME, NEWLINE_NAME}
    # the message is the annotation's first line, the file's newlines and escapes shown, not acted on
    firsts = [unescape_property(data).split("\n")[0] for _, _, data in commands]
    assert any("legacy \\x1b[2J\\x1b]0;title\\x07 \\u202eevil" in f for f in firsts), firsts


def test_text_shows_control_characters_escaped(hostile, capsys, monkeypatch):
    code, out, _ = run(hostile, capsys, monkeypatch, "concise", False)
    assert "legacy \\x1b[2J\\x1b]0;title\\x07 \\u202eevil" in out
    assert "deploy/a\\n::error::nl.yaml:10:9: error[SGL201]" in out


def test_under_github_actions_text_is_printed_inside_a_stop_commands_block(hostile, capsys, monkeypatch):
    code, out, _ = run(hostile, capsys, monkeypatch, "text", True)
    lines = out.splitlines()
    token = lines[0].removeprefix("::stop-commands::")
    assert re.fullmatch(r"[0-9a-f]{32}", token) and lines[-1] == f"::{token}::"
    code, out2, _ = run(hostile, capsys, monkeypatch, "text", True)
    assert out2.splitlines()[0] == lines[0]  # one token per process: a file cannot learn it from the output


def test_past_the_annotation_limit_findings_are_plain_lines_inside_the_block(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {f"d/c{i:02}.yaml": COMPOSE.format(value=json.dumps("--bad" + HOSTILE_VALUE))
                          for i in range(12)})
    code, out, _ = run(tmp_path, capsys, monkeypatch, "github", False)
    commands = runner_commands(out)
    assert len(commands) == 12 and {c[0] for c in commands} == {"error"}
    assert "lint-configs: 2 more findings than GitHub annotates in one step:" in out


def test_stderr_warnings_are_guarded_too(tmp_path, capsys, monkeypatch):
    name = "::error file=x::forged ##[error]y.yaml"
    write_tree(tmp_path, {name: "services: [\n sglang"})
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    capsys.readouterr()
    with chdir(tmp_path):
        main(["--format", "github", "--", name, "missing-\x1b[2J.yaml"])
    got = capsys.readouterr()
    assert runner_commands(got.err) == []


@pytest.mark.parametrize("args", [(), ("--output-format", "full"), ("--show-fixes",)])
def test_raw_control_characters_on_a_quoted_source_line_are_escaped(tmp_path, capsys, monkeypatch, args):
    """The source line under a finding is the file's own text: a raw ESC, BEL or bidirectional override
    in it is shown as its escape in the columns it takes, never sent to the terminal."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    line = "python -m sglang.launch_server --model-path 'Qwen/Qwen3-8B\u202e\x1b[2J\x07' --nnodes 1.5\n"
    write_tree(tmp_path, {"b.sh": "#!/bin/bash\n" + line})
    capsys.readouterr()
    with chdir(tmp_path):
        code = main([*args, "--color", "never", "b.sh"])
    got = capsys.readouterr()
    assert code == 1
    assert not set("\x1b\x07\u202e") & set(got.out + got.err)
    if not args or args == ("--output-format", "full"):
        shown = "'Qwen/Qwen3-8B\\u202e\\x1b[2J\\x07' --nnodes 1.5"
        [src] = [s for s in got.out.splitlines() if shown in s]
        [marks] = [s for s in got.out.splitlines() if s.strip().startswith("|") and "^" in s]
        assert marks.index("^") == src.index("1.5")  # the caret stays under the value


FA4_H100 = ("#!/bin/sh\n# lint-configs: target-gpu=H100\npython -m sglang.launch_server --model-path "
            "deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference{tail}\n")


@pytest.mark.parametrize("name, tail, escaped", [
    ("a\x1b[32mb.sh", " # \x1b]0;title\x07\x1b[2J \u202eevil", ["\\x1b[32m", "\\x1b]0;title\\x07\\x1b[2J", "\\u202e"]),
    ("plain.sh", " # a\rhidden", ["a\\rhidden"]),
])
def test_a_diff_shows_the_files_control_characters_escaped(tmp_path, capsys, monkeypatch, name, tail, escaped):
    """``--diff`` prints a file's name and lines: an escape sequence or a lone carriage return in them
    is shown as its escape, never sent to the terminal (fresh review rev39 d7), and stderr says the
    lines holding one do not apply as shown."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    write_tree(tmp_path, {name: FA4_H100.format(tail=tail)})
    capsys.readouterr()
    with chdir(tmp_path):
        code = main(["--diff", "."])
    got = capsys.readouterr()
    assert code == 1
    assert not set("\x1b\x07\u202e\r") & set(got.out + got.err)
    assert "--attention-backend fa3" in got.out
    for shown in escaped:
        assert shown in got.out
    assert "the lines holding them do not apply as shown" in got.err


@pytest.mark.parametrize("text", [
    FA4_H100.format(tail=" # a\ttab stays"),
    FA4_H100.format(tail="").replace("\n", "\r\n"),  # CRLF line ends stay: the diff applies
])
def test_a_diff_keeps_tabs_and_crlf_line_ends_as_they_are(tmp_path, capsys, monkeypatch, text):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    write_tree(tmp_path, {"s.sh": text})
    capsys.readouterr()
    with chdir(tmp_path):
        main(["--diff", "s.sh"])
    got = capsys.readouterr()
    assert ("\t" in text) == ("\ttab stays" in got.out)
    assert ("\r\n" in text) == ("fa3 --enable-deterministic-inference\r\n" in got.out)
    assert "do not apply" not in got.err


def test_a_csv_inventory_cell_never_starts_a_formula(tmp_path, capsys, monkeypatch):
    """A spreadsheet reads a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula (OWASP, CSV
    Injection): text from the files is written after a ``'`` there (fresh review rev39 d6)."""
    import csv
    import io

    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    write_tree(tmp_path, {"=cmd.sh": (
        "#!/bin/sh\n# lint-configs: target-gpu=H100\n"
        "python -m sglang.launch_server --model-path '=HYPERLINK(\"http://evil.example/\",\"x\")' "
        "--attention-backend '@SUM(1)'\n"
        "python -m sglang.launch_server --model-path '+cmd|x' --attention-backend -fa3\n")})
    capsys.readouterr()
    with chdir(tmp_path):
        main(["--list-launches", "--output-format", "csv", "."])
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    header, body = rows[0], rows[1:]
    assert len(body) == 2
    cells = [c for row in body for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")]
    first = dict(zip(header, body[0]))
    assert (first["path"], first["model"], first["attention_backend"]) == \
        ("'=cmd.sh", "'=HYPERLINK(\"http://evil.example/\",\"x\")", "'@SUM(1)")
    assert dict(zip(header, body[1]))["model"] == "'+cmd|x"
