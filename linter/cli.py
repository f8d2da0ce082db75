"""The ``lint-configs`` command: argv → options → run → report → exit code.

Exit codes (as ruff): 0 when no diagnostic remains (after ``--fix``), 1 when some remain (warnings
included, unless ``--fail-on error``; ``--exit-zero`` makes it 0; ``--exit-non-zero-on-fix`` makes
a run that fixed something 1), 2 on a usage, configuration or internal error. ``--explain``,
``--list-launches``, ``--show-files``, ``--list-rules`` and ``--show-rule`` exit 0 (2 on a usage
error). Everything is an option, so a folder named like a command (``rules/``) is always a path;
``-`` reads one file from stdin, named by ``--stdin-filename``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import sys
from pathlib import Path

from linter import __version__

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    import argparse
    from typing import Sequence

FORMATS = ("text", "full", "concise", "json", "sarif", "github", "gitlab", "csv")
COLORS = ("auto", "always", "never")
SHELLS = ("bash", "zsh", "fish", "tcsh")

LIST_RULES_LEGEND = ("[*] has a fix, (*) has a fix in some cases (--fix applies the safe ones, --unsafe-fixes the "
                     "others); (preview): checked with --preview or when its code is selected; lint-configs "
                     "--show-rule CODE prints a rule's page.")
USAGE = ("lint-configs [check] [OPTIONS] [PATH ...]\n       lint-configs server [--help]\n"
         "       lint-configs clean [--cache-dir DIR]")


class UsageError(Exception):
    """A bad command line or configuration: printed as ``lint-configs: error: …``, exit 2."""


def _parser(**kwargs) -> argparse.ArgumentParser:
    """An argparse parser with a two-line usage error, as ruff's (clap's) is: what is wrong, naming the
    argument (with the closest option for a misspelt one), then where to read more — not the whole
    usage. (argparse is imported here: a plain command line is read without it, :func:`quick_parse`.)"""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # noqa: D102 - argparse's hook
            prefix = "unrecognized arguments: "
            if message.startswith(prefix):
                words = message[len(prefix):].split()
                message = _unrecognized(words, self._option_string_actions)
            self.exit(2, f"{self.prog}: error: {message}\nRun '{self.prog} --help' for the options.\n")

    return Parser(**kwargs)


def _unrecognized(words: list[str], options) -> str:
    """``unrecognized argument '--exlude' (did you mean --exclude?)`` for the first bad word."""
    import difflib

    word = words[0]
    name = word.split("=", 1)[0]
    close = difflib.get_close_matches(name, [o for o in options if o.startswith("--")], n=1, cutoff=0.75) \
        if name.startswith("--") else []
    more = f" (and {len(words) - 1} more)" if len(words) > 1 else ""
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"unrecognized argument {word!r}{hint}{more}"


def _help_columns() -> int:
    """The width argparse gives its help, as ``shutil.get_terminal_size`` finds it (``COLUMNS``, else the
    terminal of standard output, else 80). argparse makes a formatter for each option it adds and each
    asks for the size: asking once here spares that and importing shutil on every run."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``lint-configs`` (``allow_abbrev=False``: options are spelled in full)."""
    import argparse

    width = _help_columns() - 2  # as argparse.HelpFormatter does with the terminal size
    p = _parser(
        prog="lint-configs", allow_abbrev=False, usage=USAGE,
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(prog, width=width),
        description="Find SGLang launches in deployment files (compose, Kubernetes, shell/Slurm, Python, cloud\n"
                    "tasks, Dockerfiles, CI workflows, notebooks, runbooks), and report what SGLang would reject\n"
                    "or crash on for the target GPU, with fixes.\n\n"
                    "commands:\n"
                    "  check     lint PATHs (the default: 'lint-configs PATH' is 'lint-configs check PATH')\n"
                    "  server    the language server for editors, on stdio ('lint-configs server --help')\n"
                    "  clean     remove the result cache ('lint-configs clean --help')",
        epilog="A folder named check, server or clean is linted as ./check, ./server or ./clean. Exit status: 0 "
               "nothing found, 1 findings remain, 2 usage, configuration or internal error.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or folders to lint (default: .); '-' reads one file from stdin")
    for flags, kwargs in OPTIONS:
        p.add_argument(*flags, **kwargs)
    return p


def build_server_parser() -> argparse.ArgumentParser:
    """The parser of ``lint-configs server`` (it takes no option but ``--help``)."""
    import argparse

    width = _help_columns() - 2
    return _parser(prog="lint-configs server", usage="lint-configs server [--help]", allow_abbrev=False,
                   formatter_class=lambda prog: argparse.HelpFormatter(prog, width=width),
                   description="The lint-configs language server: the Language Server Protocol on standard input "
                               "and output, for an editor to start (see README, 'In the editor'). It needs the "
                               "pygls and lsprotocol packages (the 'server' extra).")


def _jobs(value: str) -> int | None:
    """``--jobs``: a number of processes (at least 1), or ``auto`` (None: one per CPU)."""
    if value == "auto":
        return None
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        import argparse

        raise argparse.ArgumentTypeError(f"{value!r} is not a number of processes (1 or more, or auto)")
    return n


def _opt(*flags: str, **kwargs) -> tuple[tuple[str, ...], dict]:
    return flags, kwargs


OPTIONS = (
    _opt("--files-from", metavar="FILE", default=None,
         help="also lint the paths listed in FILE ('-': standard input), NUL-separated, or one per line "
              "when the list holds no NUL; with it, no PATH means only the listed ones"),
    _opt("--fix", action="store_true", help="apply safe fixes"),
    _opt("--unsafe-fixes", action="store_true",
         help="with --fix or --diff also apply unsafe fixes; without them, show unsafe fixes as available"),
    _opt("--diff", action="store_true", help="print the fixes as a unified diff and change nothing "
                                             "(exit 1 when there is a diff)"),
    _opt("--output-format", "--format", dest="format", choices=FORMATS, default=None, metavar="FORMAT",
         help=f"output format: {', '.join(FORMATS)} (default: text, or github when GITHUB_ACTIONS=true; "
              "full: text with every label and note; csv only with --list-launches)"),
    _opt("--output-file", "-o", type=Path, default=None, metavar="FILE", help="write the report to this file"),
    _opt("--target-gpu", action="append", default=[], metavar="NAME",
         help="the GPU the launches run on (repeatable); replaces what files and configuration declare"),
    _opt("--sglang-version", metavar="X.Y.Z[.postN]", default=None,
         help="the SGLang release to check against (default: what the file pins, else the newest)"),
    _opt("--upgrade-to", metavar="X.Y.Z[.postN]", default=None,
         help="judge every launch against this SGLang release, whatever its files pin, and report only "
              "what breaks there that does not under its pinned release (with --fix: fix it; with "
              "--list-launches: a column of it)"),
    _opt("--config", type=Path, default=None, metavar="FILE",
         help="use this pyproject.toml or .lint-configs.toml for every file"),
    _opt("--select", action="append", default=None, metavar="CODE",
         help="only these codes or names (repeatable, comma-separated; prefixes such as SGL1 work)"),
    _opt("--extend-select", action="append", default=[], metavar="CODE",
         help="also these codes or names, on top of the selection"),
    _opt("--preview", action="store_true",
         help="also check the rules in preview (marked 'preview' in --list-rules; selecting one by its "
              "exact code also turns it on)"),
    _opt("--ignore", action="append", default=[], metavar="CODE", help="ignore these codes or names"),
    _opt("--extend-ignore", action="append", default=[], metavar="CODE", help="the same as --ignore"),
    _opt("--exit-zero", action="store_true", help="exit 0 even when diagnostics remain"),
    _opt("--exit-non-zero-on-fix", action="store_true",
         help="exit 1 when --fix changed a file, even when no diagnostic remains"),
    _opt("--fail-on", choices=("error", "warning"), default="warning",
         help="the lowest severity that makes the exit code 1 (default: warning; with 'error', "
              "warnings such as SGL901 are shown but do not fail the run)"),
    _opt("--statistics", action="store_true",
         help="print the number of findings per rule instead of the findings"),
    _opt("--show-fixes", action="store_true",
         help="list the findings --fix fixed (or, without --fix, would fix), per file and rule"),
    _opt("-q", "--quiet", action="store_true", help="print the findings and nothing else (no summary)"),
    _opt("-s", "--silent", action="store_true", help="print nothing; only the exit code tells"),
    _opt("--color", choices=COLORS, default="auto",
         help="colour the text output: auto (on a terminal, unless NO_COLOR is set), always, never"),
    _opt("--show-files", action="store_true",
         help="list each file that would be linted, with its format or why it is skipped, and exit"),
    _opt("--stdin-filename", metavar="NAME", default=None,
         help="read the file to lint from stdin, as if it were NAME (its format, configuration and "
              "the files beside it, such as .env, come from NAME); with --fix, print the fixed text"),
    _opt("--root", type=Path, default=None, metavar="DIR",
         help="the repository being linted (default: the git repository holding the paths, else the "
              "current folder): no file outside it is read because a linted file names it, and none is "
              "written"),
    _opt("--allow-outside-root", action="store_true",
         help="read files outside the root that linted files name (an include, --config, .env …); "
              "never on untrusted pull requests. Files outside it are still never written"),
    _opt("--exclude", action="append", default=None, metavar="PATTERN",
         help="gitignore-style patterns (relative to the current folder; repeatable, comma-separated) of "
              "files and folders not to lint, instead of the configuration's exclude"),
    _opt("--extend-exclude", action="append", default=[], metavar="PATTERN",
         help="like --exclude, in addition to the configuration's exclude"),
    _opt("--force-exclude", action="store_true",
         help="apply excludes (configuration and .gitignore) to files named on the command line too"),
    _opt("--no-ignores", action="store_true", help="disregard '# lint-configs: ignore[...]' comments"),
    _opt("--baseline", type=Path, default=None, metavar="FILE",
         help="report only findings that are not recorded in this baseline file"),
    _opt("--write-baseline", type=Path, default=None, metavar="FILE",
         help="record the current findings in this baseline file and exit 0"),
    _opt("--explain", metavar="PATH[:LINE]", default=None,
         help="show how each launch in PATH (at LINE) was resolved: release, model, targets, backend"),
    _opt("--list-launches", action="store_true",
         help="list every SGLang launch found: model, targets, release, backend and verdict per target "
              "(--format text, json or csv)"),
    _opt("--no-cache", action="store_true",
         help="lint every file again: neither read nor write the result cache (also LINT_CONFIGS_NO_CACHE=1)"),
    _opt("--cache-dir", type=Path, default=None, metavar="DIR",
         help="the result cache folder (default: LINT_CONFIGS_CACHE_DIR, else .lint-configs_cache at the "
              "project root); 'lint-configs clean' removes it"),
    _opt("-j", "--jobs", type=_jobs, default=None, metavar="N",
         help="processes that lint at once when more than a few files mention SGLang (default: auto, "
              "one per CPU; 1: all in this process); the output is the same"),
    _opt("--show-rule", metavar="CODE", default=None, help="print a rule's documentation"),
    _opt("--list-rules", action="store_true", help="list all rules"),
    _opt("--generate-shell-completion", choices=SHELLS, default=None, metavar="SHELL",
         help="print the completion script for bash, zsh, fish or tcsh (for example "
              "'eval \"$(lint-configs --generate-shell-completion bash)\"' in ~/.bashrc) and exit"),
    _opt("--version", action="version", version=f"lint-configs {__version__}"),
)
"""The options of ``lint-configs`` (``PATH`` aside), as :func:`build_parser` adds them to argparse and
:func:`quick_parse` reads a plain command line without it."""


class Arguments:
    """A parsed command line: one attribute per option's ``dest`` (as :class:`argparse.Namespace`)."""

    def __init__(self, **values) -> None:
        self.__dict__.update(values)

    def __repr__(self) -> str:
        return f"Arguments({', '.join(f'{k}={v!r}' for k, v in sorted(self.__dict__.items()))})"


_QUICK: dict | None = None


def _quick_table() -> tuple[dict, dict]:
    """({option string: (dest, kind, type, choices)}, {dest: default}) of :data:`OPTIONS`, made once;
    ``kind`` is ``flag`` (store_true), ``one`` (a value), ``append`` or ``other`` (--version: argparse's)."""
    global _QUICK
    if _QUICK is None:
        table, defaults = {}, {"paths": []}
        for flags, kw in OPTIONS:
            dest = kw.get("dest") or next(f for f in flags if f.startswith("--"))[2:].replace("-", "_")
            action = kw.get("action")
            kind = {"store_true": "flag", "append": "append", None: "one"}.get(action, "other")
            if kind != "other":  # (--version's dest is argparse's SUPPRESS: no attribute)
                defaults[dest] = kw.get("default", False if kind == "flag" else None)
            for f in flags:
                table[f] = (dest, kind, kw.get("type"), kw.get("choices"))
        _QUICK = (table, defaults)
    return _QUICK


def quick_parse(argv: list[str]) -> Arguments | None:
    """``argv`` read as :func:`build_parser` reads it, without importing argparse (some 10 ms of a run
    answered from the result cache), when it is a plain command line: options spelled in full (or
    ``-o``, ``-q``, ``-s``, ``-j`` alone), each value a word of its own or after ``=``, no value that
    starts with ``-``, every value of a choice among its choices, and the paths in one run of words
    (argparse refuses paths on both sides of an option). None otherwise: argparse reads it then, and
    says what is wrong (a test keeps the two in agreement)."""
    table, defaults = _quick_table()
    values = {k: (list(v) if isinstance(v, list) else v) for k, v in defaults.items()}
    appended: set[str] = set()
    paths: list[str] = []
    ended = False  # a run of paths was followed by an option: no path may come after it
    i = 0
    while i < len(argv):
        word = argv[i]
        i += 1
        if word == "-" or not word.startswith("-"):
            if ended:
                return None
            paths.append(word)
            continue
        ended = ended or bool(paths)
        name, eq, value = word.partition("=")
        spec = table.get(name) if (name.startswith("--") or (len(name) == 2 and not eq)) else None
        if spec is None:
            return None
        dest, kind, kind_type, choices = spec
        if kind == "flag" and not eq:
            values[dest] = True
            continue
        if kind not in ("one", "append"):
            return None  # a flag given a value, or --version
        if not eq:
            if i >= len(argv):
                return None
            value = argv[i]
            i += 1
        if value.startswith("-"):
            return None
        try:
            value = kind_type(value) if kind_type is not None else value
        except Exception:  # noqa: BLE001 - argparse says what is wrong
            return None
        if choices is not None and value not in choices:
            return None
        if kind == "append":
            if dest not in appended:
                appended.add(dest)
                values[dest] = list(values[dest]) if values[dest] is not None else []
            values[dest].append(value)
        else:
            values[dest] = value
    values["paths"] = paths
    return Arguments(**values)


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


def read_stdin() -> bytes:
    """Standard input, whole, up to the size of file lint-configs reads (:data:`linter.limits.MAX_FILE_BYTES`):
    more is a usage error, read no further (a pipe that never ends must not fill the memory)."""
    from linter.limits import MAX_FILE_BYTES

    chunks, size = [], 0
    while size <= MAX_FILE_BYTES:
        chunk = sys.stdin.buffer.read(min(1 << 20, MAX_FILE_BYTES + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise UsageError(f"standard input is larger than the {MAX_FILE_BYTES:,} bytes lint-configs reads from a file; "
                     "nothing was checked")


def print_log(line: str, stream) -> None:
    """Print one line of the run's own messages that may hold a file's name or text: control characters
    shown escaped, and under GitHub Actions kept from being read as a workflow command."""
    from linter.report.safe import guard_log, visible

    stream.write(guard_log(visible(line) + "\n"))
    stream.flush()


def completion_script(shell: str) -> str:
    """The script that makes ``shell`` complete ``lint-configs`` (argcomplete's: the shell calls
    ``lint-configs`` back with ``_ARGCOMPLETE`` set, and :func:`entry` answers from the parser)."""
    import argcomplete

    return argcomplete.shellcode(["lint-configs"], shell=shell)


def _complete() -> None:
    """Answer a shell's completion request (argcomplete's protocol: ``_ARGCOMPLETE`` in the environment)
    and exit; imports argcomplete only then, so a run pays nothing for it."""
    import argcomplete
    from argcomplete.completers import FilesCompleter

    files = FilesCompleter()

    def paths(prefix: str, parsed_args, **kwargs) -> list[str]:
        words = list(files(prefix, **kwargs))
        if not parsed_args.paths:  # the first word may be a command
            words = [c for c in ("check", "server", "clean") if c.startswith(prefix)] + words
        return words

    parser = build_parser()
    for action in parser._actions:
        if action.dest == "paths":
            action.completer = paths  # type: ignore[attr-defined]
        elif action.metavar in ("FILE", "DIR", "NAME") or action.dest == "output_file":
            action.completer = files  # type: ignore[attr-defined]
    argcomplete.autocomplete(parser, always_complete_options="long")


def entry() -> int:
    """The ``lint-configs`` command (and ``python -m linter``): :func:`main`, then everything still
    alive is frozen out of the cyclic collector, so the interpreter's last collection at exit does not
    walk the whole heap (0.4 s after a 5.8 MB compose file). Only for a process that ends here: code
    that calls :func:`main` and goes on keeps its collector as it was (in this process, each file
    linted is frozen once linted: :func:`linter.pool.lint_all`). A shell asking for completions
    (``_ARGCOMPLETE`` set by the script of ``--generate-shell-completion``) is answered instead."""
    global _ENDS_AFTER
    if "_ARGCOMPLETE" in os.environ:
        _complete()
    _ENDS_AFTER = True
    try:
        code = main()
    finally:
        _ENDS_AFTER = False
    gc.freeze()
    return code


_ENDS_AFTER = False
"""True while :func:`entry` runs: the process ends after this run."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run lint-configs; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["server"]:
        # `lint-configs server` starts the language server (a folder named server: write ./server)
        try:
            build_server_parser().parse_args(argv[1:])
        except SystemExit as exc:  # --help, or an argument the server does not take
            return int(exc.code or 0) if isinstance(exc.code, int) else 2
        from linter.server import main as serve

        return serve()
    if argv[:1] == ["clean"]:
        # `lint-configs clean` removes the result cache (a folder named clean: write ./clean)
        from linter.cache.cli import clean

        return clean(argv[1:])
    if argv[:1] == ["check"]:
        argv = argv[1:]  # ruff's spelling: `lint-configs check PATH` is `lint-configs PATH`
    # A run is short and its objects mostly die by reference counting: look for cycles less often
    # than every 700 allocations (mypy does the same, mypy/build.py), or a large file pays for full
    # collections over its whole node tree again and again (0.4 s of 1.5 s on a 5.8 MB compose file).
    gc.set_threshold(10_000, 10, 10)
    # After the first "--" every argument is a file to lint, "-" included (a file named "-", not
    # standard input): a file name never becomes an option, whatever it is (pre-commit and xargs pass
    # names after the options; a committed file named --exit-zero must stay a file).
    literal: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, literal = argv[:cut], argv[cut + 1:]
    args = quick_parse(argv)
    if args is None:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # argparse printed the usage error (or --help/--version)
            return int(exc.code or 0) if isinstance(exc.code, int) else 2
    args.literal_paths = literal
    if args.generate_shell_completion:
        print(completion_script(args.generate_shell_completion), end="")
        return 0
    previous = _on_sigterm()
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
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _on_sigterm():
    """Make SIGTERM (a cancelled CI job, a pre-commit timeout) unwind like Ctrl-C, so a ``--fix``
    cut short removes its temporary file and leaves every file whole. Returns the previous handler
    (None when not on the main thread, where handlers cannot be set)."""
    def stop(signum, frame):
        raise SystemExit(128 + signum)

    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (threading is not imported for this: a run need not load it)
        return None


def _run(args: argparse.Namespace) -> int:
    """Everything after the command line is parsed: a rule listing, or a lint run. Raises
    :class:`UsageError` for a bad option value or configuration."""
    from linter.config import ConfigError, ConfigResolver

    if args.list_rules or args.show_rule:
        return _rule_pages(args)
    select, ignore, extend = _rule_selection(args)
    _check_modes(args)
    _check_targets_and_releases(args)
    try:
        return _Run(args, ConfigResolver(args.config), select, ignore, extend).run()
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def _rule_pages(args: argparse.Namespace) -> int:
    """``--list-rules`` (a line per rule) or ``--show-rule CODE`` (its page, docs/rules/SGLxxx.md)."""
    from linter.rules import ALL_RULES, rule_for

    if args.list_rules:
        for rule in ALL_RULES:
            fix = {"never": "   ", "sometimes": "(*)", "always": "[*]"}[rule.fixable]
            print(f"{rule.code} {fix} {rule.name:<36} {'(preview) ' if rule.preview else ''}{rule.summary}")
        print(f"\n{LIST_RULES_LEGEND}")
        return 0
    rule = rule_for(args.show_rule)
    if rule is None:
        raise UsageError(f"unknown rule {args.show_rule!r} (see lint-configs --list-rules)")
    from linter.rules.docs import rule_page

    print(rule_page(rule), end="")  # the rule's page, docs/rules/SGLxxx.md, word for word
    return 0


def _rule_selection(args: argparse.Namespace) -> tuple[list[str] | None, list[str], list[str]]:
    """(``--select``, ``--ignore`` + ``--extend-ignore``, ``--extend-select``) as lists of codes or
    selectors; raises :class:`UsageError` for one that names no rule."""
    select = _split_codes(args.select)
    ignore = (_split_codes(args.ignore) or []) + (_split_codes(args.extend_ignore) or [])
    extend = _split_codes(args.extend_select) or []
    if select or ignore or extend:
        from linter.rules import expand_selector

        for code in (select or []) + ignore + extend:
            if expand_selector(code) is None:
                raise UsageError(f"unknown rule {code!r} in --select/--ignore (see lint-configs --list-rules)")
    return select, ignore, extend


def _check_modes(args: argparse.Namespace) -> None:
    """The output format fits the mode, and at most one mode (--explain, --list-launches,
    --show-files, --write-baseline) is asked for."""
    if args.format == "csv" and not args.list_launches:
        raise UsageError("--output-format csv is for --list-launches")
    if args.list_launches and args.format not in (None, "text", "full", "json", "csv"):
        raise UsageError(f"--list-launches prints text, json or csv, not {args.format}")
    if (args.statistics or args.show_files) and args.format not in (None, "text", "full", "concise", "json"):
        raise UsageError(f"--{'statistics' if args.statistics else 'show-files'} prints text or json, "
                         f"not {args.format}")
    modes = [m for m in ("explain", "list_launches", "show_files", "write_baseline") if getattr(args, m)]
    if args.explain and args.stdin_filename is not None:
        modes.append("stdin_filename")
    if len(modes) > 1:
        raise UsageError(f"--{modes[0].replace('_', '-')} and --{modes[1].replace('_', '-')} cannot be combined")


def _check_targets_and_releases(args: argparse.Namespace) -> None:
    """``--target-gpu`` split on commas and each name known to the GPU catalog; ``--sglang-version``
    and ``--upgrade-to`` made known releases. Changes ``args`` in place."""
    if args.target_gpu:
        from linter.gpus.catalog import lookup, why_unknown

        names = [n.strip() for value in args.target_gpu for n in value.split(",") if n.strip()]
        for name in names:
            if lookup(name) is None:
                raise UsageError(f"--target-gpu {name!r}: {why_unknown(name)}")
        args.target_gpu = names
    for flag in ("sglang_version", "upgrade_to"):
        if getattr(args, flag):
            from linter.sglang.options import known_release

            try:
                setattr(args, flag, known_release(getattr(args, flag)))
            except ValueError as exc:
                raise UsageError(f"--{flag.replace('_', '-')}: {exc}") from None


class _Run:
    """One lint run, stage by stage: :meth:`inputs` (the paths, or standard input), :meth:`setup`
    (the root, the workspace, the engine), :meth:`lint_stdin` or :meth:`lint_tree`, the fixes'
    reconciliation, then :meth:`report` (a mode's output, or fixes, the baseline and the findings)
    and :meth:`exit_code`."""

    def __init__(self, args: argparse.Namespace, configs, select, ignore, extend) -> None:
        self.args, self.configs = args, configs
        self.selection = (select, ignore, extend)
        self.cwd = Path.cwd()
        self.quiet = args.quiet or args.silent
        self.results: dict = {}
        self.skipped_files = 0
        self.failed = False
        self.stdin_data = b""
        self.fixed = 0
        self.diagnostics: list = []

    def warn(self, message: str) -> None:
        if not self.quiet:
            print_log(f"lint-configs: warning: {message}", sys.stderr)

    def run(self) -> int:
        from linter.engine import reconcile_with_readers
        from linter.isolate import crashed

        self.inputs()
        self.setup()
        if self.stdin_path is not None:
            self.lint_stdin()
        else:
            self.lint_tree()
        reconcile_with_readers(self.engine, self.results.values())
        # exit 2 after everything else is reported: an internal error, or a file or folder that could not be read
        self.failed = self.failed or any(crashed(r) or r.unreadable for r in self.results.values())
        args = self.args
        fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
        with _output(args, to_stderr=self.stdin_path is not None and args.fix and not args.diff,
                     guard=_log_guarded(args, fmt)) as stream:
            code = self.report(stream, fmt, {"auto": None, "always": True, "never": False}[args.color])
        return code if code is not None else self.exit_code()

    # -- stages ----------------------------------------------------------------------------------

    def inputs(self) -> None:
        """``paths`` (named, listed by --files-from, or ``.``), ``stdin_path`` (the name standard
        input is linted as, or None) and ``explain_line`` (``--explain FILE:LINE``)."""
        args = self.args
        self.explain_line = self.stdin_path = None
        listed = None
        if args.files_from is not None:
            if args.files_from == "-" and (args.stdin_filename is not None or "-" in args.paths):
                raise UsageError("--files-from - and '-' (or --stdin-filename) both read standard input")
            listed = read_file_list(args.files_from)
        named = list(args.paths) + list(args.literal_paths)
        self.paths = [Path(p) for p in (named or ["."])] if listed is None else \
            [Path(p) for p in named] + [Path(p) for p in listed]
        if args.explain:
            target, _, line = args.explain.rpartition(":")
            if target and line.isdigit():
                self.explain_line = int(line)
            else:
                target = args.explain
            self.paths = [Path(target)]
        elif args.stdin_filename is not None or args.paths == ["-"]:
            # As ruff: --stdin-filename always reads stdin; other paths are ignored with a warning.
            others = [p for p in args.paths if p != "-"] + list(args.literal_paths)
            if others:
                self.warn(f"ignoring {', '.join(others)}: --stdin-filename reads the file from standard input")
            self.stdin_path = Path(os.path.normpath(self.cwd.resolve() / (args.stdin_filename or "-")))
        elif "-" in args.paths:
            raise UsageError("'-' (standard input) cannot be mixed with other paths")

    def setup(self) -> None:
        """The run's root (linter/boundary.py), ``ws`` (the workspace) and ``engine``; every named path
        must exist."""
        from linter.boundary import find_root
        from linter.engine import Engine, RunOptions
        from linter.workspace import Workspace

        args = self.args
        if args.root is not None and not args.root.is_dir():
            raise UsageError(f"--root {args.root}: not a folder")
        named = [self.stdin_path] if self.stdin_path is not None else self.paths
        root = find_root(named, self.cwd, args.root)
        self.ws = Workspace(self.cwd, root=root, allow_outside=args.allow_outside_root)
        self.configs.stop = root  # the search for a configuration goes no higher
        for p in named:
            self.ws.boundary.name(p)  # a path the user named outside the root is the user's choice: read there
        select, ignore, extend = self.selection
        options = RunOptions(target_gpus=args.target_gpu, sglang_version=args.sglang_version, select=select,
                             ignore=ignore, extend_select=extend, no_ignores=args.no_ignores,
                             upgrade_to=args.upgrade_to, preview=args.preview, skip_reasons=bool(args.show_files))
        self.engine = Engine(self.ws, options, self.configs)
        if self.stdin_path is None:
            for p in self.paths:
                try:
                    found = p.exists()
                except OSError as exc:  # e.g. a path inside a folder this user may not read
                    raise UsageError(f"{p}: {exc.strerror or exc}") from None
                if not found:
                    raise UsageError(f"{p}: no such file or folder")
        self.excluded = _excluder(args, self.configs, self.cwd)

    def lint_stdin(self) -> None:
        """Standard input, linted as ``stdin_path`` (as shell when unnamed and unrecognised)."""
        from linter.isolate import lint_file
        from linter.source import DecodeError

        args, ws, path = self.args, self.ws, self.stdin_path
        self.stdin_data = read_stdin()
        try:
            ws.add_unsaved(path, self.stdin_data)
        except DecodeError as exc:
            raise UsageError(f"standard input ({ws.display(path)}): {exc}") from None
        if args.force_exclude and self.excluded(path, False):
            return
        res = lint_file(self.engine, path)  # one bad file never stops the run: SGL000 on it instead
        if res.skipped and args.stdin_filename is None and res.source is not None:
            # Unnamed standard input that is not recognised by a shebang: a command line pasted on
            # stdin is shell (name it with --stdin-filename for another format).
            res = lint_file(self.engine, path, fmt="shell")
        if res.skipped and not args.show_files:
            self.warn(f"{ws.display(path)}: skipped: {res.skipped}")
        self.results[path] = res

    def lint_tree(self) -> None:
        """Every file under the paths, through the pool; what the walk could not read is said."""
        from linter.discover import WalkReport, walk
        from linter.pool import lint_all

        args, ws = self.args, self.ws
        # A file the mention filter skipped is only counted, unless an output names it (--show-files) or
        # a baseline must know it was linted: 100,000 files need not leave 100,000 results behind.
        cfg = self.configs.for_dir(ws.cwd)
        keep_skipped = bool(args.show_files or args.explain or args.write_baseline or args.baseline
                            or (cfg is not None and cfg.baseline))
        from linter.cache.cli import needs_fresh_results, open_for_run
        from linter.progress import shown

        cache = open_for_run(args, self.engine, self.configs, self.warn)
        # one bad file never stops the run: SGL000 on it instead
        walked = WalkReport(ws.boundary)
        # with the cache, a walked file it knows the filter skips costs one stat (no result is needed of it)
        quick = cache if not keep_skipped else None
        files = walk(self.paths, self.excluded, args.force_exclude, walked, quick)
        recorded = not needs_fresh_results(args)
        for cand, res in shown(lint_all(self.engine, files, args.jobs, skip_unmentioned=not keep_skipped, cache=cache,
                                        recorded=recorded, freeze=_ENDS_AFTER), args, self.quiet, walked):
            if res is None or (res.prefiltered and not keep_skipped):
                self.skipped_files += 1  # decided on the file's bytes, before any Path or result is made
                continue
            if res.skipped and (cand.explicit or res.unreadable) and res.source is None and not res.prefiltered \
                    and not args.show_files:
                # a file named on the command line, or one a walk found but could not read, is not
                # passed over in silence
                self.warn(f"{ws.display(cand.path)}: skipped: {res.skipped}")
            self.results[cand.path] = res
        self.skipped_files += walked.known
        if cache is not None:
            cache.flush()
        for name in walked.outside:
            self.warn(f"{ws.display(Path(name))}: skipped: a symbolic link to a file outside the repository root "
                      f"(not read; --root sets the root)")
        for name, why in walked.unreadable:
            # a folder whose files were not even listed: nothing there was checked, which a green run
            # must not hide
            print_log(f"lint-configs: error: {ws.display(Path(name))}: cannot read the folder ({why}); nothing in "
                      "it was checked", sys.stderr)
            self.failed = True

    def report(self, stream, fmt: str, color) -> int | None:
        """What the run prints: a mode's output (--show-files, --explain, --list-launches: exit 0), or
        the fixes, the baseline and the findings. The exit code when a stage decides it, else None."""
        args = self.args
        if args.show_files:
            _show_files(self.results, self.ws, fmt, stream)
            return 0
        if args.explain:
            from linter.report.explain import render as explain

            stream.write(explain(self.results, self.explain_line, self.paths[0].absolute()))
            return 0  # an explanation, found or not, is not a finding (linting that file exits 0 too)
        if args.list_launches:
            self.inventory(stream, fmt, color)
            return 0
        report = None
        if args.fix or args.diff:
            report, code = self.fix(stream)
            if code is not None:
                return code
        if self.stdin_path is not None and args.fix:
            # As ruff: the (fixed) text goes to stdout, the report to stderr.
            text = self.ws.read(self.stdin_path).encode() if self.stdin_path in self.results else self.stdin_data
            sys.stdout.flush()
            sys.stdout.buffer.write(text)
            sys.stdout.buffer.flush()
        self.diagnostics = _unique(sorted((d for r in self.results.values() for d in r.diagnostics),
                                          key=lambda d: d.sort_key()))
        after = self.baseline()
        if after is None:
            return 0  # --write-baseline
        self.emit(stream, fmt, color, report, after)
        return None

    def inventory(self, stream, fmt: str, color) -> None:
        """``--list-launches``: every launch in text, JSON or CSV."""
        from linter.report import inventory

        launches = inventory.rows(self.results, upgrade=self.args.upgrade_to)
        if fmt == "json":
            stream.write(inventory.render_json(launches))
        elif fmt == "csv":
            stream.write(inventory.render_csv(launches))
        else:
            inventory.render_text(launches, stream, color)

    def fix(self, stream):
        """``--fix`` or ``--diff``: (the fix report, the exit code when ``--diff`` ends the run)."""
        from linter.fixes import fix_all, unified_diff

        args = self.args
        report = fix_all(self.engine, self.results, args.unsafe_fixes, within=self.stdin_path)
        for res in report.crashed:  # checking a fix failed: the fix was refused, the bug is reported
            self.failed = True
            target = self.results.setdefault(res.path, res)
            if target is not res:
                target.diagnostics.extend(res.diagnostics)
        if self.stdin_path is not None:
            self._note_edits_beside_stdin()
        if args.diff:
            from linter.report.safe import inert_diff

            out = "".join(unified_diff(src, text) for src, text in report.changed.values())
            if not args.silent:
                shown, escaped = inert_diff(out)
                stream.write(shown)
                if escaped:
                    self.warn(f"the diff shows {escaped} control or invisible character{'s' * (escaped != 1)} of "
                              "the files as escapes (\\x1b, \\u202e): the lines holding them do not apply as shown")
            if self.failed:
                return report, 2
            return report, 1 if out and not args.exit_zero else 0
        if self.stdin_path is None:
            self._write(report)
        self.fixed = report.applied
        for d, reason in report.refused:
            note = f"the fix was not applied: {reason}"
            if note not in d.notes:
                d.notes.append(note)
        return report, None

    def _note_edits_beside_stdin(self) -> None:
        for res in self.results.values():
            for d in res.diagnostics:
                others = sorted({e.span.source.display for e in (d.fix.edits if d.fix else [])
                                 if e.span.source.path != self.stdin_path})
                if others:
                    d.notes.append(f"the fix edits {', '.join(others)}: not applied when linting standard input")

    def _write(self, report) -> None:
        """Each file on its own: a file changed, replaced or deleted since it was read, hard linked or
        read-only is left (its findings stay, with a note); one that cannot be written never stops the
        others."""
        from linter.fixes import write_all
        from linter.isolate import crashed

        ws = self.ws
        outcome = write_all(self.engine, self.results, report)
        for path, why in sorted(outcome.warnings.items()):
            self.warn(f"{ws.display(path)}: {why}")
        for path, why in sorted(outcome.left.items()):
            self.warn(f"{ws.display(path)} left unchanged: {why}")
        for path, why in sorted(outcome.failed.items()):
            print_log(f"lint-configs: error: {ws.display(path)}: {why}", sys.stderr)
            self.failed = True
        self.failed = self.failed or any(crashed(r) for r in self.results.values())

    def baseline(self) -> list[str] | None:
        """The baseline stage: ``--write-baseline`` records the findings (None: the run ends); a
        baseline (``--baseline`` or the configuration's) takes the recorded findings out of
        ``diagnostics``. Returns the lines to say after the report (stale entries)."""
        args, ws, configs = self.args, self.ws, self.configs
        if args.write_baseline or args.baseline:
            baseline_file = args.baseline
        else:
            cfg = configs.for_dir(ws.cwd)
            baseline_file = cfg.baseline if cfg is not None else None
            if baseline_file is not None and args.config is None and not ws.boundary.may_read(baseline_file):
                # a committed configuration is the pull request's: its baseline stays in the repository
                raise UsageError(f"the 'baseline' key of {cfg.path} names {baseline_file}, outside the repository "
                                 "root: not read (pass --baseline FILE to use it)")
        if not (args.write_baseline or baseline_file):
            return []
        from linter import baseline

        try:
            if args.write_baseline:
                n = baseline.write(args.write_baseline, self.diagnostics)
                if not self.quiet:
                    print(f"lint-configs: recorded {n} finding{'s' if n != 1 else ''} in {args.write_baseline}",
                          file=sys.stderr)
                return None
            recorded = baseline.load(baseline_file)
        except baseline.BaselineError as exc:
            where = "" if args.baseline else f" (the 'baseline' key of {configs.for_dir(ws.cwd).path})"
            raise UsageError(f"{exc}{where}") from None
        linted = {os.path.realpath(p) for p in self.results}

        def checked(path: Path, code: str) -> bool:
            real = os.path.realpath(path)
            return real in linted and code in self.engine.selected_codes(configs.settings_for(Path(real)))

        stale = recorded.stale(self.diagnostics, checked)
        self.diagnostics = recorded.filter(self.diagnostics)
        if not stale or self.quiet:
            return []
        shown = ws.display(baseline_file.absolute())
        entries = "entries no longer match" if stale != 1 else "entry no longer matches"
        return [f"{stale} baseline {entries} any finding; rewrite it with `lint-configs --write-baseline {shown}`"]

    def emit(self, stream, fmt: str, color, report, after: list[str]) -> None:
        """The findings in the output format (or their statistics), with the lines ``after`` them."""
        args, diagnostics = self.args, self.diagnostics
        before = _fixes_listing(report.fixed if report else None, diagnostics, args) if args.show_fixes else []
        if args.silent:
            pass
        elif args.statistics:
            _statistics(fmt, diagnostics, stream, args, self.fixed, self.quiet, after)
        else:
            from linter.coverage import measure

            _emit(fmt, diagnostics, stream, args, self.fixed, [c for r in self.results.values() for c in r.contexts],
                  color, before, after if fmt in ("text", "full") else [],
                  checked=measure(self.results.values(), self.skipped_files), upgrade=args.upgrade_to)
        if after and fmt not in ("text", "full") and not args.statistics:
            for line in after:
                print(f"lint-configs: warning: {line}", file=sys.stderr)

    def exit_code(self) -> int:
        """2 after an internal error or a file that could not be read or written; else 1 when a
        finding remains (an error, or any with --fail-on warning) or, with --exit-non-zero-on-fix,
        something was fixed; else 0 (always 0 with --exit-zero)."""
        args = self.args
        if self.failed:
            return 2  # an internal error or a file that could not be written: reported above
        if args.exit_zero:
            return 0
        if any(args.fail_on == "warning" or d.severity == "error" for d in self.diagnostics):
            return 1
        return 1 if args.exit_non_zero_on_fix and self.fixed else 0


def _excluder(args: argparse.Namespace, configs, cwd: Path):
    """``excluded(path, is_dir) -> bool`` for the walk: ``--exclude`` replaces every configuration's
    exclude, ``--extend-exclude`` adds to them (as ruff's); one configuration lookup per folder."""
    folder_configs: dict[str, object] = {}  # the walk asks for every file: one lookup per folder
    unseen = object()
    command_line = _exclude_patterns((args.exclude or []) + args.extend_exclude)
    use_configs = args.exclude is None

    def config_of(folder: str, names=None, real: str | None = None):
        cfg = folder_configs.get(folder, unseen)
        if cfg is unseen:  # (a string, not a Path; the walk's listing of the folder spares the looks in it)
            cfg = folder_configs[folder] = configs.for_dir(folder, names, real)
        return cfg

    def excluded(path: Path | str, is_dir: bool) -> bool:
        if command_line and _matches(command_line, cwd, path, is_dir):
            return True
        if not use_configs:
            return False
        cfg = config_of(os.path.dirname(path))
        return cfg is not None and cfg.excluded(path, is_dir)

    # the walk asks once per folder whether a file in it can be excluded at all (see discover._walk_folder)
    excluded.may_exclude = lambda folder, names, real=None: bool(command_line) or (
        use_configs and config_of(folder, names, real) is not None)
    return excluded


def _exclude_patterns(values: list[str]) -> list[str]:
    """``--exclude``/``--extend-exclude`` values as patterns (comma-separated, blanks dropped); a usage
    error names a pattern pathspec cannot read."""
    patterns = [p for v in values for p in (x.strip() for x in v.split(",")) if p]
    if patterns:
        from linter.config import glob_problem

        for pattern in patterns:
            problem = glob_problem(pattern)
            if problem:
                raise UsageError(f"--exclude {pattern!r}: not a gitignore-style pattern ({problem})")
    return patterns


def _matches(patterns: list[str], cwd: Path, path: Path | str, is_dir: bool) -> bool:
    """True when ``path`` matches one of the gitignore-style ``patterns``, relative to ``cwd``."""
    from linter.config import _glob_match

    rel = os.path.relpath(os.path.abspath(path), cwd)
    if rel.startswith(".."):
        return False
    rel = rel.replace(os.sep, "/") + ("/" if is_dir else "")
    return any(_glob_match(rel, p) for p in patterns)


def _log_guarded(args, fmt: str) -> bool:
    """True when what this run prints is text for people (a report, a diff, an explanation), which under
    GitHub Actions must not be read as workflow commands; False for JSON (:func:`linter.report.safe.json_text`
    keeps it inert), SARIF, GitLab, CSV and the github format's own annotations (which guard their plain lines)."""
    if args.diff or args.explain:
        return True
    if args.show_files or args.statistics:
        return fmt != "json"
    if args.list_launches:
        return fmt not in ("json", "csv")
    return fmt not in ("json", "sarif", "gitlab", "github")


@contextlib.contextmanager
def _output(args, to_stderr: bool, guard: bool = False):
    """The report's stream: ``--output-file``, else stdout (stderr when stdout carries fixed stdin text).
    With ``guard`` under GitHub Actions, what goes to stdout or stderr is printed at the end inside a
    ``::stop-commands::`` block when a line of it could be read as a workflow command."""
    if args.output_file is None:
        real = sys.stderr if to_stderr else sys.stdout
        from linter.report.safe import on_github

        if not (guard and on_github()):
            yield real
            return
        import io

        from linter.report.safe import guard_log

        buffer = io.StringIO()
        try:
            yield buffer
        finally:
            real.write(guard_log(buffer.getvalue()))
        return
    try:
        stream = open(args.output_file, "w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--output-file {args.output_file}: {exc.strerror or exc}") from None
    with stream:
        yield stream


def _unique(diagnostics: list) -> list:
    """One finding per code, place and message: a compose base and its override (or two files that
    include one) are each linted as the same stack, and report its findings alike."""
    seen: set = set()
    out = []
    for d in diagnostics:
        key = (d.code, d.span.key(), d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _show_files(results, ws, fmt: str, stream) -> None:
    """``--show-files``: each file with its format and number of launches, or why it is skipped."""
    from linter.formats import companion_of

    rows = []
    for path in sorted(results, key=lambda p: ws.display(p)):
        res = results[path]
        skipped = res.skipped
        owner = companion_of(path) if skipped else None
        if owner is not None:
            skipped = f"read with the {owner.name} files beside it"
        if not skipped and res.fmt is None:
            # a file of a linted format that could not even be decoded: its SGL001 says why
            why = next((d.message for d in res.diagnostics if d.code == "SGL001"), "it could not be read")
            skipped = f"not read: {why}"
        rows.append({"path": ws.display(path), "format": None if skipped else res.fmt,
                     "launches": len(res.contexts), "skipped": skipped})
    if fmt == "json":
        from linter.report.safe import json_text

        stream.write(json_text(json.dumps(rows, indent=2)) + "\n")
        return
    from linter.report.safe import visible

    for r in rows:
        if r["skipped"]:
            stream.write(f"{visible(r['path'])}: skipped: {visible(r['skipped'])}\n")
        else:
            n = r["launches"]
            stream.write(f"{visible(r['path'])}: {r['format']}, {n} launch{'es' if n != 1 else ''}\n")


def _fixes_listing(fixed, diagnostics, args) -> list[str]:
    """``--show-fixes``: what --fix fixed (or would fix), per file and rule, as ruff prints it."""
    from collections import Counter

    from linter.fixes import applicable

    if fixed is None:
        todo = [d for d in diagnostics if applicable(d, args.unsafe_fixes)]
        head = f"Would fix {len(todo)} finding{'s' if len(todo) != 1 else ''} with `lint-configs --fix" + \
               (" --unsafe-fixes`:" if args.unsafe_fixes else "`:")
    else:
        todo = list(fixed)
        head = f"Fixed {len(todo)} finding{'s' if len(todo) != 1 else ''}:"
    if not todo:
        return []
    lines = [head]
    by_file: dict[str, Counter] = {}
    names = {}
    for d in todo:
        by_file.setdefault(d.path, Counter())[d.code] += 1
        names[d.code] = d.name
    for path in sorted(by_file):
        lines.append(f"- {path}:")
        for code, n in sorted(by_file[path].items()):
            lines.append(f"    {n} × {code} ({names[code]})")
    lines.append("")
    return lines


def _statistics(fmt: str, diagnostics, stream, args, fixed: int, quiet: bool, after: list[str]) -> None:
    """``--statistics``: findings per rule, most frequent first (JSON with --format json)."""
    from collections import Counter

    from linter.fixes import applicable

    counts = Counter(d.code for d in diagnostics)
    names = {d.code: d.name for d in diagnostics}
    fixable = {d.code for d in diagnostics if applicable(d, args.unsafe_fixes)}
    order = sorted(counts, key=lambda c: (-counts[c], c))
    if fmt == "json":
        stream.write(json.dumps([{"code": c, "name": names[c], "count": counts[c], "fixable": c in fixable}
                                 for c in order], indent=2) + "\n")
        return
    width = max((len(str(n)) for n in counts.values()), default=1)
    for c in order:
        mark = ("[*] " if c in fixable else "[ ] ") if fixable else ""
        stream.write(f"{counts[c]:>{width}}\t{c}\t{mark}{names[c]}\n")
    if not quiet:
        from linter.report.text import summary

        stream.write(summary(diagnostics, args.unsafe_fixes, fixed) + "\n")
        for line in after:
            stream.write(line + "\n")


def _emit(fmt: str, diagnostics, stream, args, fixed: int, contexts=(), color=None, before=(),
          after=(), checked=None, upgrade: str | None = None) -> None:
    if fmt == "json":
        from linter.report.json import render

        stream.write(render(diagnostics))
    elif fmt == "concise":
        from linter.report.concise import render

        out = render(diagnostics, unsafe_fixes=args.unsafe_fixes, fixed=fixed, checked=checked)
        if args.quiet:  # the findings only: drop the closing summary line
            out = "".join(out.splitlines(keepends=True)[:-1])
        stream.write(out)
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
        from linter.report.releases import release_lines, upgrade_lines
        from linter.report.text import render

        lines = upgrade_lines(contexts, upgrade) if upgrade else release_lines(contexts)
        render(diagnostics, stream, unsafe_fixes=args.unsafe_fixes, fixed=fixed, show_summary=not args.quiet,
               assumptions=lines, color=color, before_summary=list(before), after_summary=list(after),
               checked=checked, full=fmt == "full")
