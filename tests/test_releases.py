"""A launch is judged by the parser of the SGLang release it pins (issue 18), and the text report says
which release was assumed when none was pinned or the pinned one has no table.

The option facts used here were read by diffing the generated tables (see test_option_tables.py's
test_options_across_releases): ``--enable-ep-moe`` exists 0.4.0.post1-0.5.4, ``--disable-mla``
0.4.0-0.4.5.post1, ``--enable-deterministic-inference`` from 0.5.3, ``--attn-dp-size`` after 0.5.9,
``--enable-piecewise-cuda-graph`` in 0.5.9 but not in the newest release.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.sglang.decision import semantics, startup_checks_documented
from linter.sglang.options import (
    available_versions,
    known_release,
    load_table,
    newest_version,
    unavailable_versions,
    version_tuple,
)
from linter.sglang.release import detect, table_for
from tests.helpers import lint_json, run, write_tree

DATA = Path(__file__).resolve().parents[1] / "linter" / "sglang" / "data"

DEEPSEEK_FA4 = ("python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
                "--attention-backend fa4 --enable-deterministic-inference")


def compose(image: str | None, command: str) -> str:
    img = f"    image: lmsysorg/sglang:{image}\n" if image else ""
    return f"# lint-configs: target-gpu=H100\nservices:\n  s:\n{img}    command: {command}\n"


def messages(diags: list[dict]) -> list[tuple[str, str]]:
    return [(d["code"], d["message"]) for d in diags]


def test_versions_sort_post_releases_after_their_base():
    assert version_tuple("0.4.5") < version_tuple("0.4.5.post1") < version_tuple("0.4.5.post3") < version_tuple("0.4.6")
    assert version_tuple("v0.5.15.post1") == (0, 5, 15, 1)
    known = available_versions()
    assert list(known) == sorted(known, key=version_tuple)
    assert known[0] == "0.4.0" and "0.4.2.post4" in known and "0.5.1.post1" in known


def test_file_pinned_to_0_4_5_is_judged_by_its_own_parser(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": compose(
        "v0.4.5", "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --enable-ep-moe "
                  "--disable-mla --attention-backend fa3 --enable-deterministic-inference")})
    code, diags = lint_json(tmp_path, capsys)
    # --enable-ep-moe and --disable-mla existed then; deterministic inference did not exist yet
    assert messages(diags) == [("SGL201", "unknown option --enable-deterministic-inference: SGLang 0.4.5's parser "
                                          "stops with 'unrecognized arguments'")]
    assert code == 1
    # the newest parser rejects what 0.4.5 accepted
    _, newest = lint_json(tmp_path, capsys, "--sglang-version", newest_version(), "--select", "SGL201")
    assert sorted(d["message"].split(":")[0] for d in newest) == [
        "unknown option --disable-mla", "unknown option --enable-ep-moe"]


def test_file_pinned_to_0_5_9_is_judged_by_its_own_parser(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": compose(
        "v0.5.9-cu129", "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
                        "--enable-piecewise-cuda-graph --attn-dp-size 2 --attention-backend dsa")})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["message"].split(":")[0]) for d in diags] == [
        ("SGL201", "unknown option --attn-dp-size"),  # added after 0.5.9
        ("SGL203", "invalid choice 'dsa' for --attention-backend in SGLang 0.5.9 (choose from triton, torch_native, "
                   "flex_attention, nsa, cutlass_mla, fa3, fa4, flashinfer, flashmla, trtllm_mla, trtllm_mha, "
                   "dual_chunk_flash_attn, aiter, wave, intel_amx, ascend, intel_xpu)"),
    ]
    # on the newest release --enable-piecewise-cuda-graph is gone and the other two are accepted by the
    # parser; --attn-dp-size 2 with --tp 1 then fails SGLang's check on the parallel sizes
    _, newest = lint_json(tmp_path, capsys, "--sglang-version", newest_version())
    assert [(d["code"], d["message"].split(":")[0]) for d in newest] == [
        ("SGL201", "unknown option --enable-piecewise-cuda-graph"),
        ("SGL402", "SGLang 0.5.23 refuses these parallel sizes at start-up")]


def test_sglang_pin_with_post_release_in_a_setup_script(tmp_path, capsys):
    write_tree(tmp_path, {"serve.sh": (
        "#!/bin/bash\n# lint-configs: target-gpu=H100\npip install \"sglang[all]==0.4.2.post4\"\n"
        "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --enable-flashinfer-mla\n")})
    _, diags = lint_json(tmp_path, capsys)
    # --enable-flashinfer-mla appeared in 0.4.3
    assert messages(diags) == [("SGL201", "unknown option --enable-flashinfer-mla: SGLang 0.4.2.post4's parser "
                                          "stops with 'unrecognized arguments'")]
    code, out, _ = run(tmp_path, capsys, "--explain", "serve.sh")
    assert "release:   SGLang 0.4.2.post4, from an sglang== pin in the file (0.4.2.post4)" in out


def test_start_up_checks_apply_from_the_documented_release(tmp_path, capsys):
    since = semantics()["startup_checks_since"]
    assert since["value"] == "0.5.15.post1" and "sglang-semantics.md §0.2" in since["source"]
    assert startup_checks_documented(load_table("0.5.15.post1"))
    assert not startup_checks_documented(load_table("0.5.15"))
    write_tree(tmp_path, {"a/compose.yaml": compose("v0.5.13.post1", DEEPSEEK_FA4),
                          "b/compose.yaml": compose("v0.5.15.post1", DEEPSEEK_FA4)})
    _, diags = lint_json(tmp_path, capsys)
    # fa4 is not in 0.5.15.post1's deterministic list (error A); 0.5.13.post1 is checked by its parser only
    det = load_table("0.5.15.post1").list("deterministic_attention_backends")
    assert det == ["flashinfer", "fa3", "triton", "ascend"]
    assert [(d["path"], d["code"]) for d in diags] == [("b/compose.yaml", "SGL103")]
    code, out, _ = run(tmp_path / "a", capsys)
    assert code == 0
    note = ("SGLang 0.5.13.post1: only its argument parser is checked; its start-up checks are not documented "
            "for releases before 0.5.15.post1")
    assert f"{note} (1 launch)." in " ".join(out.split())  # wrapped to the width
    _, out, _ = run(tmp_path / "a", capsys, "--explain", "compose.yaml")
    assert note in out


def test_parser_findings_of_an_old_release_carry_the_note(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": compose("v0.4.5", DEEPSEEK_FA4)})
    code, out, _ = run(tmp_path, capsys)
    assert code == 1
    assert out.count("= note: SGLang 0.4.5: only its argument parser is checked") == 2  # SGL203 fa4, SGL201
    assert "SGL101" not in out and "SGL901" not in out


def test_assumed_release_line_when_nothing_is_pinned(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": compose(None, DEEPSEEK_FA4),
                          "other.sh": "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n"})
    _, out, _ = run(tmp_path, capsys)
    assert (f"SGLang release assumed: {newest_version()} (newest known) for 2 launches; pin it with "
            "sglang-version or an image tag.") in " ".join(out.split())
    # the line comes right before the summary
    assert out.splitlines()[-1].startswith("Found ")
    assert any(line.startswith("SGLang release assumed: ") for line in out.splitlines()[-3:])
    # pinned in the configuration: nothing is assumed
    write_tree(tmp_path, {".lint-configs.toml": f'sglang-version = "{newest_version()}"\n'})
    _, out, _ = run(tmp_path, capsys)
    assert "assumed" not in out.split("\n\n")[-1]


def test_assumed_release_line_when_the_pinned_release_has_no_table(tmp_path, capsys):
    missing = sorted(unavailable_versions(), key=version_tuple)[0]
    table, note = table_for(missing)
    older = [v for v in available_versions() if version_tuple(v) < version_tuple(missing)]
    assert table.version == older[-1] and f"no option table for {missing}" in note
    write_tree(tmp_path, {"compose.yaml": compose(f"v{missing}", "python3 -m sglang.launch_server --model-path m")})
    code, out, _ = run(tmp_path, capsys)
    assert code == 0
    assert (f"SGLang release assumed: {older[-1]} (nearest older release) for 1 launch that names {missing}, "
            "which has no option table.") in " ".join(out.split())
    _, out, _ = run(tmp_path, capsys, "--explain", "compose.yaml")
    assert f"its parser could not be dumped: {unavailable_versions()[missing]}" in out


def test_release_older_than_every_table_uses_the_oldest():
    table, note = table_for("0.3.6")
    assert table.version == "0.4.0" and "the oldest known release" in note
    rel = detect(cli_version=None, config_version=None, config_origin="", image="lmsysorg/sglang:v0.5.1.post1-cu126",
                 file_text="", folder=None)
    assert (rel.table.version, rel.written, rel.assumed, rel.cuda_build) == (
        "0.5.1.post1", "0.5.1.post1", False, (12, 6))


@pytest.mark.parametrize("value, ok", [
    ("0.5.15.post1", "0.5.15.post1"), ("v0.4.2.post4", "0.4.2.post4"), ("0.4.4.post2", "0.4.4.post2"),
    ("0.5.24", None), ("0.3.6", None), ("0.5", None), ("0.5.9rc1", None),
])
def test_known_release(value, ok):
    if ok is None:
        with pytest.raises(ValueError, match="known: 0.4.0 … "):
            known_release(value)
    else:
        assert known_release(value) == ok


def test_config_accepts_post_releases_and_rejects_unknown_ones(tmp_path, capsys):
    write_tree(tmp_path, {".lint-configs.toml": 'sglang-version = "0.4.2.post4"\n',
                          "compose.yaml": compose(None, "python3 -m sglang.launch_server --model-path m "
                                                        "--enable-flashinfer-mla")})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == ["SGL201"]
    write_tree(tmp_path, {".lint-configs.toml": 'sglang-version = "0.6.0"\n'})
    code, _, err = run(tmp_path, capsys)
    assert code == 2
    assert f"no option table for SGLang '0.6.0'; known: 0.4.0 … {newest_version()}" in err


@pytest.mark.skipif(not (DATA / "unavailable.json").exists(), reason="no unavailable.json")
def test_unavailable_json_names_releases_without_tables():
    doc = json.loads((DATA / "unavailable.json").read_text(encoding="utf-8"))
    assert set(doc["releases"]) == set(unavailable_versions())
    assert not set(unavailable_versions()) & set(available_versions())


def test_a_pip_pin_beats_an_image_the_host_launch_does_not_run_in():
    from linter.engine import lint_text_result

    text = ("docker pull lmsysorg/sglang:v0.4.6-cu124\npip install sglang==0.5.23\n"
            "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --cuda-graph-max-bs-decode 16\n")
    result = lint_text_result(text, "shell", ["H100"])
    [ctx] = result.contexts
    assert ctx.table.version == "0.5.23" and result.diagnostics == []


def test_a_removed_option_says_when_it_existed():
    from linter.engine import lint_text

    [d] = lint_text("python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --enable-ep-moe\n", "shell",
                    ["H100"], sglang_version="0.5.23")
    assert d.code == "SGL201" and "removed in SGLang 0.5.4.post1 (last in 0.5.4)" in d.message
    assert "did you mean" not in d.message


def test_a_parser_finding_on_an_assumed_release_says_so():
    from linter.engine import lint_text

    text = "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --enable-ep-moe\n"
    [d] = lint_text(text, "shell", ["H100"])
    assert any(n.startswith("judged against SGLang") and "nothing pins the release" in n for n in d.notes)
    [pinned] = lint_text("# image: lmsysorg/sglang:v0.5.23-cu129\n" + text, "shell", ["H100"])
    assert not any(n.startswith("judged against SGLang") for n in pinned.notes)


def _release(image: str):
    return detect(cli_version=None, config_version=None, config_origin="", image=image, file_text="",
                  folder=None)


@pytest.mark.parametrize("image,version,cuda", [
    # built from main on the day, on the way to the next release (PyPI: 0.5.6.post2 2025-12-11, 0.5.7 2026-01-01)
    ("lmsysorg/sglang:nightly-dev-20251215-4449c170", "0.5.7", None),
    ("lmsysorg/sglang:nightly-dev-cu13-20260922-582389ce", "0.5.21", (13, 0)),  # 0.5.20 09-18, 0.5.21 10-01
    ("lmsysorg/sglang:nightly-dev-20260101-abcdef12", "0.5.8", None),  # the day of 0.5.7 itself: not after it
])
def test_a_dated_nightly_image_is_judged_as_the_first_release_after_its_day(image, version, cuda):
    rel = _release(image)
    assert (rel.table.version, rel.cuda_build, rel.written) == (version, cuda, None)
    assert f"a nightly build of {image.rsplit('-', 2)[-2][:4]}" in rel.origin and "moves" not in rel.origin


def test_an_undated_nightly_or_a_nightly_past_every_release_is_the_newest():
    newest = available_versions()[-1]
    moving = _release("lmsysorg/sglang:nightly-dev-cu13")
    assert moving.table.version == newest and "moves with each build" in moving.origin
    late = _release("lmsysorg/sglang:nightly-dev-20991231-abc")
    assert late.table.version == newest and "the newest known release" in late.origin


def test_a_release_candidate_is_judged_as_its_release(tmp_path, capsys):
    rel = _release("lmsysorg/sglang:v0.5.3rc0-cu126")
    assert rel.table.version == "0.5.3" and "the release it is a candidate for" in rel.origin
    write_tree(tmp_path, {"compose.yaml": "services:\n  s:\n    image: lmsysorg/sglang:v0.5.3rc0-cu126\n"
                          "    command: python3 -m sglang.launch_server --model-path m --bogus\n"})
    _, out, _ = run(tmp_path, capsys, "--color", "never", ".")
    assert "SGLang release assumed: 0.5.3 (release it is a candidate for) for 1 launch that names 0.5.3rc0" in out


def test_a_choice_that_the_nightly_had_is_no_false_alarm(tmp_path, capsys):
    """sgl-project/ome's runtimes pin `nightly-dev-20251215-4449c170` with `--reasoning-parser nano_v3`, a
    choice of 0.5.7-0.5.9 that 0.5.23 no longer has."""
    write_tree(tmp_path, {"compose.yaml": "services:\n  s:\n    image: lmsysorg/sglang:nightly-dev-20251215-4449c170\n"
                          "    command: python3 -m sglang.launch_server --model-path m --reasoning-parser nano_v3\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert (code, diags) == (0, [])


def test_every_release_with_a_table_has_a_publication_day():
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, str(root / "scripts" / "generate_release_dates.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("version,command,codes", [
    ("0.5.4.post3", "sglang serve --model-path Qwen/Qwen3-8B", ["SGL213"]),
    ("0.4.0", "python3 -m sglang.cli.main serve --model-path Qwen/Qwen3-8B", ["SGL213"]),
    ("0.5.5", "sglang serve --model-path Qwen/Qwen3-8B", []),
    ("0.4.0", "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B", []),
])
def test_sglang_serve_needs_the_release_that_has_the_command(tmp_path, capsys, version, command, codes):
    write_tree(tmp_path, {"serve.sh": command + "\n"})
    code, diags = lint_json(tmp_path, capsys, "--sglang-version", version)
    assert [d["code"] for d in diags] == codes
    if codes:
        assert diags[0]["message"].startswith(f"SGLang {version} has no `sglang` command (it first ships in 0.5.5)")
        assert (diags[0]["column"], diags[0]["end_column"]) == (command.index("sglang") + 1, command.index("serve") + 6)
