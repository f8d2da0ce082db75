"""The long fuzzing profile of issue 26: generated and mutated inputs per format, judged by
``tests/fuzzing.py`` (in-process ``lint-configs --fix --unsafe-fixes``), with the counts printed.

    python scripts/fuzz.py --seed 1 --per-format 20000            # the profile issue 26 asks for
    python scripts/fuzz.py --seed 1 --per-format 200 --formats compose,env
    python scripts/fuzz.py --replay compose:1:37                  # print (and judge) one input

Input ``i`` of format ``F`` with seed ``S`` is generated from ``random.Random(S * 1_000_003 + i)``
by ``GENERATORS[F]``, so any reported input can be replayed from its three numbers. Exit code 1
when any count other than inputs is non-zero.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fuzzing import GENERATORS, Counts, RandomChooser, judge_in_tmp, peak_rss_mib  # noqa: E402

FIELDS = ("inputs", "internal_errors", "slow", "fixed_not_parsing", "bytes_outside_edits", "not_converging",
          "outside_touched")
LABELS = {"inputs": "inputs", "internal_errors": "internal errors", "slow": "inputs over the CPU budget",
          "fixed_not_parsing": "fixed files that do not parse", "bytes_outside_edits": "bytes changed outside edits",
          "not_converging": "non-converging fixes", "outside_touched": "files outside the root read or written"}


def generate(fmt: str, seed: int, index: int) -> dict[str, str]:
    """Input ``index`` of format ``fmt`` for ``seed``."""
    return GENERATORS[fmt](RandomChooser(seed * 1_000_003 + index))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-format", type=int, default=1000)
    ap.add_argument("--formats", default=",".join(GENERATORS), help="comma-separated: " + ", ".join(GENERATORS))
    ap.add_argument("--cpu-budget", type=float, default=2.0, help="CPU seconds per input before it counts as slow")
    ap.add_argument("--replay", metavar="FORMAT:SEED:INDEX", help="print and judge one input")
    args = ap.parse_args(argv)
    if args.replay:
        fmt, seed, index = args.replay.split(":")
        files = generate(fmt, int(seed), int(index))
        for name, text in files.items():
            print(f"=== {name}\n{text}")
        counts = Counts()
        judge_in_tmp(files, counts, args.cpu_budget)
        print(json.dumps({k: getattr(counts, k) for k in FIELDS} | {"examples": counts.examples}, indent=1,
                         default=str))
        return 1 if counts.bad() else 0
    total = Counts()
    start = time.time()
    for fmt in args.formats.split(","):
        judge_in_tmp(generate(fmt, args.seed, -1), Counts(), args.cpu_budget)  # imports: not the input's time
        counts = Counts()
        t0 = time.time()
        failing: list[str] = []
        for i in range(args.per_format):
            before = counts.bad()
            judge_in_tmp(generate(fmt, args.seed, i), counts, args.cpu_budget)
            if counts.bad() > before and len(failing) < 10:
                failing.append(f"{fmt}:{args.seed}:{i}")
        print(f"{fmt:9} " + "  ".join(f"{LABELS[k]} {getattr(counts, k)}" for k in FIELDS) +
              f"  (fixed files {counts.fixed_files}, max CPU {counts.max_cpu:.2f} s, {time.time() - t0:.0f} s)")
        for kind, examples in counts.examples.items():
            for _files, detail in examples:
                print(f"    {kind}: {detail[:200]}")
        if failing:
            print("    replay: " + " ".join(f"--replay {f}" for f in failing))
        for k in FIELDS:
            setattr(total, k, getattr(total, k) + getattr(counts, k))
        total.max_cpu = max(total.max_cpu, counts.max_cpu)
    print("total     " + "  ".join(f"{LABELS[k]} {getattr(total, k)}" for k in FIELDS) +
          f"  (max CPU {total.max_cpu:.2f} s, peak RSS {peak_rss_mib():.0f} MiB, {time.time() - start:.0f} s)")
    return 1 if total.bad() else 0


if __name__ == "__main__":
    sys.exit(main())
