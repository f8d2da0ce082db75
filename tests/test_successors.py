"""Successors of removed, renamed and deprecated options (issue 32): the table generated from the wheels,
the messages and fixes of SGL201-SGL203/SGL210/SGL211, and ``--upgrade-to X``."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from linter.engine import lint_text
from linter.sglang.options import available_versions
from tests.helpers import ROOT, lint_json, run, write_tree

DATA = ROOT / "linter" / "sglang" / "data" / "successors.json"
NEWEST = available_versions()[-1]
L = "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "


def _generator():
    spec = importlib.util.spec_from_file_location("generate_successors", ROOT / "scripts" / "generate_successors.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _entry(option: str, choice: str | None = None) -> dict:
    doc = json.loads(DATA.read_text("utf-8"))
    [e] = [e for e in doc["entries"] if e["option"] == option and e["choice"] == choice]
    return e


def _found(text: str, version: str, gpus=("H100",)):
    return [d for d in lint_text(text, "shell", list(gpus), sglang_version=version) if d.code != "SGL005"]


# -- the table ------------------------------------------------------------------------------------


@pytest.mark.parametrize("option, removed, write, said, where", [
    ("--enable-deepep-moe", "0.5.4.post1", ["--moe-a2a-backend", "deepep"],
     "Please set `--moe-a2a-backend` to 'deepep' instead.", "0.5.3 sglang/srt/server_args.py:2840"),
    ("--enable-ep-moe", "0.5.4.post1", ["--ep-size", "{tp_size}"],
     "Please set `--ep-size` to the same value as `--tp-size` instead.", "0.5.3 sglang/srt/server_args.py:2835"),
    ("--cuda-graph-max-bs", "0.5.20", ["--cuda-graph-max-bs-decode", "{value}"],
     "Deprecated alias for --cuda-graph-max-bs-decode.", "0.5.19 sglang/srt/server_args.py:3934"),
    ("--cuda-graph-bs", "0.5.20", ["--cuda-graph-bs-decode", "{value}"],
     "Deprecated alias for --cuda-graph-bs-decode.", "0.5.19 sglang/srt/server_args.py:3943"),
    ("--disable-flashinfer", "0.4.1.post2", ["--attention-backend", "triton"],
     "Please use '--attention-backend triton' instead.", "0.4.0 sglang/srt/server_args.py:741"),
])
def test_each_successor_is_named_from_sglangs_own_words(option, removed, write, said, where):
    e = _entry(option)
    assert (e["removed"], e["successor"]["write"], e["successor"]["equivalent"], e["basis"]) == (
        removed, write, "yes", "words")
    w = e["words"][0]
    assert said in w["text"] and f"{w['release']} {w['where']}" == where


def test_the_code_that_took_the_place_is_evidence_too():
    # 0.5.2's __post_init__ set the successor itself: the same thing, by SGLang's own code
    codes = {(c["release"], c["text"]) for c in _entry("--enable-deepep-moe")["code"]}
    assert ("0.5.2", 'self.moe_a2a_backend = "deepep"') in codes
    assert ("0.5.2", "self.ep_size = self.tp_size") in {(c["release"], c["text"]) for c in _entry("--enable-ep-moe")["code"]}


def test_a_dropped_backend_names_candidates_and_no_successor():
    e = _entry("--attention-backend", "cutlass_mla")
    assert (e["last"], e["removed"]) == ("0.5.19", "0.5.20")
    assert e["successor"] == {"equivalent": "no", "candidates": ["trtllm_mla", "flashinfer"],
                              "note": "the Blackwell MLA backends that remain"}


def test_deprecated_stages_say_when_it_warned_and_when_it_raised():
    stages = [(s["from"], s["to"], s["behaviour"]) for s in _entry("--enable-ep-moe")["stages"]]
    assert stages == [("0.4.10.post2", "0.5.2", "warns"), ("0.5.3", "0.5.4", "raises")]


def test_the_table_covers_every_removal_the_option_tables_show():
    """Without the wheels: every option and choice some table has and the next lacks (and every deprecated
    action) has an entry, and every entry says what the generator's judgement says."""
    gen = _generator()
    tables = gen.load_tables(ROOT / "linter" / "sglang" / "data")
    doc = json.loads(DATA.read_text("utf-8"))
    keys = {e["option"] if e["choice"] is None else f"{e['option']}={e['choice']}" for e in doc["entries"]}
    assert {ev["key"] for ev in gen.events(tables)} <= keys
    assert keys == {ev["key"] for ev in gen.events(tables)} | set(gen.CATALOG)
    assert len(tables) == len(available_versions()) and doc["releases"].endswith(f"({len(tables)} option tables)")
    for e in doc["entries"]:
        key = e["option"] if e["choice"] is None else f"{e['option']}={e['choice']}"
        j = gen.CATALOG.get(key)
        if j is not None:
            assert (e["successor"].get("write"), e["successor"]["equivalent"]) == (j.get("write"), j["equivalent"]), key
    removed = [e for e in doc["entries"] if e["removed"]]
    assert len(doc["entries"]) == 132 and len(removed) == 118
    assert sum(e["basis"] == "words" for e in doc["entries"]) == 57


@pytest.mark.skipif(not os.environ.get("SGLANG_WHEEL_DIR"),
                    reason="reads every release's wheel in $SGLANG_WHEEL_DIR (no network)")
def test_generator_check_reproduces_the_table_from_the_wheels():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate_successors.py"), "--check",
                           "--wheel-dir", os.environ["SGLANG_WHEEL_DIR"]], capture_output=True, text=True)
    assert proc.returncode == 0 and "successors.json: identical" in proc.stderr, proc.stderr[-3000:]


def test_a_quote_that_is_not_in_the_wheel_fails_the_generation(tmp_path, monkeypatch):
    """The generator's evidence is looked up, never taken on trust (a fake wheel of one release)."""
    import zipfile

    gen = _generator()
    tables = [t for t in gen.load_tables(ROOT / "linter" / "sglang" / "data") if t["sglang_version"] == "0.5.3"]
    whl = tmp_path / "sglang-0.5.3-py3-none-any.whl"
    with zipfile.ZipFile(whl, "w") as z:
        z.writestr("sglang/srt/server_args.py", 'HELP = "NOTE: --enable-ep-moe is deprecated."\n')
    monkeypatch.setattr(gen.hashlib, "sha256", lambda b: type("H", (), {"hexdigest": lambda s: tables[0]["source"]["sha256"]})())
    wheels = gen.Wheels(tmp_path, tables)
    assert wheels.find("words", "0.5.3", "--enable-ep-moe is deprecated", None) == (
        "sglang/srt/server_args.py:1", "NOTE: --enable-ep-moe is deprecated.")
    assert wheels.find("words", "0.5.3", "Please set `--ep-size`", None) is None


# -- messages and fixes ---------------------------------------------------------------------------


def test_enable_deepep_moe_gets_a_safe_fix_to_its_successor():
    [d] = _found(L + "--enable-deepep-moe\n", NEWEST)
    assert d.code == "SGL201"
    assert "removed in SGLang 0.5.4.post1 (last in 0.5.4)" in d.message
    assert "Please set `--moe-a2a-backend` to 'deepep' instead." in d.message
    assert d.message.endswith("write --moe-a2a-backend deepep")
    assert (d.fix.message, str(d.fix.applicability)) == ("Write --moe-a2a-backend deepep", "safe")
    assert [(e.span.text, e.content) for e in d.fix.edits] == [("--enable-deepep-moe", "--moe-a2a-backend deepep")]


def test_enable_ep_moe_is_fixed_only_when_the_tp_value_is_known():
    [d] = _found(L + "--tp 8 --enable-ep-moe\n", NEWEST)
    assert (d.fix.message, str(d.fix.applicability)) == ("Write --ep-size 8", "safe")
    [d] = _found(L + "--tp $TP --enable-ep-moe\n", NEWEST)
    assert d.fix is None and "write --ep-size <tp-size> (the launch's tp-size is not known; no fix)" in d.message


def test_a_successor_that_needs_judgement_is_unsafe_and_none_where_nothing_is_equivalent():
    [d] = _found(L + "--dp 2 --load-balance-method shortest_queue\n", NEWEST)
    assert d.code == "SGL203" and "shortest_queue was removed in SGLang 0.5.8 (last in 0.5.7)" in d.message
    assert (d.fix.message, str(d.fix.applicability)) == ("Write total_requests", "unsafe")
    [d] = _found(L + "--attention-backend cutlass_mla\n", NEWEST, ("B200",))
    assert d.code == "SGL203" and d.fix is None
    assert d.message.endswith("cutlass_mla was removed in SGLang 0.5.20 (last in 0.5.19); nothing replaces it the "
                              "same way; the Blackwell MLA backends that remain; candidates: trtllm_mla, flashinfer")


def test_disable_flashinfer_names_its_successor_not_the_prefix_candidates():
    [d] = _found(L + "--disable-flashinfer\n", NEWEST)
    assert d.code == "SGL202"
    assert "--disable-flashinfer itself was removed in SGLang 0.4.1.post2" in d.message
    assert d.message.endswith("write --attention-backend triton")
    assert (d.fix.message, str(d.fix.applicability)) == ("Write --attention-backend triton", "safe")
    # a successor that would contradict what the launch writes: named, not written
    [d] = _found(L + "--disable-flashinfer --attention-backend fa3\n", NEWEST)
    assert d.fix is None and "(the launch already writes --attention-backend fa3; no fix)" in d.message
    # 0.5.1-0.5.6 read it as an abbreviation of another option: SGLang starts, doing something else
    [d] = _found(L + "--disable-flashinfer\n", "0.5.3")
    assert d.code == "SGL211" and "reads it as an abbreviation of --disable-flashinfer-cutlass-moe-fp4-allgather" \
        in d.message and str(d.fix.applicability) == "safe"


def test_sglangs_own_typo_is_not_written():
    [d] = _found(L + "--disable-flashinfer-sampling\n", "0.4.5")
    assert d.fix is None
    assert "'pytroch' is not a choice of --sampling-backend in SGLang 0.4.5 (SGLang's text misspells 'pytorch')" \
        in d.message


def test_a_split_options_rename_keeps_every_value():
    found = _found(L + "--cuda-graph-bs 1 2 4 --tp 8\n", "0.5.15")
    [d] = [d for d in found if d.code == "SGL211"]
    assert "write --cuda-graph-bs-decode 1 2 4" in d.message and str(d.fix.applicability) == "unsafe"
    assert [(e.span.text, e.content) for e in d.fix.edits] == [("cuda-graph-bs", "cuda-graph-bs-decode")]


def test_deprecated_but_accepted_warns_with_the_successor_and_the_removal():
    [d] = _found(L + "--tp 8 --enable-deepep-moe\n", "0.5.2")
    assert d.code == "SGL211" and d.severity.value == "warning"
    assert "it warns at start-up \"NOTE: --enable-deepep-moe is deprecated." in d.message
    assert "(0.4.10.post2 sglang/srt/server_args.py:294); removed in SGLang 0.5.4.post1 (last in 0.5.4); write " \
           "--moe-a2a-backend deepep" in d.message
    assert str(d.fix.applicability) == "unsafe"  # it works as written in 0.5.2
    [d] = _found(L + "--enable-deepep-moe\n", "0.5.3")
    assert d.code == "SGL210" and str(d.fix.applicability) == "safe"


PLACES = {
    "compose.yaml": "# lint-configs: target-gpu=H100\nservices:\n  sglang:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
                    "    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 ${EXTRA}\n",
    ".env": "EXTRA=--enable-deepep-moe\n",
    "cfg.yaml": "model-path: deepseek-ai/DeepSeek-V3\ntp-size: 8\nenable-deepep-moe: true\ncuda-graph-max-bs: 128\n",
    "run.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\n# sglang==0.5.23\npython3 -m sglang.launch_server --config cfg.yaml\n",
    "serve.py": "# lint-configs: target-gpu=H100\n# sglang==0.5.23\nimport sglang as sgl\nimport subprocess\n"
                'llm = sgl.Engine(model_path="deepseek-ai/DeepSeek-V3", tp_size=8, enable_deepep_moe=True, '
                "cuda_graph_max_bs=64)\n"
                'subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", '
                '"--enable-deepep-moe", "--cuda-graph-max-bs", "32"])\n',
}


def test_fixes_land_where_the_option_is_written(tmp_path, capsys):
    write_tree(tmp_path, PLACES)
    code, _, _ = run(tmp_path, capsys, "--fix", "-q", ".")
    assert code == 0
    assert (tmp_path / ".env").read_text() == "EXTRA=--moe-a2a-backend deepep\n"
    assert (tmp_path / "cfg.yaml").read_text() == ("model-path: deepseek-ai/DeepSeek-V3\ntp-size: 8\n"
                                                   "moe-a2a-backend: deepep\ncuda-graph-max-bs-decode: 128\n")
    assert (tmp_path / "serve.py").read_text() == PLACES["serve.py"].replace(
        "enable_deepep_moe=True, cuda_graph_max_bs=64", 'moe_a2a_backend="deepep", cuda_graph_max_bs_decode=64').replace(
        '"--enable-deepep-moe", "--cuda-graph-max-bs", "32"', '"--moe-a2a-backend=deepep", "--cuda-graph-max-bs-decode", "32"')
    assert (tmp_path / "compose.yaml").read_text() == PLACES["compose.yaml"]
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags if d["code"] != "SGL005"] == []


# -- --upgrade-to ---------------------------------------------------------------------------------

PINNED = {
    "compose.yaml": "# lint-configs: target-gpu=H100\nservices:\n  sglang:\n    image: lmsysorg/sglang:v0.4.6.post1-cu124\n"
                    "    command: >\n      python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8\n"
                    "      --enable-deepep-moe --enable-ep-moe --cuda-graph-max-bs 256 --trust-remote-code\n",
    "run.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\n# sglang==0.4.6.post1\n"
              "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --disable-flashinfer --attention-backend fa3 "
              "--cuda-graph-bs 1 2 4 --port 30000\n",
    "later.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\n# sglang==0.5.2\n"
                "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2 --enable-ep-moe\n",
}


def test_upgrade_lists_exactly_what_breaks_on_the_newest(tmp_path, capsys):
    write_tree(tmp_path, PINNED)
    _, pinned = lint_json(tmp_path, capsys)
    assert sorted((d["path"], d["line"], d["code"]) for d in pinned if d["code"] != "SGL005") == [
        ("later.sh", 4, "SGL211"), ("run.sh", 4, "SGL201")]  # under 0.5.2: a warning; under 0.4.6.post1: gone
    _, diags = lint_json(tmp_path, capsys, "--upgrade-to", NEWEST)
    got = sorted((d["path"], d["line"], d["column"], d["code"], d["fix"] and d["fix"]["applicability"])
                 for d in diags if d["code"] != "SGL005")
    # run.sh's --disable-flashinfer breaks under 0.4.6.post1 already (SGL201 there, SGL202 under the newest)
    assert got == [("compose.yaml", 7, 7, "SGL201", "safe"), ("compose.yaml", 7, 27, "SGL201", "safe"),
                   ("compose.yaml", 7, 43, "SGL202", "safe"),
                   ("later.sh", 4, 67, "SGL201", "safe"),
                   ("run.sh", 4, 105, "SGL202", "safe")]
    assert all(f"new with SGLang {NEWEST}" in " ".join(d["notes"]) for d in diags if d["code"] != "SGL005")


def test_upgrade_fix_rewrites_byte_for_byte(tmp_path, capsys):
    write_tree(tmp_path, PINNED)
    run(tmp_path, capsys, "--upgrade-to", NEWEST, "--fix", "-q", ".")
    assert (tmp_path / "compose.yaml").read_bytes() == PINNED["compose.yaml"].replace(
        "--enable-deepep-moe --enable-ep-moe --cuda-graph-max-bs 256",
        "--moe-a2a-backend deepep --ep-size 8 --cuda-graph-max-bs-decode 256").encode()
    assert (tmp_path / "later.sh").read_bytes() == PINNED["later.sh"].replace("--enable-ep-moe", "--ep-size 2").encode()
    # the pinned release already rejects --disable-flashinfer: not new; the split option is renamed
    assert (tmp_path / "run.sh").read_bytes() == PINNED["run.sh"].replace(
        "--cuda-graph-bs 1", "--cuda-graph-bs-decode 1").encode()
    _, diags = lint_json(tmp_path, capsys, "--upgrade-to", NEWEST)
    assert [d["code"] for d in diags if d["code"] != "SGL005"] == []
    # the pins moved to the newest release with the fixes: only the finding the old pin had already remains
    for name, old in (("compose.yaml", "v0.4.6.post1-cu124"), ("run.sh", "0.4.6.post1"), ("later.sh", "0.5.2")):
        path = tmp_path / name
        path.write_text(path.read_text().replace(old, f"v{NEWEST}-cu129" if name == "compose.yaml" else NEWEST))
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"]) for d in diags if d["code"] != "SGL005"] == [("run.sh", "SGL202")]


def test_upgrade_column_in_the_launch_inventory(tmp_path, capsys):
    write_tree(tmp_path, PINNED)
    _, out, _ = run(tmp_path, capsys, "--upgrade-to", NEWEST, "--list-launches", "--format", "json", ".")
    rows = {(r["path"], r["line"]): r for r in json.loads(out)}
    up = rows[("compose.yaml", 5)]["upgrade"]
    assert up["release"] == NEWEST
    assert [(f["code"], f["text"], f["fix"]["message"]) for f in up["findings"]] == [
        ("SGL201", "--enable-deepep-moe", "Write --moe-a2a-backend deepep"),
        ("SGL201", "--enable-ep-moe", "Write --ep-size 8"),
        ("SGL202", "--cuda-graph-max-bs", "Write --cuda-graph-max-bs-decode 256")]
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json", ".")
    assert all("upgrade" not in r for r in json.loads(out))
    _, out, _ = run(tmp_path, capsys, "--upgrade-to", NEWEST, "--list-launches", ".")
    assert f"upgrade to {NEWEST}: 3 new findings" in out
    assert "SGL201 line 7 --enable-deepep-moe -> Write --moe-a2a-backend deepep (safe)" in out


def test_upgrade_to_an_unknown_release_is_a_usage_error(tmp_path, capsys):
    write_tree(tmp_path, PINNED)
    code, _, err = run(tmp_path, capsys, "--upgrade-to", "9.9.9", ".")
    assert code == 2 and "--upgrade-to" in err



def test_an_entry_point_with_options_of_its_own_still_hands_removed_sglang_options_on():
    """``python -m dynamo.sglang`` takes options of its own (not reported as unknown), but one SGLang had and
    removed is SGLang's, not Dynamo's: its parser refuses it (ai-dynamo/dynamo docs/dsr1-wideep-h100.md)."""
    text = ("python3 -m dynamo.sglang --model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-deepep-moe "
            "--migration-limit 3\n")
    [d] = _found(text, NEWEST)
    assert (d.code, d.span.text, d.fix.message) == ("SGL201", "--enable-deepep-moe", "Write --moe-a2a-backend deepep")


def test_a_successor_filled_from_a_variable_is_an_unsafe_fix(tmp_path, capsys):
    """`--tp $TP` with `TP=${TP:-4}`: `--ep-size 4` is today's value of the variable, not the variable."""
    from tests.helpers import lint_json, write_tree

    write_tree(tmp_path, {
        "var.sh": "TP=${TP:-4}\npython3 -m sglang.launch_server --model-path m --tp $TP --enable-ep-moe\n",
        "lit.sh": "python3 -m sglang.launch_server --model-path m --tp 4 --enable-ep-moe\n"})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.23")
    got = {d["path"]: (d["fix"]["applicability"], d["fix"]["edits"][0]["content"]) for d in diags}
    assert got == {"var.sh": ("unsafe", "--ep-size 4"), "lit.sh": ("safe", "--ep-size 4")}
