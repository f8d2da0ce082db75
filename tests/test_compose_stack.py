"""Compose stacks: an override over its base, COMPOSE_FILE, extends and include (linter/extract/compose_stack.py)."""

from __future__ import annotations

import os

import pytest

from tests.helpers import lint_json, run, write_tree

BASE = """\
# lint-configs: target-gpu=H100
services:
  sglang:
    image: lmsysorg/sglang:v0.5.23-cu129
    entrypoint: python3 -m sglang.launch_server
    command: --model-path deepseek-ai/DeepSeek-V3 --tp 16
    environment:
      HF_HOME: /data
"""
OVERRIDE = """\
services:
  sglang:
    entrypoint: python3 -m sglang.launch_server --attention-backend fa4 --enable-deterministic-inference
"""


def where(diags):
    return [(d["path"], d["line"], d["column"], d["code"]) for d in diags]


def test_an_override_adding_the_fatal_flags_is_found_located_and_fixed_in_the_override(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": BASE, "compose.override.yaml": OVERRIDE})
    for args in ((), ("compose.override.yaml",), ("compose.yaml",)):
        code, diags = lint_json(tmp_path, capsys, *args) if not args else \
            _lint_files(tmp_path, capsys, *args)
        assert where(diags) == [("compose.override.yaml", 3, 69, "SGL101")], args
    code, out, _ = run(tmp_path, capsys, "--fix", "compose.override.yaml")
    assert code == 0, out
    assert (tmp_path / "compose.override.yaml").read_text() == OVERRIDE.replace("fa4", "fa3")
    assert (tmp_path / "compose.yaml").read_text() == BASE


def _lint_files(root, capsys, *files):
    import json

    from linter.cli import main
    from tests.helpers import chdir

    capsys.readouterr()
    with chdir(root):
        code = main(["--format", "json", *files])
    return code, json.loads(capsys.readouterr().out)


def test_an_override_alone_is_not_judged_without_its_base(tmp_path, capsys):
    # with its base beside it: the base supplies --model-path, so no SGL205
    write_tree(tmp_path, {"compose.yaml": BASE.replace("--tp 16", "--tp 16 --attention-backend fa3"),
                          "compose.override.yaml": OVERRIDE.replace(" --attention-backend fa4", "")})
    code, diags = _lint_files(tmp_path, capsys, "compose.override.yaml")
    assert (code, diags) == (0, [])


def test_an_override_without_a_base_is_reported_and_the_rest_linted(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.override.yml": OVERRIDE.replace("--attention-backend fa4",
                                                                          "--attention_backend fa4")})
    code, diags = lint_json(tmp_path, capsys, "--target-gpu", "H100")
    assert [d["code"] for d in diags] == ["SGL001", "SGL201"]  # no SGL205: the base would give the model
    assert "override file but there is no compose.yaml" in diags[0]["message"]


EXTENDED = """\
# lint-configs: target-gpu=H100
services:
  sglang:
    extends:
      file: common/sglang.yaml
      service: server
    environment:
      EXTRA: "1"
"""
COMMON = """\
services:
  server:
    image: lmsysorg/sglang:v0.5.23-cu129
    command: >
      python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3
      --attention-backend fa4 --enable-deterministic-inference
"""


def test_extends_from_another_file(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": EXTENDED, "common/sglang.yaml": COMMON})
    code, diags = _lint_files(tmp_path, capsys, "compose.yaml")
    assert where(diags) == [("common/sglang.yaml", 6, 27, "SGL101")]


def test_extends_in_the_same_file_and_a_cycle(tmp_path, capsys):
    text = COMMON.replace("services:\n", "# lint-configs: target-gpu=H100\nservices:\n") + """\
  worker:
    extends: server
  a:
    extends: b
  b:
    extends: a
"""
    write_tree(tmp_path, {"compose.yaml": text})
    code, diags = lint_json(tmp_path, capsys)
    assert [(d["line"], d["code"]) for d in diags] == [(7, "SGL101"), (11, "SGL001"), (13, "SGL001")]
    assert "extends makes a cycle" in diags[1]["message"]


def test_a_base_in_two_stacks_is_linted_in_each_and_its_fix_is_unsafe(tmp_path, capsys):
    # common/sglang.yaml is extended by an H100 stack and a B200 stack: fa3 there would change the B200 one
    write_tree(tmp_path, {"h100/compose.yaml": EXTENDED.replace("common/", "../common/"),
                          "b200/compose.yaml": EXTENDED.replace("common/", "../common/").replace("H100", "B200"),
                          "common/sglang.yaml": "# lint-configs: target-gpu=H100\n" + COMMON})
    code, diags = _lint_files(tmp_path, capsys, "h100/compose.yaml")
    assert where(diags) == [("common/sglang.yaml", 7, 27, "SGL101")]
    # pre-commit passes only the H100 file; the B200 one reads the same value (found one folder up)
    assert diags[0]["fix"]["applicability"] == "unsafe"
    assert "the fix is unsafe: the value is also read by the launch at common/sglang.yaml:5:5 (from b200/compose.yaml)" \
        in diags[0]["notes"]
    code, diags = _lint_files(tmp_path, capsys, "h100/compose.yaml", "b200/compose.yaml")
    assert where(diags) == [("common/sglang.yaml", 7, 27, "SGL101")]  # the B200 stack passes


def test_include(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": "# lint-configs: target-gpu=H100\ninclude:\n  - sglang/compose.yaml\n"
                                          "  - path: missing.yaml\nservices:\n  web:\n    image: nginx\n",
                          "sglang/compose.yaml": COMMON})
    code, diags = _lint_files(tmp_path, capsys, "compose.yaml")
    assert where(diags) == [("compose.yaml", 4, 11, "SGL001"), ("sglang/compose.yaml", 6, 27, "SGL101")]
    assert "include of missing.yaml: no such file" in diags[0]["message"]


def test_compose_file_in_dotenv_names_the_stack(tmp_path, capsys):
    write_tree(tmp_path, {".env": "COMPOSE_FILE=compose.yaml:gpu.yaml\nBACKEND=fa4\n",
                          "compose.yaml": BASE,
                          "gpu.yaml": "services:\n  sglang:\n    entrypoint: python3 -m sglang.launch_server "
                                      "--attention-backend ${BACKEND} --enable-deterministic-inference\n",
                          # not in COMPOSE_FILE: docker compose does not read it
                          "compose.override.yaml": "services:\n  sglang:\n    command: --model-path Qwen/Qwen3-8B\n"})
    code, diags = _lint_files(tmp_path, capsys, "gpu.yaml")
    assert where(diags) == [(".env", 2, 9, "SGL101")]
    code, diags = _lint_files(tmp_path, capsys, "compose.yaml")
    assert where(diags) == [(".env", 2, 9, "SGL101")]


def test_environment_is_merged_by_key(tmp_path, capsys):
    base = BASE.replace("    entrypoint: python3 -m sglang.launch_server\n"
                        "    command: --model-path deepseek-ai/DeepSeek-V3 --tp 16\n",
                        "    command: sh -c 'python3 -m sglang.launch_server --model-path $$MODEL "
                        "--attention-backend $$BACKEND --enable-deterministic-inference'\n") \
        .replace("      HF_HOME: /data\n", "      MODEL: deepseek-ai/DeepSeek-V3\n      BACKEND: fa3\n")
    write_tree(tmp_path, {"compose.yaml": base,
                          "compose.override.yaml": "services:\n  sglang:\n    environment:\n      BACKEND: fa4\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert where(diags) == [("compose.override.yaml", 4, 16, "SGL101")]
    # staged alone, the override (which does not mention SGLang) is still linted as its stack
    code, diags = _lint_files(tmp_path, capsys, "compose.override.yaml")
    assert where(diags) == [("compose.override.yaml", 4, 16, "SGL101")]


def test_a_config_file_mounted_into_the_container_is_read_from_the_host(tmp_path, capsys):
    write_tree(tmp_path, {
        "compose.yaml": "# lint-configs: target-gpu=H100\nservices:\n  sglang:\n"
                        "    image: lmsysorg/sglang:v0.5.23-cu129\n"
                        "    volumes:\n      - ./configs:/sgl-workspace/configs:ro\n    working_dir: /sgl-workspace\n"
                        "    command: python3 -m sglang.launch_server --config configs/glm.yaml\n",
        "configs/glm.yaml": "model-path: deepseek-ai/DeepSeek-V3\nattention-backend: fa4\n"
                            "enable-deterministic-inference: true\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert where(diags) == [("configs/glm.yaml", 2, 20, "SGL101")]


def test_fixing_an_included_file_linted_on_its_own_too(tmp_path, capsys):
    # inc/extra.yaml is fixed through compose.yaml's finding: its own result is linted again
    write_tree(tmp_path, {"compose.yaml": EXTENDED.replace("services:", "include:\n  - inc/extra.yaml\nservices:"),
                          "common/sglang.yaml": COMMON, "inc/extra.yaml": COMMON.replace("server:", "other:")})
    code, out, _ = run(tmp_path, capsys, "--fix", "--target-gpu", "H100", "--format", "concise", ".")
    assert (code, out) == (0, "Fixed 2 findings. No findings remain.\n")
    assert "--attention-backend fa3" in (tmp_path / "inc/extra.yaml").read_text()


def test_an_override_that_names_no_sglang_at_all_is_still_read_with_its_stack(tmp_path, capsys):
    # The service is not called sglang: the override's bytes hold no mention, and the mention filter
    # must still let it through (the test above passes on the service's name alone).
    base = BASE.replace("  sglang:\n", "  s:\n").replace(
        "    entrypoint: python3 -m sglang.launch_server\n    command: --model-path deepseek-ai/DeepSeek-V3 --tp 16\n",
        "    command: sh -c 'python3 -m sglang.launch_server --model-path $$MODEL "
        "--attention-backend $$BACKEND --enable-deterministic-inference'\n") \
        .replace("      HF_HOME: /data\n", "      MODEL: deepseek-ai/DeepSeek-V3\n      BACKEND: fa3\n")
    write_tree(tmp_path, {"compose.yaml": base,
                          "compose.override.yaml": "services:\n  s:\n    environment:\n      BACKEND: fa4\n"})
    assert b"sglang" not in (tmp_path / "compose.override.yaml").read_bytes()
    code, diags = _lint_files(tmp_path, capsys, "compose.override.yaml")
    assert where(diags) == [("compose.override.yaml", 4, 16, "SGL101")]
    # an override with no SGLang anywhere in its stack stays a quiet skip
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "docker-compose.override.yml").write_text("services:\n  web:\n    image: nginx\n")
    code, diags = _lint_files(tmp_path, capsys, "other/docker-compose.override.yml")
    assert diags == []


@pytest.mark.parametrize("files", [
    {"docker-compose.yml": "services: {}\n"},
    {"docker-compose.yml": "services: {}\n", ".env": "A=1\n", "docker-compose.override.yml": "services: {}\n"},
    {"compose.override.yaml": "services: {}\n", "Compose.yaml": "services: {}\n"},  # no compose.yaml by that case
])
def test_one_listing_answers_the_missing_compose_names_with_the_same_dependencies(tmp_path, monkeypatch, files):
    """stack_paths lists the folder once: each name that is not there costs no stat, and the
    dependencies noted (each probe's answer: the result cache keeps them) are those a stat per name gives."""
    from linter import workspace
    from linter.extract.compose_stack import stack_paths

    write_tree(tmp_path, files)
    first = next(iter(files))

    def looks(survey: bool):
        ws = workspace.Workspace(tmp_path, root=tmp_path)
        if not survey:
            monkeypatch.setattr(ws, "survey", lambda folder: None)
        source = ws.read(tmp_path / first, named=True)
        stats = []
        real_stat = os.stat
        monkeypatch.setattr(os, "stat", lambda p, *a, **k: stats.append(str(p)) or real_stat(p, *a, **k))
        with workspace.recording() as deps:
            got = stack_paths(source, ws)
        monkeypatch.setattr(os, "stat", real_stat)
        return got, deps, stats

    got, deps, stats = looks(True)
    assert (got, deps) == looks(False)[:2]
    # only names that are there (in some case) are stat'ed
    assert stats and {os.path.basename(p).casefold() for p in stats} <= {f.casefold() for f in files}
