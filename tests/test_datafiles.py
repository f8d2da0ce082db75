"""Data files are read beside the modules, and through the package's loader when the package is not
on a file system (imported from a zip)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import linter
from linter import datafiles

LAUNCH = ("#!/bin/sh\npython3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
          "--attention-backend fa4 --enable-deterministic-inference\n")


def test_read_text_and_names_on_disk():
    assert datafiles.load_json("linter.data", "wrappers.json")
    assert "catalog.json" in datafiles.names("linter.gpus")
    assert any(n.startswith("options-") for n in datafiles.names("linter.sglang.data"))


def test_the_package_imported_from_a_zip_reads_its_data(tmp_path):
    root = Path(linter.__file__).parent
    archive = tmp_path / "linter.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in root.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                z.write(path, Path("linter") / path.relative_to(root))
    (tmp_path / "s.sh").write_text(LAUNCH)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import linter; assert '.zip' in linter.__file__; "
            "from linter.cli import main; sys.exit(main(['--target-gpu', 'H100', '--format', 'concise', 's.sh']))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", code, str(archive)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 1, proc.stderr
    assert "s.sh:2:90: error[SGL101]" in proc.stdout
    assert "SGL000" not in proc.stdout
