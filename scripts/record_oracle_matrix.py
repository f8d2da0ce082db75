#!/usr/bin/env python3
"""Record SGLang's own verdicts on a matrix of launches, as a test fixture (issue 11, point 7).

Runs the oracle of ``/work/shared/oracle`` (SGLang's unmodified argument parsing and resolution on a
faked GPU and checkpoint; see its README) in batch mode, with a clean environment, and writes
``tests/fixtures/oracle_matrix_<version>.jsonl``: one line per case with the argv given to SGLang
after ``--model-path`` (``args``), the faked machine (``cc``) and architecture (``arch``), what the
case checks (``scope``: ``parser`` = whether SGLang's argparse accepts the words; ``verdict`` = the
start-up outcome) and the oracle's answer (``oracle``: ``ok``, ``error_type``, ``error``,
``raised_at``). ``tests/test_oracle_matrix.py`` replays it through lint-configs. Tests and CI never
run the oracle; this script is run by hand where the oracle venv exists:

    scripts/record_oracle_matrix.py --python /tmp/sgl-oracle-venv/bin/python --oracle /work/shared/oracle

The matrix: ``cutlass_mla``, ``FA4`` and an invalid ``--rl-on-policy-target``; every option of the
release's table that takes no value (per its argparse action and nargs), each option string given
bare, as ``--flag=true`` and followed by ``true``, plus the one custom action with ``nargs=None``;
a few value options given without a value; a DP-attention launch with ``--enable-dp-attention`` and
``--disable-cuda-graph``; and deterministic launches over backends × GPUs × architectures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from linter.sglang.options import load_table  # noqa: E402

_ARGPARSE_NO_VALUE = {"store_true", "store_false", "store_const", "append_const", "count"}
MODEL = "ckpt/model"  # replaced by the oracle with a synthetic checkpoint of ``arch``
PLAIN = "Qwen3ForCausalLM"
MLA = "DeepseekV3ForCausalLM"


def cases(version: str) -> list[dict]:
    table = load_table(version)
    out: list[dict] = []

    def add(cid: str, args: list[str], scope: str, cc: str = "9.0", arch: str = PLAIN) -> None:
        out.append({"id": cid, "sglang": version, "cc": cc, "arch": arch, "scope": scope, "args": args})

    det = "--enable-deterministic-inference"
    add("cutlass_mla-deterministic", ["--attention-backend", "cutlass_mla", det], "verdict", arch=MLA)
    add("cutlass_mla-plain", ["--attention-backend", "cutlass_mla"], "verdict", arch=MLA)
    add("FA4-uppercase", ["--attention-backend", "FA4", det], "verdict", arch=MLA)
    add("rl-target-invalid", ["--attention-backend", "fa4", "--rl-on-policy-target", "bogus"], "verdict", arch=MLA)
    add("rl-target-fsdp", ["--attention-backend", "fa4", "--rl-on-policy-target", "fsdp"], "verdict", arch=MLA)
    add("ambiguous-attention", ["--attention", "fa4", det], "verdict", arch=MLA)
    add("backend-without-value", [det, "--attention-backend"], "verdict", arch=MLA)
    for cc in ("9.0", "10.0"):
        add(f"dp-attention-kimi-{cc}", ["--tp", "8", "--enable-dp-attention", "--dp", "8", "--disable-cuda-graph",
                                        det, "--attention-backend", "fa4"], "verdict", cc=cc, arch=MLA)
    for row in table.options:
        no_value = row.action in _ARGPARSE_NO_VALUE or row.nargs == 0
        probe = no_value or (row.action.startswith("custom:") and row.nargs is None
                             and row.action.endswith("StoreConstAction"))
        if not probe:
            continue
        for s in row.option_strings:
            add(f"flag{s}-bare", [s], "parser")
            add(f"flag{s}-eq-true", [f"{s}=true"], "parser")
            add(f"flag{s}-then-true", [s, "true"], "parser")
    for s in ("--tp-size", "--attention-backend", "--kv-cache-dtype", "--dp-size"):
        add(f"value{s}-missing", [s], "parser")
    for cc in ("8.0", "9.0", "10.0", "12.0"):
        for arch in (MLA, PLAIN):
            for backend in ("fa4", "fa3", "flashinfer", "triton", "flashmla", None):
                args = [det] + (["--attention-backend", backend] if backend else [])
                add(f"det-{backend or 'none'}-{arch}-{cc}", args, "verdict", cc=cc, arch=arch)
    add("det-flashinfer-mxfp8-8.0", [det, "--attention-backend", "flashinfer", "--kv-cache-dtype", "mxfp8"],
        "verdict", cc="8.0", arch=MLA)
    add("trtllm_mla-mxfp8-8.0", ["--attention-backend", "trtllm_mla", "--kv-cache-dtype", "mxfp8"], "verdict",
        cc="8.0", arch=MLA)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--python", default="/tmp/sgl-oracle-venv/bin/python")
    p.add_argument("--oracle", default="/work/shared/oracle", type=Path)
    p.add_argument("--version", default="0.5.23")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", type=Path, default=None)
    a = p.parse_args()
    todo = cases(a.version)
    stdin = "".join(json.dumps({"id": c["id"], "cc": c["cc"], "arch": c["arch"],
                                "args": ["--model-path", MODEL, *c["args"]]}) + "\n" for c in todo)
    # A clean environment: SGLANG_* variables of this shell would change SGLang's behaviour.
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
    res = subprocess.run([a.python, "oracle.py", "--batch", "--jobs", str(a.jobs)], input=stdin, text=True,
                         capture_output=True, cwd=a.oracle, env=env, check=False)
    answers = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    by_id = {r.get("id"): r for r in answers}
    out = a.out or ROOT / "tests" / "fixtures" / f"oracle_matrix_{a.version}.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for c in todo:
            r = by_id.get(c["id"])
            if r is None or r.get("error_type") == "OracleError":
                print(f"no oracle answer for {c['id']}: {r}", file=sys.stderr)
                continue
            if r.get("sglang_version") != a.version:
                raise SystemExit(f"oracle ran SGLang {r.get('sglang_version')}, not {a.version}")
            oracle = {k: r.get(k) for k in ("ok", "error_type", "error", "raised_at", "attention_backend",
                                            "hf_architectures")}
            fh.write(json.dumps({**c, "oracle": oracle}, sort_keys=False) + "\n")
    print(f"{len(answers)} answers, wrote {out}", file=sys.stderr)
    return 0 if res.returncode == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
