"""Point 7 of issue 11: lint-configs agrees with SGLang's own verdicts on a recorded matrix.

``tests/fixtures/oracle_matrix_<version>.jsonl`` were recorded by ``scripts/record_oracle_matrix.py``
with the oracle of the shared workspace (that SGLang release's unmodified parser and resolution on a
faked GPU and a synthetic checkpoint of the case's architecture). The oracle is never run here: each case is
replayed through lint-configs (one shell file per GPU, one launch per line, the architecture in a
local ``config.json``) and must agree:

* ``parser`` cases: SGLang's argparse rejects the words exactly when lint-configs reports an option
  error (SGL201-SGL205), and with the matching code;
* ``verdict`` cases: when SGLang starts, lint-configs reports no error (except SGL104, the fa3
  assert at model load, which happens after resolution and is outside the oracle); when SGLang
  stops, lint-configs reports the code of SGLang's error — and nothing but that code when it is a
  parser error (no derived noise).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.helpers import write_tree

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("oracle_matrix_*.jsonl"))
CASES = [json.loads(line) for f in FIXTURES for line in f.read_text("utf-8").splitlines() if line.strip()]
GPU = {"8.0": "A100", "9.0": "H100", "10.0": "B200", "12.0": "RTX PRO 6000 Blackwell"}
PARSER_CODES = {"SGL201", "SGL202", "SGL203", "SGL204", "SGL205"}
AFTER_RESOLUTION = {"SGL104"}  # asserts when the model loads: outside the oracle's scope
WARNINGS = {"SGL211"}  # a deprecated option SGLang accepts with a warning: it starts


def oracle_code(oracle: dict) -> str | None:
    """The lint-configs code for SGLang's answer (None when SGLang starts)."""
    if oracle["ok"]:
        return None
    error = oracle["error"] or ""
    if oracle["error_type"] == "ArgparseError":
        for needle, code in (("invalid choice", "SGL203"), ("ignored explicit argument", "SGL204"),
                             ("unrecognized arguments", "SGL204"), ("expected one argument", "SGL205"),
                             ("ambiguous option", "SGL202")):
            if needle in error:
                return code
        return "parser-other"
    for needle, code in (("requires SM100/SM110", "SGL101"), ("But you're using", "SGL102"),
                         ("but you explicitly specified", "SGL103"), ("TRTLLM MLA backend is only", "SGL105"),
                         ("--kv-cache-dtype mxfp8 requires", "SGL109")):
        if needle in error:
            return code
    return "other"


@pytest.fixture(scope="module")
def linted(tmp_path_factory):
    """{(release, case id): sorted codes lint-configs reports for it}."""
    from contextlib import redirect_stdout
    from io import StringIO

    from linter.cli import main
    from tests.helpers import chdir

    out: dict[tuple[str, str], list[str]] = {}
    for version in sorted({c["sglang"] for c in CASES}):
        root = tmp_path_factory.mktemp(f"oracle-{version}")
        files: dict[str, str] = {}
        where: dict[tuple[str, int], str] = {}
        for arch in {c["arch"] for c in CASES}:
            files[f"ckpt/{arch}/config.json"] = json.dumps({"architectures": [arch]})
        for cc, gpu in GPU.items():
            lines = ["#!/bin/bash", f"# lint-configs: target-gpu={gpu}"]
            for c in CASES:
                if c["cc"] != cc or c["sglang"] != version:
                    continue
                argv = ["python3", "-m", "sglang.launch_server", "--model-path", f"ckpt/{c['arch']}", *c["args"]]
                lines.append(" ".join(shlex.quote(w) for w in argv))
                where[(f"cc-{cc}.sh", len(lines))] = c["id"]
            files[f"cc-{cc}.sh"] = "\n".join(lines) + "\n"
        write_tree(root, files)
        buf = StringIO()
        with chdir(root), redirect_stdout(buf):
            main(["--format", "json", "--sglang-version", version, "."])
        out.update({(version, cid): [] for cid in where.values()})
        for d in json.loads(buf.getvalue()):
            out[(version, where[(d["path"], d["line"])])].append(d["code"])
    return {k: sorted(v) for k, v in out.items()}


@pytest.mark.parametrize("version", ["0.5.22", "0.5.23"])
def test_the_matrix_covers_what_issue_11_asks(version):
    from linter.sglang.options import load_table

    ids = {c["id"] for c in CASES if c["sglang"] == version}
    assert {"cutlass_mla-deterministic", "FA4-uppercase", "rl-target-invalid", "dp-attention-kimi-9.0"} <= ids
    # every option string of the release's table that takes no value, in the three spellings
    flags = [s for o in load_table(version).options if not o.takes_value for s in o.option_strings]
    assert "--enable-dp-attention" in flags and len(flags) > 150
    for flag in flags:
        assert {f"flag{flag}-bare", f"flag{flag}-eq-true", f"flag{flag}-then-true"} <= ids, flag


@pytest.mark.parametrize("case", CASES, ids=[f"{c['sglang']}:{c['id']}" for c in CASES])
def test_lint_configs_agrees_with_sglang(case, linted):
    want = oracle_code(case["oracle"])
    got = [c for c in linted[(case["sglang"], case["id"])] if c not in AFTER_RESOLUTION and c not in WARNINGS]
    if case["scope"] == "parser":
        parser_got = sorted({c for c in got if c in PARSER_CODES})
        assert parser_got == ([want] if want in PARSER_CODES else []), case["oracle"]["error"]
        return
    if want is None:
        assert got == [], "SGLang starts"
    elif want in PARSER_CODES:
        assert sorted(set(got)) == [want], case["oracle"]["error"]
    else:
        assert want in got, case["oracle"]["error"]
