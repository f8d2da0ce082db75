"""The ``lint-configs`` command: argv → options → run → report → exit code.

Exit codes (as ruff): 0 when no diagnostic remains (after ``--fix``), 1 when some remain (warnings
included; ``--exit-zero`` makes it 0), 2 on a usage, configuration or internal error. Everything is
an option, so a folder named like a command (``rules/``) is always a path.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

from linter import __version__

FORMATS = ("text", "concise", "json", "sarif", "github", "gitlab")


class UsageError(Exception):
    """A bad command line or configuration: printed as ``lint-configs: error: …``, exit 2."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``lint-configs`` (``allow_abbrev=False``: options are spelled in full)."""
    p = argparse.ArgumentParser(
        prog="lint-configs", allow_abbrev=False,
        description="Find SGLang launches in compose files, shell/Slurm scripts and Python code, and report what "
                    "SGLang would reject or crash on for the target GPU, with fixes.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to lint (default: .)")
    p.add_argument("--files-from", metavar="FILE", default=None,
                   help="also lint the paths listed in FILE ('-': standard input), NUL-separated, or one per line "
                        "when the list holds no NUL; with it, no PATH means only the listed ones")
    p.add_argument("--fix", action="store_true", help="apply safe fixes")
    p.add_argument("--unsafe-fixes", action="store_true",
                   help="with --fix or --diff also apply unsafe fixes; without them, show unsafe fixes as available")
    p.add_argument("--diff", action="store_true", help="print the fixes as a unified diff and change nothing "
                                                       "(exit 1 when there is a diff)")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="output format (default: text, or github when GITHUB_ACTIONS=true)")
    p.add_argument("--output-file", "-o", type=Path, default=None, help="write the report to this file")
    p.add_argument("--target-gpu", action="append", default=[], metavar="NAME",
                   help="the GPU the launches run on (repeatable); replaces what files and configuration declare")
    p.add_argument("--sglang-version", metavar="X.Y.Z[.postN]", default=None,
                   help="the SGLang release to check against (default: what the file pins, else the newest)")
    p.add_argument("--config", type=Path, default=None, metavar="FILE",
                   help="use this pyproject.toml or .lint-configs.toml for every file")
    p.add_argument("--select", action="append", default=None, metavar="CODE",
                   help="only these codes or names (repeatable, comma-separated; prefixes such as SGL1 work)")
    p.add_argument("--extend-select", action="append", default=[], metavar="CODE", help=argparse.SUPPRESS)
    p.add_argument("--ignore", action="append", default=[], metavar="CODE", help="ignore these codes or names")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when diagnostics remain")
    p.add_argument("--force-exclude", action="store_true",
                   help="apply excludes (configuration and .gitignore) to files named on the command line too")
    p.add_argument("--no-ignores", action="store_true", help="disregard '# lint-configs: ignore[...]' comments")
    p.add_argument("--baseline", type=Path, default=None, metavar="FILE",
                   help="report only findings that are not recorded in this baseline file")
    p.add_argument("--write-baseline", type=Path, default=None, metavar="FILE",
                   help="record the current findings in this baseline file and exit 0")
    p.add_argument("--explain", metavar="PATH[:LINE]", default=None,
                   help="show how each launch in PATH (at LINE) was resolved: release, model, targets, backend")
    p.add_argument("--show-rule", metavar="CODE", default=None, help="print a rule's documentation")
    p.add_argument("--list-rules", action="store_true", help="list all rules")
    p.add_argument("--version", action="version", version=f"lint-configs {__version__}")
    return p


def _split_codes(values: list[str] | None) -> list[str] | None:
    if values is None:
        return None
    out = []
    for v in values:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


def read_file_list(source: str) -> list[str]:
    """The paths listed in ``source`` (a file name, or ``-`` for standard input).

    Entries are separated by NUL bytes (``git diff -z``, ``find -print0``); a list without any NUL
    is read one path per line (``\\r\\n`` or ``\\n``). Empty entries are dropped; names are decoded as
    the file system does (``os.fsdecode``), so any name git can list is kept. Raises
    :class:`UsageError` when the file cannot be read.
    """
    try:
        if source == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(source, "rb") as f:
                data = f.read()
    except OSError as exc:
        raise UsageError(f"--files-from {source}: {exc.strerror or exc}") from None
    if b"\0" in data:
        entries = data.split(b"\0")
    else:
        entries = [e[:-1] if e.endswith(b"\r") else e for e in data.split(b"\n")]
    return [os.fsdecode(e) for e in entries if e]


def main(argv: Sequence[str] | None = None) -> int:
    """Run lint-configs; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse printed the usage error (or --help/--version)
        return int(exc.code or 0) if isinstance(exc.code, int) else 2
    try:
        return _run(args)
    except UsageError as exc:
        print(f"lint-configs: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # pragma: no cover - output piped to head
        return 1
    except Exception as exc:  # noqa: BLE001 - never a traceback for users
        if os.environ.get("LINT_CONFIGS_DEBUG"):
            raise
        print(f"lint-configs: internal error: {type(exc).__name__}: {exc} "
              "(set LINT_CONFIGS_DEBUG=1 for a traceback, and please report it)", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from linter.config import ConfigError, ConfigResolver
    from linter.rules import ALL_RULES, expand_selector, rule_for

    if args.list_rules:
        for rule in ALL_RULES:
            fix = {"never": "   ", "sometimes": "(*)", "always": "[*]"}[rule.fixable]
            print(f"{rule.code} {fix} {rule.name:<36} {rule.summary}")
        return 0
    if args.show_rule:
        rule = rule_for(args.show_rule)
        if rule is None:
            raise UsageError(f"unknown rule {args.show_rule!r} (see lint-configs --list-rules)")
        print(f"# {rule.name} ({rule.code})\n")
        print(f"Severity: {rule.severity}. Fix: {rule.fixable}.\n")
        print(rule.docs())
        return 0
    select = _split_codes(args.select)
    ignore = _split_codes(args.ignore) or []
    extend = _split_codes(args.extend_select) or []
    for code in (select or []) + ignore + extend:
        if expand_selector(code) is None:
            raise UsageError(f"unknown rule {code!r} in --select/--ignore (see lint-configs --list-rules)")
    if args.target_gpu:
        from linter.gpus.catalog import lookup, why_unknown

        names = []
        for value in args.target_gpu:
            names.extend(n.strip() for n in value.split(",") if n.strip())
        for name in names:
            if lookup(name) is None:
                raise UsageError(f"--target-gpu {name!r}: {why_unknown(name)}")
        args.target_gpu = names
    if args.sglang_version:
        from linter.sglang.options import known_release

        try:
            args.sglang_version = known_release(args.sglang_version)
        except ValueError as exc:
            raise UsageError(f"--sglang-version: {exc}") from None
    try:
        configs = ConfigResolver(args.config)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    try:
        return _lint(args, configs, select, ignore, extend)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def _lint(args, configs, select, ignore, extend) -> int:
    from linter.discover import walk
    from linter.engine import Engine, RunOptions
    from linter.workspace import Workspace

    ws = Workspace(Path.cwd())
    options = RunOptions(target_gpus=args.target_gpu, sglang_version=args.sglang_version, select=select,
                         ignore=ignore, extend_select=extend, no_ignores=args.no_ignores)
    engine = Engine(ws, options, configs)

    explain_line = None
    listed = read_file_list(args.files_from) if args.files_from is not None else None
    if listed is None:
        paths = [Path(p) for p in (args.paths or ["."])]
    else:
        paths = [Path(p) for p in args.paths] + [Path(p) for p in listed]
    if args.explain:
        target, _, line = args.explain.rpartition(":")
        if target and line.isdigit():
            explain_line = int(line)
        else:
            target = args.explain
        paths = [Path(target)]
    for p in paths:
        if not p.exists():
            raise UsageError(f"{p}: no such file or folder")

    def excluded(path: Path, is_dir: bool) -> bool:
        cfg = configs.for_dir(path.parent)
        return cfg is not None and cfg.excluded(path, is_dir)

    results = {}
    for cand in walk(paths, excluded, args.force_exclude):
        res = engine.lint(cand.path)
        if res.skipped and cand.explicit and (res.source is None or cand.path.suffix == ".ipynb"):
            print(f"lint-configs: warning: {ws.display(cand.path)}: skipped: {res.skipped}", file=sys.stderr)
        results[cand.path] = res

    from linter.engine import reconcile_with_readers

    reconcile_with_readers(engine, results.values())

    if args.explain:
        from linter.report.explain import render as explain

        text = explain(results, explain_line, paths[0].absolute())
        sys.stdout.write(text)
        return 1 if text.startswith("no SGLang launch") else 0

    fixed = 0
    if args.fix or args.diff:
        from linter.fixes import fix_all, unified_diff, write_atomic

        report = fix_all(engine, results, args.unsafe_fixes)
        if args.diff:
            out = "".join(unified_diff(src, text) for src, text in report.changed.values())
            sys.stdout.write(out)
            return 1 if out and not args.exit_zero else 0
        for src, text in report.changed.values():
            try:
                write_atomic(src, text)
            except OSError as exc:
                print(f"lint-configs: error: cannot write {src.display}: {exc}", file=sys.stderr)
                return 2
        fixed = report.applied
        for d, reason in report.refused:
            d.notes.append(f"the fix was not applied: {reason}")

    diagnostics = sorted((d for r in results.values() for d in r.diagnostics), key=lambda d: d.sort_key())
    if args.write_baseline or args.baseline:
        from linter import baseline

        try:
            if args.write_baseline:
                n = baseline.write(args.write_baseline, diagnostics)
                print(f"lint-configs: recorded {n} finding{'s' if n != 1 else ''} in {args.write_baseline}",
                      file=sys.stderr)
                return 0
            diagnostics = baseline.load(args.baseline).filter(diagnostics)
        except baseline.BaselineError as exc:
            raise UsageError(str(exc)) from None
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    try:
        stream = open(args.output_file, "w", encoding="utf-8") if args.output_file else sys.stdout
    except OSError as exc:
        raise UsageError(f"--output-file {args.output_file}: {exc.strerror or exc}") from None
    try:
        _emit(fmt, diagnostics, stream, args, fixed, [c for r in results.values() for c in r.contexts])
    finally:
        if args.output_file:
            stream.close()
    if not diagnostics or args.exit_zero:
        return 0
    return 1


def _emit(fmt: str, diagnostics, stream, args, fixed: int, contexts=()) -> None:
    if fmt == "json":
        from linter.report.json import render

        stream.write(render(diagnostics))
    elif fmt == "concise":
        from linter.report.concise import render

        stream.write(render(diagnostics, unsafe_fixes=args.unsafe_fixes, fixed=fixed))
    elif fmt == "sarif":
        from linter.report.sarif import render

        stream.write(render(diagnostics))
    elif fmt == "github":
        from linter.report.github import render

        stream.write(render(diagnostics))
    elif fmt == "gitlab":
        from linter.report.gitlab import render

        stream.write(render(diagnostics))
    else:
        from linter.report.releases import release_lines
        from linter.report.text import render

        render(diagnostics, stream, unsafe_fixes=args.unsafe_fixes, fixed=fixed, assumptions=release_lines(contexts))
