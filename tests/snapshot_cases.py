"""The inputs of the output snapshots (``tests/snapshots/``), and how each is rendered.

Every rule is covered: a launch rule by each of its ``INVALID`` examples (the compose file
``tests/test_rule_examples.py`` runs), a rule the linter emits about files (SGL000–SGL005) by the
small files in :data:`META_CASES`. Each case is linted from a temporary folder with ``--select`` of
its rule, at 100 columns, without colour and outside GitHub Actions, in the text, concise and github
formats — what a user reads. ``python scripts/update_snapshots.py`` writes one file per rule;
``tests/test_snapshots.py`` compares.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "snapshots"
FORMATS = ("text", "concise", "github")
WIDTH = 100


@dataclass
class Case:
    """One input: ``files`` (path → text) written in a fresh folder (``repo/`` inside it is the
    working folder), extra command-line ``args``, and ``patch``, a context manager factory applied
    while linting (to raise the internal error SGL000 stands for)."""

    title: str
    files: dict[str, str]
    args: tuple[str, ...] = ()
    patch: Callable[[], contextlib.AbstractContextManager] | None = None
    outside: dict[str, str] = field(default_factory=dict)
    """Files written beside ``repo/``, outside the run's root."""


def compose_for(example) -> str:
    """The compose file of a rule example (the same as tests/test_rule_examples.py's)."""
    head = f"# lint-configs: target-gpu={', '.join(example.targets)}\n" if example.targets else ""
    image = f"lmsysorg/sglang:v{example.sglang}-cu129" if example.sglang else "lmsysorg/sglang:latest"
    return (f"{head}services:\n  sglang:\n    image: {image}\n"
            f"    command: {example.program} {example.args}\n")


@contextlib.contextmanager
def _crash():
    from linter.engine import Engine

    real = Engine.lint

    def lint(self, path, *args, **kwargs):
        if Path(path).name == "crash.sh":
            raise RuntimeError("an example of a bug")
        return real(self, path, *args, **kwargs)

    Engine.lint = lint
    try:
        yield
    finally:
        Engine.lint = real


_LAUNCH = "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B"

META_CASES: dict[str, list[Case]] = {
    "SGL000": [Case("a bug in lint-configs on one file", {"crash.sh": f"#!/bin/sh\n{_LAUNCH}\n"}, patch=_crash)],
    "SGL001": [Case("a compose file that is not YAML",
                    {"compose.yaml": f"services:\n  sglang:\n    command: {_LAUNCH}\n   image: [oops\n"})],
    "SGL002": [Case("a suppression that names no rule",
                    {"serve.sh": f"#!/bin/sh\n# lint-configs: ignore[SGL999] fixed long ago\n{_LAUNCH}\n"})],
    "SGL003": [Case("a target GPU the catalog does not know",
                    {"serve.sh": f"#!/bin/sh\n# lint-configs: target-gpu=H900\n{_LAUNCH}\n"})],
    "SGL004": [Case("YAML nested past the limit",
                    {"compose.yaml": "# sglang\nservices:\n  a:\n    x: " + "[" * 201 + "]" * 201 + "\n"})],
    "SGL005": [Case("an env_file outside the repository",
                    {"compose.yaml": "services:\n  sglang:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
                                     "    env_file: ../prod.env\n"
                                     f"    command: {_LAUNCH} --attention-backend ${{BACKEND}}\n"},
                    outside={"prod.env": "BACKEND=fa3\n"})],
}


def cases() -> dict[str, list[Case]]:
    """Every rule's cases, by code, in code order."""
    from linter.rules import ALL_RULES, LAUNCH_RULES

    out: dict[str, list[Case]] = {}
    launch = {r.code for r in LAUNCH_RULES}
    for rule in ALL_RULES:
        if rule.code in launch:
            out[rule.code] = [
                Case(f"example {i}: target {', '.join(e.targets) or 'none declared'}"
                     + (f", SGLang {e.sglang}" if e.sglang else ""), {"compose.yaml": compose_for(e)})
                for i, e in enumerate(rule.INVALID, 1)]
        else:
            out[rule.code] = list(META_CASES.get(rule.code, []))
    return out


@contextlib.contextmanager
def _environment():
    saved = {k: os.environ.get(k) for k in ("COLUMNS", "NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS")}
    os.environ.update(COLUMNS=str(WIDTH), NO_COLOR="1")
    for k in ("FORCE_COLOR", "GITHUB_ACTIONS"):
        os.environ.pop(k, None)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def render(code: str, case: Case) -> dict[str, str]:
    """The output of ``case`` in each of :data:`FORMATS` (stdout, then what went to stderr)."""
    from linter.cli import main

    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp, _environment():
        repo = Path(tmp) / "repo"
        for name, text in case.files.items():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            (repo / name).write_text(text, encoding="utf-8")
        for name, text in case.outside.items():
            (Path(tmp) / name).write_text(text, encoding="utf-8")
        cwd = os.getcwd()
        os.chdir(repo)
        try:
            for fmt in FORMATS:
                stdout, stderr = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), \
                        (case.patch() if case.patch else contextlib.nullcontext()):
                    status = main(["--select", code, "--output-format", fmt, "--jobs", "1", *case.args, "."])
                text = stdout.getvalue()
                if stderr.getvalue():
                    text += "[stderr]\n" + stderr.getvalue()
                out[fmt] = f"{text}[exit {status}]\n"
        finally:
            os.chdir(cwd)
    return out


def snapshot(code: str, rule_cases: list[Case]) -> str:
    """The text of ``tests/snapshots/CODE.txt``: each case's inputs, then its output in each format."""
    parts = [f"# {code}: what lint-configs prints for this rule's cases, at {WIDTH} columns.\n"
             "# Generated by `python scripts/update_snapshots.py`; a change here is a change in what users read.\n"]
    for case in rule_cases:
        parts.append(f"\n======== {case.title}\n")
        for name, text in case.files.items():
            shown = text if len(text) < 2000 else "(long: see tests/snapshot_cases.py)\n"
            parts.append(f"-------- input {name}\n{shown}")
        for fmt, text in render(code, case).items():
            parts.append(f"-------- {fmt}\n{text}")
    return "".join(parts)


def planned() -> dict[Path, str]:
    """Every snapshot file with the text it should have."""
    return {SNAPSHOTS / f"{code}.txt": snapshot(code, rule_cases) for code, rule_cases in cases().items()}
