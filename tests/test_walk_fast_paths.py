"""The walk's fast paths give the same answers as the slow ones: skipped files counted by their bytes
alone, a folder's configuration found through its parent's real path (and through a symbolic link),
the workspace's by-name look-up, and the rule selection memoised across files."""

from __future__ import annotations

import os

import pytest

from linter.config import ConfigResolver, Selection, selected_codes
from linter.discover import Candidate, walk
from linter.workspace import Workspace
from tests.helpers import run, write_tree

LAUNCH = "#!/bin/sh\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention-backend fa3\n"


def test_skipped_files_are_counted_not_kept(tmp_path, capsys):
    write_tree(tmp_path, {"a/serve.sh": LAUNCH, "a/notes.md": "# notes\n", "b/values.yaml": "x: 1\n",
                          "b/main.tf": "resource {}\n", "b/c/tool.py": "print(1)\n"})
    code, out, _ = run(tmp_path, capsys, "--exit-zero", ".")
    assert code == 0
    assert "Checked 1 launch in 1 file" in out
    # --show-files still names each skipped file and why
    _, shown, _ = run(tmp_path, capsys, "--show-files", ".")
    assert sum(1 for line in shown.splitlines() if ": skipped: " in line) == 4


def test_no_launch_counts_every_file(tmp_path, capsys):
    write_tree(tmp_path, {"a/notes.md": "# notes\n", "b/values.yaml": "x: 1\n", "b/c/tool.py": "print(1)\n"})
    _, out, _ = run(tmp_path, capsys, "--exit-zero", ".")
    assert "No SGLang launch found in 3 files." in out


def test_walk_yields_strings_first_and_paths_on_demand(tmp_path):
    write_tree(tmp_path, {"b.sh": LAUNCH, "a/x.py": "print(1)\n"})
    found = list(walk([tmp_path], lambda p, d: False, False))
    assert [c.name for c in found] == [str(tmp_path / "b.sh"), str(tmp_path / "a" / "x.py")]
    assert found[0].path == tmp_path / "b.sh"
    assert Candidate(tmp_path / "b.sh", True).name == str(tmp_path / "b.sh")


def test_a_file_reached_twice_through_a_link_is_walked_once(tmp_path):
    write_tree(tmp_path, {"real/serve.sh": LAUNCH})
    os.symlink(tmp_path / "real" / "serve.sh", tmp_path / "alias.sh")
    found = [c.name for c in walk([tmp_path], lambda p, d: False, False)]
    assert found == [str(tmp_path / "alias.sh")]


def test_workspace_by_name(tmp_path):
    (tmp_path / "f.sh").write_text("echo\n")
    ws = Workspace(tmp_path)
    name = str(tmp_path / "f.sh")
    assert ws.unread_name(name)
    ws.read(tmp_path / "f.sh")
    assert not ws.unread_name(name)
    ws.forget(tmp_path / "f.sh")
    assert ws.unread_name(name)


def test_configuration_found_through_a_linked_folder(tmp_path):
    write_tree(tmp_path, {"real/cfg/.lint-configs.toml": 'target-gpus = ["H100"]\n', "real/cfg/sub/x.sh": LAUNCH,
                          "other/y.sh": LAUNCH})
    os.symlink(tmp_path / "real" / "cfg" / "sub", tmp_path / "link")
    resolver = ConfigResolver()
    assert resolver.for_dir(tmp_path) is None  # the parent is resolved (and cached) first, as in a walk
    assert resolver.for_dir(tmp_path / "other") is None
    found = resolver.for_dir(tmp_path / "link")  # a link: its real parent holds the configuration
    assert found is not None and found.path == (tmp_path / "real" / "cfg" / ".lint-configs.toml").resolve()


@pytest.mark.parametrize("layers, expected_in, expected_out", [
    ([Selection(select=("SGL1",))], {"SGL101"}, {"SGL201"}),
    ([Selection(ignore=("SGL101",))], {"SGL102"}, {"SGL101"}),
])
def test_selected_codes_is_a_fresh_set_each_time(layers, expected_in, expected_out):
    first = selected_codes(layers)
    assert expected_in <= first and not (expected_out & first)
    first.add("MUTATED")
    assert "MUTATED" not in selected_codes(layers)  # the memo is not shared with callers


def test_workspace_remembers_a_missing_file_until_told(tmp_path):
    ws = Workspace(tmp_path)
    target = tmp_path / "config.json"
    assert ws.try_read(target) is None
    target.write_text("{}\n")  # appears during the run: the run keeps its first answer ...
    assert ws.try_read(target) is None
    ws.forget(target)  # ... until told to look again
    assert ws.try_read(target).text == "{}\n"
    ws.add(tmp_path / "gone.yaml", "a: 1\n")  # a buffer that is not on disk wins over a missing file
    assert ws.try_read(tmp_path / "gone.yaml").text == "a: 1\n"


def test_main_leaves_the_collector_alone_and_the_command_freezes_only_at_its_end(tmp_path, capsys, monkeypatch):
    import gc
    from pathlib import Path

    import linter.cli as cli

    tomllib = pytest.importorskip("tomllib")

    (tmp_path / "serve.sh").write_text(LAUNCH)
    before = gc.get_freeze_count()
    run(tmp_path, capsys, "--exit-zero", "serve.sh")
    assert gc.get_freeze_count() == before  # code that calls main() and goes on is not affected
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert pyproject["project"]["scripts"]["lint-configs"] == "linter.cli:entry"
    frozen = []
    monkeypatch.setattr(cli, "main", lambda: 7)
    monkeypatch.setattr(cli.gc, "freeze", lambda: frozen.append(True))
    assert cli.entry() == 7 and frozen == [True]


def test_a_walked_file_that_cannot_be_read_is_named_on_stderr(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"a/serve.sh": LAUNCH, "b/locked.sh": LAUNCH})
    real_read = Workspace.read
    locked = (tmp_path / "b" / "locked.sh").resolve()

    def read(self, path, **kw):
        if path.resolve() == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_read(self, path, **kw)

    monkeypatch.setattr(Workspace, "read", read)
    code, out, err = run(tmp_path, capsys, "--exit-zero", "--jobs", "1", ".")
    assert "b/locked.sh: skipped: [Errno 13] Permission denied" in err
    assert "Checked 1 launch in 1 file" in out
    assert code == 2  # a file that was not checked is not a pass, --exit-zero or not


def test_a_path_that_cannot_be_looked_at_is_a_usage_error(tmp_path, capsys, monkeypatch):
    from pathlib import Path

    real_exists = Path.exists

    def exists(self, *a, **k):
        if self.name == "closed":
            raise PermissionError(13, "Permission denied", str(self))
        return real_exists(self, *a, **k)

    monkeypatch.setattr(Path, "exists", exists)
    code, out, err = run(tmp_path, capsys, "closed")
    assert code == 2
    assert "closed: Permission denied" in err
