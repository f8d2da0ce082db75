"""``--explain PATH[:LINE]``: how each launch there was resolved, so a user can see why a finding is
or is not reported — the release and CUDA build, the model and its architecture, the targets and
their compute capability, and the attention backend SGLang ends up with on each target."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from linter.launch import UNKNOWN
from linter.rules.deterministic import analyse
from linter.sglang.decision import HYPOTHETICAL, Hardware, deterministic, evaluate
from linter.sglang.gates import effective, load_gates, startup_gates


@dataclass(frozen=True)
class TargetOutcome:
    """What SGLang does with one launch on one GPU.

    ``name`` is the target as declared (``H100``), or for a launch with an unknown target the label of
    a GPU class of :data:`HYPOTHETICAL` (``SM90``, ``hypothetical`` True). ``status`` is ``accepted``,
    ``refused`` (SGLang refuses to start), ``asserts-at-load`` (it starts, then asserts when the model
    loads) or ``unknown`` (the backend depends on a value not known statically). ``backend`` is the
    effective ``attention_backend``, ``chosen_by`` ``user``/``model``/``sglang``/``default``;
    ``prefill``/``decode`` are None when the deterministic start-up checks refused before the phase
    backends were chosen. ``check`` names the failing check (``error A``/``B``/``C`` of SGLang's
    deterministic checks, or a gate's rule code) and ``message`` is SGLang's text for it.
    """

    name: str
    hypothetical: bool
    status: str
    backend: str | None = None
    chosen_by: str | None = None
    prefill: str | None = None
    decode: str | None = None
    check: str | None = None
    message: str = ""

    @property
    def shown(self) -> str:
        """``H100``, or ``a SM90 GPU (if that were the target)``."""
        return f"a {self.name} GPU (if that were the target)" if self.hypothetical else self.name

    @property
    def verdict(self) -> str:
        """``accepted``, ``refused at start-up (SGL104): …``, ``asserts at model load (SGL104): …``."""
        if self.status == "accepted":
            return "accepted"
        if self.status == "unknown":
            return "unknown"
        how = "asserts at model load" if self.status == "asserts-at-load" else "refused at start-up"
        return f"{how} ({self.check}): {self.message}"


def target_outcomes(ctx, on: object | None = None) -> list[TargetOutcome]:
    """SGLang's outcome for the launch ``ctx`` (a ``LaunchContext``) on each known target, plus each
    GPU class of :data:`HYPOTHETICAL` when a target is missing or unknown to the catalog. Empty when
    the outcome cannot be computed: deterministic inference is unknown, or the model path skips
    SGLang's checks. ``on`` is ``deterministic(ctx.parsed)[0]`` when the caller has it already."""
    if on is None:
        on = deterministic(ctx.parsed)[0]
    m = ctx.model
    if on is UNKNOWN or m.skip_checks:
        return []
    hws = [(t.name, False, t.hardware(ctx.assumed_cuda)) for t in ctx.known_targets]
    if ctx.has_unknown_target:
        hws += [(h.label, True, Hardware(h.label, h.cuda, h.major, ctx.assumed_cuda)) for h in HYPOTHETICAL]
    out = []
    for name, hypothetical, hw in hws:
        o = evaluate(ctx.parsed, ctx.table, m.architecture, m.dsa, hw) if on is True else None
        if o is not None and o.error:
            out.append(TargetOutcome(name, hypothetical, "refused", o.backend, o.chosen_by, check=f"error {o.error}",
                                     message=o.message))
            continue
        b = effective(ctx.parsed, m.architecture, m.dsa, hw, o)
        if b is None:
            out.append(TargetOutcome(name, hypothetical, "unknown"))
            continue
        gate = startup_gates(ctx.parsed, ctx.table, b, hw) or load_gates(ctx.parsed, b, m.architecture, hw)
        status = "accepted" if gate is None else ("asserts-at-load" if gate.at_load else "refused")
        out.append(TargetOutcome(name, hypothetical, status, b.attention, b.chosen_by, b.prefill, b.decode,
                                 check=gate.gate if gate else None, message=gate.message if gate else ""))
    return out


def _value(v) -> str:
    if v is UNKNOWN:
        return "unknown"
    return repr(v)


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
            launch = ctx.launch
            span = launch.span
            first, last = span.start_line_col[0], span.end_line_col[0]
            here = path is None or launch.source.path == path
            if line is not None:
                inside = here and first <= line <= last
                if not inside and not (path is not None and _writes_line(ctx, path, line)):
                    continue
            elif not here and path is not None and path.name != ".env" and not path.name.endswith(".env"):
                continue
            out.append(f"{launch.source.display}:{first}: {launch.program} ({launch.key or 'launch'})")
            cuda = f"CUDA {ctx.cuda_build[0]}.{ctx.cuda_build[1]}" if ctx.cuda_build else "CUDA >= 12.8 (assumed)"
            out.append(f"  release:   SGLang {ctx.table.version}, from {ctx.version_origin}; torch built for {cuda}")
            m = ctx.model
            arch = m.architecture or "unknown"
            out.append(f"  model:     {m.path or 'unknown'} -> {arch}{' (DSA)' if m.dsa else ''}; {m.origin}"
                       + (f" ({m.evidence})" if m.evidence else ""))
            mla = ctx.model.architecture in ctx.table.list("absorbed_mla_architectures")
            out.append(f"             absorbed MLA (in SGLang {ctx.table.version}'s list): "
                       f"{'yes' if mla else 'no' if m.architecture else 'unknown'}")
            if ctx.targets:
                for t in ctx.targets:
                    cc = f"compute capability {t.gpu.cc[0]}.{t.gpu.cc[1]}" if t.gpu and t.gpu.cc else \
                        ("ROCm (not CUDA)" if t.gpu else "unknown to the catalog")
                    out.append(f"  target:    {t.name} -> {t.gpu.canonical if t.gpu else '?'} ({cc}); "
                               f"{t.decl.how}")
            else:
                out.append("  target:    none declared (use '# lint-configs: target-gpu=NAME', --target-gpu or "
                           "'target-gpus' in the configuration)")
            on, setting = deterministic(ctx.parsed)
            how = f" (by {setting.spelled})" if setting is not None and on is True else ""
            out.append(f"  deterministic inference: {_value(on) if on is UNKNOWN else ('on' if on else 'off')}{how}")
            for dest in ("attention_backend", "prefill_attention_backend", "decode_attention_backend"):
                s = ctx.parsed.get(dest)
                if s is not None:
                    out.append(f"  {dest}: {_value(s.value)} (written as {s.spelled})")
            for p in ctx.parsed.problems:
                out.append(f"  parser:    {p.message}")
            if ctx.parsed.unknown_words:
                words = ", ".join(t.raw.replace("\ue000", "?") or "?" for t in ctx.parsed.unknown_words[:3])
                out.append(f"  unknown:   arguments not known statically ({words}) may set any option")
            if on is UNKNOWN:
                out.append("  verdict:   unknown: the start-up checks depend on whether deterministic inference is on")
            for t in target_outcomes(ctx, on):
                if t.status == "unknown":
                    out.append(f"  on {t.shown}: the backend depends on a value that is not known")
                elif t.prefill is None:  # refused by the deterministic start-up checks
                    out.append(f"  on {t.shown}: attention backend {t.backend} (chosen by {t.chosen_by}) -> "
                               f"refused at start-up ({t.check}): {t.message}")
                else:
                    out.append(f"  on {t.shown}: attention backend {t.backend} (chosen by {t.chosen_by}; prefill "
                               f"{t.prefill}, decode {t.decode}) -> {t.verdict}")
            analyse(ctx)
            out.append("")
    if not out:
        return "no SGLang launch found there\n"
    return "\n".join(out)
