"""Issue 26: ``--fix`` respects people's files — a save during the run wins, owner, group and mode
are kept, hard links and read-only files are left with a note, temp files are never linted and
never left behind, conflict markers block fixes, and one file that cannot be written (or that
vanished) never stops the others."""

from __future__ import annotations

import json
import os
import stat

import pytest

import linter.fixes as fixes
from linter.cli import main
from tests.helpers import FOLDED_H100, chdir, write_tree

SHELL_H100 = """\
#!/bin/bash
# lint-configs: target-gpu=H100
python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 \\
  --enable-deterministic-inference --tp 16
"""


def _fix(root, capsys, *paths):
    """``lint-configs --fix`` in ``root`` (text format: it shows the notes): (exit code, stdout, stderr)."""
    capsys.readouterr()
    with chdir(root):
        code = main(["--fix", *(paths or ["."])])
    out, err = capsys.readouterr()
    return code, " ".join(out.split()), err  # notes are wrapped to the width: compare words


def _after_fix_all(monkeypatch, action):
    """Run ``action()`` after the fixes are computed and before anything is written."""
    real = fixes.fix_all

    def wrapped(*args, **kwargs):
        report = real(*args, **kwargs)
        action()
        return report

    monkeypatch.setattr(fixes, "fix_all", wrapped)


def test_a_file_saved_during_fix_keeps_the_users_text(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100, "b.yaml": FOLDED_H100})
    saved = FOLDED_H100.replace("--tp 16", "--tp 32")
    _after_fix_all(monkeypatch, lambda: (tmp_path / "compose.yaml").write_text(saved))
    code, out, err = _fix(tmp_path, capsys)
    assert (tmp_path / "compose.yaml").read_text() == saved
    assert "compose.yaml left unchanged: the file changed while lint-configs was fixing it" in err
    assert "note: the fix was not applied: the file changed while lint-configs was fixing it" in out
    assert out.count("error[SGL101]") == 1 and "--> compose.yaml:" in out and "--> b.yaml" not in out
    assert "--attention-backend fa3" in (tmp_path / "b.yaml").read_text()  # the other file was fixed
    assert code == 1


def test_a_file_replaced_during_fix_is_not_overwritten(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})

    def replace():  # same bytes, new inode (an editor's atomic save)
        (tmp_path / "new").write_text(FOLDED_H100)
        os.replace(tmp_path / "new", tmp_path / "compose.yaml")

    _after_fix_all(monkeypatch, replace)
    code, out, err = _fix(tmp_path, capsys)
    assert (tmp_path / "compose.yaml").read_text() == FOLDED_H100
    assert "replaced while lint-configs was fixing it" in err and code == 1


def test_a_file_deleted_during_fix_does_not_stop_the_run(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"a.yaml": FOLDED_H100, "b.yaml": FOLDED_H100})
    _after_fix_all(monkeypatch, lambda: (tmp_path / "a.yaml").unlink())
    code, out, err = _fix(tmp_path, capsys)
    assert not (tmp_path / "a.yaml").exists()
    assert "--attention-backend fa3" in (tmp_path / "b.yaml").read_text()
    assert "a.yaml left unchanged: the file was deleted" in err
    assert code == 1
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".")]


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner needs root")
def test_root_fix_keeps_owner_group_and_mode(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    f = tmp_path / "compose.yaml"
    os.chown(f, 65534, 65534)
    os.chmod(f, 0o640)
    code, _, _ = _fix(tmp_path, capsys)
    st = os.stat(f)
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (65534, 65534, 0o640)
    assert "--attention-backend fa3" in f.read_text() and code == 0


def test_fix_keeps_the_mode(tmp_path, capsys):
    write_tree(tmp_path, {"run.sh": SHELL_H100})
    os.chmod(tmp_path / "run.sh", 0o751)
    _fix(tmp_path, capsys)
    assert stat.S_IMODE(os.stat(tmp_path / "run.sh").st_mode) == 0o751
    assert "--attention-backend fa3" in (tmp_path / "run.sh").read_text()


def test_a_hard_linked_file_is_not_rewritten(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    os.link(tmp_path / "compose.yaml", tmp_path / "other-name.txt")
    code, out, err = _fix(tmp_path, capsys, "compose.yaml")
    assert (tmp_path / "compose.yaml").read_text() == FOLDED_H100
    assert os.stat(tmp_path / "compose.yaml").st_ino == os.stat(tmp_path / "other-name.txt").st_ino
    assert "note: the fix was not applied: the file has 2 hard links" in out
    assert code == 1


def test_a_read_only_file_is_not_rewritten(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    os.chmod(tmp_path / "compose.yaml", 0o444)
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if mode == os.W_OK else real(p, mode, **kw))
    code, out, err = _fix(tmp_path, capsys)
    assert (tmp_path / "compose.yaml").read_text() == FOLDED_H100
    assert "note: the fix was not applied: the file is read-only (mode 0444)" in out
    assert code == 1


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may write a 0444 file")
def test_root_writes_a_read_only_file_and_says_so(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    os.chmod(tmp_path / "compose.yaml", 0o444)
    code, out, err = _fix(tmp_path, capsys)
    assert "--attention-backend fa3" in (tmp_path / "compose.yaml").read_text()
    assert stat.S_IMODE(os.stat(tmp_path / "compose.yaml").st_mode) == 0o444
    assert "compose.yaml: the file is read-only (mode 0444); rewritten because lint-configs runs as root" in err
    assert code == 0


def test_one_unwritable_file_does_not_stop_the_others(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"a.yaml": FOLDED_H100, "b.yaml": FOLDED_H100})
    real = os.replace

    def replace(src, dst):
        if str(dst).endswith("a.yaml"):
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    code, out, err = _fix(tmp_path, capsys)
    assert (tmp_path / "a.yaml").read_text() == FOLDED_H100
    assert "--attention-backend fa3" in (tmp_path / "b.yaml").read_text()
    assert "a.yaml: cannot write it: No space left on device" in err
    assert sorted(os.listdir(tmp_path)) == ["a.yaml", "b.yaml"]  # the temp file was removed
    assert code == 2


def test_temp_files_are_named_so_no_format_claims_them(tmp_path, capsys):
    left = ".run.sh.lint-configs-abc123.tmp"
    write_tree(tmp_path, {left: SHELL_H100, "compose.yaml": FOLDED_H100.replace("fa4", "fa3")})
    capsys.readouterr()
    with chdir(tmp_path):
        code = main(["--format", "json", "."])
    assert json.loads(capsys.readouterr().out) == [] and code == 0  # the leftover would be SGL101
    assert fixes.TEMP_NAME.match(left)


def test_conflict_markers_block_fixes_but_not_the_same_fix_elsewhere(tmp_path, capsys):
    conflicted = SHELL_H100.replace("python3 -m", "<<<<<<< HEAD\nexport X=1\n=======\nexport X=2\n"
                                                  ">>>>>>> topic\npython3 -m")
    write_tree(tmp_path, {"a.sh": conflicted, "b.sh": SHELL_H100})
    code, out, err = _fix(tmp_path, capsys)
    assert (tmp_path / "a.sh").read_text() == conflicted
    assert "--attention-backend fa3" in (tmp_path / "b.sh").read_text()
    assert "a.sh has merge conflict markers (<<<<<<< / >>>>>>>); resolve the conflict first" in out
    assert "--> b.sh" not in out


def test_a_refusal_is_per_file_and_edit():
    from linter.rules.base import SAFE, Diagnostic, Fix
    from linter.source import Edit, SourceFile, Span

    a, b = SourceFile(None, "a", "x fa4"), SourceFile(None, "b", "x fa4")
    a.path, b.path = "/r/a", "/r/b"

    def diag(src):
        return Diagnostic("SGL101", "n", "error", "m", Span(src, 2, 5), Fix(SAFE, "m", [Edit(Span(src, 2, 5), "fa3")]),
                          key="services.s:model:attention_backend")

    assert fixes._refusal(diag(a)) != fixes._refusal(diag(b))
    assert fixes._refusal(diag(a)) == fixes._refusal(diag(a))


def test_write_atomic_removes_its_temp_file_on_any_failure(tmp_path, monkeypatch):
    from linter.source import SourceFile

    f = tmp_path / "run.sh"
    f.write_text("a\n")
    src = SourceFile(f, "run.sh", "a\n")

    def fail(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(KeyboardInterrupt):
        fixes.write_atomic(src, "b\n", os.stat(f))
    assert os.listdir(tmp_path) == ["run.sh"] and f.read_text() == "a\n"


def test_fixing_one_file_does_not_break_a_sibling_reading_the_same_env(tmp_path, capsys):
    # pre-commit passes only the staged a.yml; b.yml (B200, where fa3 is refused) reads the same .env.
    compose = ("# lint-configs: target-gpu={gpu}\nservices:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
               "    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
               "--enable-deterministic-inference --attention-backend ${{ATTN}}\n")
    env = "ATTN=fa4\n"
    write_tree(tmp_path, {"a.yml": compose.format(gpu="H100"), "b.yml": compose.format(gpu="B200"), ".env": env})
    code, out, err = _fix(tmp_path, capsys, "a.yml")
    assert (tmp_path / ".env").read_text() == env
    assert "SGL101" in out and code == 1


LAUNCH_NO_EOL = ("# lint-configs: target-gpu=H100\nservices:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
                 "    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
                 "--attention-backend fa4 --enable-deterministic-inference")


@pytest.mark.parametrize("newline", ["", "\n"])
def test_diff_marks_a_last_line_without_newline_and_git_applies_it(tmp_path, capsys, newline):
    import shutil
    import subprocess

    write_tree(tmp_path, {"a.yaml": LAUNCH_NO_EOL + newline, "b.yaml": LAUNCH_NO_EOL + "\n"})
    with chdir(tmp_path):
        main(["--diff", "."])
    patch = capsys.readouterr().out
    assert patch.count("\\ No newline at end of file\n") == (0 if newline else 2)
    assert "inference--- a/b.yaml" not in patch  # each file's header on its own line
    assert "\n--- a/b.yaml\n" in patch
    if shutil.which("git"):
        (tmp_path / "fix.patch").write_text(patch)
        subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
        done = subprocess.run(["git", "apply", "fix.patch"], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "a.yaml").read_text() == LAUNCH_NO_EOL.replace("fa4", "fa3") + newline


def test_diff_keeps_a_lone_cr_file_as_git_sees_it():
    from linter.source import SourceFile

    before = "a: 1\rb: fa4\r"
    diff = fixes.unified_diff(SourceFile(path=None, display="x.yaml", text=before), before.replace("fa4", "fa3"))
    # no "\n" in the file: one line for diff and git, marked as having no newline at its end
    assert diff.split("\n")[2:-1] == ["@@ -1 +1 @@", "-a: 1\rb: fa4\r", "\\ No newline at end of file",
                                     "+a: 1\rb: fa3\r", "\\ No newline at end of file"]
