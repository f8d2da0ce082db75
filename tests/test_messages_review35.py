"""Messages after the third review of issue 35: what a note, ``--explain`` and the summary name is
what a user can open or count — a file:line:column and a condition, never an internal label; the
text an unknown word was written as; launches, not their paths; a launch the linter could not build
is still a launch."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import lint_json, run, write_tree

H100 = ["--target-gpu", "H100"]


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# -- a: an unsafe fix names the launches it also changes by where they are -----------------------------

CALLS = src("""
    import subprocess

    BACKEND = "fa4"


    def go(det=False):
        cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
               "--attention-backend", BACKEND]
        if det:
            cmd.append("--enable-deterministic-inference")
        subprocess.run(cmd)


    go(det=True)
    go()
    """)


@pytest.mark.parametrize("cached", [False, True])
def test_an_unsafe_fix_names_the_other_launch_by_its_place(tmp_path, capsys, cached):
    write_tree(tmp_path, {"go.py": CALLS})
    if cached:
        lint_json(tmp_path, capsys, *H100)  # the second run answers from the cache
    diags = lint_json(tmp_path, capsys, *H100)[1]
    [d] = diags
    assert (d["code"], d["line"], d["fix"]["applicability"]) == ("SGL101", 3, "unsafe")
    # the call go() at line 15 reads the same constant, with deterministic inference off
    assert "the fix is unsafe: the value is also read by the launch at go.py:15:1" in d["notes"]
    assert not any("#1" in n or "go:deepseek" in n for n in d["notes"])


SHARED = """#!/bin/bash
BACKEND=fa4
python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend $BACKEND --enable-deterministic-inference &
if [ -n "$BIG" ]; then {branches}; fi
python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend $B --tp $TP --port 30001
"""


@pytest.mark.parametrize("branches, named", [
    # both paths of the second launch read BACKEND: the launch, once, with no condition
    ("B=$BACKEND TP=8; else B=$BACKEND TP=1", "by the launch at run.sh:5:1"),
    # only one path reads it: that path's condition
    ("B=$BACKEND TP=8; else B=triton TP=1", 'by the launch at run.sh:5:1 (when `[ -n "$BIG" ]` succeeds)'),
])
@pytest.mark.parametrize("cached", [False, True])
def test_an_unsafe_fix_names_the_paths_of_the_other_launch(tmp_path, capsys, branches, named, cached):
    write_tree(tmp_path, {"run.sh": SHARED.format(branches=branches)})
    if cached:
        lint_json(tmp_path, capsys, *H100)
    [d] = lint_json(tmp_path, capsys, *H100)[1]
    assert (d["code"], d["line"]) == ("SGL101", 2)
    assert d["notes"][-1] == "the fix is unsafe: the value is also read " + named


def test_launches_sharing_a_container_are_named_by_their_place(tmp_path, capsys):
    write_tree(tmp_path, {"two.sh": src("""
        #!/bin/bash
        #SBATCH --gres=gpu:h100:8
        python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp 4 --port 30000 &
        python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp 8 --port 30001 &
        wait
        """)})
    [d] = lint_json(tmp_path, capsys)[1]
    assert d["code"] == "SGL401" and d["line"] == 4
    assert "runs at the same time as the launch at two.sh:3:32 (4 GPUs) in the same container" in d["message"]
    assert "script:" not in d["message"]


# -- b: --explain shows what an unknown word was written as ----------------------------------------------

DET = "--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference"


@pytest.mark.parametrize("name, text, shown", [
    ("u.py", 'import subprocess, sys\nsubprocess.run(["python", "-m", "sglang.launch_server", *sys.argv[1:]])\n',
     "unknown:   arguments not known statically (*sys.argv[1:] at u.py:2:57) may set any option"),
    ("u.sh", f"python -m sglang.launch_server {DET} --attention-backend $1\n",
     "attention_backend: unknown ($1 at u.sh:1:122) (written as --attention-backend)"),
    ("u.sh", f"python -m sglang.launch_server {DET} ${{EXTRA}}\n",
     "unknown:   arguments not known statically (${EXTRA} at u.sh:1:102) may set any option"),
    ("u.sh", f"python -m sglang.launch_server {DET} --attention-backend fa${{V}}\n",
     "attention_backend: unknown (fa${V} at u.sh:1:122) (written as --attention-backend)"),
    # what the file holds never becomes a terminal escape
    ("u.py", 'import os, subprocess\nsubprocess.run(["python", "-m", "sglang.launch_server", "--attention-backend", '
             'os.environ["B\x1b[2J"]])\n',
     'attention_backend: unknown (os.environ["B\\x1b[2J"] at u.py:2:80) (written as --attention-backend)'),
])
def test_explain_names_the_text_of_an_unknown_word(tmp_path, capsys, name, text, shown):
    write_tree(tmp_path, {name: text})
    out = run(tmp_path, capsys, *H100, "--explain", name)[1]
    assert shown in [line.strip() for line in out.splitlines()]
    assert "(?)" not in out and "\x1b" not in out


MANY_IFS = "import os, subprocess\ncmd = [\"python\", \"-m\", \"sglang.launch_server\", \"--model-path\", \"m\"]\n" + "".join(
    f'if os.environ.get("V{k}"):\n    cmd += ["--served-model-name", "m{k}"]\n' for k in range(20)) + "subprocess.run(cmd)\n"


@pytest.mark.parametrize("name, text, header", [
    ("u.py", 'import subprocess\nsubprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "m"])\n'
     'subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "m"])\n',
     ["u.py:2: python -m sglang.launch_server (m)", "u.py:3: python -m sglang.launch_server (m)"]),
    ("u.sh", "python -m sglang.launch_server --model-path m\n", ["u.sh:1: python -m sglang.launch_server (m)"]),
    ("u.sh", "go() {\n  python -m sglang.launch_server --model-path m\n}\ngo\n",
     ["u.sh:2: python -m sglang.launch_server (go():m)"]),
])
def test_explain_headers_name_no_internal_scope_or_number(tmp_path, capsys, name, text, header):
    """The header names what a reader can open — a function, a service — and the model; not the
    whole file's scope (``<module>``, ``script``) nor the baseline's ``#1``."""
    write_tree(tmp_path, {name: text})
    out = run(tmp_path, capsys, *H100, "--explain", name)[1]
    assert [line for line in out.splitlines() if line.startswith(name)] == header


@pytest.mark.parametrize("name, text, scopes", [
    ("u.py", 'import subprocess\nsubprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "m"])\n'
     'subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "m"])\n',
     ["python: python -m sglang.launch_server", "python: python -m sglang.launch_server"]),
    ("u.sh", "python -m sglang.launch_server --model-path m\npython -m sglang.launch_server --model-path m\n",
     ["shell: python -m sglang.launch_server", "shell: python -m sglang.launch_server"]),
    ("u.sh", "go() {\n  python -m sglang.launch_server --model-path m\n}\ngo\n",
     ["shell: python -m sglang.launch_server, go()"]),
])
def test_list_launches_names_no_internal_scope_or_number(tmp_path, capsys, name, text, scopes):
    """``--list-launches`` names a launch's scope as ``--explain`` does: no ``script``/``<module>``, no
    ``#1`` (before: ``shell: python -m sglang.launch_server, script:m#1``)."""
    write_tree(tmp_path, {name: text})
    out = run(tmp_path, capsys, *H100, "--list-launches", name)[1]
    assert [line.strip() for line in out.splitlines() if line.startswith("  ") and ": python -m" in line] == scopes


def test_an_unknown_word_with_no_place_is_said_so(tmp_path, capsys):
    write_tree(tmp_path, {"u.py": MANY_IFS})
    out = run(tmp_path, capsys, *H100, "--explain", "u.py")[1]
    assert "(?)" not in out
    # the name whose paths were merged (issue 35, rev36 D9), not 'a value with no single place'
    assert "arguments not known statically (cmd at u.py:43:16) may set any option" in out


# -- c: the summary counts launches, not their paths --------------------------------------------------------

FLAGS = src("""
    import argparse, subprocess
    p = argparse.ArgumentParser()
    p.add_argument("--det", action="store_true")
    p.add_argument("--big", action="store_true")
    args = p.parse_args()
    cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa3"]
    if args.det:
        cmd.append("--enable-deterministic-inference")
    if args.big:
        cmd += ["--tp", "8"]
    subprocess.run(cmd)
    """)
SHELL_PATHS = src("""
    #!/bin/bash
    if [ -n "$DET" ]; then EXTRA=--enable-deterministic-inference; else EXTRA=; fi
    python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3 $EXTRA
    python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3 --port 30001 &
    """)


@pytest.mark.parametrize("files, summary, release", [
    ({"p.py": FLAGS}, "Checked 1 launch (4 paths) in 1 file.", "for 1 launch;"),
    ({"run.sh": SHELL_PATHS}, "Checked 2 launches (3 paths) in 1 file.", "for 2 launches;"),
    ({"p.py": FLAGS, "run.sh": SHELL_PATHS}, "Checked 3 launches (7 paths) in 2 files.", "for 3 launches;"),
    ({"go.py": CALLS}, "Checked 2 launches in 1 file.", "for 2 launches;"),  # a launch per call, no paths
])
@pytest.mark.parametrize("cached", [False, True])
def test_the_summary_counts_launches_and_says_how_many_paths(tmp_path, capsys, files, summary, release, cached):
    write_tree(tmp_path, files)
    if cached:
        run(tmp_path, capsys, *H100, "--color", "never", ".")
    out = " ".join(run(tmp_path, capsys, *H100, "--color", "never", ".")[1].split())
    assert summary in out
    assert f"SGLang release assumed: 0.5.23 (newest known) {release}" in out


# -- d: a recursive helper that starts the launch is a launch ------------------------------------------------

ARGV = ('["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", '
        '"--enable-deterministic-inference", "--attention-backend", "fa4"]')
RECURSIVE = {
    # the command handed down unchanged to the level that starts it
    "handed": f"""
        def go(n, cmd):
            if n:
                go(n - 1, cmd)
            else:
                subprocess.run(cmd)


        go(3, {ARGV})
        """,
    # each level adds words: the launch has words not known after the known ones
    "grown": f"""
        def go(n, cmd):
            if n:
                go(n - 1, cmd + ["--port", str(30000 + n)])
            else:
                subprocess.run(cmd)


        go(3, {ARGV})
        """,
    "program": f"""
        def go(n, prog):
            if n:
                go(n - 1, prog)
            else:
                subprocess.run([prog] + {ARGV}[1:])


        go(3, "python")
        """,
    "returned": f"""
        def build(n):
            if n:
                return build(n - 1)
            return {ARGV}


        subprocess.run(build(2))
        """,
    "returned-grown": f"""
        def build(n, extra):
            if n:
                return build(n - 1, extra + ["--tp", "8"])
            return {ARGV} + extra


        subprocess.run(build(2, []))
        """,
    # each level adds a backend after the base's: the recursion's path is judged, never silently the base
    "returned-override": f"""
        def build(n):
            if n:
                return build(n - 1) + ["--attention-backend", "fa4"]
            return {ARGV.replace('"fa4"', '"fa3"')}


        subprocess.run(build(2))
        """,
    # unchanged: the argv is written where it starts
    "literal": f"""
        def go(n):
            if n:
                go(n - 1)
            else:
                subprocess.run({ARGV})


        go(3)
        """,
}


@pytest.mark.parametrize("case, verified, finding", [
    ("handed", True, "error"), ("grown", False, "error"), ("program", True, "error"),
    # a return that calls back: the base's list, then words not known (a path of its own)
    ("returned", False, "error"), ("returned-grown", False, "error"),
    ("returned-override", False, "warning"),  # fa4 only on the path that recursed
    ("literal", True, "error"),
])
def test_a_recursive_helper_that_starts_the_launch_is_a_launch(tmp_path, capsys, case, verified, finding):
    write_tree(tmp_path, {"rec.py": "import subprocess\n\n\n" + src(RECURSIVE[case])})
    diags = lint_json(tmp_path, capsys, *H100)[1]
    assert [(d["code"], d["severity"]) for d in diags if d["code"] == "SGL101"] == [("SGL101", finding)]
    out = " ".join(run(tmp_path, capsys, *H100, "--color", "never", ".")[1].split())
    assert "No SGLang launch found" not in out and "Checked 1 launch" in out
    assert ("1 launch could not be fully verified" in out) is not verified


def test_list_launches_shows_each_paths_conditions_and_counts_the_launch_once(tmp_path, capsys):
    import json

    write_tree(tmp_path, {"go.py": FLAGS})
    out = run(tmp_path, capsys, *H100, "--list-launches", "go.py")[1]
    assert out.strip().splitlines()[-1].startswith("1 launch (4 paths) in 1 file;")
    assert "path: when `args.big` is true and `args.det` is true" in out
    rows = json.loads(run(tmp_path, capsys, *H100, "--list-launches", "--format", "json", "go.py")[1])
    assert sorted(sorted(r["conditions"]) for r in rows) == sorted(
        sorted([f"`args.det` is {a}", f"`args.big` is {b}"]) for a in ("true", "false") for b in ("true", "false"))
