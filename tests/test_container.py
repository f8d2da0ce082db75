"""The container image (``Dockerfile``, ``.dockerignore``), read rather than built (no registry here):
it installs lint-configs from this repository, runs as a non-root user, and has the documented
entrypoint and working directory."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile: comments dropped, ``\\`` continuations joined."""
    out, pending = [], ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        full = (pending + line).strip()
        pending = ""
        word, _, rest = full.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def stages(steps: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    out: list[list[tuple[str, str]]] = []
    for ins, args in steps:
        if ins == "FROM":
            out.append([])
        if out:
            out[-1].append((ins, args))
    return out


def dockerignored(path: str, patterns: list[str]) -> bool:
    """Whether the build context leaves ``path`` out (moby's rules: the last matching pattern wins,
    a pattern matches a path or any of its parent folders, ``**`` spans folders)."""
    def regex(p: str) -> re.Pattern:
        out = ""
        i = 0
        while i < len(p):
            if p.startswith("**", i):
                out += ".*"
                i += 2
            elif p[i] == "*":
                out += "[^/]*"
                i += 1
            elif p[i] == "?":
                out += "[^/]"
                i += 1
            else:
                out += re.escape(p[i])
                i += 1
        return re.compile(out + "$")

    parts = path.split("/")
    candidates = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    excluded = False
    for raw in patterns:
        neg = raw.startswith("!")
        pat = raw[1:] if neg else raw
        pat = pat.strip().strip("/")
        if any(regex(pat).match(c) for c in candidates):
            excluded = not neg
    return excluded


def _dockerfile():
    steps = instructions((ROOT / "Dockerfile").read_text("utf-8"))
    args = {a.split("=", 1)[0]: a.split("=", 1)[1] for i, a in steps if i == "ARG" and "=" in a}
    return steps, args


def test_final_stage_is_slim_python_non_root_with_the_entrypoint():
    steps, args = _dockerfile()
    final = stages(steps)[-1]
    base = final[0][1].split()[0]
    base = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], base)
    assert re.fullmatch(r"python:3\.(1[0-9])-slim(-\w+)?(@sha256:[0-9a-f]{64})?", base), base
    users = [a for i, a in final if i == "USER"]
    assert users, "the image must not run as root"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0")
    # the user is switched to after everything that needs root, and exists
    index = {i: n for n, (i, _) in enumerate(final)}
    assert max(n for n, (i, _) in enumerate(final) if i == "RUN") < final.index(("USER", users[-1]))
    assert any(i == "RUN" and f"--uid {user}" in a and "useradd" in a for i, a in final)
    assert ("WORKDIR", "/src") in final and index["WORKDIR"] > index["USER"]
    entry = [a for i, a in final if i == "ENTRYPOINT"]
    assert entry == ['["lint-configs"]'], "exec form, so arguments after the image name go to lint-configs"
    assert not any(i == "CMD" for i, _ in final), "no CMD: lint-configs' own default path is ."


def test_the_package_is_installed_from_the_repository():
    steps, _ = _dockerfile()
    build, final = stages(steps)
    copies = [shlex.split(a) for i, a in build if i == "COPY"]
    copied = {src for words in copies for src in words[:-1] if not src.startswith("--")}
    assert {"pyproject.toml", "README.md", "linter"} <= copied
    # built from the copied sources (.), installed only from those wheels, never from an index by name
    assert any(i == "RUN" and re.search(r"pip wheel .*--wheel-dir /wheels \.$", a) for i, a in build)
    installs = [a for i, a in final if i == "RUN" and "pip install" in a]
    assert len(installs) == 1
    assert "--no-index" in installs[0] and "--find-links /wheels" in installs[0]
    assert "from=build" in installs[0]


def test_dockerignore_sends_only_what_the_build_needs():
    patterns = [line for line in (ROOT / ".dockerignore").read_text("utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    needed = ["pyproject.toml", "README.md", "linter/cli.py", "linter/lint-configs.schema.json",
              "linter/sglang/data/" + next(p.name for p in (ROOT / "linter/sglang/data").glob("*.json"))]
    for path in needed:
        assert (ROOT / path).exists(), path
        assert not dockerignored(path, patterns), path
    for path in (".git/config", ".venv/bin/python", "tests/test_cli.py", "examples/README.md",
                 "linter/__pycache__/cli.cpython-312.pyc", "lint_configs.egg-info/PKG-INFO"):
        assert dockerignored(path, patterns), path


def test_readme_shows_how_to_run_the_image():
    readme = (ROOT / "README.md").read_text("utf-8")
    assert 'docker run --rm -v "$PWD:/src" lint-configs' in readme
