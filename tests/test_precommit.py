"""``.pre-commit-hooks.yaml`` with the real pre-commit framework, and README/manifest agreement.

The slow tests make a committed git copy of this checkout (tracked files plus untracked files that
are not ignored, as they are in the working tree: ``pre-commit try-repo`` would copy uncommitted
changes to tracked files but not new files, and on a fresh clone everything is committed anyway),
then run ``pre-commit try-repo COPY lint-configs`` and ``pre-commit run`` (with a
``.pre-commit-config.yaml`` naming the copy and its commit) in temporary consumer repositories.
pre-commit installs the hook's virtual environment from the copy with pip (dependencies from
PyPI): ``try-repo`` always uses a throw-away store, so it builds one; the ``pre-commit run`` tests
share one ``PRE_COMMIT_HOME`` and build another — two builds per session.
Deselect with ``-m 'not slow'``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FOLDED_H100

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / ".pre-commit-hooks.yaml"

BAD = FOLDED_H100
GOOD = BAD.replace("--attention-backend fa4", "--attention-backend fa3")
SKIP_DIRS = {".git", ".venv", ".ci-venv", "venv", "__pycache__", ".pytest_cache", ".ruff_cache", "build", "dist"}


def _manifest() -> list[dict]:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(MANIFEST.read_text(encoding="utf-8"))


# --- fast checks ---------------------------------------------------------------------------------------

def _readme_config() -> str:
    """The ``.pre-commit-config.yaml`` snippet of the README's hooks section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- hooks:start -->", 1)[1].split("<!-- hooks:end -->", 1)[0]
    return re.search(r"```yaml\n(repos:.*?)```", section, re.S).group(1)


def test_readme_recommends_one_hook_with_fix_and_names_both_ids():
    ids = [h["id"] for h in _manifest()]
    assert ids == ["lint-configs", "lint-configs-fix"]
    from ruamel.yaml import YAML

    config = YAML(typ="safe").load(_readme_config())
    repo = config["repos"][0]
    # one hook, not both: two hooks report every finding without a fix twice
    assert repo["hooks"] == [{"id": "lint-configs", "args": ["--fix", "--"]}]  # `--`: file names stay files
    # no release tag exists: a branch that works when copied, and the command that pins it to its commit
    # (a sha written in the README went stale: it was 295 commits behind)
    assert repo["rev"] == "main" and repo["repo"] == "REPOSITORY_URL"
    assert "# `pre-commit autoupdate --freeze` pins this to the commit the branch is at\n    rev: main\n" \
        in _readme_config()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for hook_id in ids:
        assert f"`{hook_id}`" in readme


def test_manifest_is_valid_for_pre_commit():
    clientlib = pytest.importorskip("pre_commit.clientlib")
    hooks = clientlib.load_manifest(str(MANIFEST))
    by_id = {h["id"]: h for h in hooks}
    assert by_id["lint-configs"]["entry"] == "lint-configs-hook"
    assert by_id["lint-configs-fix"]["entry"] == "lint-configs-hook --fix"
    for h in hooks:
        assert h["args"] == ["--"]  # pre-commit appends the file names after args: never options
        assert h["language"] == "python"
        assert h["require_serial"] is True
        assert h["pass_filenames"] is True
        assert h["minimum_pre_commit_version"] == "3.2.0"


@pytest.mark.parametrize(("name", "selected"), [
    ("docker-compose.yml", True), ("deploy/compose.prod.yaml", True), ("deploy/.env", True),
    ("deploy/prod.env", True), ("slurm/serve.sbatch", True), ("slurm/serve.slurm", True),
    ("scripts/serve.sh", True), ("launch.py", True), ("bin/serve", True), ("serve-deepseek", True),
    ("README.md", True), ("docs/serve.ipynb", True), ("models/config.json", False), ("pyproject.toml", False), ("notes.txt", False),
])
def test_manifest_file_selection(name, selected):
    """pre-commit ANDs ``files`` with ``types``; these names are text files, so ``files`` decides."""
    for hook in _manifest():
        assert hook["types"] == ["text"]
        assert bool(re.search(hook["files"], name)) is selected, (hook["id"], name)


# --- the real pre-commit ---------------------------------------------------------------------------------

def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k not in ("PRE_COMMIT",)}
    env.pop("GITHUB_ACTIONS", None)
    env.update(GIT_CONFIG_NOSYSTEM="1", NO_COLOR="1", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com", **extra)
    return env


def _git(cwd: Path, env: dict, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True,
                          timeout=120).stdout


def _source_files() -> list[Path]:
    """The files of this checkout: git's tracked and untracked-not-ignored files, else a walk."""
    if (ROOT / ".git").exists() and shutil.which("git"):
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, check=True, env=_clean_env()).stdout
        names = [n for n in out.decode("utf-8", "surrogateescape").split("\0") if n]
        return [ROOT / n for n in names if (ROOT / n).is_file()]
    files = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        files.extend(Path(dirpath) / f for f in filenames)
    return files


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> tuple[Path, str, dict]:
    pytest.importorskip("pre_commit")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    base = tmp_path_factory.mktemp("precommit")
    src = base / "lint-configs"
    for f in _source_files():
        dest = src / f.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, dest)
    env = _clean_env(PRE_COMMIT_HOME=str(base / "pre-commit-home"), HOME=os.environ.get("HOME", str(base)))
    _git(src, env, "init", "-q", "-b", "main")
    _git(src, env, "add", "-A")
    _git(src, env, "commit", "-q", "-m", "lint-configs under test")
    rev = _git(src, env, "rev-parse", "HEAD").strip()
    return src, rev, env


@pytest.fixture
def consumer(tmp_path, hook_repo) -> Path:
    _, _, env = hook_repo
    repo = tmp_path / "deploy-repo"
    repo.mkdir()
    _git(repo, env, "init", "-q", "-b", "main")
    return repo


def _pre_commit(repo: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=repo, env=env, capture_output=True,
                          text=True, timeout=900)


@pytest.mark.slow
def test_try_repo_check_hook_fails_on_a_staged_bad_compose_file(hook_repo, consumer):
    src, _, env = hook_repo
    (consumer / "docker-compose.yml").write_text(BAD)
    (consumer / "README.md").write_text("# deploy\n")
    _git(consumer, env, "add", ".")
    r = _pre_commit(consumer, env, "try-repo", str(src), "lint-configs")
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert re.search(r"^lint-configs \(SGLang launch configurations\)\.+Failed$", out, re.M), out
    assert "- exit code: 1" in out
    assert ("error[SGL101]: fa4 with deterministic inference and the absorbed-MLA model deepseek-ai/DeepSeek-V3\n"
            "(DeepseekV3ForCausalLM) needs an SM100/SM110 GPU") in out
    assert " --> docker-compose.yml:9:27\n" in out
    assert "9 |       --attention-backend fa4" in out
    assert (consumer / "docker-compose.yml").read_text() == BAD  # the check hook changes nothing


def _configure(consumer: Path, src: Path, rev: str, env: dict) -> None:
    """The README's snippet, pointed at the copy of this checkout and its commit."""
    config = re.sub(r"(?m)^(\s*- repo: )\S+", lambda m: m.group(1) + src.as_posix(), _readme_config())
    config = re.sub(r"(?m)^(\s*rev: )\S+", lambda m: m.group(1) + rev, config)
    (consumer / ".pre-commit-config.yaml").write_text(config)
    _git(consumer, env, "add", ".pre-commit-config.yaml")


@pytest.mark.slow
def test_fix_hook_rewrites_the_file_and_fails_the_run(hook_repo, consumer):
    src, rev, env = hook_repo
    _configure(consumer, src, rev, env)
    (consumer / "deploy").mkdir()
    (consumer / "deploy" / "docker-compose.yml").write_text(BAD)
    _git(consumer, env, "add", ".")
    r = _pre_commit(consumer, env, "run")
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert re.search(r"^lint-configs \(SGLang launch configurations\)\.+Failed$", out, re.M), out
    assert out.count("(SGLang launch configurations)") == 1  # one hook, one report
    assert "- files were modified by this hook" in out
    assert "- exit code" not in out  # nothing remains after the fix: lint-configs itself exited 0
    assert (consumer / "deploy" / "docker-compose.yml").read_text() == GOOD
    # the fixed file, staged, passes both hooks
    _git(consumer, env, "add", ".")
    r = _pre_commit(consumer, env, "run")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.slow
def test_configured_hooks_pass_on_clean_files(hook_repo, consumer):
    src, rev, env = hook_repo
    _configure(consumer, src, rev, env)
    (consumer / "deploy").mkdir()
    (consumer / "deploy" / "docker-compose.yml").write_text(
        GOOD.replace("--attention-backend fa3", "--attention-backend ${ATTENTION_BACKEND:-fa3}"))
    (consumer / "deploy" / ".env").write_text("ATTENTION_BACKEND=fa3\n")
    (consumer / "serve").write_text("#!/bin/sh\nexec python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n")
    (consumer / "README.md").write_text("# deploy\n")
    _git(consumer, env, "add", ".")
    r = _pre_commit(consumer, env, "run")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert re.search(r"^lint-configs \(SGLang launch configurations\)\.+Passed$", out, re.M), out

    # a bad value in the staged .env fails the run, reported where it is written (its fix is unsafe,
    # so --fix leaves it)
    (consumer / "deploy" / ".env").write_text("ATTENTION_BACKEND=flashmla\n")
    _git(consumer, env, "add", ".")
    r = _pre_commit(consumer, env, "run", "lint-configs")
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "error[SGL103]" in out and "--> deploy/.env:1:19\n" in out
    assert (consumer / "deploy" / ".env").read_text() == "ATTENTION_BACKEND=flashmla\n"
    # a safe fix in the .env is written there
    (consumer / "deploy" / ".env").write_text("ATTENTION_BACKEND=fa4\n")
    _git(consumer, env, "add", ".")
    r = _pre_commit(consumer, env, "run", "lint-configs")
    assert r.returncode == 1 and "- files were modified by this hook" in r.stdout + r.stderr
    assert (consumer / "deploy" / ".env").read_text() == "ATTENTION_BACKEND=fa3\n"


@pytest.mark.slow
@pytest.mark.parametrize("user_args", [None, ["--fail-on", "error", "--"]])
def test_file_names_that_look_like_options_are_linted_as_files(hook_repo, consumer, user_args):
    """A committed file named ``--exit-zero`` must not turn the check green, one named
    ``--output-file=compose.yaml`` must not overwrite compose.yaml, and ``-`` is a file, not stdin:
    with the hook's default args and with a user's own (ending with ``--``)."""
    src, rev, env = hook_repo
    _configure(consumer, src, rev, env)
    config = (consumer / ".pre-commit-config.yaml").read_text()
    args = "" if user_args is None else f"        args: [{', '.join(user_args)}]\n"
    config = re.sub(r"(?m)^        args: .*\n", args, config)
    (consumer / ".pre-commit-config.yaml").write_text(config)
    (consumer / "compose.yaml").write_text(BAD)
    launch = "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --bogus-option 1"
    for name in ("--exit-zero", "--output-file=compose.yaml", "-"):
        text = f"services:\n  s:\n    command: {launch}\n" if name.endswith(".yaml") else f"#!/bin/sh\n{launch}\n"
        (consumer / name).write_text(text)
    _git(consumer, env, "add", "-A")
    r = _pre_commit(consumer, env, "run", "lint-configs", "--all-files")
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert (consumer / "compose.yaml").read_text() == BAD  # not overwritten by a report
    assert "error[SGL101]" in out and "--> compose.yaml:9:27" in out
    for name in ("--exit-zero", "--output-file=compose.yaml", "-"):
        line = 3 if name.endswith(".yaml") else 2
        assert f"--> {name}:{line}:" in out, out  # linted as files: their unknown option is reported


@pytest.mark.slow
def test_user_args_without_the_separator_are_refused(hook_repo, consumer):
    src, rev, env = hook_repo
    _configure(consumer, src, rev, env)
    config = (consumer / ".pre-commit-config.yaml").read_text()
    (consumer / ".pre-commit-config.yaml").write_text(re.sub(r"(?m)^        args: .*$", "        args: [--fix]",
                                                             config))
    (consumer / "compose.yaml").write_text(GOOD)
    (consumer / "--exit-zero").write_text("#!/bin/sh\nexec python3 -m sglang.launch_server --bogus 1\n")
    _git(consumer, env, "add", "-A")
    r = _pre_commit(consumer, env, "run", "lint-configs", "--all-files")
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "- exit code: 2" in out, out
    assert "the hook's args must end with '--'" in out


def _readme_try_repo() -> list[str]:
    """The README's ``pre-commit try-repo`` command line, as words."""
    import shlex

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- hooks:start -->", 1)[1].split("<!-- hooks:end -->", 1)[0]
    line = re.search(r"^pre-commit try-repo .*$", section, re.M).group(0)
    return shlex.split(line, comments=True)


@pytest.mark.slow
def test_the_readme_try_repo_command_and_snippet_work_as_copied(hook_repo, consumer):
    """What the README says, with only its placeholder REPOSITORY_URL filled in (the path of a clone):
    try-repo on the repository to lint, then the snippet with rev: main, then autoupdate --freeze."""
    src, rev, env = hook_repo
    (consumer / "deploy").mkdir()
    (consumer / "deploy" / "docker-compose.yml").write_text(BAD)
    _git(consumer, env, "add", ".")
    words = [str(src) if w == "REPOSITORY_URL" else w for w in _readme_try_repo()]
    assert words[:2] == ["pre-commit", "try-repo"] and "lint-configs" in words
    r = _pre_commit(consumer, env, *words[1:])
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "error[SGL101]" in out and " --> deploy/docker-compose.yml:9:27" in out, out
    assert (consumer / "deploy" / "docker-compose.yml").read_text() == BAD  # try-repo runs the check hook

    config = _readme_config().replace("REPOSITORY_URL", str(src))
    (consumer / ".pre-commit-config.yaml").write_text(config)
    _git(consumer, env, "add", ".pre-commit-config.yaml")
    r = _pre_commit(consumer, env, "run", "--all-files")
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "- files were modified by this hook" in out, out
    assert (consumer / "deploy" / "docker-compose.yml").read_text() == GOOD
    r = _pre_commit(consumer, env, "autoupdate", "--freeze")
    assert r.returncode == 0, r.stdout + r.stderr
    frozen = (consumer / ".pre-commit-config.yaml").read_text()
    assert re.search(rf"^\s*rev: {rev}\b", frozen, re.M), frozen  # pinned to the commit it runs
    _git(consumer, env, "add", ".")
    r = _pre_commit(consumer, env, "run", "--all-files")
    assert r.returncode == 0, r.stdout + r.stderr
