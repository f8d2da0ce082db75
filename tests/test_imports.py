"""Start-up cost: a run over files that cannot hold a launch imports no heavy parser (tree-sitter,
ruamel.yaml, PyYAML); they are imported only for files that need them. Python files are read with the
standard library's ``ast`` (no third-party parser at all)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("tree_sitter", "tree_sitter_bash", "ruamel", "yaml")


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
    assert "ruamel" not in roots


def test_a_python_launch_file_needs_no_third_party_parser(tmp_path):
    (tmp_path / "launch.py").write_text("import subprocess\nsubprocess.run(['python3', '-m', 'sglang.launch_server', "
                                        "'--model-path', 'Qwen/Qwen3-8B'])\n")
    mods = imported_modules(tmp_path, "launch.py")
    assert "linter.extract.python.analysis" in mods  # the file was analysed
    assert sorted(m for m in mods if m.split(".")[0] in HEAVY + ("libcst",)) == []


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


# What a compose launch without --config, linted as the pre-commit hook does (text output to a pipe),
# must not load: the --config merger, importlib.resources (data files are read beside the modules)
# and shutil (argparse's and the report's terminal sizing, only for a terminal).
LAUNCH_SPARE = ("linter.sglang.config_file", "importlib.resources", "shutil", "tempfile", "zipfile")


def test_a_compose_launch_without_config_loads_no_config_merger_resources_or_shutil(tmp_path):
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
        "    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention-backend fa3\n")
    mods = imported_modules(tmp_path, "--force-exclude", "docker-compose.yml")
    assert "linter.extract.compose_stack" in mods  # the compose file was read
    assert sorted(m for m in mods if m in LAUNCH_SPARE) == []


# A cold run (--no-cache) on one compose launch with a finding, as scripts/bench.py's compose-cold row
# runs it: the classes it defines are made by linter.records without the dataclasses module (and the
# inspect, ast, dis and tokenize modules it loads: some 13 ms of a 0.13 s run).
COLD_SPARE = ("dataclasses", "inspect", "ast", "dis", "tokenize")


def test_a_cold_compose_run_loads_no_dataclasses_or_inspect(tmp_path):
    (tmp_path / "docker-compose.yml").write_text(
        "# lint-configs: target-gpu=H100\nservices:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
        "    command: >\n      python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8\n"
        "      --attention-backend fa4 --enable-deterministic-inference\n")
    mods = imported_modules(tmp_path, "--no-cache", "--force-exclude", "docker-compose.yml")
    assert {"linter.extract.compose_stack", "linter.rules.deterministic", "linter.report.snippet"} <= mods
    assert sorted(m for m in mods if m in COLD_SPARE) == []


def test_a_launch_with_config_loads_the_merger(tmp_path):
    (tmp_path / "serve.yaml").write_text("attention-backend: fa3\n")
    (tmp_path / "run.sh").write_text("#!/bin/sh\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B "
                                     "--config serve.yaml\n")
    mods = imported_modules(tmp_path, "run.sh")
    assert "linter.sglang.config_file" in mods


# The most common pre-commit run: staged files that do not mention SGLang. Nothing of a launch, of a
# finding's snippet (rich's cell widths) or of a traceback is needed to say so.
NO_MENTION_SPARE = ("linter.launch", "linter.report.snippet", "rich", "traceback", "argparse", "dataclasses", "inspect",
                    "textwrap")


def test_a_run_with_no_mention_loads_no_launch_snippet_or_traceback_module(tmp_path):
    (tmp_path / "compose.yaml").write_text("services:\n  web:\n    image: nginx\n")
    mods = imported_modules(tmp_path, "--force-exclude", "compose.yaml")
    assert sorted(m for m in mods if m in NO_MENTION_SPARE or m.split(".")[0] == "rich") == []


def test_docutils_is_imported_only_for_an_rst_page_that_mentions_sglang(tmp_path):
    (tmp_path / "index.rst").write_text("Welcome\n=======\n\n.. code-block:: bash\n\n   pip install foo\n")
    (tmp_path / "README.md").write_text("# Serving\n\n!!! note\n\n    ```bash\n    python3 -m sglang.launch_server "
                                        "--model-path Qwen/Qwen3-8B\n    ```\n")
    mods = imported_modules(tmp_path, "index.rst", "README.md")
    assert "linter.extract.pymdown" in mods  # the Markdown page was read, without docutils
    assert sorted(m for m in mods if m.split(".")[0] == "docutils") == []
    (tmp_path / "index.rst").write_text("Serving\n=======\n\n.. code-block:: bash\n\n   python3 -m sglang.launch_server "
                                        "--model-path Qwen/Qwen3-8B\n")
    assert "docutils.parsers.rst" in imported_modules(tmp_path, "index.rst")


# A file answered from the result cache (linter/cache): stat/read, hash, load. No YAML library, no rule
# module, no resolver, SGLang or GPU table, no extractor, not even typing; no argparse for a plain command
# line (linter.cli.quick_parse) and no dataclasses (with inspect, ast, dis: linter/records.py). (The format
# registry is read: the walk asks it whether a named file is a companion such as a .env; it compiles no
# sniff on import.)
HIT_SPARE = ("yaml", "ruamel", "tree_sitter", "linter.resolve", "linter.launch", "linter.directives",
             "typing", "threading", "pickle", "secrets", "argparse", "dataclasses", "inspect", "ast", "dis",
             "gettext", "locale")
HIT_SPARE_PACKAGES = ("linter.sglang", "linter.gpus", "linter.extract")


def test_a_cache_hit_loads_no_parser_rule_or_table(tmp_path, monkeypatch):
    monkeypatch.delenv("LINT_CONFIGS_NO_CACHE")
    monkeypatch.setenv("LINT_CONFIGS_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "docker-compose.yml").write_text(
        "# lint-configs: target-gpu=H100\nservices:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
        "    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
        "--enable-deterministic-inference\n")
    cold = imported_modules(tmp_path, "--force-exclude", "docker-compose.yml")
    assert {"yaml", "linter.rules.deterministic", "linter.sglang.options"} <= cold  # the first run lints
    warm = imported_modules(tmp_path, "--force-exclude", "docker-compose.yml")
    assert "linter.cache.codec" in warm  # the second reads the cache
    rules = sorted(m for m in warm if m.startswith("linter.rules.")
                   and m not in ("linter.rules.base", "linter.rules.links"))  # (links: the rules' addresses)
    assert rules == []
    assert sorted(m for m in warm if m.split(".")[0] in HIT_SPARE or m in HIT_SPARE
                  or m.startswith(HIT_SPARE_PACKAGES)) == []

