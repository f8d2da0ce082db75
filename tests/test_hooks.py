"""The plain git hook (``hooks/pre-commit``) in real temporary repositories, and the GitLab CI template
(``hooks/gitlab-ci.yml``) checked against the real command line (the GitHub workflow template and the
action are tested in ``tests/test_action.py``)."""

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
    assert ("error[SGL101]: fa4 with deterministic inference and the absorbed-MLA model deepseek-ai/DeepSeek-V3\n"
            "(DeepseekV3ForCausalLM) needs an SM100/SM110 GPU") in out
    assert " --> deploy/docker-compose.yml:9:27\n" in out
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
    assert "error[SGL101]" in r.stderr and "--> deploy/.env:1:19\n" in r.stderr
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
    repo.env["LINT_CONFIGS"] += " --output-format full"  # every label and note: where each value came from
    r = repo.commit()
    out = r.stdout + r.stderr
    assert r.returncode == 1
    # target from the committed pyproject.toml, architecture from the committed config.json
    assert "error[SGL101]" in out and "--> clusters/main/my compose.yml:8:27\n" in out
    flat = " ".join(out.split())  # the text output wraps notes at the width
    assert "model: DeepseekV3ForCausalLM" in out  # the label under --model-path
    assert "model architecture DeepseekV3ForCausalLM: from " in flat and "house-dsv3/config.json" in flat
    assert "'target-gpus' in pyproject.toml" in flat
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
    repo.write("NOTES.txt", "deploy notes\n")  # (a README.md is a Markdown runbook: linted)
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


def test_gitlab_ci_template():
    ci = _yaml(ROOT / "hooks" / "gitlab-ci.yml")
    job = ci["lint-configs"]
    script = "\n".join(job["script"])
    assert "pip install" in script
    commands = _lint_configs_commands(script)
    parser = build_parser()
    parsed = [parser.parse_args(argv) for argv in commands]
    assert [a.format for a in parsed] == ["gitlab", "concise"]
    assert parsed[0].exit_zero and not parsed[1].exit_zero
    # the Code Quality report is the job's codequality artifact, kept when the job fails
    report = str(parsed[0].output_file)
    assert job["artifacts"]["reports"] == {"codequality": report}
    assert job["artifacts"]["when"] == "always"
    # the result cache is kept between pipelines where lint-configs looks for it by default (the
    # project directory, the job's working folder), per branch
    assert job["cache"]["paths"] == [".lint-configs_cache/"] and "$CI_COMMIT_REF_SLUG" in job["cache"]["key"]


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


# --- what the hook says, and one process for every file -------------------------------------------

BLOCKED_FINDINGS = "lint-configs hook: commit blocked: lint-configs reported the findings above in the staged files"
BLOCKED_ERROR = ("lint-configs hook: commit blocked: lint-configs stopped on a usage, configuration or internal "
                 "error (exit 2, message above) and checked nothing")


def _wrapper(repo: Repo, body: str) -> str:
    """A LINT_CONFIGS command: a script in the test's folder (outside the repository) running ``body``."""
    script = repo.path.parent / "wrapper.sh"
    script.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


@needs_git
def test_findings_get_the_findings_message(repo):
    repo.write("deploy/docker-compose.yml", BAD)
    repo.git("add", "-A")
    r = repo.commit()
    assert r.returncode == 1 and repo.commits() == 0
    assert BLOCKED_FINDINGS in r.stderr
    assert "exit 123" not in r.stderr and "stopped on" not in r.stderr


@needs_git
def test_a_configuration_error_is_reported_as_an_error_not_as_findings(repo):
    repo.write("deploy/docker-compose.yml", GOOD)
    repo.write(".lint-configs.toml", "no-such-key = 1\n")
    repo.git("add", "-A")
    r = repo.commit()
    assert r.returncode == 1 and repo.commits() == 0
    assert "lint-configs: error:" in r.stderr and "no-such-key" in r.stderr
    assert BLOCKED_ERROR in r.stderr
    assert "reported the findings" not in r.stderr


@needs_git
def test_an_internal_error_and_a_signal_get_their_own_messages(repo):
    repo.write("deploy/docker-compose.yml", GOOD)
    repo.git("add", "-A")
    repo.env["LINT_CONFIGS"] = _wrapper(repo, "echo 'lint-configs: internal error: RuntimeError: boom' >&2; exit 2")
    r = repo.commit()
    assert r.returncode == 1 and repo.commits() == 0
    assert "lint-configs: internal error: RuntimeError: boom" in r.stderr
    assert BLOCKED_ERROR in r.stderr and "reported the findings" not in r.stderr
    repo.env["LINT_CONFIGS"] = _wrapper(repo, "kill -TERM $$")
    r = repo.commit()
    assert r.returncode == 1 and repo.commits() == 0
    assert "lint-configs hook: commit blocked: lint-configs was stopped by signal 15 before it finished." in r.stderr


@needs_git
def test_a_file_list_longer_than_one_xargs_batch_is_one_run_with_one_summary(repo):
    # GNU xargs passes at most 128 KiB of arguments per command: this list is longer, so the old
    # hook ran lint-configs twice or more, with a summary each.
    folder = "deploy/" + "a-rather-long-folder-name-for-one-cluster-of-inference-services-" * 2
    names = [f"{folder}/svc-{i:04d}.yml" for i in range(1500)]
    assert sum(len(n) + 1 for n in names) > 128 * 1024
    for name in names[1:-1]:
        repo.write(name, "services:\n  web:\n    image: nginx\n")
    repo.write(names[0], BAD)
    repo.write(names[-1], BAD)
    repo.git("add", "-A")
    runs = repo.path.parent / "runs"
    repo.env["LINT_CONFIGS"] = _wrapper(repo, f"echo run >>'{runs}'\nexec {lint_configs_command()} \"$@\"")
    r = repo.commit()
    assert r.returncode == 1 and repo.commits() == 0
    assert runs.read_text() == "run\n"
    out = r.stdout + r.stderr  # git sends a hook's output to stderr
    assert out.count("Found ") == 1 and "Found 2 errors." in out
    assert f"{names[0]}:9:27" in out and f"{names[-1]}:9:27" in out
    assert BLOCKED_FINDINGS in out


@needs_git
def test_fix_mode_writes_the_fix_to_the_working_tree_and_stops_the_commit(repo):
    repo.write("deploy/docker-compose.yml", BAD)
    repo.git("add", "-A")
    repo.env["LINT_CONFIGS_FIX"] = "1"
    r = repo.commit()
    assert r.returncode == 1 and repo.commits() == 0
    assert "lint-configs hook: commit blocked: lint-configs fixed 1 file(s) in the working tree" in r.stderr
    assert "reported the findings" not in r.stderr  # nothing remains after the fix
    assert repo.read("deploy/docker-compose.yml") == GOOD
    assert repo.git("show", ":deploy/docker-compose.yml").stdout == BAD  # the index is the user's to change
    repo.git("add", "-A")
    r = repo.commit()
    assert r.returncode == 0, r.stderr
    assert repo.git("show", "HEAD:deploy/docker-compose.yml").stdout == GOOD


@needs_git
def test_fix_mode_leaves_a_file_with_unstaged_changes_alone(repo):
    repo.write("deploy/docker-compose.yml", BAD)
    repo.git("add", "-A")
    repo.write("deploy/docker-compose.yml", BAD + "# more, not staged\n")
    repo.env["LINT_CONFIGS_FIX"] = "1"
    r = repo.commit()
    assert r.returncode == 1 and repo.commits() == 0
    assert "lint-configs hook: not fixed, having unstaged changes (stage or stash them to fix them): " \
           "deploy/docker-compose.yml" in r.stderr
    # no report claims a fix that was not written: the finding is reported as remaining
    assert "Fixed" not in r.stderr and "Found 1 error. [*] 1 fixable with `lint-configs --fix`." in r.stderr
    assert BLOCKED_FINDINGS in r.stderr
    assert repo.read("deploy/docker-compose.yml") == BAD + "# more, not staged\n"


@needs_git
def test_fix_mode_says_only_what_it_wrote(repo):
    """Two fixable files, one with unstaged changes: the clean one is fixed and said to be; the other is
    reported as it stands (the hook used to print "Fixed 2 findings. No findings remain." and then that
    one fix was not written)."""
    repo.write("a/docker-compose.yml", BAD)
    repo.write("b/docker-compose.yml", BAD)
    repo.git("add", "-A")
    repo.write("b/docker-compose.yml", BAD + "# more, not staged\n")
    repo.env["LINT_CONFIGS_FIX"] = "1"
    r = repo.commit()
    out = r.stderr
    assert r.returncode == 1 and repo.commits() == 0
    assert "Fixed 1 finding. No findings remain." in out  # the first report: a/ only
    assert "Fixed 2" not in out
    assert " --> b/docker-compose.yml:9:27" in out and "Found 1 error." in out  # the second: b/ as it stands
    assert repo.read("a/docker-compose.yml") == GOOD
    assert repo.read("b/docker-compose.yml") == BAD + "# more, not staged\n"
    assert "lint-configs fixed 1 file(s) in the working tree" in out


def test_the_plain_hook_selects_every_format_of_the_registry():
    """The hook's git pathspecs name every extension and file name the format registry claims."""
    import fnmatch
    import re as _re
    import shlex as _shlex

    from linter.formats import REGISTRY

    text = (ROOT / "hooks" / "pre-commit").read_text()
    patterns = _shlex.split(_re.search(r'^PATTERNS="(.*)"$', text, _re.M).group(1))
    samples = [f"deploy/x{e}" for f in REGISTRY for e in f.extensions]
    samples += [f"deploy/{n.replace('*', 'x')}" for f in REGISTRY for n in f.filenames]
    samples += [n.replace("*", "x") for f in REGISTRY for n in f.filenames]
    for name in samples:
        assert any(fnmatch.fnmatchcase(name, p) for p in patterns), name


@needs_git
def test_the_hook_keeps_its_result_cache_in_the_git_folder(repo):
    # The staged copy is made in the same folder each time, so the cache (beside it, inside .git, never
    # in the work tree) answers for what did not change; a change is still caught.
    repo.env.pop("LINT_CONFIGS_NO_CACHE", None)
    repo.write("a/docker-compose.yml", GOOD)
    repo.write("b/docker-compose.yml", GOOD)
    repo.git("add", "-A")
    assert repo.commit().returncode == 0
    shards = list((repo.path / ".git" / "lint-configs" / "cache").glob("*/*.json"))
    assert shards and not (repo.path / ".lint-configs_cache").exists()
    assert not (repo.path / ".git" / "lint-configs" / "index").exists()  # the copy is removed
    repo.write("b/docker-compose.yml", BAD)
    repo.git("add", "-A")
    blocked = repo.commit()
    assert blocked.returncode == 1 and "SGL101" in blocked.stderr + blocked.stdout
    repo.env["LINT_CONFIGS_NO_CACHE"] = "1"
    cold = repo.commit()
    assert (cold.returncode, cold.stdout, cold.stderr) == (blocked.returncode, blocked.stdout, blocked.stderr)


@needs_git
def test_a_staged_submodule_bump_or_a_link_to_an_unstaged_file_commits(repo, tmp_path):
    """A staged path that checks out as no regular file (a submodule's gitlink, a link whose target is
    not staged), sorting last, ended the hook under ``set -e`` with status 1 and no message (fresh
    review rev39 D1): nothing of a linted kind is staged, so the commit goes on."""
    sub = tmp_path / "sub"
    sub.mkdir()
    for args in (("init", "-q", "-b", "main"), ("commit", "-q", "--allow-empty", "-m", "s")):
        subprocess.run(["git", *args], cwd=sub, env=repo.env, check=True, capture_output=True)
    repo.write("compose.yaml", GOOD)
    repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendor")
    repo.git("add", "-A")
    assert repo.commit("init").returncode == 0
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "s2"], cwd=repo.path / "vendor", env=repo.env,
                   check=True, capture_output=True)
    repo.git("add", "vendor")
    r = repo.commit("bump vendor")
    assert r.returncode == 0, r.stdout + r.stderr
    assert repo.commits() == 2
    repo.write("configs/real.yaml", GOOD)
    repo.git("add", "configs")
    assert repo.commit("configs").returncode == 0
    (repo.path / "zz.yaml").symlink_to("configs/nothing.yaml")
    repo.git("add", "zz.yaml")
    r = repo.commit("a link")
    assert r.returncode == 0, r.stdout + r.stderr
    assert repo.commits() == 4


@needs_git
def test_a_staged_name_with_a_newline_blocks_the_commit_with_a_reason(repo):
    """The hook reads its lists a line at a time: a name holding a newline would be read as two names
    and never linted (fresh review rev39 D1), so the commit stops and says why."""
    repo.write("a\nb.sh", "#!/bin/sh\n# lint-configs: target-gpu=H100\n" + GOOD.split("command: >\n", 1)[-1])
    repo.write("zzz.yaml", GOOD)
    repo.git("add", "--", "a\nb.sh", "zzz.yaml")
    r = repo.commit("newline name")
    assert r.returncode == 1
    assert repo.commits() == 0
    assert "a staged file's name holds a newline" in r.stderr
