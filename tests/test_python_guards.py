"""Guards in Python that end a path before the launch (fresh review rev38: Medium 5, 6, 7 and Low 10).

Each case launches DeepSeek-V3 (absorbed MLA) on an H100 with the fa4 attention backend, the command
written at line 2 (``CMD``, the literal ``fa4`` at column 116), so deterministic inference is SGL101:
an error when it holds on every path, a warning naming the condition when it holds on some, nothing
when no path that reaches the launch turns it on.

* e4c: a test already decided on the path (``if DET: sys.exit(…)``, ``raise``, ``return``) decides
  the same test later on that path;
* e5, e5c: a call of a module function that always ends the process (``die(msg)``), or argparse's
  ``parser.error(…)``, ends its branch as ``sys.exit`` does;
* e9: fields of a dataclass set in an ``if`` after it is built leave the other fields known;
* e11: a command built by a module function for a launch in each branch shows the branch as its path.
"""

from __future__ import annotations

import pytest

from tests.helpers import run
from tests.test_paths import H100, lint

HEAD = """\
import os, sys, subprocess, argparse
CMD = ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4"]
"""
DET = '"--enable-deterministic-inference"'
WHEN_DET = '`os.environ.get("DET")` is true'
TAIL = f"""cmd = list(CMD)
if os.environ.get("DET"):
    cmd.append({DET})
subprocess.run(cmd)
"""


def _findings(tmp_path, capsys, body: str) -> list[tuple]:
    """(code, severity, line, column, the path condition or None) of each SGL101 of ``run.py``."""
    _, diags = lint(tmp_path, capsys, {"run.py": HEAD + body})
    out = []
    for d in diags:
        if d["code"] != "SGL101":
            continue
        msg = d["message"]
        when = msg[msg.index("(when ") + 6:msg.index("; not on every path")] if "; not on every path" in msg else None
        out.append((d["code"], d["severity"], d["line"], d["column"], when))
    return out


def _warning(when: str) -> list[tuple]:
    return [("SGL101", "warning", 2, 116, when)]


ERROR = [("SGL101", "error", 2, 116, None)]

# -- e4c: a decision taken on the path before decides the same test later ------------------------------

GUARDS = {
    # the guard exits, raises or returns when DET is set: the path that reaches the launch has it unset
    "sys.exit guard": (f"""
if os.environ.get("DET"):
    sys.exit("deterministic mode needs fa3 on H100")
""" + TAIL, []),
    "raise guard": (f"""
if os.environ.get("DET"):
    raise SystemExit("no")
""" + TAIL, []),
    "a variable tested twice": (f"""
x = os.environ.get("DET")
if x:
    sys.exit(1)
cmd = list(CMD)
if x:
    cmd.append({DET})
subprocess.run(cmd)
""", []),
    "a walrus then its name": (f"""
if (d := os.environ.get("DET")):
    sys.exit(1)
cmd = list(CMD)
if d:
    cmd.append({DET})
subprocess.run(cmd)
""", []),
    "return in a function": (f"""
def main():
    if os.environ.get("DET"):
        return
    cmd = list(CMD)
    if os.environ.get("DET"):
        cmd.append({DET})
    subprocess.run(cmd)
main()
""", []),
    "a module guard before the call of the launching function": (f"""
if os.environ.get("DET"):
    sys.exit(1)
def main():
    cmd = list(CMD)
    if os.environ.get("DET"):
        cmd.append({DET})
    subprocess.run(cmd)
main()
if os.environ.get("X"):
    main()
""", []),
    "a module guard after the call of the launching function": (f"""
def main():
    cmd = list(CMD)
    if os.environ.get("DET"):
        cmd.append({DET})
    subprocess.run(cmd)
main()
if os.environ.get("DET"):
    sys.exit(1)
""", _warning(WHEN_DET)),
    "a conditional expression after the guard": (f"""
if os.environ.get("DET"):
    sys.exit(1)
subprocess.run(CMD + ([{DET}] if os.environ.get("DET") else []))
""", []),
    "an and of the decided test": (f"""
if os.environ.get("DET"):
    sys.exit(1)
cmd = list(CMD)
if os.environ.get("DET") and os.environ.get("X"):
    cmd.append({DET})
subprocess.run(cmd)
""", []),
    "the list built before the guard": (f"""
cmd = list(CMD)
if os.environ.get("DET"):
    cmd.append({DET})
if os.environ.get("DET"):
    sys.exit(1)
subprocess.run(cmd)
""", []),
    "the launch in the decided branch": (f"""
if os.environ.get("DET"):
    sys.exit(1)
if os.environ.get("DET"):
    subprocess.run(CMD + [{DET}])
""", []),
    # the guard exits when DET is unset: every path that launches has it
    "the guard the other way": (f"""
if not os.environ.get("DET"):
    sys.exit(1)
""" + TAIL, ERROR),
    # must still warn: the guard only on some paths, or the name tested rebound in between
    "a guard inside another undecided if": (f"""
if os.environ.get("A"):
    if os.environ.get("DET"):
        sys.exit(1)
""" + TAIL, _warning(WHEN_DET)),
    "the name rebound after the guard": (f"""
x = os.environ.get("DET")
if x:
    sys.exit(1)
x = os.environ.get("OTHER")
cmd = list(CMD)
if x:
    cmd.append({DET})
subprocess.run(cmd)
""", _warning("`x` is true")),
    "a guard that does not end": (f"""
if os.environ.get("DET"):
    print("deterministic")
""" + TAIL, _warning(WHEN_DET)),
    "a guard on another test": (f"""
if os.environ.get("OTHER"):
    sys.exit(1)
""" + TAIL, _warning(WHEN_DET)),
}


@pytest.mark.parametrize("case", GUARDS, ids=list(GUARDS))
def test_a_test_decided_by_an_earlier_guard(tmp_path, capsys, case):
    body, expected = GUARDS[case]
    assert _findings(tmp_path, capsys, body) == expected


# -- e5, e5c: calls that never return end their branch --------------------------------------------------

ENDERS = {
    "die helper": ("""
def die(msg):
    print(msg)
    sys.exit(1)
""", 'die("no det on H100 with fa4")', []),
    "helper that raises": ("""
def fail(msg):
    raise RuntimeError(msg)
""", 'fail("no")', []),
    "helper ending through another helper": ("""
def die(msg):
    sys.exit(msg)
def fatal(msg):
    print(msg)
    die(msg)
""", 'fatal("no")', []),
    "helper ending in both branches": ("""
def die(msg):
    if msg:
        sys.exit(msg)
    else:
        raise SystemExit(1)
""", 'die("no")', []),
    "argparse parser.error": ("""
p = argparse.ArgumentParser()
""", 'p.error("--det needs fa3 on H100")', []),
    "ArgumentParser imported by name": ("""
from argparse import ArgumentParser
p = ArgumentParser()
""", 'p.error("no")', []),
    # must still warn: the helper may return
    "helper that ends only sometimes": ("""
def maybe(msg):
    if os.environ.get("V"):
        sys.exit(msg)
""", 'maybe("no")', _warning(WHEN_DET)),
    "helper that returns": ("""
def die(msg):
    if msg:
        return
    sys.exit(1)
""", 'die("no")', _warning(WHEN_DET)),
    "helper defined twice": ("""
def die(msg):
    sys.exit(msg)
def die(msg):
    print(msg)
""", 'die("no")', _warning(WHEN_DET)),
    "a generator": ("""
def die(msg):
    yield msg
    sys.exit(1)
""", 'die("no")', _warning(WHEN_DET)),
    "error() of another class": ("""
class P:
    def error(self, msg):
        print(msg)
p = P()
""", 'p.error("no")', _warning(WHEN_DET)),
    "a parser name bound to something else too": ("""
p = argparse.ArgumentParser()
if os.environ.get("Q"):
    p = object()
""", 'p.error("no")', _warning(WHEN_DET)),
}


@pytest.mark.parametrize("case", ENDERS, ids=list(ENDERS))
def test_a_call_that_never_returns_ends_its_branch(tmp_path, capsys, case):
    defs, ender, expected = ENDERS[case]
    body = f"""{defs.lstrip(chr(10))}cmd = list(CMD)
if os.environ.get("DET"):
    {ender}
    cmd.append({DET})
subprocess.run(cmd)
"""
    assert _findings(tmp_path, capsys, body) == expected


def test_a_helper_guard_then_the_same_test(tmp_path, capsys):
    """e4c with e5: ``if DET: die(…)`` decides a later ``if DET:``; and ``parser.error`` in a function."""
    assert _findings(tmp_path, capsys, f"""
def die(msg):
    print(msg)
    sys.exit(1)
if os.environ.get("DET"):
    die("no")
cmd = list(CMD)
if os.environ.get("DET"):
    cmd.append({DET})
subprocess.run(cmd)
""") == []
    assert _findings(tmp_path, capsys, f"""
def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--det", action="store_true")
    args = parser.parse_args()
    cmd = list(CMD)
    if args.det:
        parser.error("--det needs fa3 on H100")
    if args.det:
        cmd.append({DET})
    subprocess.run(cmd)
main()
""") == []


# -- e9: a dataclass field set in an if ------------------------------------------------------------------

DATACLASS = """\
from dataclasses import dataclass
@dataclass
class Args:
    det: bool = False
    backend: str = "fa4"
def launch(a):
    cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", "--attention-backend", a.backend]
    if a.det:
        cmd.append("--enable-deterministic-inference")
    subprocess.run(cmd)
a = Args()
{SET}
launch(a)
"""


@pytest.mark.parametrize(("fields", "expected"), [
    # one if setting fields: a path per branch, named by its test; the backend keeps its default fa4
    ('if os.environ.get("DET"):\n    a.det = True', [("SGL101", "warning", 6, 21, WHEN_DET)]),
    ('if os.environ.get("DET"):\n    a.det = True\nelse:\n    a.det = False', [("SGL101", "warning", 6, 21, WHEN_DET)]),
    ('a.det = True\nif os.environ.get("FAST"):\n    a.backend = "fa3"',
     [("SGL101", "warning", 6, 21, '`os.environ.get("FAST")` is false')]),
    # two such ifs: the fields they set are not known, the others keep their values
    ('if os.environ.get("DET"):\n    a.det = True\nif os.environ.get("X"):\n    a.det = False',
     [("SGL101", "warning", 6, 21, "`a.det` is true")]),
    # decided as before: the field set right after the instance is built
    ('a.det = True', [("SGL101", "error", 6, 21, None)]),
    ('a.det = False', []),
    ('if os.environ.get("DET"):\n    a.det = False', []),
    # a field set elsewhere than right after the instance is built: the instance is not known
    ('print(a)\nif os.environ.get("DET"):\n    a.det = True', []),
])
def test_a_dataclass_field_set_in_an_if(tmp_path, capsys, fields, expected):
    body = DATACLASS.replace("{SET}", fields)
    _, diags = lint(tmp_path, capsys, {"run.py": "import os, subprocess\n" + body})
    got = []
    for d in diags:
        if d["code"] == "SGL101":
            msg = d["message"]
            when = msg[msg.index("(when ") + 6:msg.index("; not on every path")] if "; not on every" in msg else None
            got.append((d["code"], d["severity"], d["line"], d["column"], when))
    assert got == expected


# -- e11: a command built per call in each branch ---------------------------------------------------------

PER_CALL = """\
import os, subprocess
def build(det):
    cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4"]
    if det:
        cmd.append("--enable-deterministic-inference")
    return [c for c in cmd if c]
def main():
    if os.environ.get("A"):
        subprocess.run(build(True))
    else:
        subprocess.run(build(False))
main()
"""


def test_a_command_built_per_call_shows_the_branch(tmp_path, capsys):
    _, diags = lint(tmp_path, capsys, {"run.py": PER_CALL})
    assert [(d["code"], d["severity"], d["line"], d["column"]) for d in diags if d["code"] == "SGL101"] == \
        [("SGL101", "error", 3, 120)]
    out = run(tmp_path, capsys, *H100, "--no-cache", "--list-launches", "run.py")[1]
    assert 'run.py:9\n  python: python -m sglang.launch_server, main\n  path: when `os.environ.get("A")` is true\n' in out
    assert 'run.py:11\n  python: python -m sglang.launch_server, main\n  path: when `os.environ.get("A")` is false\n' in out
    out = run(tmp_path, capsys, *H100, "--no-cache", "--explain", "run.py")[1]
    assert 'path:      when `os.environ.get("A")` is true' in out


@pytest.mark.parametrize(("code", "paths"), [
    # a launch function called with a constant in each branch: each call's branch
    ('def go(det):\n    cmd = list(CMD)\n    if det:\n        cmd.append("--enable-deterministic-inference")\n'
     '    subprocess.run(cmd)\nif os.environ.get("A"):\n    go(True)\nelse:\n    go(False)',
     ['path: when `os.environ.get("A")` is true', 'path: when `os.environ.get("A")` is false']),
    # a launch written in a branch, or a helper called once: no path, as in the shell
    ('if os.environ.get("A"):\n    subprocess.run(CMD)', []),
    ('def build():\n    return list(CMD)\nif os.environ.get("A"):\n    subprocess.run(build())', []),
    # a test the file decides is no path
    ('ON = True\ndef build(x):\n    return list(CMD)\nif ON:\n    subprocess.run(build(1))\n'
     'if os.environ.get("A"):\n    subprocess.run(build(2))',
     ['path: when `os.environ.get("A")` is true']),
])
def test_the_path_of_a_call_site(tmp_path, capsys, code, paths):
    lint(tmp_path, capsys, {"run.py": HEAD + code + "\n"})
    out = run(tmp_path, capsys, *H100, "--no-cache", "--list-launches", "run.py")[1]
    assert [line.strip() for line in out.splitlines() if line.strip().startswith("path:")] == paths
