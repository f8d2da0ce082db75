"""Start-up cost: a run over files that cannot hold a launch imports no heavy parser (libcst,
tree-sitter, ruamel.yaml, PyYAML); they are imported only for files that need them."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("libcst", "tree_sitter", "tree_sitter_bash", "ruamel", "yaml")


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


# What a run over files that fail the mention filter must not load: the rule modules and what they
# need (the resolver, the SGLang option tables, the GPU catalog), and no TOML parser when there is
# no configuration file.
RULE_HEAVY = ("linter.rules.deterministic", "linter.rules.gates", "linter.rules.options", "linter.rules.frameworks",
              "linter.resolve", "linter.sglang.options", "linter.sglang.analysis", "linter.gpus.catalog", "tomllib",
              "tomli")


def test_files_without_an_sglang_mention_load_no_rule_and_no_toml_parser(tmp_path):
    (tmp_path / "compose.yaml").write_text("services:\n  web:\n    image: nginx\n")
    (tmp_path / "values.yaml").write_text("replicaCount: 2\n")
    (tmp_path / "run.sh").write_text("#!/bin/sh\necho hello\n")
    mods = imported_modules(tmp_path, ".")
    loaded = sorted(m for m in mods if m in RULE_HEAVY or m.split(".")[0] in HEAVY)
    assert loaded == []


def test_a_configuration_file_loads_the_toml_parser_and_a_launch_loads_the_rules(tmp_path):
    (tmp_path / ".lint-configs.toml").write_text('target-gpus = ["H100"]\n')
    (tmp_path / "serve.sh").write_text("#!/bin/sh\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n")
    mods = imported_modules(tmp_path, "serve.sh")
    assert {"tomllib" if sys.version_info >= (3, 11) else "tomli", "linter.rules.options",
            "linter.gpus.catalog"} <= mods
