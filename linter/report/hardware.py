"""What ``--explain`` and ``--list-launches`` say about the hardware a launch is given and needs:
the GPUs per node and where that was declared, the nodes, where SGLang puts the ranks, the model's
weights per GPU and the memory SGLang budgets for them — or why each is not known."""

from __future__ import annotations

GIB = 1 << 30


def _where(g, c) -> str:
    return g.where(c) if c is not None else ""


def summary(ctx) -> dict:
    """The hardware facts of one launch as plain values (for JSON and the inventory): ``gpus_per_node``,
    ``gpus_from``, ``nodes``, ``nodes_from``, ``needs_per_node``, ``weights_gib``, ``weights_from``,
    ``memory_mib``, ``memory_from``, ``budget_gib``, ``budget_from`` (None or "" when not known)."""
    from linter.sglang.memory import budget
    from linter.sglang.placement import placement

    g = ctx.given
    out = {"gpus_per_node": None, "gpus_from": "", "nodes": None, "nodes_from": "", "needs_per_node": None,
           "weights_gib": None, "weights_from": ctx.weights_origin, "memory_mib": None, "memory_from": "",
           "budget_gib": None, "budget_from": ""}
    if g is not None:
        out.update(gpus_per_node=g.count, gpus_from=_where(g, g.count_from), nodes=g.nodes,
                   nodes_from=_where(g, g.nodes_from))
        if g.memory is not None:
            out.update(memory_mib=g.memory.mib, memory_from=g.memory.why)
        else:
            out["memory_from"] = g.memory_note
    p = placement(ctx.parsed, ctx.table)
    if p is not None:
        out["needs_per_node"] = p.needed
        if ctx.weights is not None:
            out["weights_gib"] = round(ctx.weights.per_gpu_bytes(p.tp, p.attn_dp, p.pp) / GIB, 1)
        if g is not None and g.memory is not None:
            mla = (ctx.model.mla or ctx.model.architecture in ctx.table.list("absorbed_mla_architectures")) \
                if ctx.model.architecture else None
            b = budget(ctx.parsed, ctx.table.version, g.memory.mib, p.tp, p.pp, mla, p.attn_dp > 1)
            if b is not None:
                out.update(budget_gib=round(b.mib * (1 << 20) / GIB, 1), budget_from=b.how)
    return out


def explain_lines(ctx) -> list[str]:
    """The ``--explain`` lines about the hardware (see the module docstring)."""
    from linter.sglang.placement import placement

    g = ctx.given
    lines = []
    if g is None:
        return lines
    if g.count is not None:
        lines.append(f"  GPUs:      {g.count} per node, given by {_where(g, g.count_from)}")
    else:
        said = [c for c in g.counts if c.per != "nodes"]
        why = ("declared as " + ", ".join(f"{c.how or c.resource} (not a known number)" for c in said)) if said else \
            "no count declared (a resource limit, --gpus, CUDA_VISIBLE_DEVICES, --gres, H100:8 …)"
        lines.append(f"  GPUs:      unknown per node: {why}")
    if g.nodes is not None:
        lines.append(f"  nodes:     {g.nodes}, given by {_where(g, g.nodes_from)}")
    p = placement(ctx.parsed, ctx.table)
    if p is not None:
        lines.append(f"  placement: {p.describe()} -> {p.ranks} rank(s) on each node, devices up to {p.needed - 1}"
                     f" (needs {p.needed})")
    else:
        lines.append("  placement: unknown: a parallel size is not known statically or is one SGLang refuses")
    s = summary(ctx)
    if s["weights_gib"] is not None:
        lines.append(f"  weights:   at least {s['weights_gib']} GiB per GPU; {s['weights_from']}")
    elif ctx.weights is not None:
        lines.append(f"  weights:   {ctx.weights.checkpoint_bytes() / GIB:.1f} GiB in all ({ctx.weights_origin}); per GPU "
                     "unknown: the parallel sizes are not known")
    else:
        lines.append(f"  weights:   unknown: {ctx.weights_origin or 'the model is not known'}")
    distinct = {m.mib for _, m in g.memories}
    if len(distinct) > 1:
        # several targets with different memory: each is judged on its own
        from linter.sglang.memory import budget

        mla = (ctx.model.mla or ctx.model.architecture in ctx.table.list("absorbed_mla_architectures")) \
            if ctx.model.architecture else None
        for t, m in sorted(g.memories, key=lambda tm: tm[1].mib):
            b = budget(ctx.parsed, ctx.table.version, m.mib, p.tp, p.pp, mla, p.attn_dp > 1) if p is not None else None
            lines.append(f"  memory:    {m.mib} MiB per GPU on {t.name} ({m.why})"
                         + (f"; at most {b.mib * (1 << 20) / GIB:.1f} GiB budgeted" if b is not None else ""))
        if s["budget_from"]:
            lines.append(f"  budget:    {s['budget_from']}")
        if g.memory is None:
            lines.append(f"  memory:    of the others unknown: {g.memory_note}")
    elif s["memory_mib"] is not None:
        lines.append(f"  memory:    {s['memory_mib']} MiB per GPU ({s['memory_from']})")
        if s["budget_gib"] is not None:
            lines.append(f"  budget:    at most {s['budget_gib']} GiB for weights and KV cache: {s['budget_from']}")
    else:
        lines.append(f"  memory:    unknown: {g.memory_note}")
    return lines


__all__ = ["summary", "explain_lines"]
