"""Install paths that work: lint-configs is on no package index, so everything that installs it — the
README, the GitLab template, the plain hook's and the language server's messages — names a source that
exists (a clone, a VCS URL at a commit, a wheel, or the extra's own packages), and the slow tests
install from each: the README's VCS URL and the GitLab template's pip line (pip resolves them at a
commit of a git copy of this checkout), and a wheel built as the README says, which lints the
bundled examples."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
VERSION = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text("utf-8"), re.M).group(1)
WHEEL = f"lint_configs-{VERSION}-py3-none-any.whl"
SCANNED = [README, ROOT / "Dockerfile", ROOT / "action.yml", *sorted((ROOT / "hooks").iterdir()),
           *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "linter").rglob("*.py"))]


def _install_section() -> str:
    text = README.read_text("utf-8")
    return text[text.index("## Install\n"):text.index("## Quick start\n")]


def _pip_installs(text: str) -> list[list[str]]:
    """The arguments of every ``pip install`` written in ``text`` (up to the end of its line or code span)."""
    out = []
    for m in re.finditer(r"pip install ([^`\n]*)", text):
        try:
            out.append(shlex.split(m.group(1).replace("\\\"", '"'), comments=True))
        except ValueError:
            out.append(m.group(1).split())
    return out


@pytest.mark.parametrize("path", SCANNED, ids=[str(p.relative_to(ROOT)) for p in SCANNED])
def test_nothing_installs_lint_configs_from_a_package_index(path):
    """Not `pip install lint-configs`, nor `lint-configs[server]`: the name is not ours on any index."""
    text = path.read_text("utf-8", "replace")
    for args in _pip_installs(text):
        if "--no-index" in args:
            continue  # from local wheels only (the Dockerfile's, built from this repository)
        names = [a.strip("'\"") for a in args]
        assert not any(re.fullmatch(r"lint-configs(\[[\w,]+\])?", n) for n in names), (path.name, args)


def test_the_readme_says_there_is_no_index_release_and_names_three_sources():
    section = _install_section()
    assert "not published on any package index" in section
    assert ".venv/bin/pip install ." in section                                      # a clone
    assert 'pip install "lint-configs @ git+REPOSITORY_URL@COMMIT"' in section        # a VCS URL
    assert "pip wheel --no-deps -w dist ." in section and f"pip install dist/{WHEEL}" in section  # a wheel


def test_the_gitlab_template_installs_from_its_two_variables():
    from ruamel.yaml import YAML

    job = YAML(typ="safe").load((ROOT / "hooks" / "gitlab-ci.yml").read_text("utf-8"))["lint-configs"]
    assert set(job["variables"]) == {"LINT_CONFIGS_REPOSITORY", "LINT_CONFIGS_REV"}
    [pip] = [line for line in job["script"] if "pip install" in line]
    assert '"lint-configs @ git+${LINT_CONFIGS_REPOSITORY}@${LINT_CONFIGS_REV}"' in pip
    assert not job["image"].endswith("-slim")  # pip needs git to install from a git URL


def test_the_server_names_packages_that_exist_when_its_extra_is_missing(tmp_path):
    block = ("import sys, importlib.abc\n"
             "class Block(importlib.abc.MetaPathFinder):\n"
             "    def find_spec(self, name, path, target=None):\n"
             "        if name.split('.')[0] in ('pygls', 'lsprotocol'):\n"
             "            raise ImportError(f'No module named {name!r}')\n"
             "sys.meta_path.insert(0, Block())\n"
             "from linter.cli import main\n"
             "sys.exit(main(['server']))\n")
    proc = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2
    assert "-m pip install 'pygls>=2.0' 'lsprotocol>=2025.0.0'" in proc.stderr  # on PyPI: they exist
    assert "pip install '/path/to/lint-configs[server]'" in proc.stderr
    assert "pip install 'lint-configs[server]'" not in proc.stderr


def test_the_plain_hook_names_a_source_that_exists():
    hook = (ROOT / "hooks" / "pre-commit").read_text("utf-8")
    assert "pip install /path/to/lint-configs" in hook
    assert '"lint-configs @ git+REPOSITORY_URL@COMMIT"' in hook


# --- slow: install from each source ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def committed_copy(tmp_path_factory) -> tuple[Path, str]:
    """A git repository holding this checkout's files at one commit (as a clone would)."""
    from tests.test_precommit import _clean_env, _git, _source_files

    import shutil

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    src = tmp_path_factory.mktemp("install") / "lint-configs"
    for f in _source_files():
        dest = src / f.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, dest)
    env = _clean_env()
    _git(src, env, "init", "-q", "-b", "main")
    _git(src, env, "add", "-A")
    _git(src, env, "commit", "-q", "-m", "lint-configs under test")
    return src, _git(src, env, "rev-parse", "HEAD").strip()


def _dry_run(requirement: str) -> subprocess.CompletedProcess:
    # pip resolves the requirement: clones the URL, checks out the commit, builds the metadata; the
    # dependencies are those of this environment. Old pip reads `git+file:///…` as invalid: localhost.
    # --ignore-installed --no-deps: CI installs this same version from its checkout, and pip would
    # then answer "already satisfied" without reading the URL at all.
    return subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--no-deps",
                           "--disable-pip-version-check", requirement], capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_the_readme_vcs_url_installs_at_a_commit(committed_copy):
    src, rev = committed_copy
    [args] = [a for a in _pip_installs(_install_section()) if a and "git+" in a[0] and "[server]" not in a[0]]
    requirement = args[0].replace("REPOSITORY_URL", f"file://localhost{src}").replace("COMMIT", rev)
    proc = _dry_run(requirement)
    assert proc.returncode == 0 and f"Would install lint-configs-{VERSION}" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.slow
def test_the_gitlab_template_pip_line_installs_at_a_commit(committed_copy):
    from ruamel.yaml import YAML

    src, rev = committed_copy
    job = YAML(typ="safe").load((ROOT / "hooks" / "gitlab-ci.yml").read_text("utf-8"))["lint-configs"]
    [pip] = [line for line in job["script"] if "pip install" in line]
    variables = {"LINT_CONFIGS_REPOSITORY": f"file://localhost{src}", "LINT_CONFIGS_REV": rev}
    # the shell expands the variables as GitLab's runner would
    words = subprocess.run(["sh", "-c", f"for w in {pip.split('pip install', 1)[1]}; do printf '%s\\n' \"$w\"; done"],
                           env={**os.environ, **variables}, capture_output=True, text=True, check=True).stdout
    [requirement] = [w for w in words.splitlines() if w.startswith("lint-configs @ ")]
    proc = _dry_run(requirement)
    assert proc.returncode == 0 and f"Would install lint-configs-{VERSION}" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.slow
def test_the_readme_wheel_is_built_and_lints_the_examples(committed_copy, tmp_path):
    src, _ = committed_copy
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-w",
                           str(tmp_path / "dist"), str(src)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheel = tmp_path / "dist" / WHEEL
    assert wheel.is_file(), sorted(p.name for p in (tmp_path / "dist").iterdir())  # the README's file name
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        z.extractall(tmp_path / "unpacked")
    assert {"linter/lint-configs.schema.json", "linter/gpus/catalog.json",
            f"linter/sglang/data/options-0.5.23.json"} <= names
    # the wheel's code, with this environment's dependencies, lints the bundled examples
    code = ("import sys; sys.meta_path = [f for f in sys.meta_path if 'editable' not in repr(f)]\n"
            f"sys.path.insert(0, {str(tmp_path / 'unpacked')!r})\n"
            "import linter; assert linter.__file__.startswith(sys.path[0]), linter.__file__\n"
            "from linter.cli import main; sys.exit(main(['--output-format', 'concise', 'examples/']))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=src)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("Found 8 errors and 1 warning."), proc.stdout


def test_the_gitlab_template_stops_while_its_placeholders_are_unset():
    from ruamel.yaml import YAML

    job = YAML(typ="safe").load((ROOT / "hooks" / "gitlab-ci.yml").read_text("utf-8"))["lint-configs"]
    guard = job["script"][0]

    def run(repository: str, rev: str) -> subprocess.CompletedProcess:
        return subprocess.run(["sh", "-c", guard], capture_output=True, text=True, timeout=30,
                              env={**os.environ, "LINT_CONFIGS_REPOSITORY": repository, "LINT_CONFIGS_REV": rev})

    placeholders = job["variables"]
    r = run(placeholders["LINT_CONFIGS_REPOSITORY"], placeholders["LINT_CONFIGS_REV"])
    assert r.returncode == 2 and "set LINT_CONFIGS_REPOSITORY and LINT_CONFIGS_REV" in r.stderr
    assert run("https://git.example.org/tools/lint-configs.git", "0" * 40).returncode == 0
