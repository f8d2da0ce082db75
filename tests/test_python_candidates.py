"""Which calls of a Python file are evaluated as possible launches (the cheap syntactic gate before
any evaluation, :meth:`linter.extract.python.launches.LaunchFinder.may_launch`).

Each candidate is evaluated along the paths of its function, the frames before it made by running
the function's code: a gate that lets ``model.eval()`` through made one miles file with no launch
(``miles/backends/fsdp_utils/actor.py``) take 2.7 s CPU in a pre-commit run (fresh review rev39 D7).
The launches found must not change: miles and slime gave the same launches and findings with and
without the narrower gate."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

import linter.extract.python as py
from linter.extract.python.launches import LaunchFinder
from linter.workspace import Workspace

HEAD = "import subprocess\nimport subprocess as sp\nimport sglang as sgl\nfrom nemo_skills.pipeline import cli\n"


def gate(tmp_path: Path, body: str, monkeypatch) -> dict[str, bool]:
    """For each call of ``body`` (after :data:`HEAD`), by its source text: whether the gate lets it through."""
    text = HEAD + textwrap.dedent(body)
    (tmp_path / "m.py").write_text(text + "\nsubprocess.run(['python3', '-m', 'sglang.launch_server'])\n")
    seen: dict[str, bool] = {}
    real = LaunchFinder.may_launch

    def spy(self, call):
        got = real(self, call)
        seen[ast.unparse(call)] = got
        return got

    monkeypatch.setattr(LaunchFinder, "may_launch", spy)
    ws = Workspace(tmp_path)
    py.extract(ws.read(tmp_path / "m.py"), ws)
    return seen


@pytest.mark.parametrize("body, call, through", [
    # a module's callable, through the module, an alias of it, or a name assigned from it
    ("", "subprocess.run(['python3', '-m', 'sglang.launch_server'])", True),
    ("sp.run(['x'])\n", "sp.run(['x'])", True),
    ("m = subprocess\nm.run(['x'])\n", "m.run(['x'])", True),
    ("r = subprocess.run\nr(['x'])\n", "r(['x'])", True),
    ("cli.eval(ctx='x')\n", "cli.eval(ctx='x')", True),
    ("sgl.Engine(model_path='m')\n", "sgl.Engine(model_path='m')", True),
    ("class A:\n    def go(self):\n        self.sp.run(['x'])\n", "self.sp.run(['x'])", True),
    # a method of a local object, and a name assigned from an object's attribute: not a process starter
    ("def f(model):\n    model.eval()\n", "model.eval()", False),
    ("def f(self):\n    active = self.ref_model\n    active.eval()\n    active(x=1)\n", "active.eval()", False),
    ("def f(self):\n    active = self.ref_model\n    active(x=1)\n", "active(x=1)", False),
    ("def f(proc):\n    proc.run(['x'])\n", "proc.run(['x'])", False),
])
def test_the_gate_lets_through_only_what_may_start_a_process(tmp_path, monkeypatch, body, call, through):
    assert gate(tmp_path, body, monkeypatch).get(call) is through
