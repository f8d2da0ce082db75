"""The text output (``linter/report/text.py``) at a fixed width: the rustc/ruff-style header with the
message once, a finding in at most a dozen lines (``full``: every label and note), the labelled spans
each in its own colour, the fix as a diff and the help line; every line within the width, with and
without colour; a long source line shown as a window around the span."""

from __future__ import annotations

import re

from rich.cells import cell_len

from tests.helpers import run, write_tree

ONE_LINE = ("# lint-configs: target-gpu=H100\nservices:\n  sglang:\n    command: python3 -m sglang.launch_server "
            "--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference\n")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def text(tmp_path, capsys, monkeypatch, width: int, *args: str, color: bool = False) -> str:
    monkeypatch.setenv("COLUMNS", str(width))  # the width when the output is not a terminal
    monkeypatch.delenv("NO_COLOR" if color else "FORCE_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR" if color else "NO_COLOR", "1")
    return run(tmp_path, capsys, *args, ".")[1]


def test_a_finding_in_a_dozen_lines_with_the_message_once(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"deploy/compose.yaml": ONE_LINE})
    out = text(tmp_path, capsys, monkeypatch, 100)
    lines = out.splitlines()
    finding = lines[:lines.index("")]
    assert finding == [
        "error[SGL101]: fa4 with deterministic inference and the absorbed-MLA model deepseek-ai/DeepSeek-V3",
        "(DeepseekV3ForCausalLM) needs an SM100/SM110 GPU (B200, GB200, B300, GB300, Jetson Thor): SGLang",
        "0.5.23 refuses to start on H100 (SM90)",
        " --> deploy/compose.yaml:4:103",
        "  |",
        "4 | … --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
        "  |                                                            ^^^",
        "  |",
        "  = fix: Use --attention-backend fa3",
        "4 - … --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
        "4 + … --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3 --enable-deterministic-inference",
        "  = help: lint-configs --show-rule SGL101",
    ]
    assert len(finding) <= 12
    assert out.count("needs an SM100/SM110 GPU") == 1  # the message once: no summary header, no "SGLang says"
    assert "http" not in out  # no address that does not resolve: the help names the command
    assert lines[-1] == "Found 1 error. [*] 1 fixable with `lint-configs --fix`."


def test_full_output_keeps_every_label_and_note(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"deploy/compose.yaml": ONE_LINE})
    lines = text(tmp_path, capsys, monkeypatch, 100, "--output-format", "full").splitlines()
    assert lines[3:17] == [
        " --> deploy/compose.yaml:4:103",
        "  |",
        "1 | # lint-configs: target-gpu=H100",
        "  |                            ---- target H100 (SM90)",
        "...",
        "4 | … --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
        "  |                -----------------------                     ^^^ --------------------------------",
        "  |                |                                               |",
        "  |                |                                               turns on deterministic inference",
        "  |                model: DeepseekV3ForCausalLM",
        "  |",
        "  = fix: Use --attention-backend fa3",
        "4 - … --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
        "4 + … --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3 --enable-deterministic-inference",
    ]
    assert lines[17].startswith('  = note: SGLang says: "Deterministic inference with absorbed-MLA models on the fa4')
    assert "  = note: model architecture DeepseekV3ForCausalLM: from the model catalog" in lines
    assert lines[lines.index("") - 1] == "  = help: lint-configs --show-rule SGL101"
    # --format full is the same option
    assert text(tmp_path, capsys, monkeypatch, 100, "--format", "full").splitlines() == lines


def test_labels_and_notes_fill_the_room_that_is_left(tmp_path, capsys, monkeypatch):
    """A short message leaves room: the labels come first, in the rule's order, then the notes, each
    only when it fits whole; the notes about the fix come before everything else."""
    from tests.helpers import FOLDED_H100

    short = FOLDED_H100.replace("--attention-backend fa4", "--attention-backend fa3 --bogus-flag")
    write_tree(tmp_path, {"docker-compose.yml": short})
    out = text(tmp_path, capsys, monkeypatch, 100)
    blocks = out.split("\n\n")
    assert all(len(b.splitlines()) <= 12 for b in blocks[:-1]), out
    unknown = next(b for b in blocks if "error[SGL201]" in b)
    full = text(tmp_path, capsys, monkeypatch, 100, "--output-format", "full")
    full_unknown = next(b for b in full.split("\n\n") if "error[SGL201]" in b)
    assert len(full_unknown.splitlines()) >= len(unknown.splitlines())
    for line in unknown.splitlines():
        assert line in full_unknown.splitlines()  # the default shows a subset of the full finding, in order


def test_a_note_about_the_fix_is_shown_first(tmp_path):
    import io

    from linter.report.text import MAX_LINES, render
    from linter.rules.base import Diagnostic, Fix
    from linter.source import Edit, SourceFile, Span

    text_ = "".join(f"line {i}\n" for i in range(1, 30)) + "x --attention-backend fa4\n"
    src = SourceFile(path=tmp_path / "s.sh", display="s.sh", text=text_)
    at = text_.index("fa4")
    d = Diagnostic("SGL101", "n", "error", "a message " * 15, Span(src, at, at + 3),
                   Fix("safe", "Use fa3", [Edit(Span(src, at, at + 3), "fa3")]),
                   notes=["an ordinary note " * 5, "the fix was not applied: the file changed while it was fixed"],
                   labels=[(Span(src, 0, 4), "a label")])
    out = io.StringIO()
    render([d], out, width=100, show_summary=False, color=False)
    lines = out.getvalue().splitlines()
    assert "   = note: the fix was not applied: the file changed while it was fixed" in lines
    assert "an ordinary note" not in out.getvalue()
    assert len(lines[:lines.index("")]) <= MAX_LINES


def test_each_span_has_its_own_colour(tmp_path, capsys, monkeypatch):
    """The caret and a label on one row: the carets red, the label's marks and text blue (rustc colours
    each span; the whole row was red)."""
    write_tree(tmp_path, {"deploy/compose.yaml": ONE_LINE})
    colored = text(tmp_path, capsys, monkeypatch, 100, "--output-format", "full", color=True)
    red, blue = "\x1b[1;31m", "\x1b[1;34m"
    row = next(line for line in colored.splitlines() if red + "^^^" in line)
    assert blue + "-----------------------\x1b[0m" in row and blue + "--------------------------------\x1b[0m" in row
    label = next(line for line in colored.splitlines() if "turns on deterministic inference" in line)
    assert blue + "turns on deterministic inference\x1b[0m" in label  # the label in its span's colour
    assert "\x1b[1;31m" not in label


def test_a_short_line_is_shown_whole_with_the_labels_on_their_own_lines(tmp_path, capsys, monkeypatch):
    from tests.helpers import FOLDED_H100

    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100})
    lines = text(tmp_path, capsys, monkeypatch, 100, "--output-format", "full").splitlines()
    assert lines[3:18] == [
        "  --> docker-compose.yml:9:27",
        "   |",
        " 1 | # lint-configs: target-gpu=H100",
        "   |                            ---- target H100 (SM90)",
        "...",
        " 7 |       --model-path deepseek-ai/DeepSeek-V3",
        "   |                    ----------------------- model: DeepseekV3ForCausalLM",
        " 8 |       --tp 16",
        " 9 |       --attention-backend fa4",
        "   |                           ^^^",
        "10 |       --enable-deterministic-inference",
        "   |       -------------------------------- turns on deterministic inference",
        "   |",
        "   = fix: Use --attention-backend fa3",
        " 9 -       --attention-backend fa4",
    ]


def test_the_width_holds_with_and_without_colour(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"deploy/compose.yaml": ONE_LINE,
                          "serve.sh": "#!/bin/sh\n# lint-configs: target-gpu=A100\n\tpython3 -m sglang.launch_server "
                                      "--model-path deepseek-ai/DeepSeek-V3\t--attention-backend fa3  # 模型 ok\n"})
    for width, fmt in ((80, "text"), (120, "text"), (80, "full"), (120, "full")):
        plain = text(tmp_path, capsys, monkeypatch, width, "--output-format", fmt)
        colored = text(tmp_path, capsys, monkeypatch, width, "--output-format", fmt, color=True)
        assert "\x1b[" in colored and "\x1b[" not in plain
        assert ANSI.sub("", colored) == plain  # colour adds nothing but colour
        assert "error[SGL101]" in plain and "error[SGL104]" in plain  # the severity as a word
        widths = [cell_len(line) for line in plain.splitlines()]
        assert max(widths) <= width, [line for line in plain.splitlines() if cell_len(line) > width]
        assert max(widths) >= width - 10  # the room is used, not a narrow default
    # a tab is shown as four spaces and the caret stays under the value
    lines = text(tmp_path, capsys, monkeypatch, 120, "--output-format", "full").splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("3 | "))
    src, marks = lines[i], lines[i + 1]
    assert "\t" not in src and "DeepSeek-V3    --attention-backend fa3" in src
    assert marks.index("^^^") == src.index("fa3  #")


def test_a_long_line_is_shown_as_a_window_around_the_span(tmp_path, capsys, monkeypatch):
    # One line of 124 KB holding 40 launches between long values: each finding shows a window of
    # the line, never the line (the old output printed the whole line for every finding).
    launch = ("{command: \"python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend "
              "fa4 --enable-deterministic-inference\"}")
    pad = "x" * 3000
    services = ", ".join(f"s{i}: {launch}, p{i}: {{image: \"{pad}\"}}" for i in range(40))
    line = "services: {" + services + "}"
    assert len(line) > 120_000
    write_tree(tmp_path, {"one-line.yml": "# lint-configs: target-gpu=H100\n" + line + "\n"})
    out = text(tmp_path, capsys, monkeypatch, 100)
    assert out.count("error[SGL101]") == 40
    assert len(out) < 40 * 3000  # about 2 KB a finding
    lines = out.splitlines()
    assert max(cell_len(x) for x in lines) <= 100
    shown = [x for x in lines if x.startswith("2 | ")]
    assert len(shown) == 40
    for src, marks in ((x, lines[lines.index(x) + 1]) for x in shown[:1]):
        assert src.startswith("2 | …") and src.endswith("…")
        assert src[marks.index("^^^"):marks.index("^^^") + 3] == "fa4"
    assert "2 - … " in out and "--attention-backend fa3 --enable" in out  # the fix, windowed too


def test_the_readme_example_is_the_real_output(tmp_path, capsys, monkeypatch):
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    section = readme[readme.index("### Output\n"):]
    example = section[section.index("```\n") + 4:section.index("\n```\n", section.index("```\n") + 4) + 1]
    write_tree(tmp_path, {"deploy/compose.yaml": ONE_LINE})
    assert text(tmp_path, capsys, monkeypatch, 100) == example


import pytest  # noqa: E402


@pytest.mark.parametrize("width", [195, 400, 5000])
@pytest.mark.parametrize("fmt", [(), ("--output-format", "full")])
def test_a_span_wider_than_two_rooms_is_shown_cut(tmp_path, capsys, monkeypatch, width, fmt):
    """A finding whose span is far wider than the terminal (a long JSON value, a long bad word) is
    drawn as much as fits, never an internal error that loses the whole report."""
    monkeypatch.setenv("COLUMNS", "100")
    value = "x" * width
    write_tree(tmp_path, {"a.sh": f"python3 -m sglang.launch_server --model-path m --nnodes {value}\n"})
    code, out, err = run(tmp_path, capsys, *fmt, "--color", "never", "a.sh")
    assert (code, err) == (1, "")
    assert "error[SGL209]" in out and " --> a.sh:1:57" in out
    [marked] = [line for line in out.splitlines() if "^^^" in line]
    assert cell_len(marked) <= 100 and marked.count("^") >= 60
