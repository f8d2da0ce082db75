#!/usr/bin/env python3
"""Record SGLang's own parse-time verdicts, per release, as test fixtures (issue 31).

What
----
For each release given (default: the twelve of ``RELEASES``, 0.4.0 … 0.5.23) this script runs that
release's **own, unmodified** ``prepare_server_args(argv)`` on

* random command lines that sweep every option string of the release (each string several times,
  given a value of a random shape — a valid or invalid choice, an int-, float- or JSON-looking
  word, a negative number, a word with a space, an empty string, ``-x``, ``--`` — as ``--opt v``,
  ``--opt=v``, an abbreviation, with several values for a multi-value option, with no value, and
  flags followed by ``true`` or written ``--flag=true``), and
* the corner cases of Python's argparse (``CORNER_CASES``: values that start with ``-``, ``--``,
  ``--opt=``, single-dash long options, ``+4``, ``0x10``, ``=`` with a space, ``-h`` forms …),

and writes ``tests/fixtures/parser_oracle/<version>.jsonl`` (the wheel and its sha256 in
``sources.json`` beside it): one line per case with the argv and
SGLang's answer — ``ok`` (the parser accepted the words; then the parsed values that differ from
their defaults), or the error: ``ArgparseError`` with argparse's message, or the exception the
release raised while parsing (a deprecated option's ``ValueError``, a ``JSONDecodeError`` in an
action) with where it was raised — plus, for a launch the parser accepts, the verdict of the
release's own ``configure_logger`` on the parsed values (``startup``: the ``--log-level`` check that
runs first as the server starts). ``tests/test_parser_oracle.py`` replays every case through
lint-configs; the oracle never runs in tests or CI.

How faithful it is
------------------
The parser is SGLang's: the wheel's ``sglang/srt/server_args.py`` is imported and its
``prepare_server_args`` is called, which builds ``argparse.ArgumentParser`` with
``ServerArgs.add_cli_args`` (every option, type function and custom action of the release, run for
real) and calls ``parse_args``, under CPython 3.11 (the interpreter the wheels are built for). What
is not real sits **below** SGLang: the import of ``sglang.srt.server_args`` needs torch,
transformers, … (about 11 GB); like ``scripts/generate_sglang_options.py`` (whose worker venv and
stubs this script reuses), the wheel is unpacked without installing it, the light pure-Python
dependencies the parser code really runs are installed for real (``VENV_PACKAGES``: PyYAML,
pydantic, msgspec, orjson — ``json_list_type`` parses with orjson —, …) and every other dependency is
an import-time stub that can never leak into a table value. One place is not below SGLang: the
oracle stops where the parser hands over to ``ServerArgs`` — ``ServerArgs.from_cli_args`` is
replaced by a recorder that raises — because building ``ServerArgs`` runs the whole start-up
resolution (hardware probes, model config), which needs the real dependencies. Everything
``prepare_server_args`` does before it (the ``--config`` merge, ``parse_args``, 0.5.20+'s
``logging.basicConfig`` on ``--log-level``) runs unmodified.

Usage
-----
::

    python3 scripts/record_parser_oracle.py --wheel-dir /tmp/sglang-wheels          # the twelve releases
    python3 scripts/record_parser_oracle.py 0.5.23 --per-option 3 --seed 31

Needs CPython 3.11 and the wheels (``pip download sglang==X --no-deps``; fetched when missing).
The worker venv is created once (``--venv``, ~60 MB). One release takes 1–4 minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

RELEASES = ["0.4.0", "0.4.3.post4", "0.4.6.post5", "0.4.9.post6", "0.5.1", "0.5.3", "0.5.6", "0.5.9", "0.5.12",
            "0.5.14", "0.5.18", "0.5.20", "0.5.22", "0.5.23"]
OUT_DIR = ROOT / "tests" / "fixtures" / "parser_oracle"
MODEL = ["--model-path", "m"]

# argparse's corner cases (CPython's own test_argparse covers the same ground): run on every release.
# ``{V}`` is an option that takes one value and has no choices (--host), ``{I}`` an int option
# (--port), ``{F}`` a store-true flag, ``{C}`` an option with choices and its first choice ``{c}``.
CORNER_CASES = [
    ["{I}", "-1"], ["{I}", "-1.5"], ["{I}", "-.5"], ["{I}", "-1e3"], ["{I}", "+4"], ["{I}", "0x10"],
    ["{I}", " 8 "], ["{I}", "8_000"], ["{I}", "\u0663"], ["{I}", "1.0"], ["{I}", ""], ["{I}="], ["{I}=8"],
    ["{I}=-1"], ["{I}", "--"], ["{I}", "--", "8"], ["--", "{I}", "8"], ["{I}", "8", "--"], ["{V}", "-x"],
    ["{V}", "-"], ["{V}", "-x y"], ["{V}", "a b"], ["{V}=a b"], ["{V}=-x"], ["{V}=--"], ["{V}", "--x"],
    ["{V}", "---"], ["{V}=a=b"], ["{V}", "a=b"], ["{V}", "a", "b"], ["{F}=true"], ["{F}", "true"],
    ["{F}="], ["{F}=1"], ["{F}", "{F}"], ["-{V2}", "x"], ["-{V2}=x"], ["-x"], ["-x", "y"], ["-"], ["--"],
    ["---{V2}", "x"], ["--=x"], ["-h=x"], ["-hx"], ["-h"], ["--help"], ["--he"], ["-1"], ["-1.5"],
    ["a"], ["+x"], ["{C}", "{c}"], ["{C}={c}"], ["{C}", "{c}X"], ["{C}", "{c_upper}"], ["{C}="],
    ["{V}", '{"a": 1}'], ["{V}={\"a\": 1}"], ["--json-model-override-args", '{"rope_scaling": {"factor": 4.0}}'],
    ["--json-model-override-args={\"rope_scaling\": {\"factor\": 4.0}}"],
    ["--json-model-override={\"rope_scaling\": {\"factor\": 4.0}}"], ["--json-model-override-args", "{bad"],
    ["--json-model-override-args={bad json}"], ["--log-level", "debug"], ["--log-level", "DEBUG"],
    ["--log-level", "warn"], ["--log-level", "fatal"], ["--log-level", "verbose"], ["--log-level", "x"],
    ["--log-level", "basic_format"], ["--log-level", "notset"], ["--log-level", ""],
    ["--model-path", "m", "--model-path", "n"], ["--model", "m"], ["--mod", "m"], [],
    ["--tp", "8"], ["--tp=8"], ["--tp-size", "4", "--tensor-parallel-size", "8"], ["--port", "3e4"],
    ["--nnodes", "1.5"], ["--port", "0x10"], ["--port="], ["--context-length", "abc"],
    ["--mem-fraction-static", "fast"], ["--mem-fraction-static", "1e-1"], ["--mem-fraction-static", "nan"],
    ["--mem-fraction-static", "inf"], ["--mem-fraction-static", "-inf"], ["--mem-fraction-static", "-0.5"],
]


def _pick(table, rng):
    """Options the corner cases are made of, from the release's table."""
    by = {o.primary: o for o in table.options}
    value = by.get("--host") or next(o for o in table.options if o.takes_value and not o.choices and o.nargs is None)
    integer = by.get("--port") or next(o for o in table.options if o.type == "int" and o.nargs is None)
    flag = next(o for o in table.options if o.action == "store_true")
    choice = by.get("--attention-backend") or by.get("--load-format") or next(
        o for o in table.options if o.choices and o.nargs is None and o.takes_value and o.type in (None, "str"))
    return value, integer, flag, choice


def corner_cases(table) -> list[list[str]]:
    value, integer, flag, choice = _pick(table, None)
    c = str(choice.choices[0])
    subs = {"{V}": value.primary, "{I}": integer.primary, "{F}": flag.primary, "{C}": choice.primary,
            "{c_upper}": c.upper() if c.upper() != c else c + "X", "{c}": c, "{V2}": value.primary[2:]}
    out = []
    for case in CORNER_CASES:
        words = []
        for w in case:
            for k in sorted(subs, key=len, reverse=True):
                w = w.replace(k, subs[k])
            words.append(w)
        if any(w.startswith(("--json-model-override", "--log-level", "--nnodes", "--context-length",
                             "--mem-fraction-static")) and w.split("=")[0] not in table.by_string
               and not table.prefix_matches(w.split("=")[0]) for w in words[:1]):
            continue
        if words[:2] == ["--model-path", "m"] or words[:1] in (["--model"], ["--mod"]) or not words:
            out.append(words)
        else:
            out.append(MODEL + words)
    return out


# Shapes of a value given to an option.
def _values(option, rng) -> list[str]:
    pool = ["8", "0", "-1", "1.5", "-0.25", "1e3", "abc", "", "a b", "-x", "--", "0x10", "+4", "true", "None",
            '{"a": 1}', "[1, 2]", "{bad", "NaN", "1k", "2Mi", "1.5Ki", "{}", '{"decode": {"max_bs": 8}}',
            '{"lora_name": "a", "lora_path": "b"}', '{"x": 1}', "tc_piecewise", "full"]
    if option.choices:
        good = [str(c) for c in option.choices]
        pool += good * 4 + [good[0].upper(), good[0] + "_x", " " + good[0]]
    return pool


def random_cases(table, per_option: int, rng: random.Random) -> list[list[str]]:
    """Command lines that sweep every option string of ``table`` ``per_option`` times."""
    strings = [(o, s) for o in table.options for s in o.option_strings if s not in ("--config",)]
    others = [o for o in table.options if o.primary not in ("--config",)]
    out = []

    def spell(option, s, value):
        """The words for option string ``s`` given ``value`` (None: no value)."""
        form = rng.random()
        name = s
        if form < 0.15 and len(s) > 6:  # an abbreviation (unique or not: the parser decides)
            name = s[:rng.randint(4, len(s) - 1)]
        if value is None:
            return [name]
        if isinstance(value, list):
            return [name] + value
        if form > 0.7:
            return [f"{name}={value}"]
        return [name, value]

    def words_for(option, s):
        r = rng.random()
        if not option.takes_value:
            if r < 0.7:
                return spell(option, s, None)
            if r < 0.85:
                return [s + "=" + rng.choice(["true", "", "1"])]
            return [s, rng.choice(["true", "false", "1"])]
        if r < 0.06:
            return spell(option, s, None)  # no value
        if option.nargs in ("+", "*") and r < 0.6:
            n = rng.randint(1, 3)
            return spell(option, s, [rng.choice(_values(option, rng)) for _ in range(n)])
        return spell(option, s, rng.choice(_values(option, rng)))

    for option, s in strings:
        for _ in range(per_option):
            groups = [words_for(option, s)]
            for _ in range(rng.choice([0, 0, 1, 2])):
                o = rng.choice(others)
                groups.append(words_for(o, rng.choice(o.option_strings)))
            rng.shuffle(groups)
            argv = [w for g in groups for w in g]
            if rng.random() < 0.03:
                out.append(argv)  # no --model-path
            else:
                pos = rng.randint(0, len(groups))
                head = [w for g in groups[:pos] for w in g]
                tail = [w for g in groups[pos:] for w in g]
                out.append(head + MODEL + tail)
    return out


def cases_for(version: str, per_option: int, seed: int) -> list[dict]:
    from linter.sglang.options import load_table

    table = load_table(version)
    rng = random.Random(f"{seed}:{version}")
    out = [{"id": f"corner-{k}", "kind": "corner", "argv": argv} for k, argv in enumerate(corner_cases(table))]
    out += [{"id": f"random-{k}", "kind": "random", "argv": argv}
            for k, argv in enumerate(random_cases(table, per_option, rng))]
    return out


# ---------------------------------------------------------------------------
# Worker (runs in the generator's venv with the wheel unpacked)
# ---------------------------------------------------------------------------

class _Parsed(Exception):
    """Raised by the recorder that stands for ServerArgs.from_cli_args: the parser accepted the words."""

    def __init__(self, namespace) -> None:
        super().__init__("parsed")
        self.namespace = namespace


def _worker(src: str) -> int:
    import contextlib
    import io
    import logging
    import traceback

    import generate_sglang_options as gen

    request = json.loads(sys.stdin.read())
    sys.path.insert(0, src)
    StubMeta, _ = gen._install_stubs(src)
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        import sglang.srt.server_args as sa
    try:
        from sglang.srt.utils import configure_logger
    except ImportError:
        from sglang.srt.utils.common import configure_logger

    def record(cls, args):
        raise _Parsed(args)

    sa.ServerArgs.from_cli_args = classmethod(record)
    parser = argparse.ArgumentParser()
    sa.ServerArgs.add_cli_args(parser)
    defaults = {a.dest: a.default for a in reversed(parser._actions)}

    def plain(v):
        if isinstance(v, StubMeta):
            return repr(v)
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, float):
            return v if v == v and v not in (float("inf"), float("-inf")) else repr(v)
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        return repr(v)

    def where(tb) -> str:
        frames = [f for f in traceback.extract_tb(tb) if f"{os.sep}sglang{os.sep}" in f.filename]
        if not frames:
            return ""
        f = frames[-1]
        return f"{os.path.relpath(f.filename, src)}:{f.lineno} ({f.name})"

    out = []
    for case in request["cases"]:
        err = io.StringIO()
        result = {"id": case["id"]}
        root = logging.getLogger()
        for h in list(root.handlers):
            root.removeHandler(h)
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                sa.prepare_server_args(list(case["argv"]))
            result.update(ok=False, error_type="OracleError", error="prepare_server_args returned")
        except _Parsed as p:
            ns = vars(p.namespace)
            result["ok"] = True
            result["values"] = {k: plain(v) for k, v in sorted(ns.items())
                                if k in defaults and v != defaults[k] and not k.startswith("_")}
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    configure_logger(p.namespace)
                result["startup"] = {"ok": True}
            except Exception as e:  # noqa: BLE001
                result["startup"] = {"ok": False, "error_type": type(e).__name__, "error": str(e)}
        except SystemExit as e:
            text = err.getvalue()
            m = re.search(r"^[^\n]*?: error: (.*)\Z", text.strip(), re.S | re.M)
            if e.code == 0:
                result.update(ok=True, help=True, values={})
            else:
                result.update(ok=False, error_type="ArgparseError", error=m.group(1) if m else text.strip())
        except Exception as e:  # noqa: BLE001 - an exception while parsing is the verdict
            result.update(ok=False, error_type=type(e).__name__, error=str(e), raised_at=where(e.__traceback__))
        out.append(result)
    sys.stdout.write(json.dumps(out))
    return 0


def run_release(version: str, args) -> list[dict]:
    import generate_sglang_options as gen

    cases = cases_for(version, args.per_option, args.seed)
    wheel_dir = Path(args.wheel_dir)
    wheel_dir.mkdir(parents=True, exist_ok=True)
    wheel = gen.download_wheel(version, wheel_dir)
    python = gen.ensure_venv(Path(args.venv))
    with tempfile.TemporaryDirectory(prefix="parser-oracle-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        gen.unpack_wheel(wheel, src)
        home = Path(tmp) / "home"
        home.mkdir()
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(ROOT / "scripts")}
        proc = subprocess.run([str(python), "-s", "-B", str(Path(__file__).resolve()), "--_worker", str(src)],
                              input=json.dumps({"cases": cases}), capture_output=True, text=True, env=env, cwd=home)
        if proc.returncode != 0:
            raise RuntimeError(f"{version}: worker failed:\n{proc.stderr[-4000:]}")
        answers = {r["id"]: r for r in json.loads(proc.stdout)}
    out = []
    for c in cases:
        r = answers[c["id"]]
        oracle = {k: v for k, v in r.items() if k != "id"}
        out.append({"id": c["id"], "kind": c["kind"], "argv": c["argv"], "oracle": oracle})
    return out, {"wheel": wheel.name, "sha256": gen.sha256_of(wheel), "python": "3.11",
                 "per_option": args.per_option, "seed": args.seed}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--_worker"]:
        return _worker(argv[1])
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("versions", nargs="*", help=f"releases (default: {' '.join(RELEASES)})")
    p.add_argument("--wheel-dir", default=str(Path(tempfile.gettempdir()) / "sglang-wheels"))
    p.add_argument("--venv", default=str(Path(tempfile.gettempdir()) / "sglang-options-venv"))
    p.add_argument("--per-option", type=int, default=2, help="random command lines per option string")
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--out-dir", type=Path, default=OUT_DIR)
    a = p.parse_args(argv)
    if sys.version_info[:2] != (3, 11):
        print("error: run this with CPython 3.11 (the wheels are cp311)", file=sys.stderr)
        return 2
    a.out_dir.mkdir(parents=True, exist_ok=True)
    sources_path = a.out_dir / "sources.json"
    sources = json.loads(sources_path.read_text("utf-8")) if sources_path.exists() else {}
    for version in a.versions or RELEASES:
        rows, sources[version] = run_release(version, a)
        sources_path.write_text(json.dumps(dict(sorted(sources.items())), indent=1) + "\n", encoding="utf-8")
        path = a.out_dir / f"{version}.jsonl"
        with path.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n")
        errors = sum(not r["oracle"]["ok"] for r in rows)
        print(f"{version}: {len(rows)} cases ({sum(r['kind'] == 'corner' for r in rows)} corner), "
              f"{errors} rejected by the parser, wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
