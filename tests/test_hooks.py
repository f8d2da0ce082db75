"""The plain git hook (``hooks/pre-commit``) in real temporary repositories, and the CI templates
(``hooks/github-actions.yml``, ``hooks/gitlab-ci.yml``) checked against the real command line."""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FOLDED_H100

from linter.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
HOOK = ROOT / "hooks" / "pre-commit"

BAD = FOLDED_H100
GOOD = BAD.replace("--attention-backend fa4", "--attention-backend fa3")

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def lint_configs_command() -> str:
    script = Path(sys.executable).parent / "lint-configs"
    if script.is_file() and " " not in str(script):
        return str(script)
    return f"{sys.executable} -m linter"


class Repo:
    """A temporary git repository with the hook installed."""

    def __init__(self, path: Path, tmpdir: Path) -> None:
        self.path = path
        self.tmpdir = tmpdir
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        self.env.update(HOME=str(path.parent), GIT_CONFIG_NOSYSTEM="1", TMPDIR=str(tmpdir),
                        LINT_CONFIGS=lint_configs_command(), NO_COLOR="1",
                        GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                        GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
        self.env.pop("GITHUB_ACTIONS", None)
        self.git("init", "-q", "-b", "main")
        hook = path / ".git" / "hooks" / "pre-commit"
        shutil.copy(HOOK, hook)
        hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=self.path, env=self.env, capture_output=True, text=True,
                              check=check, timeout=120)

    def write(self, name: str, text: str) -> None:
        p = self.path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")

    def read(self, name: str) -> str:
        return (self.path / name).read_text(encoding="utf-8")

    def commit(self, message: str = "change") -> subprocess.CompletedProcess:
        return self.git("commit", "-q", "-m", message, check=False)

    def commits(self) -> int:
        r = self.git("rev-list", "--count", "HEAD", check=False)
        return int(r.stdout) if r.returncode == 0 else 0


@pytest.fixture
def repo(tmp_path) -> Repo:
    (tmp_path / "repo").mkdir()
    (tmp_path / "tmp").mkdir()
    return Repo(tmp_path / "repo", tmp_path / "tmp")


def test_hook_is_posix_sh_and_executable():
    assert HOOK.read_text().startswith("#!/bin/sh\n")
    assert os.access(HOOK, os.X_OK)
    for shell in ("sh", "dash", "bash"):
        if shutil.which(shell):
            subprocess.run([shell, "-n", str(HOOK)], check=True)


@needs_git
def test_staged_bad_version_blocks_even_when_the_working_tree_is_fixed(repo):
    repo.write("deploy/docker-compose.yml", BAD)
    repo.git("add", "deploy/docker-compose.yml")
    repo.write("deploy/docker-compose.yml", GOOD)  # fixed, not staged
    r = repo.commit()
    assert r.returncode == 1
    assert repo.commits() == 0
    out = r.stdout + r.stderr
    assert "deploy/docker-compose.yml:9:27: SGL101 [*] fa4 with deterministic inference" in out
    assert "9 |       --attention-backend fa4" in out  # the staged text, not the working tree's
    assert "lint-configs hook: commit blocked" in out
    assert list(repo.tmpdir.iterdir()) == []  # the temporary checkout is removed


@needs_git
def test_staged_good_version_passes_even_when_the_working_tree_is_bad(repo):
    repo.write("deploy/docker-compose.yml", GOOD)
    repo.git("add", "deploy/docker-compose.yml")
    repo.write("deploy/docker-compose.yml", BAD)  # broken again, not staged
    r = repo.commit()
    assert r.returncode == 0, r.stdout + r.stderr
    assert repo.commits() == 1
    assert "All checks passed!" in r.stdout + r.stderr
    assert repo.read("deploy/docker-compose.yml") == BAD  # the hook does not touch the working tree
    assert repo.git("show", "HEAD:deploy/docker-compose.yml").stdout == GOOD
    assert list(repo.tmpdir.iterdir()) == []


@needs_git
def test_fixing_and_staging_lets_the_commit_through(repo):
    repo.write("docker-compose.yml", BAD)
    repo.git("add", ".")
    assert repo.commit().returncode == 1
    fixed = subprocess.run([*shlex.split(lint_configs_command()), "--fix", "docker-compose.yml"], cwd=repo.path,
                           env=repo.env, capture_output=True, text=True)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert repo.read("docker-compose.yml") == GOOD
    repo.git("add", ".")
    assert repo.commit().returncode == 0
    assert repo.commits() == 1


@needs_git
def test_staged_dotenv_is_linted_through_the_compose_file_beside_it(repo):
    compose = BAD.replace("--attention-backend fa4", "--attention-backend ${ATTENTION_BACKEND:-fa3}")
    repo.write("deploy/docker-compose.yml", compose)
    repo.write("deploy/.env", "ATTENTION_BACKEND=fa3\n")
    repo.git("add", ".")
    assert repo.commit("initial").returncode == 0
    # stage a bad .env, then fix it in the working tree only: the staged .env is what counts
    repo.write("deploy/.env", "ATTENTION_BACKEND=fa4\n")
    repo.git("add", "deploy/.env")
    repo.write("deploy/.env", "ATTENTION_BACKEND=fa3\n")
    r = repo.commit()
    assert r.returncode == 1
    assert "deploy/.env:1:19: SGL101" in r.stdout + r.stderr
    # the reverse: a good staged .env with a bad working tree passes
    repo.write("deploy/.env", "ATTENTION_BACKEND=fa3\nSGLANG_PORT=30000\n")
    repo.git("add", "deploy/.env")
    repo.write("deploy/.env", "ATTENTION_BACKEND=fa4\n")
    r = repo.commit()
    assert r.returncode == 0, r.stdout + r.stderr
    assert "All checks passed!" in r.stdout + r.stderr
    assert repo.git("show", "HEAD:deploy/.env").stdout == "ATTENTION_BACKEND=fa3\nSGLANG_PORT=30000\n"


@needs_git
def test_configuration_and_model_config_come_from_the_index(repo):
    launch = BAD.replace("# lint-configs: target-gpu=H100\n", "").replace(
        "deepseek-ai/DeepSeek-V3", "./models/house-dsv3")
    repo.write("pyproject.toml", '[tool.lint-configs]\ntarget-gpus = ["H100"]\n')
    repo.write("clusters/main/models/house-dsv3/config.json",
               '{"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3"}\n')
    repo.git("add", ".")
    assert repo.commit("config").returncode == 0
    repo.write("clusters/main/my compose.yml", launch)
    repo.git("add", ".")
    r = repo.commit()
    out = r.stdout + r.stderr
    assert r.returncode == 1
    # target from the committed pyproject.toml, architecture from the committed config.json
    assert "clusters/main/my compose.yml:8:27: SGL101" in out
    assert "./models/house-dsv3 (DeepseekV3ForCausalLM)" in out
    assert "'target-gpus' in pyproject.toml" in out
    # a configuration change that is staged counts too (B200 runs fa4)
    repo.write("pyproject.toml", '[tool.lint-configs]\ntarget-gpus = ["B200"]\n')
    repo.git("add", "pyproject.toml")
    r = repo.commit()
    assert r.returncode == 0, r.stdout + r.stderr


@needs_git
def test_unrelated_and_deleted_files_do_not_need_lint_configs(repo):
    repo.write("docker-compose.yml", GOOD)
    repo.git("add", ".")
    assert repo.commit("initial").returncode == 0
    repo.env["LINT_CONFIGS"] = str(repo.path / "no-such-lint-configs")
    repo.write("README.md", "# deploy\n")
    repo.write("logo.png", "\x89PNG\r\n")
    repo.git("add", ".")
    assert repo.commit("docs").returncode == 0
    repo.git("rm", "-q", "docker-compose.yml")
    assert repo.commit("remove").returncode == 0
    repo.write("serve.sh", "#!/bin/sh\nexec python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n")
    repo.git("add", ".")
    r = repo.commit("script")
    assert r.returncode == 1
    assert "no-such-lint-configs' not found" in r.stderr


# --- CI templates ---------------------------------------------------------------------------------------

def _yaml(path: Path):
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def _lint_configs_commands(script: str) -> list[list[str]]:
    out = []
    for line in script.splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0] == "lint-configs":
            out.append(words[1:])
    return out


def test_github_actions_template():
    wf = _yaml(ROOT / "hooks" / "github-actions.yml")
    job = wf["jobs"]["lint-configs"]
    assert job["permissions"]["security-events"] == "write"
    steps = job["steps"]
    commands = [(i, argv) for i, s in enumerate(steps) for argv in _lint_configs_commands(s.get("run", ""))]
    assert len(commands) == 2
    parser = build_parser()
    (i_sarif, sarif), (i_github, gh) = commands
    args = parser.parse_args(sarif)
    assert (args.format, str(args.output_file), args.exit_zero) == ("sarif", "lint-configs.sarif", True)
    args = parser.parse_args(gh)
    assert (args.format, args.exit_zero) == ("github", False)
    upload = [(i, s) for i, s in enumerate(steps) if str(s.get("uses", "")).startswith(
        "github/codeql-action/upload-sarif@")]
    assert len(upload) == 1
    i_upload, step = upload[0]
    assert step["with"]["sarif_file"] == "lint-configs.sarif"
    # upload after the SARIF is written and before the step that fails the job
    assert i_sarif < i_upload < i_github
    assert any("pip install" in s.get("run", "") for s in steps[:i_sarif])


def test_gitlab_ci_template():
    ci = _yaml(ROOT / "hooks" / "gitlab-ci.yml")
    job = ci["lint-configs"]
    script = "\n".join(job["script"])
    assert "pip install" in script
    commands = _lint_configs_commands(script)
    parser = build_parser()
    parsed = [parser.parse_args(argv) for argv in commands]
    assert [a.format for a in parsed] == ["sarif", "concise"]
    assert parsed[0].exit_zero and not parsed[1].exit_zero
    assert job["artifacts"]["paths"] == [str(parsed[0].output_file)]


ENV_COMPOSE = ("# lint-configs: target-gpu=H100\nservices:\n  s:\n    command: python3 -m sglang.launch_server "
               "--model-path deepseek-ai/DeepSeek-V3 --attention-backend ${ATTN:-fa4} --enable-deterministic-inference\n")


@needs_git
@pytest.mark.parametrize("folder", ["deploy", "deploy/gpu[0]"])
def test_deleting_a_dotenv_lints_the_compose_file_beside_it(repo, folder):
    repo.write(f"{folder}/docker-compose.yml", ENV_COMPOSE)
    repo.write(f"{folder}/.env", "ATTN=fa3\n")
    repo.git("add", "-A")
    assert repo.commit().returncode == 0
    repo.git("rm", "-q", f"{folder}/.env")
    r = repo.commit()
    assert r.returncode == 1 and f"{folder}/docker-compose.yml:4:" in r.stdout + r.stderr


@needs_git
def test_a_configuration_change_lints_every_launch(repo):
    repo.write("deploy/docker-compose.yml", ENV_COMPOSE.replace("# lint-configs: target-gpu=H100\n", ""))
    repo.write("pyproject.toml", '[tool.lint-configs]\ntarget-gpus = ["B200"]\n')
    repo.git("add", "-A")
    assert repo.commit().returncode == 0
    repo.write("pyproject.toml", '[tool.lint-configs]\ntarget-gpus = ["H100"]\n')
    repo.git("add", "pyproject.toml")
    r = repo.commit()
    assert r.returncode == 1 and "deploy/docker-compose.yml:3:" in r.stdout + r.stderr


@needs_git
def test_a_tracked_baseline_is_used(repo):
    repo.write("deploy/docker-compose.yml", BAD)
    subprocess.run(lint_configs_command().split() + ["--write-baseline", ".lint-configs-baseline.json", "."],
                   cwd=repo.path, env=repo.env, check=True, capture_output=True)
    repo.git("add", "-A")
    assert repo.commit().returncode == 0, "the baselined finding does not block"
    repo.write("deploy/other.yml", BAD)
    repo.git("add", "-A")
    assert repo.commit().returncode == 1, "a new finding does"


@needs_git
def test_the_baseline_the_configuration_names_is_used(repo):
    repo.write("pyproject.toml", '[tool.lint-configs]\nbaseline = "ci/lint-baseline.json"\n')
    repo.write("deploy/docker-compose.yml", BAD)
    subprocess.run(lint_configs_command().split() + ["--write-baseline", "ci/lint-baseline.json", "."],
                   cwd=repo.path, env=repo.env, check=True, capture_output=True)
    repo.git("add", "-A")
    r = repo.commit()
    assert r.returncode == 0, r.stdout + r.stderr
    repo.write("deploy/other.yml", BAD)
    repo.git("add", "-A")
    assert repo.commit().returncode == 1, "a new finding blocks"
