"""Launches that share one container or node at the same time, so their GPUs add up.

Two SGLang servers started in one container (a Kubernetes container's or compose service's shell
command, one shell script) each take the devices SGLang places their ranks on
(:mod:`linter.sglang.placement`). They run together when the script starts the earlier ones in the
background (``… &``, :attr:`linter.launch.Launch.background`): a launch in the foreground runs until
it exits, so the ones after it do not run beside it. Launches in different branches (``if``/``case``)
or in a loop are never summed (they are not marked as background).

The group's launches are the ones of one file with the same scope (:attr:`Launch.key` without its
``#N`` suffix) chained by background launches, in the order of the file.
"""

from __future__ import annotations

import re

from linter.gpus.counts import VISIBLE_DEVICE_VARIABLES
from linter.records import dataclass, replace
from linter.source import Span


@dataclass(frozen=True)
class Neighbour:
    """Another launch running beside one: its ``identity``, the GPUs its ranks take on the node
    (``ranks``; None when not known), where it starts (``span``), its ``--mem-fraction-static``
    (None when not written) and whether its own environment narrows the devices it sees."""

    identity: str
    ranks: int | None
    span: Span
    mem_fraction: float | None
    own_devices: bool
    start: int = 0
    """Where the launch's words start in its file (launches of one container share its span)."""


def _group_key(ctx) -> tuple:
    return (str(ctx.launch.source.path), re.sub(r"#\d+$", "", ctx.launch.key))


def neighbour_of(ctx) -> Neighbour:
    """The :class:`Neighbour` record of a resolved launch."""
    from linter.sglang.placement import placement

    p = placement(ctx.parsed, ctx.table)
    mfs = ctx.parsed.get("mem_fraction_static")
    try:
        frac = float(mfs.value) if mfs is not None and isinstance(mfs.value, (str, int, float)) else None
    except ValueError:
        frac = None
    own = any(c.resource in VISIBLE_DEVICE_VARIABLES for c in ctx.launch.gpu_counts)
    return Neighbour(ctx.identity, p.ranks if p is not None else None, _span(ctx), frac, own, position(ctx))


def position(ctx) -> int:
    """Where a launch's words start (its first argument), else where its span starts."""
    for tok in ctx.launch.args:
        loc = tok.location()
        if loc is not None and loc.source is ctx.launch.source:
            return loc.start
    return ctx.launch.span.start


def _span(ctx) -> Span:
    for tok in ctx.launch.args:
        loc = tok.location()
        if loc is not None and loc.source is ctx.launch.source:
            return Span(loc.source, loc.start, loc.start)
    return ctx.launch.span


def colocate(contexts: list) -> list:
    """``contexts`` with :attr:`LaunchContext.colocated` set: for each launch, the others that run at
    the same time in its container or script (see the module docstring)."""
    groups: dict[tuple, list[int]] = {}
    for i, ctx in enumerate(contexts):
        groups.setdefault(_group_key(ctx), []).append(i)
    out = list(contexts)
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda i: position(contexts[i]))
        runs: list[list[int]] = [[members[0]]]
        for prev, cur in zip(members, members[1:]):
            if contexts[prev].launch.background:
                runs[-1].append(cur)
            else:
                runs.append([cur])
        for run in runs:
            if len(run) < 2:
                continue
            records = {i: neighbour_of(contexts[i]) for i in run}
            for i in run:
                out[i] = replace(contexts[i], colocated=tuple(records[j] for j in run if j != i))
    return out


__all__ = ["Neighbour", "colocate", "neighbour_of", "position"]
