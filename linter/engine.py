"""The pipeline for one file: read → detect → extract → resolve → rules → suppressions.

``Engine.lint(path)`` never raises for a bad input file: a file that cannot be decoded or parsed
becomes an SGL001 diagnostic, a file of no linted format or with no SGLang mention is skipped
without being parsed (the heavy parsers are imported only for files that need them).
"""

from __future__ import annotations

import importlib
import os
import re
import stat
from pathlib import Path

from linter import limits
from linter.config import ConfigResolver, Selection, Settings, selected_codes
from linter.discover import PREFILTER, detect_format, mentions_sglang
from linter.mentions import imports_other_modules
from linter.records import Record
from linter.shared_fixes import reconcile_shared_fixes
from linter.source import DecodeError, Edit, SourceFile, Span
from linter.workspace import MAX_BYTES, Workspace

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from linter.launch import Extraction, GpuDecl, Launch
    from linter.rules.base import Diagnostic, LaunchContext

# The rules, the resolver and the SGLang tables are loaded on first use (:func:`_load`): a run whose
# files all fail the mention filter never imports them.
directives = resolve = LAUNCH_RULES = Diagnostic = UnparseableFile = UnusedSuppression = None
finding = file_problems = unused_targets = unknown_gpus = None
parser_only_note = None


def _load() -> None:
    global directives, resolve, LAUNCH_RULES, Diagnostic, UnparseableFile, UnusedSuppression
    global finding, file_problems, unused_targets, unknown_gpus
    global parser_only_note
    if directives is not None:
        return
    from linter import directives as _directives
    from linter.resolve import resolve as _resolve
    from linter.rules import LAUNCH_RULES as _launch_rules
    from linter.rules import meta
    from linter.rules.base import Diagnostic as _diagnostic
    from linter.sglang.decision import parser_only_note as _note

    resolve, LAUNCH_RULES, Diagnostic, parser_only_note = _resolve, _launch_rules, _diagnostic, _note
    UnparseableFile, UnusedSuppression = meta.UnparseableFile, meta.UnusedSuppression
    finding, file_problems = meta.finding, meta.file_problems
    unused_targets, unknown_gpus = meta.unused_targets, meta.unknown_gpus
    directives = _directives


def __getattr__(name: str):
    if name == "BY_CODE":  # re-exported for callers of ``linter.engine`` (loaded on demand)
        from linter.rules import BY_CODE

        return BY_CODE
    raise AttributeError(name)


class RunOptions(Record):
    """Options that apply to every file of a run (from the command line)."""

    target_gpus: list[str]
    sglang_version: str | None
    select: list[str] | None
    ignore: list[str]
    extend_select: list[str]
    no_ignores: bool
    preview: bool
    """``--preview``: also check the rules in preview (:attr:`linter.rules.base.Rule.preview`)."""
    upgrade_to: str | None
    """``--upgrade-to X``: judge every launch against release X whatever its files pin, and report only the
    findings it has under X and not under its pinned release (:class:`Upgrade`)."""
    skip_reasons: bool
    """Say why each skipped file is skipped (its format is looked for): ``--show-files`` shows it; a
    plain run only counts skipped files, so the CLI turns it off there to spare sniffing each one."""
    _fields = ("target_gpus", "sglang_version", "select", "ignore", "extend_select", "no_ignores", "preview",
               "upgrade_to", "skip_reasons")

    def __init__(self, target_gpus: list[str] | None = None, sglang_version: str | None = None,
                 select: list[str] | None = None, ignore: list[str] | None = None,
                 extend_select: list[str] | None = None, no_ignores: bool = False, preview: bool = False,
                 upgrade_to: str | None = None, skip_reasons: bool = True) -> None:
        self.target_gpus = [] if target_gpus is None else target_gpus
        self.sglang_version = sglang_version
        self.select = select
        self.ignore = [] if ignore is None else ignore
        self.extend_select = [] if extend_select is None else extend_select
        self.no_ignores = no_ignores
        self.preview = preview
        self.upgrade_to = upgrade_to
        self.skip_reasons = skip_reasons


class FileResult(Record):
    """The outcome for one file. ``skipped`` says why a file was not linted (None when it was)."""

    path: Path
    source: SourceFile | None
    fmt: str | None
    diagnostics: list[Diagnostic]
    contexts: list[LaunchContext]
    related: list[SourceFile]
    skipped: str | None
    prefiltered: bool
    """Skipped by the mention filter on the file's bytes: its text was never kept (``source`` is None)."""
    unreadable: bool
    """Skipped because reading it failed (permission denied, an I/O error): the run says so."""
    upgrade: Upgrade | None
    """With ``--upgrade-to``: the launches judged against that release (the file's ``diagnostics`` are then
    only what is new there)."""
    passed_over: list
    """``(span, why)`` of the commands and settings that name a framework's SGLang backend but start no
    SGLang server (another engine, one chosen at run time): ``--explain`` says so."""
    _fields = ("path", "source", "fmt", "diagnostics", "contexts", "related", "skipped", "prefiltered", "unreadable",
               "upgrade", "passed_over")

    def __init__(self, path: Path, source: SourceFile | None = None, fmt: str | None = None,
                 diagnostics: list[Diagnostic] | None = None, contexts: list[LaunchContext] | None = None,
                 related: list[SourceFile] | None = None, skipped: str | None = None, prefiltered: bool = False,
                 unreadable: bool = False, upgrade: Upgrade | None = None, passed_over: list | None = None) -> None:
        self.path = path
        self.source = source
        self.fmt = fmt
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.contexts = [] if contexts is None else contexts
        self.related = [] if related is None else related
        self.skipped = skipped
        self.prefiltered = prefiltered
        self.unreadable = unreadable
        self.upgrade = upgrade
        self.passed_over = [] if passed_over is None else passed_over


class Upgrade(Record):
    """One file judged against the release a run upgrades to: ``release``, the launches resolved there
    (``contexts``, in the order of :attr:`FileResult.contexts`) and, per launch identity, the findings it
    has there and not under its pinned release (``new``: launch identity → diagnostics, before
    suppressions)."""

    release: str
    contexts: list
    new: dict
    pinned: list
    """The file's findings under the releases its launches pin (after selection and suppressions)."""
    _fields = ("release", "contexts", "new", "pinned")

    def __init__(self, release: str, contexts: list | None = None, new: dict | None = None,
                 pinned: list | None = None) -> None:
        self.release = release
        self.contexts = [] if contexts is None else contexts
        self.new = {} if new is None else new
        self.pinned = [] if pinned is None else pinned


class Engine:
    """Lints files. ``ws`` gives file access, ``configs`` the per-file configuration."""

    def __init__(self, ws: Workspace, options: RunOptions, configs: ConfigResolver) -> None:
        self.ws = ws
        self.options = options
        self.configs = configs

    # -- one file ---------------------------------------------------------------------------------

    def lint(self, path: Path, fmt: str | None = None) -> FileResult:
        """Lint one file; ``fmt`` forces its format (else the registry detects it). The file's
        expanders share one :class:`linter.limits.Budget`."""
        with limits.file_budget():
            return self._lint(path, fmt)

    def _lint(self, path: Path, fmt: str | None) -> FileResult:
        """The stages of one file: read it, decide its format, extract its launches, resolve them,
        run the rules, then select, suppress and merge the findings."""
        path = path if path.is_absolute() else (self.ws.cwd / path)
        if fmt is None and self.ws.unread(path):
            quick = without_mention(path, self.options.skip_reasons)
            if quick is not None:
                return quick
        _load()
        result = FileResult(path)
        source = self._read(path, result)
        if source is None or not self._format(source, fmt, result):
            return result
        settings = self.configs.settings_for(path)
        extraction = self._extract(source, result)
        if extraction is None:
            return result
        found = directives.scan(source, extraction.comments)
        diags = self._file_findings(source, extraction, found)
        file_decls = found.targets + extraction.gpu_decls
        self._resolve(result, extraction, settings, file_decls)
        for ctx in result.contexts:
            diags.extend(self._findings(ctx))
        if any(ctx.launch.path for ctx in result.contexts):
            from linter.variants import combine

            diags = combine(result.contexts, diags)
        result.diagnostics.extend(self._report(result, diags, settings, found, file_decls, extraction))
        reconcile_shared_fixes([result])
        return result

    # -- stages -----------------------------------------------------------------------------------

    def _read(self, path: Path, result: FileResult) -> SourceFile | None:
        """The file's text, or None with ``result`` saying why not: SGL001 for a file a format claims
        by its name that is not UTF-8, a skip reason otherwise (``unreadable`` for an OS error)."""
        from linter.formats import claims_name

        try:
            source = self.ws.read(path, named=True)  # a linted file: named, or found by the walk inside the root
        except DecodeError as exc:
            if claims_name(path):
                data = path.read_bytes()
                text = data.decode("utf-8", "replace").replace("\x00", "\ufffd")
                fake = SourceFile(path, self.ws.display(path), text)
                offset = len(data[:exc.offset].decode("utf-8", "replace"))
                result.source = fake
                result.diagnostics.append(finding(UnparseableFile, f"cannot read the file: {exc}",
                                                  Span(fake, offset, offset)))
            else:
                result.skipped = str(exc)
            return None
        except (OSError, ValueError) as exc:
            result.skipped = str(exc)
            result.unreadable = isinstance(exc, OSError)
            return None
        result.source = source
        return source

    def _format(self, source: SourceFile, fmt: str | None, result: FileResult) -> bool:
        """Set ``result.fmt`` (``fmt``, else detected) and say whether the file goes on: False for a
        file of no format, or one that neither mentions SGLang nor is read with files that do (its
        unused ``target-gpu`` directives are still reported)."""
        from linter.formats import names_text

        fmt = fmt or detect_format(source.path, source.text)
        result.fmt = fmt
        if fmt is None:
            result.skipped = f"not a file of a linted format ({names_text()})"
            return False
        if not mentions_sglang(source.text) and not self._read_with_mentions(source, fmt):
            result.skipped = "does not mention SGLang"
            unused = unused_targets(directives.scan(source).targets)
            if unused:
                result.skipped += "; only its target-gpu directives are checked"  # (what the check reports)
                result.diagnostics = self._select(unused, self.configs.settings_for(source.path))
            return False
        return True

    def _extract(self, source: SourceFile, result: FileResult) -> Extraction | None:
        """The launches of the file from its format's module (None when the module cannot be
        imported), with framework commands and trainer server groups resolved; a file nested too
        deeply gets SGL001 and an extractor past its budget SGL004, and a launch of more than
        :data:`~linter.limits.MAX_WORDS_PER_LAUNCH` words is dropped with SGL004."""
        from linter.formats import by_name
        from linter.launch import Extraction
        from linter.recognize import collect_passed_over

        try:
            module = importlib.import_module(by_name(result.fmt).module)
        except ImportError as exc:  # a format whose module is not available
            result.skipped = f"no {result.fmt} support: {exc}"
            return None
        with collect_passed_over() as passed_over:
            try:
                extraction: Extraction = module.extract(source, self.ws)
            except RecursionError:
                extraction = Extraction()
                result.diagnostics.append(finding(UnparseableFile, "the file is nested too deeply to parse",
                                                  Span(source, 0, 0)))
            except limits.LimitExceeded as exc:  # an evaluator's budget, spent where nothing caught it
                extraction = Extraction()
                limits.budget().stopped(exc, Span(source, 0, 0), "the file is not checked")
            from linter.extract.framework_cli import resolve_framework_commands
            from linter.extract.trainer_config import expand_server_groups

            resolve_framework_commands(extraction, self.ws)
            expand_server_groups(extraction, self.ws)
        result.passed_over = passed_over
        result.related = list(extraction.related)
        for launch in [x for x in extraction.launches if len(x.args) + len(x.kwargs) > limits.MAX_WORDS_PER_LAUNCH]:
            limits.record("MAX_WORDS_PER_LAUNCH", f"a launch of {len(launch.args) + len(launch.kwargs):,} words",
                          Span(source, launch.span.start, launch.span.start), "this launch is not checked")
            extraction.launches.remove(launch)
        return extraction

    def _file_findings(self, source: SourceFile, extraction: Extraction, found) -> list[Diagnostic]:
        """What the file itself gets (:mod:`linter.rules.meta`): its parse problems and malformed
        directives, unused ``target-gpu`` directives when it has no launch and could be read whole,
        and GPU names the catalog does not know."""
        diags = file_problems(source, extraction.problems, found.malformed)
        if not extraction.launches and not any(d.code == UnparseableFile.code for d in diags) \
                and not limits.any_recorded():
            # (in a file that does not parse, or was read only up to a limit, the launch may be what
            # could not be read)
            diags.extend(unused_targets(found.targets))
        file_decls = found.targets + extraction.gpu_decls
        diags.extend(unknown_gpus(file_decls + [d for launch in extraction.launches for d in launch.gpu_decls]))
        return diags

    def _resolve(self, result: FileResult, extraction: Extraction, settings: Settings,
                 file_decls: list[GpuDecl]) -> None:
        """``result.contexts``: each launch resolved (target GPUs, release, server arguments), launches
        that share GPUs placed together; the ``--config`` files they read join ``result.related``."""
        from linter.sglang.colocate import colocate

        result.contexts = colocate(_identify([self._context(launch, settings, file_decls, extraction.gpu_counts)
                                              for launch in extraction.launches]))
        for ctx in result.contexts:  # a --config YAML is read for its launch: a related file
            result.related += [f for f in ctx.parsed.config_sources if all(f.path != r.path for r in result.related)]

    def _report(self, result: FileResult, diags: list[Diagnostic], settings: Settings, found,
                file_decls: list[GpuDecl], extraction: Extraction) -> list[Diagnostic]:
        """The findings the file reports: with ``--upgrade-to`` only those new under the target release,
        then the selected ones, less those suppressed (also by directives of the files its values come
        from), one per place."""
        new = None
        if self.options.upgrade_to:
            new = self._upgrade(result, settings, file_decls, diags, extraction.gpu_counts)
            diags = diags + [d for found_new in result.upgrade.new.values() for d in found_new]
        if extraction.escape_edit is not None:
            _escape_edits(diags, result.source, extraction.escape_edit)
        diags = self._select(diags, settings, result.path)
        if not self.options.no_ignores:
            # Values can be written in another file (a compose .env, a --config YAML): its suppressions
            # apply to them. Before merging findings of different launches at one place: a suppression
            # on one launch must not hide another launch's finding there.
            related = [s for rel in result.related for s in directives.scan(rel).suppressions]
            diags = self._suppress(diags, found.suppressions, settings, related)
        if new is not None:  # what the file has under its pinned releases only counted for the suppressions
            result.upgrade.pinned = [d for d in diags if id(d) not in new]
            diags = [d for d in diags if id(d) in new]
        return _dedupe(diags)

    # -- pieces -----------------------------------------------------------------------------------

    def _findings(self, ctx: LaunchContext) -> list[Diagnostic]:
        """Every launch rule's findings on one resolved launch, with the notes on the release it assumed."""
        if ctx.parsed.help:
            return []  # --help: SGLang prints its usage and starts nothing
        found_here = [d for rule_cls in LAUNCH_RULES for d in rule_cls().check(ctx)]
        note = parser_only_note(ctx.table)
        for d in found_here if note else ():
            d.notes.append(note)
        if ctx.version_origin.startswith("newest known release"):
            # a parser finding holds for the release it was judged against: say it was assumed
            for d in found_here:
                if _is_parser_finding(d):
                    d.notes.append(f"judged against SGLang {ctx.table.version}, the newest known release: nothing "
                                   "pins the release this launch runs (set sglang-version, or an image tag or "
                                   "sglang== pin)")
        return found_here

    def _upgrade(self, result: FileResult, settings: Settings, file_decls, pinned: list[Diagnostic],
                 file_counts: list | None = None) -> set[int]:
        """``--upgrade-to X``: resolve each launch again under X and keep, per launch, the findings it has
        there and not under its pinned release (the same rule, place and key). Sets ``result.upgrade``;
        returns the ``id()`` of the new findings."""
        from linter import records
        from linter.sglang.colocate import colocate

        release = self.options.upgrade_to
        contexts = colocate(_identify([records.replace(self._context(c.launch, settings, file_decls, file_counts,
                                                                         version=release),
                                                           version_origin=f"--upgrade-to {release}")
                                       for c in result.contexts]))
        # an option the pinned release does not know (SGL201) that X reads as an ambiguous prefix (SGL202)
        # breaks the launch already: not new
        same = {"SGL202": "SGL201"}
        had = {(same.get(d.code, d.code), d.key, d.span.key()) for d in pinned}
        upgrade = Upgrade(release, contexts)
        for pinned_ctx, ctx in zip(result.contexts, contexts):
            was = f"{pinned_ctx.table.version} ({pinned_ctx.version_origin})"
            found = [d for d in self._findings(ctx) if (same.get(d.code, d.code), d.key, d.span.key()) not in had]
            for d in found:
                d.notes.append(f"new with SGLang {release}: under the release this launch pins, {was}, it has no "
                               "such finding")
                if d.fix is not None and pinned_ctx.version_written is not None:
                    d.notes.append(f"the fix writes what SGLang {release} reads: move the pin "
                                   f"({pinned_ctx.version_origin}) to {release} with it")
            upgrade.new[ctx.identity] = found
        result.upgrade = upgrade
        return {id(d) for found in upgrade.new.values() for d in found}

    def _read_with_mentions(self, source: SourceFile, fmt: str) -> bool:
        """True when a file that does not mention SGLang is read with files that do (its format row's
        ``read_with``: a compose override that only changes its base's environment)."""
        from linter.formats import by_name

        hook = by_name(fmt).read_with
        if not hook:
            return False
        module, _, function = hook.partition(":")
        return bool(getattr(importlib.import_module(module), function)(source, self.ws))

    def _context(self, launch: Launch, settings: Settings, file_decls: list[GpuDecl],
                 file_counts: list | None = None, version: str | None = None) -> LaunchContext:
        return resolve(launch, settings=settings, file_decls=file_decls, cli_targets=self.options.target_gpus,
                       cli_version=version or self.options.sglang_version, read_text=self._read_text,
                       read_json=self.ws.read_json, cwd=self._lookup_cwd(), read_source=self.ws.try_read,
                       file_counts=file_counts)

    def _lookup_cwd(self) -> Path | None:
        """The working directory, where a relative model path or ``--config`` is also looked up — when
        it is inside the run's root: run from outside the repository, it is not part of what is linted
        (a Hugging Face id must not look for ``../deepseek-ai/DeepSeek-V3`` and report it outside the
        root), and the findings do not depend on where the linter was started."""
        cwd = self.ws.cwd
        return cwd if self.ws.may_read(cwd) else None

    def _read_text(self, path: Path) -> str | None:
        # a release pin beside the file (requirements, a lock file): outside the root it is simply not there
        f = self.ws.try_read(path, quiet=True)
        return f.text if f is not None and path.is_file() else None

    def selected_codes(self, settings: Settings) -> set[str]:
        """The codes checked for a file: the configuration's selection layers, then the command line's
        (``--select`` replaces, ``--extend-select`` adds, ``--ignore`` removes), as ruff resolves them."""
        o = self.options
        cli = Selection(tuple(o.select) if o.select is not None else None, tuple(o.extend_select), tuple(o.ignore))
        return selected_codes([*settings.selections, cli], settings.per_file_ignores, preview=o.preview)

    def _select(self, diags: list[Diagnostic], settings: Settings, linted: Path | None = None) -> list[Diagnostic]:
        codes = self.selected_codes(settings)
        self._codes = codes
        # A finding located in another file (a compose override, a --config YAML) follows that file's
        # select/ignore, as a per-file ignore in ruff follows the file the finding is in.
        elsewhere: dict = {}
        out = []
        for d in diags:
            path = d.span.source.path
            if linted is not None and path != linted and path not in elsewhere:
                elsewhere[path] = self.selected_codes(self.configs.settings_for(path))
            if d.code in elsewhere.get(path, codes):
                out.append(d)
        return out

    def _suppress(self, diags: list[Diagnostic], suppressions, settings: Settings,
                  related: list | None = None) -> list[Diagnostic]:
        """Drop suppressed diagnostics; report unknown and unused suppressions of this file (SGL002).
        ``related`` are suppressions in files this one reads (they are reported with those files)."""
        kept = []
        for d in diags:
            hit = None
            for s in list(suppressions) + list(related or []):
                if d.code not in s.codes or d.code == "SGL002":
                    continue
                same_file = s.span.source.path == d.span.source.path
                if same_file and s.line in (d.span.line, d.span.line - 1):
                    hit = s
                elif d.launch is not None and s.span.source.path == d.launch.source.path and \
                        s.line in (d.launch.first_line, d.launch.first_line - 1):
                    hit = s
                if hit:
                    break
            if hit:
                hit.used.add(d.code)
            else:
                kept.append(d)
        codes = self._codes
        if "SGL002" in codes:
            for s in suppressions:
                if s.unknown:
                    kept.append(finding(UnusedSuppression, f"suppression names unknown code(s) "
                                        f"{', '.join(s.unknown)}; see lint-configs --list-rules", s.span))
                unused = sorted(c for c in s.codes - s.used if c in codes)
                if s.written and not s.used and unused and not s.unknown:
                    kept.append(finding(UnusedSuppression, f"unused suppression: no {', '.join(s.written)} finding "
                                        "on this line, the next line or a launch starting there", s.span))
                elif s.used and unused and len(s.written) > 1:
                    # As ruff's RUF100: each code of a suppression must suppress something.
                    kept.append(finding(UnusedSuppression, f"unused code(s) in suppression: {', '.join(unused)} "
                                        "(no such finding here)", s.span))
        return kept


_UNMENTIONED: frozenset[str] | None = None


def _read_unmentioned(name: str) -> bool:
    """True for a file name the registry reads without an SGLang mention (a compose override). The
    registry is imported only for a file that does not mention SGLang: a cached run need not load it."""
    global _UNMENTIONED
    if _UNMENTIONED is None:
        from linter.formats import unmentioned_names

        _UNMENTIONED = unmentioned_names()
    return name in _UNMENTIONED
_QUICK_MARKS = re.compile(b"|".join(re.escape(p.encode()) for p in PREFILTER) + b"|lint-configs|\x00")
"""One pass over a file's bytes: a mention, a directive or a NUL byte (not text) sends it the whole way."""


def without_mention(path: Path, need_reason: bool = True) -> FileResult | None:
    """The result for a file skipped by the mention filter, decided on its bytes; None when the file
    must go the whole way (it mentions SGLang, holds a ``lint-configs`` directive, is not UTF-8 text,
    is not a regular file or is too large: those cases have their own diagnostics or reasons).

    A skipped file becomes a :class:`FileResult` with its format and reason only: nothing of it is kept.
    Without ``need_reason`` (no output shows why a file was skipped) its format is not looked for and
    the reason is the filter's alone, which saves decoding and sniffing thousands of files."""
    text = unmentioned_text(path)
    if text is None:
        return None
    if not need_reason:
        return skipped_unmentioned(path)
    fmt = detect_format(path, text.removeprefix("\ufeff"))
    if fmt is None:
        from linter.formats import names_text

        return FileResult(path, skipped=f"not a file of a linted format ({names_text()})", prefiltered=True)
    return FileResult(path, fmt=fmt, skipped="does not mention SGLang", prefiltered=True)


def skipped_unmentioned(path: Path) -> FileResult:
    """The result of a file the mention filter skipped, when no output needs to say its format."""
    return FileResult(path, skipped="does not mention SGLang", prefiltered=True)


def unmentioned_text(path: Path | str) -> str | None:
    """The text of a regular UTF-8 file that the mention filter skips (no SGLang mention, no
    ``lint-configs`` directive, no NUL byte), decided on its bytes; None when the file must go the whole
    way (it mentions SGLang, is not UTF-8 text, is not a regular file, is too large or cannot be read;
    or it is a compose override file, which changes its base's launches without naming SGLang)."""
    return unmentioned_probe(path)[0]


def unmentioned_probe(path: Path | str) -> tuple[str | None, os.stat_result | None]:
    """(:func:`unmentioned_text` of ``path``, the ``os.fstat`` of the file it read, or None when none was read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None, None
    st = None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None, st
        # one read of the size fstat gives (+1 to see a file that grew meanwhile), then to the end
        data = os.read(fd, st.st_size + 1)
        if len(data) != st.st_size:  # it changed since fstat, or a short read: read on to the end
            chunks = [data]
            while chunks[-1] and sum(map(len, chunks)) <= MAX_BYTES:
                chunks.append(os.read(fd, 1 << 16))
            data = b"".join(chunks)
    except OSError:
        return None, st
    finally:
        os.close(fd)
    name = os.path.basename(path)
    if len(data) > MAX_BYTES or _QUICK_MARKS.search(data) or _read_unmentioned(name) or \
            imports_other_modules(name, data):
        return None, st
    try:
        return data.decode("utf-8"), st  # a file that is not UTF-8 goes the whole way: SGL001 if a format claims it
    except UnicodeDecodeError:
        return None, st


def _escape_edits(diags: list[Diagnostic], source: SourceFile, escape) -> None:
    """Rules write a fix's new text as the value it stands for; a carrier file that writes code in
    its own syntax (a notebook's JSON strings) says how that text is written at each place."""
    for d in diags:
        if d.fix is not None:
            d.fix.edits = [Edit(e.span, escape(e.span, e.content)) if e.span.source is source else e
                           for e in d.fix.edits]




def _identify(contexts: list[LaunchContext]) -> list[LaunchContext]:
    """Give each launch a line-independent identity for baselines and SARIF fingerprints: the
    extractor's scope (a compose service, a shell function, a Python function) and the model it
    serves, numbered only among launches that share both."""
    from linter import records

    counts: dict[str, int] = {}
    out = []
    for ctx in contexts:
        scope = re.sub(r"#\d+$", "", ctx.launch.key) or "launch"
        base = f"{scope}:{ctx.model.path or ctx.launch.program}"
        k = counts.get(base, 0)
        counts[base] = k + 1
        out.append(records.replace(ctx, identity=base if k == 0 else f"{base}#{k}"))
    return out


def readers_beside(engine: Engine, results) -> list[FileResult]:
    """Files that read a shared value this run's fixes would edit, found beside it.

    A fix may edit a file other than the one linted — a compose ``.env`` or ``env_file``, later a
    ``--config`` YAML, a chart's ``values.yaml``, a ConfigMap. Other launches may read the same value
    even when their files are not among the files linted (pre-commit passes only the staged ones), so
    every file in that file's folder that a format claims is linted too (not reported) and kept when it
    reads the shared file. ``results`` are this run's :class:`FileResult` objects."""
    results = list(results)
    linted = {r.path for r in results}
    shared: set[Path] = set()
    for res in results:
        for d in res.diagnostics:
            if d.fix is None:
                continue
            for e in d.fix.edits:
                p = e.span.source.path
                if p != res.path and p not in linted:
                    shared.add(p)
    if not shared:
        return []
    from linter.formats import claims_name

    readers: list[FileResult] = []
    seen: set[Path] = set()
    for path in sorted(shared):
        if not engine.ws.may_read(path):
            continue
        for cand in _beside(path, engine.ws.cwd, root=engine.ws.boundary.root):
            if cand in linted or cand in seen or not claims_name(cand) or not engine.ws.may_read(cand) \
                    or not cand.is_file():
                continue
            seen.add(cand)
            try:
                res = engine.lint(cand)
            except Exception:  # noqa: BLE001 - a reader lint-configs fails on is not this run's file
                continue
            # the shared file itself (a compose base linted as its own stack) reads its values too
            if cand == path or any(rel.path == path for rel in res.related):
                readers.append(res)
    return readers


def _beside(path: Path, stop: Path | None = None, levels: int = 2, depth: int = 3, limit: int = 2000,
            root: str | None = None) -> list[Path]:
    """Files that may read ``path``: every file in its folder (a compose ``.env`` is read by the
    compose files beside it), and the files under the folder up to ``levels`` above it (not above the
    repository root nor ``stop``, the run's working folder; at most ``depth`` folders down, ``limit``
    files) whose text names it — a ``--config configs/x.yaml``, an ``extends: {file:
    ../common/x.yaml}``, an ``include``, a Python module's name without ``.py`` (its ``import``). Never
    above ``root`` (the run's root), never through a link."""
    # a Python module is named by its import (``from pkg.cmds import BASE``), not by its file name
    if path.suffix == ".py":  # as a whole word: a short module name (``a``) is in every file's bytes
        stem = path.parent.name if path.stem == "__init__" else path.stem
        names = re.compile(rb"\b" + re.escape(stem.encode()) + rb"\b").search
        # a module beside it imports it by name too (``from . import cmds``), its package's own
        # modules its __init__ as ``from . import BASE``: the others need not be linted (each is
        # linted whole, and a folder of forty launch scripts took 8 s for one named file)
        init = re.compile(rb"\bfrom\s+\.+\s*import\b").search if path.stem == "__init__" else None
        try:
            out = sorted(p for p in path.parent.iterdir() if p.is_file()
                         and (p == path or _names_in(p, names) or (init is not None and _names_in(p, init))))
        except OSError:
            return []
    else:
        names = re.compile(re.escape(path.name.encode())).search
        try:  # every file beside it: a compose ``.env`` is read without being named
            out = sorted(p for p in path.parent.iterdir() if p.is_file())
        except OSError:
            return []
    top = path.parent
    for _ in range(levels):
        if (top / ".git").exists() or top.parent == top or top == stop or str(top) == root:
            break
        top = top.parent
    seen = set(out)
    budget = [limit]

    def walk(folder: Path, left: int) -> None:
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            return
        for p in entries:
            if budget[0] <= 0:
                return
            if p.name.startswith(".") or p.name in ("node_modules", "__pycache__", "venv") or p.is_symlink():
                continue
            if p.is_dir():
                if left > 0:
                    walk(p, left - 1)
            elif p not in seen and p.is_file():
                budget[0] -= 1
                if _names_in(p, names):
                    out.append(p)
                    seen.add(p)

    if top != path.parent:
        walk(top, depth)
    return out


def _names_in(path: Path, names) -> bool:
    """``names`` (a compiled pattern's ``search``) finds a match in the bytes of ``path``, a regular
    file under 1 MiB that is not a link (False for any other: a link may lead out of the root, and a
    FIFO would block)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        return stat.S_ISREG(st.st_mode) and st.st_size < 1 << 20 and names(os.read(fd, 1 << 20)) is not None
    except OSError:
        return False
    finally:
        os.close(fd)


def reconcile_with_readers(engine: Engine, results) -> None:
    """:func:`reconcile_shared_fixes` over ``results`` and the other readers of the values they edit
    (:func:`readers_beside`), so a fix's applicability does not depend on which files were named."""
    results = list(results)
    reconcile_shared_fixes(results + readers_beside(engine, results))


def _is_parser_finding(d: Diagnostic) -> bool:
    from linter.rules import BY_CODE

    rule = BY_CODE.get(d.code)
    return rule is not None and rule.parser


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: dict[tuple, Diagnostic] = {}
    out = []
    for d in diags:
        key = (d.code, d.span.key(), d.message)
        if key not in seen:
            seen[key] = d
            out.append(d)
        elif d.launch is not None and d.launch_id != seen[key].launch_id:
            seen[key].also.append(d.launch_id)  # the same finding of another launch: one fix serves both
    return out


__all__ = ["Engine", "RunOptions", "FileResult", "Upgrade"]


# -- seams for table tests (pyupgrade style: text in, result out, no files needed) ---------------


def _text_engine(text: str, fmt: str, name: str | None, targets, sglang_version: str | None,
                 preview: bool = False):
    from linter.config import ConfigResolver
    from linter.formats import by_name

    row = by_name(fmt)
    ws = Workspace(Path.cwd())
    path = ws.cwd / (name or row.sample_name or f"input.{fmt}")
    ws.add(path, text)
    engine = Engine(ws, RunOptions(target_gpus=list(targets), sglang_version=sglang_version, preview=preview),
                    ConfigResolver(isolated=True))
    return engine, path


def extract_text(text: str, fmt: str, name: str | None = None) -> Extraction:
    """The :class:`Extraction` of ``text`` read as format ``fmt`` (a registry name), as if it were the
    file ``name`` in the working directory (default: the format's sample name). Raises KeyError for an
    unknown format."""
    engine, path = _text_engine(text, fmt, name, (), None)
    from linter.formats import by_name

    module = importlib.import_module(by_name(fmt).module)
    with limits.file_budget():
        return module.extract(engine.ws.read(path), engine.ws)


def lint_text_result(text: str, fmt: str, targets=(), *, name: str | None = None,
                     sglang_version: str | None = None, preview: bool = False) -> FileResult:
    """Lint ``text`` as a file of format ``fmt`` against ``targets`` (GPU names, as ``--target-gpu``),
    with no configuration file (``preview``: the rules in preview too, as ``--preview``); the whole
    :class:`FileResult` (diagnostics and resolved launches)."""
    engine, path = _text_engine(text, fmt, name, targets, sglang_version, preview)
    result = engine.lint(path, fmt=fmt)
    return result


def lint_text(text: str, fmt: str, targets=(), *, name: str | None = None,
              sglang_version: str | None = None, preview: bool = False) -> list[Diagnostic]:
    """The diagnostics of ``text`` linted as format ``fmt`` against ``targets``, sorted."""
    result = lint_text_result(text, fmt, targets, name=name, sglang_version=sglang_version, preview=preview)
    return sorted(result.diagnostics, key=lambda d: d.sort_key())
