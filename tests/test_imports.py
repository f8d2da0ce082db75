"""Start-up cost: a run over files that cannot hold a launch imports no heavy parser (libcst,
tree-sitter, ruamel.yaml); they are imported only for files that need them."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("libcst", "tree_sitter", "tree_sitter_bash", "ruamel")


def imported_modules(cwd, *args: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "linter", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60)
    mods = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            mods.add(line.rsplit("|", 1)[1].strip())
    assert mods, proc.stderr
    return mods


def test_files_without_an_sglang_mention_import_no_heavy_parser(tmp_path):
    (tmp_path / "compose.yaml").write_text("services:\n  web:\n    image: nginx\n")
    (tmp_path / "tool.py").write_text("import subprocess\nsubprocess.run(['ls'])\n")
    (tmp_path / "run.sh").write_text("#!/bin/sh\necho hello\n")
    mods = imported_modules(tmp_path, "compose.yaml", "tool.py", "run.sh")
    heavy = sorted(m for m in mods if m.split(".")[0] in HEAVY)
    assert heavy == []


def test_a_launch_file_imports_only_its_own_parser(tmp_path):
    (tmp_path / "serve.sh").write_text("#!/bin/sh\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n")
    mods = imported_modules(tmp_path, "serve.sh")
    roots = {m.split(".")[0] for m in mods}
    assert "tree_sitter_bash" in roots
    assert "libcst" not in roots
