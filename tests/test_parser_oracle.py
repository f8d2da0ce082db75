"""Issue 31: lint-configs is exact at parse time in every release — replayed against SGLang's own verdicts.

``tests/fixtures/parser_oracle/<version>.jsonl`` were recorded by ``scripts/record_parser_oracle.py``:
each release's own ``prepare_server_args`` (its wheel's parser, type functions and argparse actions,
run under CPython 3.11; see the script for what is stubbed below SGLang) on random command lines that
sweep every option string of the release, and on argparse's corner cases. The oracle never runs here.
Each recorded case is replayed

* through :func:`linter.sglang.options.parse_args`: the error SGLang's parser stops with — argparse's
  message, or the exception a release raises while parsing — must be exactly the linter's
  (:meth:`ParsedArgs.sglang_error`), and where SGLang accepts the words, the values it parsed must be
  the linter's (after the option's type conversion), and the start-up ``--log-level`` check must agree;
* through the whole linter (one shell file per release, one launch per line): a launch SGLang's
  parser rejects has the matching finding, and one it accepts has no parse-time finding at all.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from linter.launch import MStr, Token
from linter.sglang import valuetypes
from linter.sglang.options import load_table, parse_args
from linter.sglang.startup import startup_failures
from tests.helpers import write_tree

FIXTURES = Path(__file__).parent / "fixtures" / "parser_oracle"
VERSIONS = sorted((p.stem for p in FIXTURES.glob("*.jsonl")), key=lambda v: [int(x) if x.isdigit() else x
                                                                               for x in v.replace("post", "").split(".")])
CASES = {v: [json.loads(line) for line in (FIXTURES / f"{v}.jsonl").read_text("utf-8").splitlines() if line.strip()]
         for v in VERSIONS}
PARSE_CODES = {"SGL201", "SGL202", "SGL203", "SGL204", "SGL205", "SGL209", "SGL210"}


def _tokens(argv: list[str]) -> list[Token]:
    return [Token(MStr.plain(w)) for w in argv]


def _startup_in_parser(oracle: dict) -> bool:
    """0.5.20+ checks --log-level inside prepare_server_args, right after parse_args."""
    return not oracle["ok"] and "(prepare_server_args)" in (oracle.get("raised_at") or "")


def _same_choices(a: tuple | None, b: tuple | None) -> bool:
    """Equal errors, the ``choose from`` list taken as a set: SGLang declares some choices as a set
    (``--sampling-backend``), whose order in a real process follows the hash seed; the tables keep
    them sorted."""
    if a is None or b is None or a[0] != b[0]:
        return a == b
    pa, _, ca = a[1].partition(" (choose from ")
    pb, _, cb = b[1].partition(" (choose from ")
    return pa == pb and sorted(ca.rstrip(")").split(", ")) == sorted(cb.rstrip(")").split(", "))


def _code_of(oracle: dict) -> str:
    """The lint-configs code for the error SGLang's parser stops with."""
    error = oracle.get("error") or ""
    if oracle["error_type"] != "ArgparseError":
        # an exception while parsing: a deprecated option's own (0.4.x-0.5.7 DeprecatedAction raises
        # ValueError with its help text), else a type function or an action (LoRAPathAction)
        return "SGL210" if oracle["error_type"] == "ValueError" and "(__call__)" in (oracle.get("raised_at") or "") \
            else "SGL209"
    if error.startswith("ambiguous option"):
        return "SGL202"
    if error.startswith("unrecognized arguments"):
        return "SGL201|SGL204"
    if error.startswith("the following arguments are required"):
        return "SGL205"
    if not error.startswith("argument "):
        return "SGL210"  # parser.error(...) from a deprecated option's action (0.5.18+ DeprecatedAction)
    for needle, code in ((": invalid choice", "SGL203"), (": ignored explicit", "SGL204"), (": expected ", "SGL205")):
        if needle in error:
            return code
    return "SGL209"  # a type conversion (argparse's "invalid int value", an ArgumentTypeError's own text)


def _expected_value(table, dest: str, setting_value, oracle_value):
    """The linter's value converted as argparse converts it (None: not comparable)."""
    opt = table.by_dest.get(dest)
    if opt is None or opt.action.startswith("custom:") and not opt.action.startswith("custom:Deprecated"):
        return None
    if isinstance(setting_value, list):
        got = [valuetypes.value_of(opt.type, v, table.types) for v in setting_value]
        return None if any(g is valuetypes.UNJUDGED for g in got) else got
    if isinstance(setting_value, str):
        got = valuetypes.value_of(opt.type, setting_value, table.types)
        return None if got is valuetypes.UNJUDGED else got
    return setting_value


def _as_recorded(value):
    """A value as the recording writes it: nan and inf as their repr."""
    if isinstance(value, list):
        return [_as_recorded(v) for v in value]
    if isinstance(value, float) and (value != value or value in (float("inf"), -float("inf"))):
        return repr(value)
    return value


def test_the_oracle_covers_ten_releases_and_every_option():
    assert len(VERSIONS) >= 10 and VERSIONS[0].startswith("0.4.") and VERSIONS[-1] == "0.5.23"
    for version in VERSIONS:
        table = load_table(version)
        words = {w.split("=")[0] for c in CASES[version] for w in c["argv"]}
        missing = [s for o in table.options for s in o.option_strings if s not in words and s != "--config"]
        # an option string may be swept only as an abbreviation or with "=": every one appears in full
        assert len(missing) <= len(table.by_string) // 20, (version, missing[:10])
        assert sum(c["kind"] == "corner" for c in CASES[version]) >= 80


@pytest.mark.parametrize("version", VERSIONS)
def test_the_parser_verdicts_agree_exactly(version):
    table = load_table(version)
    disagree = []
    for case in CASES[version]:
        oracle = case["oracle"]
        parsed = parse_args(table, _tokens(case["argv"]))
        got = parsed.sglang_error()
        if oracle.get("help"):
            want = None
            if not parsed.help:
                disagree.append((case["id"], case["argv"], "help", got))
            continue
        if oracle["ok"] or _startup_in_parser(oracle):
            want = None
        else:
            want = (oracle["error_type"], oracle["error"])
        if not _same_choices(got, want):
            disagree.append((case["id"], case["argv"], want, got))
            continue
        if want is not None:
            continue
        # the start-up check (configure_logger; 0.5.20+ inside prepare_server_args)
        startup = startup_failures(parsed, table)
        log_fail = [f for f in startup if f.setting.dest == "log_level"]
        said = oracle if _startup_in_parser(oracle) else (oracle.get("startup") or {"ok": True})
        want_startup = None if said["ok"] else f"{said['error_type']}: {said['error']}"
        if (log_fail[0].message if log_fail else None) != want_startup:
            disagree.append((case["id"], case["argv"], "startup", want_startup, [f.message for f in log_fail]))
            continue
        for dest, value in (oracle.get("values") or {}).items():
            s = next((s for s in reversed(parsed.settings) if s.dest == dest and not s.via), None)
            if s is None:
                disagree.append((case["id"], case["argv"], dest, value, None))
                continue
            expected = _expected_value(table, dest, s.value, value)
            expected = _as_recorded(expected)
            if expected is not None and expected != value:
                disagree.append((case["id"], case["argv"], dest, value, s.value))
    assert not disagree, f"{len(disagree)} of {len(CASES[version])} disagree, e.g. {disagree[:8]}"


@pytest.fixture(scope="module")
def linted(tmp_path_factory):
    """{(release, case id): codes lint-configs reports for the launch}."""
    from contextlib import redirect_stdout
    from io import StringIO

    from linter.cli import main
    from tests.helpers import chdir

    out: dict[tuple[str, str], list[str]] = {}
    for version in VERSIONS:
        root = tmp_path_factory.mktemp(f"parser-oracle-{version}")
        lines = ["#!/bin/bash", "# lint-configs: target-gpu=H100"]
        where: dict[int, str] = {}
        for c in CASES[version]:
            lines.append(" ".join(shlex.quote(w) for w in ["python3", "-m", "sglang.launch_server", *c["argv"]]))
            where[len(lines)] = c["id"]
        write_tree(root, {"serve.sh": "\n".join(lines) + "\n"})
        buf = StringIO()
        with chdir(root), redirect_stdout(buf):
            main(["--format", "json", "--sglang-version", version, "--select", "SGL2", "serve.sh"])
        out.update({(version, cid): [] for cid in where.values()})
        for d in json.loads(buf.getvalue()):
            out[(version, where[d["line"]])].append(d["code"])
    return out


@pytest.mark.parametrize("version", VERSIONS)
def test_the_linter_reports_what_the_parser_rejects(version, linted):
    disagree = []
    for case in CASES[version]:
        oracle = case["oracle"]
        codes = set(linted[(version, case["id"])])
        parse_codes = codes & PARSE_CODES
        if oracle["ok"] or _startup_in_parser(oracle):
            if parse_codes:
                disagree.append((case["id"], case["argv"], "ok", sorted(codes)))
            if _startup_in_parser(oracle) and "SGL212" not in codes:
                disagree.append((case["id"], case["argv"], "SGL212", sorted(codes)))
            continue
        want = _code_of(oracle)
        if not any(c in parse_codes for c in want.split("|")):
            disagree.append((case["id"], case["argv"], want, oracle["error"], sorted(codes)))
    assert not disagree, f"{len(disagree)} of {len(CASES[version])} disagree, e.g. {disagree[:8]}"
