"""``--explain PATH[:LINE]``: how each launch there was resolved, so a user can see why a finding is
or is not reported — the release and CUDA build, the model and its architecture, the targets and
their compute capability, and the attention backend SGLang ends up with on each target."""

from __future__ import annotations

from pathlib import Path

from linter.coverage import unverified_reasons
from linter.launch import UNKNOWN, UnknownOrigin, unknown_label


def _value(v) -> str:
    if v is UNKNOWN:
        return "unknown"
    return repr(v)


_MAX_WRITTEN = 60
"""Characters of an unknown value's source text shown (the rest is an ellipsis)."""


def _written(text) -> str:
    """What an unknown value was written as — the source text of the expression it came from
    (``*sys.argv[1:]``, ``$1``, ``${EXTRA}``) with its place, else its known characters with ``?`` for
    the unknown ones. ``text`` is an :class:`~linter.launch.MStr`; the caller escapes control characters."""
    where = _place(text)
    if where is not None and where.end > where.start:
        line, col = where.start_line_col
        shown = " ".join(where.source.text[where.start:where.end].split())  # (one line)
        if len(shown) > _MAX_WRITTEN:
            shown = shown[:_MAX_WRITTEN - 1] + "…"
        return f"{shown} at {where.source.display}:{line}:{col}"
    if not text.text.replace("\ue000", ""):
        return "a value with no single place in the files (paths merged past the cap, …)"
    return text.text.replace("\ue000", "?")


def _place(text):
    """The span to show for ``text`` (an MStr holding unknown characters): the word as written
    (``fa${V}``) when its span holds the expression that is unknown, else that expression
    (``plan.train_args``: a word cut from a longer string has the string's span, or one character
    of it); None when an unknown character stands for no one expression (paths merged where no
    expression read them)."""
    label = unknown_label(text)
    where = text.where
    if label is not None:
        whole = where is not None and where.source is label.source and where.start <= label.start \
            and label.end <= where.end
        return where if whole and text.text.replace("\ue000", "") else label
    if any(type(atom) is UnknownOrigin and atom.label is None for _, _, _, atom in text.runs):
        return None
    return where


def _writes_line(ctx, path: Path, line: int) -> bool:
    """True when a value of the launch was written on ``line`` of ``path`` (a variable, a .env)."""
    for s in ctx.parsed.settings:
        text = s.value_text
        if text is None:
            continue
        for o in text.origins:
            if o is not None and o[0].path == path and o[0].line_of(o[1]) == line:
                return True
    return False


def render(results: dict[Path, object], line: int | None, path: Path | None = None) -> str:
    """The explanation of every launch in ``path`` (at ``line``), and of launches elsewhere whose
    values were written on that line. ``no SGLang launch found there`` when there is none."""
    out = []
    for res in results.values():
        if res.source is None:
            continue
        for ctx in res.contexts:
            if _selected(ctx, line, path):
                out.extend(_launch_lines(ctx))
        out.extend(_passed_over(res, line, path))
    if not out:
        return "no SGLang launch found there\n"
    from linter.report.safe import visible

    return "\n".join(visible(line) for line in out)  # values from the files: control characters escaped


def _selected(ctx, line: int | None, path: Path | None) -> bool:
    """Whether ``--explain PATH[:LINE]`` asks about the launch of ``ctx``: it is in ``path`` (at
    ``line``), or a value of it was written on that line; without a line, a ``.env`` file stands for
    the launches that read it."""
    launch = ctx.launch
    first, last = launch.span.start_line_col[0], launch.span.end_line_col[0]
    here = path is None or launch.source.path == path
    if line is not None:
        inside = here and first <= line <= last
        return inside or (path is not None and _writes_line(ctx, path, line))
    return here or path is None or path.name == ".env" or path.name.endswith(".env")


def _named(ctx) -> str:
    """The launch's scope and model as a reader knows them (``services.s:deepseek-ai/DeepSeek-V3``,
    ``launch():…``; :func:`linter.report.scope.reader_scope`), else ``launch``."""
    from linter.report.scope import reader_scope

    return reader_scope(ctx.identity) or "launch"


def _launch_lines(ctx) -> list[str]:
    """The explanation of one launch, one line each, ending with an empty line."""
    launch = ctx.launch
    out = [f"{launch.source.display}:{launch.span.start_line_col[0]}: {launch.program} ({_named(ctx)})"]
    out += _how_reached(launch)
    cuda = f"CUDA {ctx.cuda_build[0]}.{ctx.cuda_build[1]}" if ctx.cuda_build else "CUDA >= 12.8 (assumed)"
    out.append(f"  release:   SGLang {ctx.table.version}, from {ctx.version_origin}; torch built for {cuda}")
    if (parser_only := ctx.parser_only_note) is not None:
        out.append(f"             {parser_only}")
    out += _model_lines(ctx)
    out += _target_lines(ctx)
    from linter.report.hardware import explain_lines

    out.extend(explain_lines(ctx))
    on, setting = ctx.deterministic()
    how = f" (by {setting.spelled})" if setting is not None and on is True else ""
    out.append(f"  deterministic inference: {_value(on) if on is UNKNOWN else ('on' if on else 'off')}{how}")
    out += _parsed_lines(ctx)
    out += _verdict_lines(ctx, on)
    for reason in unverified_reasons(ctx):
        out.append(f"  not fully verified: {reason}")
    out.extend(_framework_lines(launch.framework))
    out.append("")
    return out


def _how_reached(launch) -> list[str]:
    """How the file reaches the launch: the call sites that share it, the path, the context."""
    out = []
    if launch.reached_by:
        out.append(f"  reached:   by {', '.join(launch.reached_by)} (the same arguments from one call site: "
                   "one launch)")
    if launch.path:
        from linter.branches import describe

        out.append(f"  path:      {describe(launch.path)} (one of the paths the file builds this launch along)")
    if launch.context:
        out.append("  context:   " + " > ".join(
            f"{c.kind} {c.text!r}" + (f" (line {c.span.line})" if c.span is not None else "")
            for c in launch.context))
    return out


def _model_lines(ctx) -> list[str]:
    """The model, its architecture and whether the release's list has it as absorbed MLA."""
    m = ctx.model
    arch = m.architecture or "unknown"
    out = [f"  model:     {m.path or 'unknown'} -> {arch}{' (DSA)' if m.dsa else ''}; {m.origin}"
           + (f" ({m.evidence})" if m.evidence else "")]
    mla = ctx.model.architecture in ctx.table.list("absorbed_mla_architectures")
    if ctx.table.lists.get("absorbed_mla_architectures") is None:
        pass  # older releases have no such list (the table's lists_source says where it was looked for)
    else:
        out.append(f"             absorbed MLA (in SGLang {ctx.table.version}'s list): "
                   f"{'yes' if mla else 'no' if m.architecture else 'unknown'}")
    return out


def _target_lines(ctx) -> list[str]:
    """Each target with its compute capability and where it was declared."""
    if not ctx.targets:
        return ["  target:    none declared (use '# lint-configs: target-gpu=NAME', --target-gpu or "
                "'target-gpus' in the configuration)"]
    out = []
    for t in ctx.targets:
        cc = f"compute capability {t.gpu.cc[0]}.{t.gpu.cc[1]}" if t.gpu and t.gpu.cc else \
            ("ROCm (not CUDA)" if t.gpu else "unknown to the catalog")
        out.append(f"  target:    {t.name} -> {t.gpu.canonical if t.gpu else '?'} ({cc}); "
                   f"{t.decl.how}")
    return out


def _parsed_lines(ctx) -> list[str]:
    """The attention backends written, the parser's problems, the --config files and unknown words."""
    out = []
    for dest in ("attention_backend", "prefill_attention_backend", "decode_attention_backend"):
        s = ctx.parsed.get(dest)
        if s is not None:
            where = ""
            if s.flag is not None and id(s.flag) in ctx.parsed.from_config:
                loc = s.flag.location()
                where = f" in the --config file {loc.source.display}:{loc.line}" if loc is not None else ""
            value = _value(s.value)
            if s.value is UNKNOWN and s.value_text is not None:
                value += f" ({_written(s.value_text)})"
            out.append(f"  {dest}: {value} (written as {s.spelled}{where})")
    for p in ctx.parsed.problems:
        out.append(f"  parser:    {p.message}")
    for f in ctx.parsed.config_sources:
        out.append(f"  --config:  {f.display} merged in front of the command line (SGLang's config merger)")
    if ctx.parsed.unknown_words:
        shown = list(dict.fromkeys(_written(t.text) for t in ctx.parsed.unknown_words))  # (one per place)
        words = ", ".join(shown[:3]) + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")
        out.append(f"  unknown:   arguments not known statically ({words}) may set any option")
    return out


def _verdict_lines(ctx, on) -> list[str]:
    """SGLang's verdict: the parser's stop, or on each target the backend it ends up with and whether
    start-up refuses it (``on``: whether deterministic inference is on)."""
    stops = ctx.parsed.sglang_error()
    if stops is not None:
        return [f"  verdict:   refused on every GPU: SGLang's parser stops ({stops[1]}) before any start-up check"]
    if ctx.parser_only_note is not None:
        return []  # the release's start-up checks are not documented: said under "release"
    if on is UNKNOWN:
        return ["  verdict:   unknown: the start-up checks depend on whether deterministic inference is on"]
    if ctx.model.skip_checks:
        return []
    out = []
    for v in ctx.verdicts:
        out.append(_on_target(ctx, v, on))
        if on is True and ctx.model.architecture is None:
            out += _if_the_model_were(ctx, v)
    return out


def _on_target(ctx, v, on) -> str:
    """The line for one verdict: the backend on ``v``'s GPU and what start-up does with it."""
    m = ctx.model
    o, b, gate = v.startup, v.backends, v.gate
    if o is not None and o.error:
        return (f"  on {v.label}: attention backend {o.backend} (chosen by {o.chosen_by}) -> "
                f"refused at start-up ({_code(f'error {o.error}')}): {o.message}")
    if b is None and gate is not None and gate.gate == "gpt_oss_backend":
        said = " ".join(gate.message.split())
        return f"  on {v.label}: refused by the model's own check before the deterministic ones: {said}"
    if b is None and on is True and m.architecture is None and (plain := ctx.outcome_if(v.hardware)) is not None:
        said = f"refused at start-up ({_code(f'error {plain.error}')})" if plain.error else "accepted"
        return (f"  on {v.label}: attention backend {plain.backend} (chosen by {plain.chosen_by}) "
                f"-> {said} if the model is not absorbed MLA; it depends on the model's architecture")
    if b is None:
        return f"  on {v.label}: the backend depends on a value that is not known"
    verdict = ("accepted" + (" if the model is not absorbed MLA" if m.architecture is None else "")
               if gate is None else
               f"{'asserts at model load' if gate.at_load else 'refused at start-up'} "
               f"({_code(gate.gate)}): {gate.message}")
    return (f"  on {v.label}: attention backend {b.attention} (chosen by {b.chosen_by}; "
            f"prefill {b.prefill}, decode {b.decode}) -> {verdict}")


def _if_the_model_were(ctx, v) -> list[str]:
    """What the unknown architecture could change on ``v``'s GPU."""
    o = v.startup
    out = []
    for arch, dsa in (("DeepseekV3ForCausalLM", False), ("DeepseekV32ForCausalLM", True)):
        alt = ctx.outcome_if(v.hardware, arch, dsa)
        if alt is not None and alt.error and (o is None or alt.error != o.error):
            out.append(f"    if the model were {arch}{' (DSA)' if dsa else ''}: refused at "
                       f"start-up ({_code(f'error {alt.error}')}): {alt.message}")
    return out


def _framework_lines(facts) -> list[str]:
    """What the framework that starts the launch does with its settings (linter/sglang/frameworks.py)."""
    if facts is None:
        return []
    out = [f"  framework: {facts.program}, as {facts.follows} does it"]
    if facts.installs:
        out.append(f"             installs {facts.installs}; the release checked is the launch's own (above)")
    if facts.sets:
        out.append(f"             sets itself: {', '.join(facts.sets)}")
    for span, why, _rename in facts.ignored:
        where = f" ({span.source.display}:{span.line})" if span is not None else ""
        out.append(f"  ignored:   {why}{where}")
    for span, why, _rename in facts.refused:
        where = f" ({span.source.display}:{span.line})" if span is not None else ""
        out.append(f"  refused:   {why}{where}")
    return out


def _passed_over(res, line: int | None, path: Path | None) -> list[str]:
    """The commands and settings at ``line`` (all, without a line) that name a framework's SGLang
    backend but start no SGLang server, with why."""
    out = []
    for span, message in getattr(res, "passed_over", ()) or ():
        if span is None or (path is not None and span.source.path != path):
            continue
        first, last = span.start_line_col[0], span.end_line_col[0]
        if line is not None and not first <= line <= last:
            continue
        # "PATH, line N": not the "PATH:LINE: program" header of a launch
        out.append(f"{span.source.display}, line {first}: {message}")
        out.append("")
    return out


def render_contexts(contexts) -> str:
    """The explanation of the given resolved launches (the language server's hover)."""
    from types import SimpleNamespace

    return render({Path("."): SimpleNamespace(source=True, contexts=list(contexts))}, None, None)


def _code(check: str) -> str:
    """The rule code that reports SGLang's check ``check`` (``error C`` -> ``SGL101``, a gate's name ->
    its code), so the explanation names what the report names; the check itself when no rule has it."""
    from linter.report.inventory import _check_codes

    return _check_codes().get(check, check)
