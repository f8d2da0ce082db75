"""git's own ignore rules (``linter/gitignore.py``): nested ``.gitignore`` files with a deeper one's
exceptions winning, ``.git/info/exclude``, ``core.excludesFile`` (and git's default file) read from
git's configuration text with its includes, for walked folders and for files named with
``--force-exclude``; and the same answer as git itself on a tree of tricky patterns."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from linter.gitignore import Ignores, config_value, parse_config
from tests.helpers import run, write_tree

LAUNCH = "services:\n  s:\n    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n"
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch) -> Path:
    """A home of our own: no user's git configuration or global ignore file leaks in."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    return home


def walked(repo: Path, capsys, *args: str) -> list[str]:
    code, out, err = run(repo, capsys, "--show-files", "--output-format", "json", *args)
    assert code == 0, err
    return sorted(r["path"] for r in json.loads(out) if not r["path"].endswith(".gitignore"))


def make_repo(root: Path, files: dict[str, str]) -> Path:
    (root / ".git" / "info").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    write_tree(root, files)
    return root


def test_a_deeper_gitignore_re_includes_what_a_shallower_one_ignores(tmp_path, capsys):
    repo = make_repo(tmp_path / "repo", {".gitignore": "*.yml\n", "deploy/.gitignore": "!compose.yml\n",
                                        "deploy/compose.yml": LAUNCH, "deploy/other.yml": LAUNCH,
                                        "top.yml": LAUNCH, "keep.yaml": LAUNCH})
    assert walked(repo, capsys) == ["deploy/compose.yml", "keep.yaml"]
    # and from inside the folder: the .gitignore above still counts
    assert walked(repo / "deploy", capsys) == ["compose.yml"]


def test_info_exclude_is_read_and_a_gitignore_exception_beats_it(tmp_path, capsys):
    repo = make_repo(tmp_path / "repo", {"scratch/compose.yml": LAUNCH, "deploy/compose.yml": LAUNCH,
                                        "deploy/local.yml": LAUNCH})
    (repo / ".git" / "info" / "exclude").write_text("# personal\nscratch/\nlocal.yml\n")
    assert walked(repo, capsys) == ["deploy/compose.yml"]
    write_tree(repo, {"deploy/.gitignore": "!local.yml\n"})  # .gitignore has precedence over info/exclude
    assert walked(repo, capsys) == ["deploy/compose.yml", "deploy/local.yml"]


def test_core_excludes_file_from_the_global_configuration(tmp_path, capsys, home):
    repo = make_repo(tmp_path / "repo", {"a.yml": LAUNCH, "a.local.yml": LAUNCH, "b.yml": LAUNCH})
    (home / ".gitconfig").write_text("[core]\n\texcludesFile = ~/.global-ignore  ; mine\n")
    (home / ".global-ignore").write_text("*.local.yml\n")
    assert walked(repo, capsys) == ["a.yml", "b.yml"]
    # the repository's own configuration comes later and wins
    (repo / ".git" / "config").write_text('[core]\n\texcludesfile = ".git/mine"\n')
    (repo / ".git" / "mine").write_text("b.yml\n")  # relative: from the top of the work tree
    assert walked(repo, capsys) == ["a.local.yml", "a.yml"]


def test_git_default_excludes_file_under_xdg_config_home(tmp_path, capsys, home, monkeypatch):
    repo = make_repo(tmp_path / "repo", {"a.yml": LAUNCH, "scratch.yml": LAUNCH})
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".config" / "git" / "ignore").write_text("scratch.yml\n")
    assert walked(repo, capsys) == ["a.yml"]
    xdg = tmp_path / "xdg"
    (xdg / "git").mkdir(parents=True)
    (xdg / "git" / "ignore").write_text("a.yml\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    assert walked(repo, capsys) == ["scratch.yml"]


def test_includes_and_conditional_includes_are_followed(tmp_path, home):
    repo = make_repo(tmp_path / "work" / "repo", {})
    (home / ".gitconfig").write_text('[include]\n\tpath = base.inc\n'
                                     f'[includeIf "gitdir:{tmp_path}/work/"]\n\tpath = work.inc\n'
                                     '[includeIf "gitdir:/elsewhere/"]\n\tpath = other.inc\n'
                                     '[includeIf "onbranch:main"]\n\tpath = branch.inc\n')
    (home / "base.inc").write_text("[core]\nexcludesFile = /base\n")
    (home / "work.inc").write_text("[core]\nexcludesFile = /work\n")
    (home / "other.inc").write_text("[core]\nexcludesFile = /other\n")
    assert config_value([home / ".gitconfig"], "core", "excludesfile", repo / ".git")[0] == "/work"
    assert config_value([home / ".gitconfig"], "core", "excludesfile", repo / ".git", "main")[0] == "/work"
    (home / "branch.inc").write_text("[core]\nexcludesFile = /branch\n")
    assert config_value([home / ".gitconfig"], "core", "excludesfile", repo / ".git", "main")[0] == "/branch"
    assert config_value([home / ".gitconfig"], "core", "excludesfile", tmp_path / "x" / ".git")[0] == "/base"
    # an include cycle ends at git's depth limit
    (home / "base.inc").write_text("[include]\npath = base.inc\n[core]\nexcludesFile = /loop\n")
    assert config_value([home / "base.inc"], "core", "excludesfile")[0] == "/loop"


def test_config_syntax():
    text = ('# comment\n[core]\n\texcludesFile = "~/my ignore" ; comment\n[Core "Sub"]\n\tflag\n'
            '[user]\n\tname = A \\"B\\" \\\n\tC\n')
    assert parse_config(text) == [("core", "excludesfile", "~/my ignore"), ("core.Sub", "flag", None),
                                  ("user", "name", 'A "B"  C')]  # as `git config`


def test_files_named_with_force_exclude_follow_git_too(tmp_path, capsys, home):
    repo = make_repo(tmp_path / "repo", {".gitignore": "generated/\n", "generated/compose.yml": LAUNCH,
                                        "deploy/compose.yml": LAUNCH, "deploy/local.yml": LAUNCH})
    (repo / ".git" / "info" / "exclude").write_text("local.yml\n")
    code, out, _ = run(repo, capsys, "--force-exclude", "--output-format", "concise", "generated/compose.yml",
                       "deploy/local.yml", "deploy/compose.yml")
    assert out.splitlines()[-1] == "All checks passed!" and code == 0
    ig = Ignores()
    assert ig.ignored(repo / "generated" / "compose.yml")  # inside an ignored folder
    assert ig.ignored(repo / "deploy" / "local.yml") and not ig.ignored(repo / "deploy" / "compose.yml")


def test_a_linked_worktree_reads_the_common_info_exclude(tmp_path, capsys):
    main = make_repo(tmp_path / "main", {})
    (main / ".git" / "info" / "exclude").write_text("scratch.yml\n")
    (main / ".git" / "worktrees" / "wt").mkdir(parents=True)
    (main / ".git" / "worktrees" / "wt" / "commondir").write_text("../..\n")
    wt = tmp_path / "wt"
    write_tree(wt, {".git": f"gitdir: {main / '.git' / 'worktrees' / 'wt'}\n", "a.yml": LAUNCH,
                    "scratch.yml": LAUNCH})
    assert walked(wt, capsys) == ["a.yml"]


def test_a_nested_repository_has_its_own_rules(tmp_path, capsys):
    repo = make_repo(tmp_path / "repo", {".gitignore": "*.yml\n!outer.yml\n", "outer.yml": LAUNCH,
                                        "vendor/inner/.gitignore": "skip.yml\n", "vendor/inner/a.yml": LAUNCH,
                                        "vendor/inner/skip.yml": LAUNCH})
    (repo / "vendor" / "inner" / ".git").mkdir()
    assert walked(repo, capsys) == ["outer.yml", "vendor/inner/a.yml"]


PATTERNS = """\
# git's rules, one at a time
*.log.yml
/rooted.yml
docs/**/draft.yml
**/cache/
build-*/
!build-keep/
a/**/b/*.yml
!a/x/b/keep.yml
[Tt]emp*.yml
\\#literal.yml
trailing.yml\\ \\ 
*.yml.bak
sub/*
!sub/kept.yml
"""
TREE = ["x.log.yml", "d/x.log.yml", "rooted.yml", "d/rooted.yml", "docs/draft.yml", "docs/a/b/draft.yml",
        "cache/c.yml", "d/cache/c.yml", "build-1/c.yml", "build-keep/c.yml", "a/b/c.yml", "a/x/b/c.yml",
        "a/x/b/keep.yml", "Temp1.yml", "temp2.yml", "Xtemp.yml", "#literal.yml", "trailing.yml  ",
        "sub/kept.yml", "sub/other.yml", "sub/deeper/c.yml", "plain.yml", "d/e/f/plain.yml"]


@needs_git
def test_the_same_answer_as_git(tmp_path, capsys, home):
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True, env=env)
    write_tree(repo, {".gitignore": PATTERNS, "d/.gitignore": "!rooted.yml\ne/\n",
                      **{name: LAUNCH for name in TREE}})
    (repo / ".git" / "info" / "exclude").write_text("plain.yml\n")
    out = subprocess.run(["git", "ls-files", "-z", "--others", "--exclude-standard"], cwd=repo, check=True,
                         capture_output=True, env=env).stdout.decode()
    by_git = sorted(n for n in out.split("\0") if n and not n.endswith(".gitignore"))
    assert walked(repo, capsys) == by_git
    # git's own verdicts, for the record: exceptions in the same and in a deeper file, a parent folder
    # excluded for good, info/exclude below every .gitignore
    assert {"sub/kept.yml", "a/x/b/keep.yml", "d/rooted.yml", "build-keep/c.yml"} <= set(by_git)
    assert not {"sub/other.yml", "rooted.yml", "d/e/f/plain.yml", "plain.yml", "cache/c.yml"} & set(by_git)


@needs_git
@pytest.mark.parametrize("patterns", [
    "*\n!*/\n!*.yml\n",                      # the whitelist: ignore everything, re-include folders and YAML
    "g/**\n!g/x.yml\n",                      # `g/**` is what is inside g, not g itself
    "*\n!deploy/\n!deploy/**\n",             # a folder and its contents re-included
    "deploy/*\n!deploy/keep/\n",             # a sub-folder re-included from a folder's contents
    "/*\n!/deploy\n/deploy/*\n!/deploy/a.yml\n",
    "**/g\n!g/x.yml\n",                      # a folder ignored for good: git re-includes nothing in it
])
def test_folders_re_included_by_an_exception_are_walked_as_git_walks_them(tmp_path, capsys, home, patterns):
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True, env=env)
    names = ["top.yml", "deploy/a.yml", "deploy/x.txt.yml", "deploy/keep/k.yml", "g/x.yml", "g/y.yml",
             "g/h/z.yml", "other/o.yml"]
    write_tree(repo, {".gitignore": patterns, **{name: LAUNCH for name in names}})
    out = subprocess.run(["git", "ls-files", "-z", "--others", "--exclude-standard"], cwd=repo, check=True,
                         capture_output=True, env=env).stdout.decode()
    by_git = sorted(n for n in out.split("\0") if n and not n.endswith(".gitignore"))
    assert walked(repo, capsys) == by_git


def test_a_folder_that_cannot_be_searched_is_no_repository_not_an_internal_error(tmp_path, monkeypatch):
    """`lint-configs ok.sh locked` with `locked` at mode 000 (run without root's override): looking for
    `locked/.git` is refused, and the run reports the folder as unreadable instead of crashing."""
    from linter.gitignore import find_top

    (tmp_path / ".git").mkdir()
    locked = tmp_path / "locked"
    locked.mkdir()
    real_stat, real_lstat = os.stat, os.lstat

    def refuse(fn):
        def wrapped(p, *a, **kw):
            if "locked" in os.fspath(p):
                raise PermissionError(13, "Permission denied", os.fspath(p))
            return fn(p, *a, **kw)
        return wrapped

    monkeypatch.setattr(os, "stat", refuse(real_stat))
    monkeypatch.setattr(os, "lstat", refuse(real_lstat))
    assert find_top(locked) == tmp_path
