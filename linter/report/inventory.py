"""``--list-launches``: the inventory of every SGLang launch found — where it is, its format and entry
point, the model and architecture with provenance, the targets and where each was declared, the
release and where it came from, deterministic inference, and on each target the effective attention
backend and SGLang's verdict (``LaunchContext.verdicts``, computed once by the resolve step and
shown by ``--explain`` too).

This module is the only place the inventory reads a ``LaunchContext``: :func:`rows` turns the run's
results into plain :class:`LaunchRow` objects, and the three renderers (text table, JSON, CSV) read
only those.

JSON: an array, one object per launch (keys as :meth:`LaunchRow.as_dict`). CSV: one row per launch
and declared target (a launch with no usable target has one row with an empty ``target``), columns
:data:`CSV_COLUMNS`.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, field
from typing import TextIO

from linter.launch import UNKNOWN
from linter.report.scope import reader_scope
from linter.records import dataclass


@dataclass(frozen=True)
class TargetRow:
    """One declared target: ``name`` as written, ``gpu`` (catalog name) and ``sm`` (None when the
    catalog does not know it), ``declared`` (where), and SGLang's outcome there: ``verdict`` is
    ``accepted``, ``refused``, ``asserts-at-load``, ``unknown`` (a value is not known statically),
    ``unknown-gpu`` or ``not-checked``; ``check`` names the failing check and ``message`` is SGLang's text."""

    name: str
    gpu: str | None
    sm: str | None
    declared: str
    verdict: str
    backend: str | None = None
    chosen_by: str | None = None
    prefill: str | None = None
    decode: str | None = None
    check: str | None = None
    message: str = ""


@dataclass(frozen=True)
class ClassRow:
    """The outcome on one GPU class (``SM90`` …) for a launch whose target is missing or unknown."""

    gpu_class: str
    verdict: str
    backend: str | None = None
    chosen_by: str | None = None
    check: str | None = None


@dataclass(frozen=True)
class LaunchRow:
    """One launch of the inventory (all plain values; ``line`` is 1-based)."""

    path: str
    line: int
    format: str
    entry_point: str
    scope: str
    model: str | None
    architecture: str | None
    dsa: bool
    model_origin: str
    release: str
    release_origin: str
    cuda_build: str | None
    deterministic: bool | None
    deterministic_by: str | None
    attention_backend: str | None
    target_origin: str
    targets: list[TargetRow] = field(default_factory=list)
    if_target_unknown: list[ClassRow] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    hardware: dict = field(default_factory=dict)
    """What the launch is given and needs (:func:`linter.report.hardware.summary`): GPUs per node and
    nodes with where each was declared, the GPUs a node needs, weights and budget per GPU."""
    context: list[dict] = field(default_factory=list)
    """The labels a documentation block holding the launch sits under, outermost first: ``kind``
    (heading, tab, admonition, caption), ``text``, and ``line``/``column`` (1-based) where it is written."""
    conditions: list[str] = field(default_factory=list)
    """The path of a launch the file builds differently along paths the linter cannot decide: the
    conditions that lead to this row, in words (``"`args.det` is true"``); empty for a launch of one
    path. Rows at one place with conditions are the paths of one launch (the summary counts it once)."""
    upgrade: dict | None = None
    """With ``--upgrade-to X``: ``{"release": X, "findings": [...]}``, each finding the launch has under X
    and not under its pinned release (``code``, ``path``, ``line``, ``column``, ``text``: what is written
    there, ``message``, ``fix``: the fix's message and applicability, or None). Absent otherwise."""

    def as_dict(self) -> dict:
        """The JSON object of this launch (``upgrade`` only when the run upgrades)."""
        out = asdict(self)
        if out["upgrade"] is None:
            del out["upgrade"]
        return out


def rows(results: dict, upgrade: str | None = None) -> list[LaunchRow]:
    """The inventory of ``results`` (path -> ``FileResult`` of the run), sorted by path and line; with
    ``upgrade`` (``--upgrade-to X``) each row also says what breaks under X."""
    out: list[LaunchRow] = []
    for res in results.values():
        if res.source is None:
            continue
        for ctx in res.contexts:
            out.append(_row(res, ctx, upgrade))
    return sorted(out, key=lambda r: (r.path, r.line))


def _upgrade_findings(res, ctx) -> list[dict]:
    """What ``ctx``'s launch has under the release the run upgrades to and not under its pinned one."""
    out = []
    for d in res.diagnostics:
        if d.launch is not ctx.launch and ctx.identity not in d.also:
            continue
        line, column = d.span.start_line_col
        fix = None if d.fix is None else {"message": d.fix.message, "applicability": str(d.fix.applicability)}
        out.append({"code": d.code, "path": d.path, "line": line, "column": column, "text": d.span.text,
                    "message": d.message, "fix": fix})
    return out


def _check_codes() -> dict[str, str]:
    """The rule code that reports each check: ``error C`` -> SGL101 …, a gate's name -> its code."""
    from linter.rules import LAUNCH_RULES

    out = {}
    for rule in LAUNCH_RULES:
        if getattr(rule, "error", None):
            out[f"error {rule.error}"] = rule.code
        if getattr(rule, "gate", None):
            out[rule.gate] = rule.code
    return out


def _outcome(v, codes: dict[str, str]) -> dict:
    """The verdict fields of one ``Verdict`` (see :class:`TargetRow`)."""
    o, b, gate = v.startup, v.backends, v.gate
    if o is not None and o.error:
        return dict(verdict="refused", backend=o.backend, chosen_by=o.chosen_by,
                    check=codes.get(f"error {o.error}", f"error {o.error}"), message=o.message)
    if b is None:
        return dict(verdict="unknown")
    out = dict(backend=b.attention, chosen_by=b.chosen_by, prefill=b.prefill, decode=b.decode)
    if gate is None:
        return dict(out, verdict="accepted")
    return dict(out, verdict="asserts-at-load" if gate.at_load else "refused", check=codes.get(gate.gate, gate.gate),
                message=gate.message)


def _row(res, ctx, upgrade: str | None = None) -> LaunchRow:
    """The inventory row of one resolved launch of the file result ``res`` (``upgrade``: the release
    of ``--upgrade-to``, whose new findings the row lists)."""
    launch, m = ctx.launch, ctx.model
    on, setting = ctx.deterministic()
    not_checked = on is UNKNOWN or m.skip_checks
    judged = res.upgrade.pinned if upgrade and res.upgrade is not None else res.diagnostics
    findings = sorted({d.code for d in judged if d.launch is launch})
    outcome = _verdict_of(ctx, findings)
    targets = _target_rows(ctx, not_checked, outcome)
    classes = []
    if not not_checked:
        for v in ctx.verdicts:
            if v.target is None:
                c = outcome(v)
                classes.append(ClassRow(v.hardware.label, c["verdict"], c.get("backend"), c.get("chosen_by"),
                                        c.get("check")))
    written = ctx.parsed.get("attention_backend")
    backend = None if written is None else ("unknown" if written.value is UNKNOWN else str(written.value))
    cuda = f"{ctx.cuda_build[0]}.{ctx.cuda_build[1]}" if ctx.cuda_build else None
    from linter.report.hardware import summary

    moved = None
    if upgrade:
        moved = {"release": upgrade, "findings": _upgrade_findings(res, ctx) if res.upgrade is not None else []}
    return LaunchRow(
        path=launch.source.display, line=launch.span.start_line_col[0], format=res.fmt or "",
        entry_point=launch.program, scope=ctx.identity or launch.key, model=m.path, architecture=m.architecture,
        dsa=m.dsa, model_origin=m.origin + (f" ({m.evidence})" if m.evidence else ""),
        release=ctx.table.version, release_origin=ctx.version_origin, cuda_build=cuda,
        deterministic=None if on is UNKNOWN else bool(on),
        deterministic_by=setting.spelled if setting is not None and on is True else None,
        attention_backend=backend, target_origin=ctx.target_origin, targets=targets, if_target_unknown=classes,
        findings=findings, hardware=summary(ctx), context=[_label(c) for c in launch.context],
        conditions=list(launch.path), upgrade=moved,
    )


def _verdict_of(ctx, findings: list[str]):
    """``verdict(v)``: the verdict fields (see :class:`TargetRow`) of a ``Verdict`` of ``ctx``. When
    SGLang's parser stops, argparse ends the process before any start-up check: refused on every GPU,
    by the parser (the check is the launch's parser-error finding, else ``parser``)."""
    codes = _check_codes()
    stops = ctx.parsed.sglang_error()
    if stops is None:
        return lambda v: _outcome(v, codes)
    from linter.rules import BY_CODE

    check = next((c for c in findings if BY_CODE[c].parser and BY_CODE[c].severity == "error"), "parser")
    parser_outcome = dict(verdict="refused", check=check, message=stops[1])
    return lambda v: parser_outcome


def _target_rows(ctx, not_checked: bool, outcome) -> list[TargetRow]:
    """One row per target of ``ctx``: where it was declared and its verdict (``outcome(v)``)."""
    by_target = {id(v.target): v for v in ctx.verdicts if v.target is not None}
    targets = []
    for t in ctx.targets:
        where = t.decl.how + (f" at {t.decl.span.source.display}:{t.decl.span.line}" if t.decl.span else "")
        v = by_target.get(id(t))
        if t.gpu is None:
            targets.append(TargetRow(t.name, None, None, where, "unknown-gpu"))
        elif v is None or not_checked:
            targets.append(TargetRow(t.name, t.gpu.canonical, t.gpu.sm, where, "not-checked" if not_checked else "unknown"))
        else:
            targets.append(TargetRow(t.name, t.gpu.canonical, t.gpu.sm, where, **outcome(v)))
    return targets


def _label(c) -> dict:
    """A context label as JSON (``line``/``column`` None when it has no one place)."""
    line, column = c.span.start_line_col if c.span is not None else (None, None)
    return {"kind": c.kind, "text": c.text, "line": line, "column": column}


# -- renderers ------------------------------------------------------------------------------------

def render_json(launches: list[LaunchRow]) -> str:
    """A JSON array, one object per launch, with a final newline."""
    from linter.report.safe import json_text

    return json_text(json.dumps([r.as_dict() for r in launches], indent=2, ensure_ascii=False)) + "\n"


CSV_COLUMNS = ("path", "line", "format", "entry_point", "scope", "model", "architecture", "model_origin",
               "release", "release_origin", "cuda_build", "deterministic", "attention_backend", "target", "gpu",
               "sm", "target_declared", "backend", "chosen_by", "verdict", "check", "findings", "gpus_per_node",
               "needs_per_node", "weights_gib", "budget_gib")


def _shown(value, markup: bool = False):
    """A row (or a value in one) with every string :func:`~linter.report.safe.visible` — and, for rich's
    table, its markup escaped: a model name or path from a file is shown as written, never as markup."""
    import dataclasses

    from linter.report.safe import visible

    if isinstance(value, str):
        value = visible(value)
        if markup:
            from rich.markup import escape

            value = escape(value)
        return value
    if isinstance(value, tuple):
        return tuple(_shown(v, markup) for v in value)
    if isinstance(value, list):
        return [_shown(v, markup) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: _shown(getattr(value, f.name), markup)
                                             for f in dataclasses.fields(value) if f.init})
    return value


def render_csv(launches: list[LaunchRow]) -> str:
    """CSV with a header row: one row per launch and target (see :data:`CSV_COLUMNS`). A launch with
    no known target has one row whose ``verdict`` summarises the GPU classes it fails on. Values from
    the files show control characters escaped (one launch, one line)."""
    launches = [_shown(r) for r in launches]
    buf = io.StringIO()
    w = _InertRows(csv.writer(buf, lineterminator="\n"))
    upgrading = any(r.upgrade is not None for r in launches)
    w.writerow(CSV_COLUMNS + (("upgrade_release", "upgrade_findings") if upgrading else ()))
    for r in launches:
        base = [r.path, r.line, r.format, r.entry_point, r.scope, r.model or "", r.architecture or "",
                r.model_origin, r.release, r.release_origin, r.cuda_build or "", _det(r), r.attention_backend or ""]
        hw = ["" if r.hardware.get(k) is None else r.hardware[k]
              for k in ("gpus_per_node", "needs_per_node", "weights_gib", "budget_gib")]
        tail = [r.upgrade["release"], "; ".join(_moved(f) for f in r.upgrade["findings"])] if upgrading else []
        for t in r.targets:
            w.writerow(base + [t.name, t.gpu or "", t.sm or "", t.declared, t.backend or "", t.chosen_by or "",
                               t.verdict, t.check or "", " ".join(r.findings)] + hw + tail)
        if not any(t.gpu for t in r.targets):
            w.writerow(base + ["", "", "", r.target_origin, "", "", _classes(r), "", " ".join(r.findings)] + hw + tail)
    return buf.getvalue()


_FORMULA_START = ("=", "+", "-", "@")
"""What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection"): a text cell that
starts with one of these is written after a ``'``, which shows it as text."""


class _InertRows:
    """A :func:`csv.writer` whose text cells never start a formula: a model path or a value written
    ``=HYPERLINK("http://…")`` in a linted file would otherwise run as one where the inventory is
    opened (Excel, LibreOffice, Google Sheets)."""

    def __init__(self, writer) -> None:
        self.writer = writer

    def writerow(self, row) -> None:
        self.writer.writerow(["'" + c if isinstance(c, str) and c.startswith(_FORMULA_START) else c for c in row])


def _moved(f: dict) -> str:
    """One upgrade finding in a few words: ``SGL201 line 17 --enable-deepep-moe -> Write --moe-a2a-backend
    deepep (safe)``."""
    text = f["text"] if len(f["text"]) <= 40 else f["text"][:39] + "…"
    fix = f" -> {f['fix']['message']} ({f['fix']['applicability']})" if f["fix"] else ""
    return f"{f['code']} line {f['line']} {text}{fix}"


def _det(r: LaunchRow) -> str:
    return "unknown" if r.deterministic is None else ("on" if r.deterministic else "off")


def _classes(r: LaunchRow) -> str:
    """``no target: refused on SM90, SM120; accepted on SM100/SM103`` (or ``no target``)."""
    by: dict[str, list[str]] = {}
    for c in r.if_target_unknown:
        by.setdefault(c.verdict, []).append(c.gpu_class)
    parts = [f"{verdict} on {', '.join(names)}" for verdict, names in by.items()]
    return "no target" + (": " + "; ".join(parts) if parts else "")


def _short(t: TargetRow) -> str:
    if t.verdict in ("refused", "asserts-at-load"):
        return f"{t.verdict} ({t.check})"
    return t.verdict


_VERDICT_STYLE = {"refused": "bold red", "asserts-at-load": "bold red", "accepted": "green"}


def render_text(launches: list[LaunchRow], stream: TextIO, color: bool | None = None, width: int | None = None) -> None:
    """One block per launch and a closing count, every line within ``width`` columns (default: the
    terminal's, else ``COLUMNS``, else 100) and broken only between words (a word wider than the line,
    a long path, is kept whole): where the launch is, its format, entry point and place in the file,
    then one line each for the model, the release, deterministic inference and each target with its
    backend and verdict (where it was declared below it), and the findings. ``color`` None: colour on a
    terminal only (and never with ``NO_COLOR``)."""
    from linter.report.lines import wrap
    from linter.report.text import MIN_WIDTH, output_width, use_color, write_rows

    color = use_color(stream) if color is None else color
    width = max(MIN_WIDTH, width or output_width(stream))
    launches = [_shown(r) for r in launches]
    rows = _Rows(width)
    for n, r in enumerate(launches):
        if n:
            rows.rows.append([])
        _launch_block(rows, r)
    if launches:
        rows.rows.append([])
    rows.rows.extend([[(part, "")] for part in wrap(_summary(launches), width)])
    write_rows(rows.rows, stream, color, width)


class _Rows:
    """The styled rows of the text inventory, each line within ``width`` columns."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.rows: list[list[tuple[str, str]]] = []

    def add(self, text: str, indent: int, style: str = "", head: str = "") -> None:
        """``head`` (bold) and ``text`` from column ``indent``, wrapped under itself by two more."""
        from linter.report.lines import wrap

        parts = wrap(head + text, self.width - indent)
        for i, part in enumerate(parts):
            pad = " " * (indent if i == 0 else indent + 2)
            if i == 0 and head and part.startswith(head):
                self.rows.append([(pad, ""), (head, "bold"), (part[len(head):], style)])
            else:
                self.rows.append([(pad, ""), (part, style)])


def _launch_block(rows: _Rows, r: LaunchRow) -> None:
    """The lines of one launch (see :func:`render_text`)."""
    add = rows.add
    scope = reader_scope(r.scope, r.model)
    add(f"{r.path}:{r.line}", 0, "bold")
    add(f"{r.format}: {r.entry_point}" + (f", {scope}" if scope else ""), 2)
    if r.conditions:
        add(" and ".join(r.conditions), 2, head="path: when ")
    arch = (r.architecture or "unknown") + (" (DSA)" if r.dsa else "")
    add(f"{r.model or 'unknown'} -> {arch} ({r.model_origin.split(' (')[0]})", 2, head="model: ")
    cuda = f"CUDA {r.cuda_build}" if r.cuda_build else "CUDA >= 12.8 (assumed)"
    add(f"{r.release} ({r.release_origin}), {cuda}", 2, head="release: ")
    add(_det(r) + (f" ({r.deterministic_by})" if r.deterministic_by else ""), 2, head="deterministic: ")
    for t in r.targets:
        gpu = f"{t.name} ({t.sm})" if t.sm else f"{t.name} (unknown GPU)"
        backend = f"{t.backend} ({t.chosen_by}) -> " if t.backend else ""
        add(f"{backend}{_short(t)}", 2, _VERDICT_STYLE.get(t.verdict, "yellow"), head=f"{gpu}: ")
        add(t.declared.replace(f" at {r.path}:", " at line "), 4)
    if not any(t.gpu for t in r.targets):
        add(_classes(r), 2, "yellow")
    given = _given_text(r.hardware)
    if given is not None:
        add(given, 2, head="given: ")
    if r.findings:
        add(", ".join(r.findings), 2, "bold", head="findings: ")
    if r.upgrade is not None:
        moved = r.upgrade["findings"]
        add(f"{len(moved)} new finding{'s' if len(moved) != 1 else ''}" if moved else "nothing new", 2,
            "bold red" if moved else "green", head=f"upgrade to {r.upgrade['release']}: ")
        for f in moved:
            add(_moved(f), 4)


def _given_text(hw: dict) -> str | None:
    """``8 GPUs/node, needs 16; weights 80.5 GiB/GPU of 72.0 GiB``, or None when neither is known."""
    if hw.get("gpus_per_node") is None and hw.get("weights_gib") is None:
        return None
    given = f"{hw['gpus_per_node']} GPUs/node" if hw.get("gpus_per_node") is not None else "GPUs/node unknown"
    needs = f", needs {hw['needs_per_node']}" if hw.get("needs_per_node") is not None else ""
    weights = f"; weights {hw['weights_gib']} GiB/GPU" if hw.get("weights_gib") is not None else ""
    budget = f" of {hw['budget_gib']} GiB" if weights and hw.get("budget_gib") is not None else ""
    return f"{given}{needs}{weights}{budget}"


def _summary(launches: list[LaunchRow]) -> str:
    """The closing count: launches, files, how many fail on a declared target and how many have none."""
    files = len({r.path for r in launches})
    groups: dict = {}  # the paths of one launch (rows at one place with conditions) are one launch
    for k, r in enumerate(launches):
        groups.setdefault((r.path, r.line, r.entry_point) if r.conditions else k, []).append(r)
    refused = sum(1 for g in groups.values()
                  if any(t.verdict in ("refused", "asserts-at-load") for r in g for t in r.targets))
    unknown = sum(1 for g in groups.values() if not any(t.gpu for r in g for t in r.targets))
    n, paths = len(groups), len(launches)
    return (f"{n} launch{'es' if n != 1 else ''}" + (f" ({paths} paths)" if paths != n else "")
            + f" in {files} file{'s' if files != 1 else ''}; {refused} fail{'s' if refused == 1 else ''} "
            f"on a declared target, {unknown} without a known target.")
