"""Long shell scripts (issue 21): a script past the old size limit is checked, and what the linear walk
relies on — inert commands, layered variables, call sites merged as they come, functions in order,
comments found by a query, the tail of a script — keeps the results of the full walk.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from linter import limits
from linter.cli import main
from linter.extract import shell
from linter.extract.shell.document import _bash_tail
from linter.source import SourceFile

LAUNCH = "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8"


def _extract(text: str):
    source = SourceFile(Path("/virtual/s.sh"), "s.sh", text)
    return shell.extract(source, None)


def _values(launch) -> list:
    return [None if t.splat else t.value for t in launch.args]


def _after(launch, option: str):
    return launch.args[[t.value for t in launch.args].index(option) + 1]


def _lint(root: Path, monkeypatch, capsys, *args: str) -> list[dict]:
    monkeypatch.chdir(root)
    capsys.readouterr()
    main(["--format", "json", *args, "."])
    return json.loads(capsys.readouterr().out)


def _job_script(launches: int, filler: int) -> str:
    """A generated Slurm script in the shape of scripts/bench.py's: helpers, loops, many launches."""
    out = ["#!/bin/bash", "#SBATCH --gres=gpu:h100:8", "set -euo pipefail", 'MODEL="deepseek-ai/DeepSeek-V3"']
    for f in range(10):
        out += [f"helper_{f}() {{", '  local x="$1"', f'  echo "helper {f} $x"', "}"]
    for k in range(launches):
        out += [f"# job {k}", f"PORT_{k}=$((30000 + {k}))", f'for i in 1 2 3; do helper_{k % 10} "$i"; done',
                f'python3 -m sglang.launch_server --model-path "$MODEL" --port "$PORT_{k}" --tp 8 \\',
                f"    --attention-backend {'fa4' if k % 2 else 'fa3'} --enable-deterministic-inference &"]
        out += [f'echo "step {n} of job {k}" >> "/tmp/log_{k}"' for n in range(filler)]
    return "\n".join(out) + "\n"


def test_a_script_past_the_old_size_limit_is_checked_and_fixed(tmp_path, monkeypatch, capsys):
    text = _job_script(launches=120, filler=110)
    assert limits.MAX_PARSED_CHARS < len(text) < limits.MAX_SHELL_CHARS
    (tmp_path / "jobs.sh").write_text(text)
    diags = _lint(tmp_path, monkeypatch, capsys)
    lines = text.splitlines()
    fa4 = [n + 1 for n, line in enumerate(lines) if "--attention-backend fa4" in line]
    assert len(fa4) == 60
    # besides: 120 launches of eight GPUs each in the background on one node of eight (SGL401, at the
    # last one)
    others = sorted((d["code"], d["line"]) for d in diags if d["code"] != "SGL101")
    assert [c for c, _ in others] == ["SGL401"]
    diags = [d for d in diags if d["code"] == "SGL101"]
    assert sorted((d["code"], d["line"]) for d in diags) == [("SGL101", n) for n in fa4]
    assert all(d["column"] == 25 and d["end_column"] == 28 for d in diags)
    main(["--fix", "."])
    assert (tmp_path / "jobs.sh").read_text() == text.replace("--attention-backend fa4", "--attention-backend fa3")


def test_other_formats_keep_the_parsed_size_limit(tmp_path, monkeypatch, capsys):
    pad = "".join(f"X{k} = 'value number {k}'\n" for k in range(20_000))
    (tmp_path / "serve.py").write_text("import sglang\n" + pad)
    assert len(pad) > limits.MAX_PARSED_CHARS
    diags = _lint(tmp_path, monkeypatch, capsys)
    assert [d["code"] for d in diags] == ["SGL004"]
    assert "MAX_PARSED_CHARS = 400,000" in diags[0]["message"]


def test_a_function_called_from_many_loops_sees_its_call_sites_merged():
    blocks = []
    for k in range(60):
        fill = "; ".join(f"F{k}_{n}=v{n}" for n in range(20))  # many names: the variable maps fold
        blocks.append(f"{fill}\nTP=8\nPORT={30000 + k}\nfor i in 1 2; do serve; done\n")
    text = ("serve() {\n  python3 -m sglang.launch_server --model-path \"$MODEL\" --port \"$PORT\" "
            "--attention-backend \"$ATTN\" --tp \"$TP\" --f \"$F3_1\" --g \"$F59_2\"\n}\n"
            "MODEL=Qwen/Qwen3-8B\nATTN=fa3\n" + "".join(blocks))
    (launch,) = _extract(text).launches
    assert launch.key == "serve()"
    assert _values(launch) == ["--model-path", "Qwen/Qwen3-8B", "--port", None, "--attention-backend", "fa3",
                               "--tp", "8", "--f", None, "--g", None]
    assert _after(launch, "--attention-backend").span_of().line == 5  # one place: editable there
    assert _after(launch, "--tp").span_of() is None  # written in 60 places: known, not editable


def test_functions_defined_after_loops_and_before_their_callers():
    text = """\
for i in 1 2; do A=$i; done
late() { python3 -m sglang.launch_server --a "$A" --b "$B" --c "$C"; }
B=fa3
first() { second; }
C=x
first
second() { python3 -m sglang.launch_server --who second --b "$B" --c "$C"; }
unused() { python3 -m sglang.launch_server --who unused --b "$B" --c "$C"; }
C=y
late
"""
    ex = _extract(text)
    got = {launch.key: _values(launch) for launch in ex.launches}
    assert got == {"late()": ["--a", "2", "--b", "fa3", "--c", "y"],  # the last word of the for
                   "second()": ["--who", "second", "--b", "fa3", "--c", "x"],
                   "unused()": ["--who", "unused", "--b", "fa3", "--c", "x"]}


def test_a_long_chain_of_functions_is_followed_to_its_end():
    n = 3000
    text = "".join(f"f{k}() {{ f{k + 1}; }}\n" for k in range(n))
    text += f'f{n}() {{ python3 -m sglang.launch_server --model-path "$MODEL"; }}\nMODEL=Qwen/Qwen3-8B\nf0\n'
    (launch,) = _extract(text).launches
    assert launch.key == f"f{n}()"
    assert _values(launch) == ["--model-path", "Qwen/Qwen3-8B"]


def test_nested_loops_past_the_followed_depth_stay_bounded():
    depth = 40
    text = "X=fa3\n" + "for i in 1 2; do\n" * depth + f"{LAUNCH} --attention-backend \"$X\"\nX=fa4\n" + \
        "done\n" * depth
    (launch,) = _extract(text).launches
    assert _after(launch, "--attention-backend").value is None  # a later iteration sees fa4


def test_inert_commands_still_run_their_substitutions_and_assignments():
    text = ('echo "started at $(date)" "$(python3 -m sglang.launch_server --model-path m1)"\n'
            'echo "${ATTN:=fa4}" > /dev/null\n'
            'mkdir -p "/tmp/${DIR=logs}"\n'
            'python3 -m sglang.launch_server --attention-backend "$ATTN" --dir "$DIR"\n')
    ex = _extract(text)
    assert [_values(launch) for launch in ex.launches] == [["--model-path", "m1"],
                                                           ["--attention-backend", "fa4", "--dir", "logs"]]
    assert _after(ex.launches[1], "--attention-backend").span_of().line == 2


def test_many_exported_variables_reach_a_bash_c_string():
    text = "".join(f"export V{k}=value{k}\n" for k in range(100)) + "export -n V7\n" + \
        "bash -c 'python3 -m sglang.launch_server --a \"$V50\" --b \"$V7\" --c \"$V99\"'\n"
    (launch,) = _extract(text).launches
    assert _values(launch) == ["--a", "value50", "--b", None, "--c", "value99"]
    assert _after(launch, "--a").span_of().line == 51


def test_comments_inside_a_substitution_in_a_string_are_text():
    text = ('# top\nf() {\n  # in a function\n  echo "$(date # inside a string\n)"\n}\n'
            'X="${Y:-$(true # also inside\n)}"\n' + LAUNCH + "  # after\n")
    ex = _extract(text)
    assert [text[s.start:s.end] for s in ex.comments] == ["# top", "# in a function", "# after"]


def test_the_tail_of_a_script_is_found_as_the_search_it_replaces_found_it():
    blank_tail = re.compile(rb"(?:[ \t\r\n]|\\\r?\n|\\\Z)*\Z")  # the search from the front it replaces
    rng = random.Random(21)
    alphabet = [b" ", b"\t", b"\r", b"\n", b"\\", b"a"]
    for _ in range(20_000):
        data = b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        start = blank_tail.search(data).start()
        if data[start:start + 1] == b"\\" and (len(data[:start]) - len(data[:start].rstrip(b"\\"))) % 2:
            start += 1
        tail = data[start:]
        assert _bash_tail(data) == (data if b"\\" not in tail else data[:start] + tail.replace(b"\\", b" ")), data
