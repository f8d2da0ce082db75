"""Past the variant cap the decisions kept apart are chosen by what the rules decide, deterministic
inference first (fresh review rev39 D3). Undecided ``case``s / ``if``-``elif``s that append ``--tp``
(three paths each) met before the one ``if`` that adds ``--enable-deterministic-inference
--attention-backend fa4`` filled the 16 paths, and the deterministic ``if`` was merged away: "All checks
passed!" for n = 2, 5, 8 ``case``s in shell and every n >= 2 in Python. Each case carries
DeepSeek-V3 with fa4 on an H100: the deterministic path is SGL101, a warning naming its condition,
located at the ``fa4`` the file writes."""

from __future__ import annotations

import pytest

from linter import limits
from tests.helpers import lint_json, write_tree

HEAD = "# lint-configs: target-gpu=H100\n"
MODEL = "deepseek-ai/DeepSeek-V3"
SH_DET = 'if [ -n "$DET" ]; then CMD+=(--enable-deterministic-inference --attention-backend fa4); fi\n'
SH_WHEN = '(when `[ -n "$DET" ]` succeeds'
PY_WHEN = '(when `os.environ.get("DET")` is true'


def sgl101(tmp_path, capsys, name: str, text: str) -> list[tuple[str, str, int, int]]:
    """(code, severity, line, column) of each SGL101 of ``text`` linted as ``name``, with the message
    checked to name the deterministic condition (and only some paths)."""
    write_tree(tmp_path, {name: text})
    _, diags = lint_json(tmp_path, capsys)
    found = [d for d in diags if d["code"] == "SGL101"]
    when = SH_WHEN if name.endswith(".sh") else PY_WHEN
    assert all(when in d["message"] and "not on every path of this launch" in d["message"] for d in found), \
        [d["message"] for d in found]
    return [(d["code"], d["severity"], d["line"], d["column"]) for d in found]


def at_fa4(text: str) -> tuple[str, str, int, int]:
    """The warning expected at the ``fa4`` the deterministic branch writes (1-based line and column)."""
    lines = text.splitlines()
    line = next(n for n, t in enumerate(lines, 1) if "--enable-deterministic-inference" in t)
    return ("SGL101", "warning", line, lines[line - 1].index("fa4") + 1)


# -- shell ---------------------------------------------------------------------------------------------------

def sh_cases(n: int, ifs: bool = False, det_first: bool = False) -> str:
    """The review's ``mk.py``: ``n`` one-line ``case``s appending ``--tp 2``/``--tp 4`` (3 paths each),
    each after an ``if`` adding ``--enable-metrics`` when ``ifs``, and the deterministic ``if`` after
    them (before, when ``det_first``)."""
    body = ""
    for i in range(n):
        if ifs:
            body += f'if [ -n "$F{i}" ]; then CMD+=(--enable-metrics); fi\n'
        body += f'case "$M{i}" in a) CMD+=(--tp 2);; b) CMD+=(--tp 4);; esac\n'
    det = SH_DET
    return ("#!/bin/bash\n" + HEAD + f"CMD=(python -m sglang.launch_server --model-path {MODEL})\n"
            + (det + body if det_first else body + det) + '"${CMD[@]}"\n')


@pytest.mark.parametrize("n", range(1, 11))
def test_shell_cases_before_the_deterministic_if(tmp_path, capsys, n):
    text = sh_cases(n)
    assert sgl101(tmp_path, capsys, "run.sh", text) == [at_fa4(text)]


@pytest.mark.parametrize("n, ifs, det_first", [
    (1, True, False), (2, True, False), (4, True, False), (5, True, False), (6, True, False), (8, True, False),
    (3, False, True), (5, False, True), (5, True, True),
])
def test_shell_ifs_and_cases_with_the_deterministic_if(tmp_path, capsys, n, ifs, det_first):
    text = sh_cases(n, ifs, det_first)
    assert sgl101(tmp_path, capsys, "run.sh", text) == [at_fa4(text)]


SERVE_SH = f"""#!/bin/bash
{HEAD}CMD=(python3 -m sglang.launch_server --model-path {MODEL})
case "$NODE" in
  half) CMD+=(--tp 4) ;;
  full) CMD+=(--tp 8) ;;
esac
case "$OVERRIDE_TP" in
  4) CMD+=(--tp 4) ;;
  8) CMD+=(--tp 8) ;;
esac
"""


@pytest.mark.parametrize("rest", [
    # the review's serve.sh: 3 x 3 x 2 = 18 paths in one array
    'if [ -n "$DET" ]; then\n  CMD+=(--enable-deterministic-inference --attention-backend fa4)\nfi\nexec "${CMD[@]}"\n',
    # the deterministic words in a variable of their own, read with the array: 18 paths together
    'EXTRA=""\nif [ -n "$DET" ]; then\n  EXTRA="--enable-deterministic-inference --attention-backend fa4"\nfi\n'
    'exec "${CMD[@]}" $EXTRA\n',
], ids=["one-array", "two-variables"])
def test_shell_serve_script_keeps_the_deterministic_path(tmp_path, capsys, rest):
    text = SERVE_SH + rest
    assert sgl101(tmp_path, capsys, "run.sh", text) == [at_fa4(text)]


def test_shell_sizes_in_variables_and_a_colon_plus_keep_the_deterministic_path(tmp_path, capsys):
    # two variables of 3 paths each and a ${DET:+…} the command expands: 18 paths together
    text = ("#!/bin/bash\n" + HEAD + 'TP=""\ncase "$NODE" in half) TP="--tp 4" ;; full) TP="--tp 8" ;; esac\n'
            'PP=""\ncase "$STAGES" in 2) PP="--pp 2" ;; 4) PP="--pp 4" ;; esac\n'
            f"python -m sglang.launch_server --model-path {MODEL} $TP $PP "
            "${DET:+--enable-deterministic-inference --attention-backend fa4}\n")
    write_tree(tmp_path, {"run.sh": text})
    _, diags = lint_json(tmp_path, capsys)
    found = [(d["code"], d["severity"], d["line"]) for d in diags if d["code"] == "SGL101"]
    assert found == [("SGL101", "warning", 7)]
    assert "(when `$DET` is set and not empty" in next(d["message"] for d in diags if d["code"] == "SGL101")


@pytest.mark.parametrize("n", [2, 5])
def test_shell_no_finding_when_the_deterministic_path_is_fine(tmp_path, capsys, n):
    # must not change: the same shapes with a backend SGLang takes on an H100 give no SGL101
    text = sh_cases(n).replace("fa4", "triton")
    assert sgl101(tmp_path, capsys, "run.sh", text) == []


# -- Python --------------------------------------------------------------------------------------------------

def py_chains(n: int, ifs: bool = False) -> str:
    """``n`` ``if``/``elif`` chains on an environment variable appending ``--tp`` (3 paths each), each
    after an ``if`` adding ``--enable-metrics`` when ``ifs``, then the deterministic ``if``."""
    lines = [HEAD.rstrip(), "import os", "import subprocess", "",
             f'cmd = ["python", "-m", "sglang.launch_server", "--model-path", "{MODEL}"]']
    for i in range(n):
        if ifs:
            lines += [f'if os.environ.get("F{i}"):', '    cmd += ["--enable-metrics"]']
        lines += [f'm{i} = os.environ.get("M{i}")', f'if m{i} == "a":', '    cmd += ["--tp", "2"]',
                  f'elif m{i} == "b":', '    cmd += ["--tp", "4"]']
    lines += ['if os.environ.get("DET"):',
              '    cmd += ["--enable-deterministic-inference", "--attention-backend", "fa4"]',
              "subprocess.run(cmd)"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n", range(1, 11))
def test_python_chains_before_the_deterministic_if(tmp_path, capsys, n):
    text = py_chains(n)
    assert sgl101(tmp_path, capsys, "run.py", text) == [at_fa4(text)]


@pytest.mark.parametrize("n", [2, 4, 5, 8])
def test_python_ifs_and_chains_with_the_deterministic_if(tmp_path, capsys, n):
    text = py_chains(n, ifs=True)
    assert 2 * 3 ** n > limits.MAX_PATH_VARIANTS
    assert sgl101(tmp_path, capsys, "run.py", text) == [at_fa4(text)]


SERVE_PY = f"""{HEAD}import os
import subprocess

cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "{MODEL}"]
node = os.environ.get("NODE")
if node == "half":
    cmd += ["--tp", "4"]
elif node == "full":
    cmd += ["--tp", "8"]
override = os.environ.get("OVERRIDE_TP")
if override == "4":
    cmd += ["--tp", "4"]
elif override == "8":
    cmd += ["--tp", "8"]
if os.environ.get("DET"):
    cmd += ["--enable-deterministic-inference", "--attention-backend", "fa4"]
subprocess.run(cmd)
"""


def test_python_serve_script_keeps_the_deterministic_path(tmp_path, capsys):
    assert sgl101(tmp_path, capsys, "run.py", SERVE_PY) == [at_fa4(SERVE_PY)]


@pytest.mark.parametrize("n", [2, 5])
def test_python_no_finding_when_the_deterministic_path_is_fine(tmp_path, capsys, n):
    text = py_chains(n).replace('"fa4"', '"triton"')
    assert sgl101(tmp_path, capsys, "run.py", text) == []
