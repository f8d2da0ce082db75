"""The result cache (linter/cache): a file whose bytes, settings and every file it read are unchanged is
answered from the cache; any change makes its entry stale; a cache a pull request could have written is
never read; and a run with the cache prints byte for byte what a run without it prints."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import linter
import linter.cache.cli as cache_cli
from linter import cache as cache_mod
from linter.cache import store
from tests.helpers import FOLDED_H100, ROOT, chdir, run, write_tree
from tests.test_pool import make_repo


@pytest.fixture(autouse=True)
def _cache_on(monkeypatch, tmp_path_factory, tmp_path):
    monkeypatch.delenv("LINT_CONFIGS_NO_CACHE", raising=False)
    monkeypatch.delenv("LINT_CONFIGS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
    (tmp_path / ".git").mkdir()  # each test's folder is a repository: the cache goes to its root


class Caches:
    """The :class:`~linter.cache.ResultCache` each run opened (None: the run used none)."""

    def __init__(self, monkeypatch) -> None:
        self.opened: list = []
        self.answered: list[set[str]] = []
        real = cache_cli.open_for_run
        lookup = cache_mod.ResultCache.lookup

        def spy(*args, **kwargs):
            got = real(*args, **kwargs)
            self.opened.append(got)
            self.answered.append(set())
            return got

        def looking(inner, path):
            got = lookup(inner, path)
            if got is not None:
                self.answered[-1].add(path.name)
            return got

        monkeypatch.setattr(cache_cli, "open_for_run", spy)
        monkeypatch.setattr(cache_mod.ResultCache, "lookup", looking)

    @property
    def hits(self) -> set[str]:
        """The names of the files the last run answered from the cache."""
        return self.answered[-1]

    @property
    def last(self):
        return self.opened[-1]


@pytest.fixture
def caches(monkeypatch):
    return Caches(monkeypatch)


ENV_COMPOSE = FOLDED_H100.replace("--attention-backend fa4", "--attention-backend ${ATTN}")


def lint(root: Path, capsys, *args: str) -> tuple[int, str, str]:
    return run(root, capsys, "--color", "never", "--jobs", "1", *args)


def test_a_second_run_answers_from_the_cache_and_prints_the_same(tmp_path, capsys, caches):
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100, "notes.md": "nothing here\n"})
    first = lint(tmp_path, capsys, ".")
    assert (caches.last.hits, caches.last.misses) == (0, 1)
    assert (tmp_path / ".lint-configs_cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert store.is_cache_folder(tmp_path / ".lint-configs_cache")
    second = lint(tmp_path, capsys, ".")
    assert (caches.last.hits, caches.last.misses) == (1, 0)
    assert second == first and first[0] == 1 and "SGL101" in first[1]


def stale_after(tmp_path, capsys, caches, files: dict, change, *args: str) -> tuple:
    """Lint ``files`` twice (the second from the cache), apply ``change``, lint again: (hits, misses) of
    the last run, and its output beside a run without the cache."""
    write_tree(tmp_path, files)
    lint(tmp_path, capsys, *args, ".")
    lint(tmp_path, capsys, *args, ".")
    assert caches.last.hits >= 1
    change(tmp_path)
    got = lint(tmp_path, capsys, *args, ".")
    counts = (caches.last.hits, caches.last.misses)
    cold = lint(tmp_path, capsys, "--no-cache", *args, ".")
    assert got == cold
    return counts, got


def test_a_changed_file_is_linted_again(tmp_path, capsys, caches):
    counts, (code, out, _) = stale_after(
        tmp_path, capsys, caches, {"docker-compose.yml": FOLDED_H100},
        lambda root: (root / "docker-compose.yml").write_text(FOLDED_H100.replace("fa4", "fa3")))
    assert counts == (0, 1) and code == 0 and "SGL101" not in out


def test_a_changed_env_file_it_read_makes_it_stale(tmp_path, capsys, caches):
    counts, (code, out, _) = stale_after(
        tmp_path, capsys, caches, {"docker-compose.yml": ENV_COMPOSE, ".env": "ATTN=fa3\n"},
        lambda root: (root / ".env").write_text("ATTN=fa4\n"))
    assert counts == (0, 1) and code == 1 and ".env:1" in out


def test_a_created_override_that_was_missing_makes_it_stale(tmp_path, capsys, caches):
    base = FOLDED_H100.replace("fa4", "fa3")
    override = "services:\n  sglang:\n    command: >\n      python3 -m sglang.launch_server --model-path " \
               "deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference\n"
    counts, (code, out, _) = stale_after(
        tmp_path, capsys, caches, {"docker-compose.yml": base},
        lambda root: (root / "docker-compose.override.yml").write_text(override))
    assert code == 1 and "SGL101" in out
    assert counts[0] == 0  # the base was linted again, not answered from the cache


def test_a_changed_configuration_makes_it_stale(tmp_path, capsys, caches):
    counts, (code, out, _) = stale_after(
        tmp_path, capsys, caches, {"docker-compose.yml": FOLDED_H100},
        lambda root: (root / ".lint-configs.toml").write_text('ignore = ["SGL101"]\n'))
    assert counts == (0, 1) and code == 0 and "SGL101" not in out


ENTRYPOINT_COMPOSE = """\
services:
  sglang:
    image: lmsysorg/sglang:latest
    entrypoint: ["/workspace/entrypoint.sh"]
    volumes:
      - ./docker:/workspace
    command: >-
      python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3
      --attention-backend fa4 --enable-deterministic-inference
"""


def test_an_edited_entrypoint_script_makes_it_stale(tmp_path, capsys, caches):
    # the script passes the command through (exec "$@"): the launch is checked; once it runs something
    # else, the launch after it is not checked, and SGL001 says so (D19)
    counts, (code, out, _) = stale_after(
        tmp_path, capsys, caches, {"compose.yaml": ENTRYPOINT_COMPOSE,
                                   "docker/entrypoint.sh": '#!/bin/bash\nexec "$@"\n'},
        lambda root: (root / "docker/entrypoint.sh").write_text('#!/bin/bash\nexec python -m other "$@"\n'),
        "--target-gpu", "H100")
    assert counts[0] == 0 and code == 1 and "SGL101" not in out and "SGL001" in out


def test_another_version_of_lint_configs_does_not_read_the_results(tmp_path, capsys, caches, monkeypatch):
    counts, _ = stale_after(tmp_path, capsys, caches, {"docker-compose.yml": FOLDED_H100},
                            lambda root: monkeypatch.setattr("linter.__version__", "9.9.9"))
    assert counts == (0, 1)


def test_edited_code_of_the_same_version_does_not_read_the_results(tmp_path, capsys, caches, monkeypatch):
    counts, _ = stale_after(tmp_path, capsys, caches, {"docker-compose.yml": FOLDED_H100},
                            lambda root: monkeypatch.setattr(cache_mod, "_CODE", "0" * 32))
    assert counts == (0, 1)


def test_command_line_settings_are_part_of_the_key(tmp_path, capsys, caches):
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100})
    lint(tmp_path, capsys, ".")
    code, out, _ = lint(tmp_path, capsys, "--target-gpu", "B200", ".")
    assert (caches.last.hits, code) == (0, 0)
    code, out, _ = lint(tmp_path, capsys, "--ignore", "SGL101", ".")
    assert (caches.last.hits, code) == (0, 0)
    assert lint(tmp_path, capsys, ".")[0] == 1 and caches.last.hits == 1


def test_an_imported_module_of_an_imported_module_makes_it_stale(tmp_path, capsys, caches):
    launch = ("# lint-configs: target-gpu=H100\nimport subprocess\nfrom pkg.args import ARGS\n\n"
              "subprocess.run(['python3', '-m', 'sglang.launch_server', *ARGS])\n")
    files = {".git/HEAD": "", "launch.py": launch, "pkg/__init__.py": "",
             "pkg/args.py": "from pkg.backend import BACKEND\nARGS = ['--model-path', 'deepseek-ai/DeepSeek-V3', "
                            "'--attention-backend', BACKEND, '--enable-deterministic-inference']\n",
             "pkg/backend.py": "BACKEND = 'fa3'\n",
             "other.py": launch}  # a second file importing the same modules: their analyses are shared
    counts, (code, out, _) = stale_after(
        tmp_path, capsys, caches, files, lambda root: (root / "pkg/backend.py").write_text("BACKEND = 'fa4'\n"))
    assert {"launch.py", "other.py"}.isdisjoint(caches.hits) and code == 1 and "pkg/backend.py" in out


def test_a_chart_value_and_a_new_helper_make_a_template_stale(tmp_path, capsys, caches):
    shutil.copytree(ROOT / "examples" / "helm", tmp_path / "helm")
    lint(tmp_path, capsys, ".")
    values = tmp_path / "helm/sglang-pd/values.yaml"
    values.write_text(values.read_text().replace("fa4", "triton"))
    got = lint(tmp_path, capsys, ".")
    assert "leaderworkerset.yaml" not in caches.hits and got == lint(tmp_path, capsys, "--no-cache", ".")
    lint(tmp_path, capsys, ".")
    assert "leaderworkerset.yaml" in caches.hits
    (tmp_path / "helm/sglang-pd/templates/_more.tpl").write_text('{{- define "x" -}}y{{- end -}}\n')
    lint(tmp_path, capsys, ".")
    assert "leaderworkerset.yaml" not in caches.hits  # the templates folder's listing changed


def test_a_corrupt_or_foreign_shard_is_ignored_and_rewritten(tmp_path, capsys, caches):
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100})
    first = lint(tmp_path, capsys, ".")
    shards = list((tmp_path / ".lint-configs_cache").glob("*/*.json"))
    assert len(shards) == 1
    for bad in (b"{not json", json.dumps({"lint-configs-cache": 999}).encode(), b"[]",
                json.dumps({"lint-configs-cache": 1, "run": json.loads(shards[0].read_text())["run"],
                            "stat": {}, "results": {str(tmp_path / "docker-compose.yml"): {"hash": 1}}}).encode()):
        shards[0].write_bytes(bad)
        assert lint(tmp_path, capsys, ".") == first
        assert caches.last.hits == 0
        doc = json.loads(shards[0].read_text())  # rewritten whole
        assert doc["lint-configs-cache"] == store.FORMAT and str(tmp_path / "docker-compose.yml") in doc["results"]
        assert lint(tmp_path, capsys, ".") == first and caches.last.hits == 1


def test_a_corrupt_entry_inside_a_valid_shard_is_linted_again(tmp_path, capsys, caches):
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100})
    first = lint(tmp_path, capsys, ".")
    shard = next((tmp_path / ".lint-configs_cache").glob("*/*.json"))
    doc = json.loads(shard.read_text())
    entry = doc["results"][str(tmp_path / "docker-compose.yml")]
    entry["result"]["diags"][0][4] = ["nonsense"]
    shard.write_text(json.dumps(doc))
    assert lint(tmp_path, capsys, ".") == first and caches.last.hits == 0
    assert lint(tmp_path, capsys, ".") == first and caches.last.hits == 1


def test_no_cache_and_the_environment_leave_no_folder(tmp_path, capsys, caches, monkeypatch):
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100})
    lint(tmp_path, capsys, "--no-cache", ".")
    assert caches.last is None and not (tmp_path / ".lint-configs_cache").exists()
    monkeypatch.setenv("LINT_CONFIGS_NO_CACHE", "1")
    lint(tmp_path, capsys, ".")
    assert caches.last is None and not (tmp_path / ".lint-configs_cache").exists()


def test_the_folder_is_the_users_choice(tmp_path, capsys, caches, monkeypatch):
    repo = tmp_path / "repo"
    write_tree(repo, {"docker-compose.yml": FOLDED_H100})
    lint(repo, capsys, "--cache-dir", str(tmp_path / "mine"), ".")
    assert store.is_cache_folder(tmp_path / "mine") and not (repo / ".lint-configs_cache").exists()
    monkeypatch.setenv("LINT_CONFIGS_CACHE_DIR", str(tmp_path / "env"))
    lint(repo, capsys, ".")
    assert store.is_cache_folder(tmp_path / "env")
    lint(repo, capsys, "--cache-dir", "rel", ".")  # --cache-dir wins, relative to the working folder
    assert store.is_cache_folder(repo / "rel")


def test_a_folder_no_repository_holds_gets_no_file_written_into_it(tmp_path, capsys, caches, monkeypatch):
    folder = tmp_path / "plain"
    write_tree(folder, {"docker-compose.yml": FOLDED_H100})
    (tmp_path / ".git").rmdir()
    first = lint(folder, capsys, ".")
    assert sorted(p.name for p in folder.iterdir()) == ["docker-compose.yml"]
    home = Path(os.environ["XDG_CACHE_HOME"]) / "lint-configs"
    [project] = list(home.iterdir())
    assert store.is_cache_folder(project) and caches.last.hits == 0
    assert lint(folder, capsys, ".") == first and caches.last.hits == 1
    with chdir(folder):
        from linter.cli import main

        assert main(["clean"]) == 0
    assert not project.exists()


def test_at_most_so_many_projects_are_kept_in_the_users_cache_folder(tmp_path, capsys, caches, monkeypatch):
    monkeypatch.setattr(store, "MAX_PROJECTS", 3)
    (tmp_path / ".git").rmdir()
    for k in range(5):
        write_tree(tmp_path / f"p{k}", {"docker-compose.yml": FOLDED_H100})
        lint(tmp_path / f"p{k}", capsys, ".")
        os.utime(caches.last.store.folder, (k, k))  # used in this order
    home = Path(os.environ["XDG_CACHE_HOME"]) / "lint-configs"
    assert len(list(home.iterdir())) == 3


def test_the_default_folder_is_beside_the_configuration(tmp_path, capsys, caches):
    write_tree(tmp_path, {"pyproject.toml": "[tool.lint-configs]\n", "sub/docker-compose.yml": FOLDED_H100})
    lint(tmp_path / "sub", capsys, ".")
    assert store.is_cache_folder(tmp_path / ".lint-configs_cache")
    assert not (tmp_path / "sub" / ".lint-configs_cache").exists()


def test_explain_inventory_show_files_and_stdin_never_use_it(tmp_path, capsys, caches, monkeypatch):
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100})
    for args in (["--explain", "docker-compose.yml"], ["--list-launches", "."], ["--show-files", "."]):
        lint(tmp_path, capsys, *args)
        assert caches.last is None
    monkeypatch.setattr("sys.stdin", open(tmp_path / "docker-compose.yml"))
    lint(tmp_path, capsys, "--stdin-filename", "docker-compose.yml", "-")
    assert caches.opened[-1] is None
    assert not (tmp_path / ".lint-configs_cache").exists()


def test_clean_removes_the_cache_and_nothing_else(tmp_path, capsys, monkeypatch):
    from linter.cli import main

    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100, "keep/file.txt": "x"})
    lint(tmp_path, capsys, ".")
    assert (tmp_path / ".lint-configs_cache").is_dir()
    with chdir(tmp_path):
        assert main(["clean"]) == 0
        assert not (tmp_path / ".lint-configs_cache").exists()
        assert main(["clean"]) == 0  # nothing to remove
        assert main(["clean", "--cache-dir", "keep"]) == 2  # not a cache folder: left as it is
    assert (tmp_path / "keep/file.txt").exists()
    (tmp_path / "clean").mkdir()
    (tmp_path / "clean/docker-compose.yml").write_text(FOLDED_H100)
    assert lint(tmp_path, capsys, "./clean")[0] == 1  # a folder named clean: ./clean


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                   capture_output=True)


def forged_repo(tmp_path, capsys) -> Path:
    """A repository whose cache was forged: its entry for a failing compose file says it passes."""
    repo = tmp_path / "repo"
    write_tree(repo, {"docker-compose.yml": FOLDED_H100.replace("fa4", "fa3")})
    git(repo, "init", "-q")
    assert lint(repo, capsys, ".")[0] == 0
    compose = repo / "docker-compose.yml"
    compose.write_text(FOLDED_H100)
    shard = next((repo / ".lint-configs_cache").glob("*/*.json"))
    doc = json.loads(shard.read_text())
    doc["results"][str(compose)]["hash"] = cache_mod.digest(compose.read_bytes())
    doc["results"][str(compose)]["deps"][0][2] = cache_mod.digest(compose.read_bytes())
    shard.write_text(json.dumps(doc))
    return repo


def test_a_forged_cache_committed_to_the_repository_is_never_read(tmp_path, capsys, caches):
    repo = forged_repo(tmp_path, capsys)
    assert lint(repo, capsys, ".")[0] == 0  # the forgery works on a cache the user's own runs made ...
    (repo / ".lint-configs_cache" / ".gitignore").unlink()
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a pull request brings its own cache")
    code, out, err = lint(repo, capsys, ".")  # ... never on one that came with the repository
    assert code == 1 and "SGL101" in out and caches.last is None
    assert "the result cache .lint-configs_cache is not used: git tracks files in it" in err
    doc = json.loads(next((repo / ".lint-configs_cache").glob("*/*.json")).read_text())
    assert doc["results"][str(repo / "docker-compose.yml")]["hash"] == \
        cache_mod.digest((repo / "docker-compose.yml").read_bytes())  # and it was not written either


def test_clean_leaves_a_cache_folder_git_tracks(tmp_path, capsys):
    """A cache folder that came with the repository is never used by a run, and ``clean`` does not
    delete the files git tracks in it either (fresh review rev39 D13): it says so, exit 2."""
    from linter.cli import main

    repo = forged_repo(tmp_path, capsys)
    (repo / ".lint-configs_cache" / "NOTES.md").write_text("kept\n")
    (repo / ".lint-configs_cache" / ".gitignore").unlink()
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a cache in the repository")
    capsys.readouterr()
    with chdir(repo):
        assert main(["clean"]) == 2
    assert "holds files git tracks" in capsys.readouterr().err
    assert (repo / ".lint-configs_cache" / "NOTES.md").read_text() == "kept\n"

def test_a_cache_folder_that_is_a_link_is_never_used(tmp_path, capsys, caches):
    repo = forged_repo(tmp_path, capsys)
    (repo / ".lint-configs_cache").rename(tmp_path / "elsewhere")
    (repo / ".lint-configs_cache").symlink_to(tmp_path / "elsewhere")
    code, out, err = lint(repo, capsys, ".")
    assert code == 1 and caches.last is None and "is a symbolic link" in err



def test_a_run_folder_in_the_cache_that_is_a_link_is_neither_read_nor_written_through(tmp_path, capsys, caches):
    """The run folder inside the cache (``.lint-configs_cache/<run>/``) replaced by a link: its shards
    (here a forged one) are not read through it, and this run's are not written where it points
    (fresh review rev39 D10: they were written outside the repository)."""
    repo = forged_repo(tmp_path, capsys)
    [run] = [p for p in (repo / ".lint-configs_cache").iterdir() if p.is_dir()]
    elsewhere = tmp_path / "elsewhere"
    run.rename(elsewhere)
    run.symlink_to(elsewhere)
    before = {p.name: p.read_bytes() for p in elsewhere.iterdir()}
    code, out, err = lint(repo, capsys, ".")
    assert code == 1 and "SGL101" in out  # the forged shard behind the link was not read
    assert {p.name: p.read_bytes() for p in elsewhere.iterdir()} == before  # nor written through
    assert run.is_dir() and not run.is_symlink()  # the run's shards are in a folder of the cache again
    assert lint(repo, capsys, ".")[0] == 1 and caches.last is not None

@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give a folder away")
def test_a_cache_folder_of_another_user_is_never_used(tmp_path, capsys, caches):
    repo = forged_repo(tmp_path, capsys)
    os.chown(repo / ".lint-configs_cache", 12345, 12345)
    code, out, err = lint(repo, capsys, ".")
    assert code == 1 and caches.last is None and "belongs to another user" in err


def test_the_index_is_read_as_git_reads_it(tmp_path):
    from linter.cache.trust import tracked

    repo = tmp_path / "repo"
    write_tree(repo, {"a/.lint-configs_cache/x": "1", ".lint-configs_cache2/y": "2", "b/c.txt": "3",
                      "d/.lint-configs_cache/z": "4"})
    git(repo, "init", "-q")
    git(repo, "add", "a/.lint-configs_cache/x", ".lint-configs_cache2/y", "b/c.txt")
    assert tracked(repo / "a/.lint-configs_cache")
    assert not tracked(repo / "d/.lint-configs_cache")  # in the tree, not in the index
    (repo / ".lint-configs_cache").mkdir()
    assert not tracked(repo / ".lint-configs_cache")  # .lint-configs_cache2/ is another folder
    assert tracked(repo / "b")
    git(repo, "update-index", "--index-version", "4")  # prefix-compressed: git is asked
    assert tracked(repo / "a/.lint-configs_cache") and not tracked(repo / "d/.lint-configs_cache")


def test_two_runs_at_once_never_break_each_other(tmp_path):
    make_repo(tmp_path / "repo")
    env = {k: v for k, v in os.environ.items() if k != "LINT_CONFIGS_NO_CACHE"}
    cmd = [sys.executable, "-m", "linter", "--format", "json", "--jobs", "1", "."]
    cold = subprocess.run(cmd + ["--no-cache"], cwd=tmp_path / "repo", capture_output=True, env=env)
    for _ in range(3):
        procs = [subprocess.Popen(cmd, cwd=tmp_path / "repo", stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
                 for _ in range(3)]
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert (p.returncode, out, err) == (cold.returncode, cold.stdout, cold.stderr)
    for shard in (tmp_path / "repo" / ".lint-configs_cache").glob("*/*.json"):
        assert json.loads(shard.read_text())["lint-configs-cache"] == store.FORMAT
    assert not list((tmp_path / "repo" / ".lint-configs_cache").glob("*/.*.tmp"))


def test_the_folder_stays_within_its_bounds(tmp_path, capsys, caches, monkeypatch):
    monkeypatch.setattr(store, "MAX_SHARD_BYTES", 4096)
    monkeypatch.setattr(store, "SHARDS", 1)
    files = {f"s{k}/docker-compose.yml": FOLDED_H100.replace("30000", str(30000 + k)) for k in range(12)}
    write_tree(tmp_path, files)
    first = lint(tmp_path, capsys, ".")
    shard = next((tmp_path / ".lint-configs_cache").glob("*/*.json"))
    assert shard.stat().st_size <= 4096
    assert 0 < len(json.loads(shard.read_text())["results"]) < 12
    assert lint(tmp_path, capsys, ".") == first
    for k in range(store.MAX_RUNS + 2):  # each setting its own folder: the oldest go
        lint(tmp_path, capsys, "--target-gpu", ["H100", "B200", "A100", "L40S", "H200", "B300"][k], ".")
    assert len([p for p in (tmp_path / ".lint-configs_cache").iterdir() if p.is_dir()]) == store.MAX_RUNS


# -- a run with the cache prints what a run without it prints ---------------------------------------


def sibling_repo(root: Path) -> Path:
    """The pool's test repository (the examples, a .env two compose files read, a COMPOSE_FILE stack
    whose second file does not mention SGLang, files that cannot be parsed or decoded), the test
    fixtures, SGLang --config files, a framework's config found at the repository's top, a Python
    launch reading another module, and suppressions."""
    from tests.test_areal import config as areal_config

    make_repo(root)
    shutil.copytree(ROOT / "tests" / "fixtures", root / "fixtures")
    shutil.copytree(ROOT / "tests" / "data" / "config_file", root / "config_file")
    write_tree(root, {
        ".git/HEAD": "",
        "cfg/serve.yaml": "attention-backend: fa4\nenable-deterministic-inference: true\n",
        "cfg/run.sh": "#!/bin/sh\n# lint-configs: target-gpu=H100\npython3 -m sglang.launch_server --model-path "
                      "deepseek-ai/DeepSeek-V3 --config serve.yaml\n",
        "areal.yaml": areal_config(target="B200"),
        "areal/run.sh": "# lint-configs: target-gpu=B200\npython3 -m areal.infra.launcher.local train.py --config "
                        "areal.yaml sglang.attention_backend=fa3\n",
        "pyapp/common.py": "BACKEND = 'fa4'\n",
        "pyapp/serve.py": "# lint-configs: target-gpu=H100\nimport subprocess\nfrom common import BACKEND\n"
                          "subprocess.run(['python3', '-m', 'sglang.launch_server', '--model-path', "
                          "'deepseek-ai/DeepSeek-V3', '--attention-backend', BACKEND, "
                          "'--enable-deterministic-inference'])\n",
        "quiet/docker-compose.yml": FOLDED_H100.replace("--tp 8", "--tp 8  # lint-configs: ignore[SGL101] known")
        .replace("      --attention-backend fa4", "      # lint-configs: ignore[SGL101] known\n"
                 "      --attention-backend fa4"),
    })
    return root


EDITS = [
    ("shared/.env", lambda t: t.replace("fa4", "triton")),
    ("stack/z.yaml", lambda t: t + "    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n"),
    ("cfg/serve.yaml", lambda t: t.replace("fa4", "fa3")),
    ("pyapp/common.py", lambda t: t.replace("fa4", "fa3")),
    ("areal.yaml", lambda t: t.replace("  mem_fraction_static: 0.8\n",
                                       "  mem_fraction_static: 0.8\n  attention_backend: triton\n")),
    ("examples/helm/sglang-pd/values.yaml", lambda t: t.replace("fa4", "fa3")),
    ("examples/inference/.env", lambda t: t + "EXTRA=1\n"),
    ("quiet/.lint-configs.toml", lambda t: 'target-gpus = ["B200"]\n'),
    ("services/s1/docker-compose.override.yml",
     lambda t: "services:\n  sglang:\n    environment:\n      - X=1\n"),
]

MODES = [
    [],
    ["--format", "json"],
    ["--format", "full"],
    ["--format", "gitlab"],
    ["--list-launches", "--format", "csv"],  # (never uses the cache: the same either way)
    ["--format", "concise", "--show-fixes"],
    ["--format", "sarif"],
    ["--format", "github"],
    ["--statistics"],
    ["--diff", "--unsafe-fixes"],
]


def cli(root: Path, *args: str, cache: bool = True) -> tuple[int, bytes, bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("LINT_CONFIGS_NO_CACHE", "GITHUB_ACTIONS")}
    # the same lint-configs as this process: with a non-editable install (CI), `python -m linter` run
    # from a temporary folder would load the installed copy, whose code digest keys other entries
    env["PYTHONPATH"] = os.pathsep.join([str(Path(linter.__file__).resolve().parent.parent)]
                                        + [p for p in [env.get("PYTHONPATH")] if p])
    if not cache:
        env["LINT_CONFIGS_NO_CACHE"] = "1"
    p = subprocess.run([sys.executable, "-m", "linter", "--color", "never", *args], cwd=root, capture_output=True,
                       env=env, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_cold_and_warm_runs_print_the_same_bytes_after_edits_to_sibling_files(tmp_path, capsys, caches):
    repo = sibling_repo(tmp_path / "repo")
    cli(repo, "--exit-zero", ".")  # fills the cache
    lint(repo, capsys, ".")
    assert len(caches.hits) > 30  # the warm runs below do answer from the cache
    for round_, edit in enumerate([None] + EDITS):
        if edit is not None:
            path = repo / edit[0]
            path.write_text(edit[1](path.read_text() if path.exists() else ""))
        for mode in MODES if round_ in (0, len(EDITS)) else MODES[:2]:
            jobs = ["--jobs", "2" if round_ % 2 else "1"]
            warm = cli(repo, *jobs, *mode, ".")
            cold = cli(repo, *jobs, *mode, ".", cache=False)
            assert warm == cold, (edit and edit[0], mode)
    # a baseline, and --fix on two copies: the same files written and the same report
    assert cli(repo, "--write-baseline", "base.json", ".", cache=False)[0] == 0
    (repo / "shared/.env").write_text("ATTN=fa4\n")
    assert cli(repo, "--baseline", "base.json", ".") == cli(repo, "--baseline", "base.json", ".", cache=False)
    other = tmp_path / "other"
    shutil.copytree(repo, other, ignore=shutil.ignore_patterns(".lint-configs_cache"))
    cli(other, ".")  # its own cache, for its own paths
    fixed_warm = cli(other, "--fix", ".")
    fixed_cold = cli(repo, "--fix", ".", cache=False)
    assert fixed_warm[0] == fixed_cold[0] and fixed_warm[2] == fixed_cold[2]
    assert fixed_warm[1] == fixed_cold[1]
    for path in sorted(p for p in repo.rglob("*") if p.is_file() and ".lint-configs_cache" not in p.parts):
        assert path.read_bytes() == (other / path.relative_to(repo)).read_bytes(), path


def test_a_model_config_created_where_it_was_looked_for_makes_it_stale(tmp_path, capsys, caches):
    compose = FOLDED_H100.replace("deepseek-ai/DeepSeek-V3", "./weights/my-model")
    counts, (code, out, _) = stale_after(
        tmp_path, capsys, caches, {".git/HEAD": "", "docker-compose.yml": compose},
        lambda root: write_tree(root, {"weights/my-model/config.json":
                                       json.dumps({"architectures": ["DeepseekV3ForCausalLM"]})}))
    assert counts[0] == 0 and "SGL101" in out


def test_a_model_id_made_a_local_folder_where_it_was_looked_for_makes_it_stale(tmp_path, capsys, caches):
    """A Hugging Face id is looked up as a local folder first; the root check finds ``deepseek-ai``
    missing and nothing below it is looked at again, but the ``config.json`` probe is still kept: a
    config made there later is read (a Llama config: no MLA finding)."""
    counts, (code, out, _) = stale_after(
        tmp_path, capsys, caches, {".git/HEAD": "", "docker-compose.yml": FOLDED_H100},
        lambda root: write_tree(root, {"deepseek-ai/DeepSeek-V3/config.json":
                                       json.dumps({"architectures": ["LlamaForCausalLM"]})}))
    assert counts[0] == 0 and "SGL101" not in out


def test_a_configmap_file_added_beside_a_manifest_makes_it_stale(tmp_path, capsys, caches):
    manifest = ("# lint-configs: target-gpu=H100\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: s}\n"
                "spec:\n  template:\n    spec:\n      containers:\n        - name: s\n"
                "          image: lmsysorg/sglang:v0.5.23-cu129\n          envFrom: [{configMapRef: {name: cfg}}]\n"
                "          command: [python3, -m, sglang.launch_server, --model-path, deepseek-ai/DeepSeek-V3,\n"
                "                    --attention-backend, $(ATTN), --enable-deterministic-inference]\n")
    configmap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {ATTN: fa4}\n"
    counts, (code, out, _) = stale_after(
        tmp_path, capsys, caches, {".git/HEAD": "", "k8s/deploy.yaml": manifest},
        lambda root: (root / "k8s/config.yaml").write_text(configmap))
    assert "deploy.yaml" not in caches.hits and code == 1 and "k8s/config.yaml" in out


def test_a_reference_that_now_leads_out_of_the_root_makes_it_stale(tmp_path, capsys, caches):
    repo = tmp_path / "repo"
    write_tree(tmp_path, {"outside/.env": "ATTN=fa3\n"})
    files = {".git/HEAD": "", "docker-compose.yml": ENV_COMPOSE, "env/.env": "ATTN=fa4\n"}
    write_tree(repo, files)
    (repo / ".env").symlink_to(repo / "env/.env")
    assert lint(repo, capsys, ".")[0] == 1
    (repo / ".env").unlink()
    (repo / ".env").symlink_to(tmp_path / "outside/.env")  # now a link out of the root: SGL005, not read
    got = lint(repo, capsys, ".")
    assert "docker-compose.yml" not in caches.hits and "SGL005" in got[1]
    assert got == lint(repo, capsys, "--no-cache", ".")


# -- every look at the file system a result depends on is kept with it -------------------------------


class Looks:
    """Every file-system look (``stat``, ``lstat``, ``listdir``, ``scandir``, ``open``) made under
    ``root`` while :func:`linter.isolate.lint_file` runs, per linted file; and the dependencies
    :meth:`~linter.cache.ResultCache.keep_result` kept for each file."""

    def __init__(self, monkeypatch, root: Path) -> None:
        import builtins
        import io

        import linter.isolate

        self.prefix = str(root) + os.sep
        self.current: list | None = None
        self.looks: dict[str, list[tuple[str, str]]] = {}
        self.deps: dict[str, list] = {}
        for name in ("stat", "lstat", "listdir", "scandir", "open"):
            monkeypatch.setattr(os, name, self._spy(name, getattr(os, name)))
        monkeypatch.setattr(builtins, "open", self._spy("open", builtins.open))
        monkeypatch.setattr(io, "open", self._spy("open", io.open))
        lint_file = linter.isolate.lint_file

        def linting(engine, path, *args, **kwargs):
            self.current = self.looks.setdefault(str(path), [])
            try:
                return lint_file(engine, path, *args, **kwargs)
            finally:
                self.current = None

        monkeypatch.setattr(linter.isolate, "lint_file", linting)
        keep = cache_mod.ResultCache.keep_result

        def keeping(inner, path, result, deps):
            self.deps[str(path)] = [list(d) for d in deps]
            return keep(inner, path, result, deps)

        monkeypatch.setattr(cache_mod.ResultCache, "keep_result", keeping)

    def _spy(self, kind: str, real):
        def spy(path, *args, **kwargs):
            if self.current is not None and isinstance(path, (str, os.PathLike)):
                p = os.fspath(path)
                if isinstance(p, str) and p.startswith(self.prefix) and store.DIR_NAME not in p:
                    self.current.append((kind, os.path.normpath(p)))
            return real(path, *args, **kwargs)

        return spy


def test_every_look_at_the_file_system_made_for_a_file_is_kept_with_its_result(tmp_path, capsys, monkeypatch):
    """Each file of the sibling repository linted alone (a fresh run: every memo empty, so every look is
    made) looks only at what the entry kept by a run over the whole tree (memos shared) names: the
    files it read or found missing, probes and listings. The rest is the configuration's own look-ups
    (the settings digest resolves them on every run) and the folders above a kept path (a link among
    them is caught by the root check each hit makes)."""
    repo = sibling_repo(tmp_path / "repo")
    shared = Looks(monkeypatch, repo)
    lint(repo, capsys, "--cache-dir", str(tmp_path / "whole"), ".")
    kept = shared.deps
    monkeypatch.undo()
    files = sorted(kept)
    assert len(files) > 60
    alone = Looks(monkeypatch, repo)
    for f in files:
        lint(repo, capsys, "--cache-dir", str(tmp_path / "alone"), f)
        shutil.rmtree(tmp_path / "alone", ignore_errors=True)  # (a run that kept nothing made none)
    # (a file the whole run lints only because another reads it — a compose .env, the second file of a
    # COMPOSE_FILE stack — is skipped when named alone: no looks to compare)
    assert len([f for f in files if alone.looks.get(f)]) >= len(files) - 3
    unkept = []
    for f in files:
        paths = {d[1] for d in kept[f]} | {f}
        above = {str(a) for p in paths for a in Path(p).parents}
        looks = alone.looks.get(f, [])
        for kind, p in looks:
            if p in paths or p in above:
                continue
            if os.path.basename(p) in (".lint-configs.toml", "pyproject.toml") and os.path.dirname(p) in above:
                continue  # the configuration: resolved again by every run (ResultCache.settings_digest)
            unkept.append((os.path.relpath(f, repo), kind, os.path.relpath(p, repo)))
    assert unkept == []
    # and the check fails when a look is not noted: a .env read by a compose file is its dependency
    env = str(repo / "shared/.env")
    assert ["f", env, cache_mod.digest((repo / "shared/.env").read_bytes())] in kept[str(repo / "shared/a.yml")]


def test_content_read_outside_the_root_never_reaches_a_run_that_may_not_read_it(tmp_path, capsys, caches):
    """One cache folder for three runs: one allowed outside the root, one whose root is the repository,
    one whose root is a folder in it. A result that read a file outside a run's root is never that run's."""
    write_tree(tmp_path, {
        "outside/serve.yaml": "attention-backend: fa4\nenable-deterministic-inference: true\n",
        "repo/.git/HEAD": "",
        "repo/svc/run.sh": "# lint-configs: target-gpu=H100\npython3 -m sglang.launch_server --model-path "
                           "deepseek-ai/DeepSeek-V3 --config ../../outside/serve.yaml\n"})
    repo = tmp_path / "repo"
    mine = ["--cache-dir", str(tmp_path / "cache")]
    allowed = lint(repo, capsys, *mine, "--allow-outside-root", ".")
    assert allowed[0] == 1 and "outside/serve.yaml" in allowed[1] and "SGL005" not in allowed[1]
    assert lint(repo, capsys, *mine, "--allow-outside-root", ".") == allowed and caches.hits == {"run.sh"}
    for args in ([], ["--root", "svc"]):
        got = lint(repo, capsys, *mine, *args, ".")
        assert "SGL005" in got[1] and "fa4" not in got[1] and caches.hits == set()
        assert got == lint(repo, capsys, "--no-cache", *args, ".")


# -- metadata first: a stat signature, then the bytes ------------------------------------------------


@pytest.fixture
def settled(monkeypatch):
    """Files count as settled as soon as they are written (a run keeps their stat signatures): the
    two seconds a real run waits for would make these tests slow."""
    monkeypatch.setattr(cache_mod, "RACY_NS", 0)


def entry_of(root: Path, name: str) -> dict:
    """The result entry of ``root/name`` in its cache folder."""
    path = str(root / name)
    for shard in (root / ".lint-configs_cache").glob("*/r*.json"):
        got = json.loads(shard.read_text())["results"].get(path)
        if got is not None:
            return got
    raise AssertionError(f"no entry for {name}")


def stat_table(root: Path, listings: bool = False) -> dict[str, dict]:
    """Every stat shard's table of the cache folder of ``root``: folder → {name: signature} (and the
    folder's own listing under ``/`` with ``listings``)."""
    out: dict[str, dict] = {}
    for shard in (root / ".lint-configs_cache").glob("*/s*.json"):
        for folder, table in json.loads(shard.read_text())["stat"].items():
            out[folder] = {k: v for k, v in table.items() if listings or k != cache_mod.LISTING}
    return out


class Opened:
    """The files under ``root`` opened (``os.open``, ``open``) while active."""

    def __init__(self, monkeypatch, root: Path) -> None:
        import builtins
        import io

        self.names: list[str] = []
        prefix = str(root) + os.sep
        for owner, name in ((os, "open"), (builtins, "open"), (io, "open")):
            real = getattr(owner, name)

            def spy(path, *args, _real=real, **kwargs):
                if isinstance(path, (str, os.PathLike)) and os.fspath(path).startswith(prefix) \
                        and store.DIR_NAME not in os.fspath(path):
                    self.names.append(os.path.basename(os.fspath(path)))
                return _real(path, *args, **kwargs)

            monkeypatch.setattr(owner, name, spy)


def test_preview_and_upgrade_to_are_part_of_the_key(tmp_path, capsys, caches):
    # a run with --preview checks more rules than one without: never each other's results; --upgrade-to
    # reports only what breaks under another release, which the cache does not keep: it uses none
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100})
    plain = lint(tmp_path, capsys, ".")
    preview = lint(tmp_path, capsys, "--preview", ".")
    assert caches.last.hits == 0 and preview == lint(tmp_path, capsys, "--no-cache", "--preview", ".")
    assert lint(tmp_path, capsys, "--upgrade-to", "0.5.23", ".") == \
        lint(tmp_path, capsys, "--no-cache", "--upgrade-to", "0.5.23", ".")
    assert caches.opened[-2] is None  # (the last one was --no-cache: the one before used no cache either)
    assert lint(tmp_path, capsys, ".") == plain and caches.last.hits == 1


def test_the_same_bytes_written_again_still_hit_and_the_new_signature_is_kept(tmp_path, capsys, caches, settled):
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100})
    first = lint(tmp_path, capsys, ".")
    compose = tmp_path / "docker-compose.yml"
    kept = entry_of(tmp_path, "docker-compose.yml")["deps"][0]
    assert kept[:2] == ["f", str(compose)] and kept[3] == cache_mod.signature(compose.stat())
    compose.write_text(FOLDED_H100)  # a checkout or an editor's save: new times, the same bytes
    assert cache_mod.signature(compose.stat()) != kept[3]
    assert lint(tmp_path, capsys, ".") == first and caches.last.hits == 1  # the digest decided
    assert entry_of(tmp_path, "docker-compose.yml")["deps"][0][3] == cache_mod.signature(compose.stat())


def test_a_change_of_the_same_size_with_its_modification_time_put_back_is_seen(tmp_path, capsys, caches, settled):
    # os.utime can put the modification time back; the change time it cannot: the signature differs,
    # the bytes are compared, and the result is linted again (and a skipped file read again)
    quiet = "services:\n  web:\n    image: nginx:1.27\n    command: run --flag x\n"
    write_tree(tmp_path, {"docker-compose.yml": FOLDED_H100, "sub/compose.yaml": quiet})
    lint(tmp_path, capsys, ".")
    assert "compose.yaml" in stat_table(tmp_path)[str(tmp_path / "sub")]
    for name, old, new in (("docker-compose.yml", "fa4", "fa3"), ("sub/compose.yaml", "nginx:1.27", "sglang:1.2")):
        path = tmp_path / name
        st = path.stat()
        path.write_text(path.read_text().replace(old, new))
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    got = lint(tmp_path, capsys, ".")
    assert caches.last.hits == 0 and got == lint(tmp_path, capsys, "--no-cache", ".")
    assert "SGL101" not in got[1]
    assert "compose.yaml" not in stat_table(tmp_path).get(str(tmp_path / "sub"), {})  # it mentions SGLang now


def test_a_skipped_file_is_passed_over_unread_until_it_gains_a_launch(tmp_path, capsys, caches, settled, monkeypatch):
    write_tree(tmp_path, {"svc/deploy.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
                          "svc/notes.md": "# notes\n", "docker-compose.yml": FOLDED_H100})
    first = lint(tmp_path, capsys, ".")
    assert set(stat_table(tmp_path)[str(tmp_path / "svc")]) == {"deploy.yaml", "notes.md"}
    opened = Opened(monkeypatch, tmp_path)
    assert lint(tmp_path, capsys, ".") == first and caches.last.hits == 1
    assert "deploy.yaml" not in opened.names and "notes.md" not in opened.names  # one stat each, no read
    monkeypatch.undo()
    monkeypatch.setattr(cache_mod, "RACY_NS", 0)
    Caches(monkeypatch)
    (tmp_path / "svc/notes.md").write_text("# notes\n\n```bash\n# lint-configs: target-gpu=H100\n"
                                           "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
                                           "--attention-backend fa4 --enable-deterministic-inference\n```\n")
    got = lint(tmp_path, capsys, ".")
    assert "svc/notes.md" in got[1] and got == lint(tmp_path, capsys, "--no-cache", ".")
    assert set(stat_table(tmp_path)[str(tmp_path / "svc")]) == {"deploy.yaml"}
    (tmp_path / "svc/deploy.yaml").unlink()  # a file gone leaves the table
    lint(tmp_path, capsys, ".")
    assert "deploy.yaml" not in stat_table(tmp_path)[str(tmp_path / "svc")]


def test_an_unchanged_folder_is_not_listed_again_and_a_file_made_in_it_is_found(tmp_path, capsys, caches, settled,
                                                                                 monkeypatch):
    # a folder's times change with every entry made, removed or renamed in it: while its signature is
    # the same, its listing comes from the cache (one stat, no read of the folder)
    write_tree(tmp_path, {"svc/notes.md": "# notes\n", "svc/values.yaml": "replicas: 2\n"})
    first = lint(tmp_path, capsys, ".")
    assert stat_table(tmp_path, listings=True)[str(tmp_path / "svc")][cache_mod.LISTING][1:] == \
        [["notes.md", "values.yaml"], "ff"]
    assert lint(tmp_path, capsys, ".") == first  # (the first run made the cache folder in the root: listed again)
    listed = []
    scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda p=".": listed.append(os.fspath(p)) or scandir(p))
    assert lint(tmp_path, capsys, ".") == first
    assert str(tmp_path / "svc") not in listed and str(tmp_path) not in listed
    (tmp_path / "svc/docker-compose.yml").write_text(FOLDED_H100)
    got = lint(tmp_path, capsys, ".")
    assert str(tmp_path / "svc") in listed and "SGL101" in got[1]
    assert got == lint(tmp_path, capsys, "--no-cache", ".")


def test_warm_runs_that_pass_files_over_print_what_cold_runs_print(tmp_path, capsys, caches, settled, monkeypatch):
    """The sibling repository with every file settled: a warm run passes most files over on their stat
    alone and answers the rest from the cache, and prints what a run without the cache prints, after
    each edit too (a COMPOSE_FILE stack's second file that does not mention SGLang is read by the
    first one's lint: it is not passed over then)."""
    import linter.discover as discover

    walked = []
    walk = discover.walk

    def spying(*args, **kwargs):
        walked.append(args[3] if len(args) > 3 else kwargs.get("report"))
        return walk(*args, **kwargs)

    monkeypatch.setattr(discover, "walk", spying)
    repo = sibling_repo(tmp_path / "repo")
    lint(repo, capsys, "--exit-zero", ".")
    for round_, edit in enumerate([None] + EDITS):
        if edit is not None:
            path = repo / edit[0]
            path.write_text(edit[1](path.read_text() if path.exists() else ""))
        for mode in ([], ["--format", "json"]) if round_ in (0, len(EDITS)) else ([],):
            warm = lint(repo, capsys, *mode, ".")
            assert walked[-1].known > 0
            cold = lint(repo, capsys, "--no-cache", *mode, ".")
            assert warm == cold, (edit and edit[0], mode)
