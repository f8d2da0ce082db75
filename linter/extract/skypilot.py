"""SkyPilot task YAML (and SkyServe files, which are tasks with a ``service:`` section).

What SkyPilot does with the fields read here (docs.skypilot.co, "YAML configuration" reference):

* ``setup:`` and ``run:`` are bash scripts run on every node; ``envs:`` are exported to both (a null
  value must be given with ``--env`` at launch: unknown). Both go to the shell format with their
  characters mapped back, so a fix to a value that came from ``envs:`` lands in ``envs:``.
* ``resources.accelerators`` declares the GPU: ``H100:8``; ``{H100: 8}``; a set ``{H200:8, B200:8}``
  (any of them: each is a target); a list ``[H100:8, A100-80GB:8]`` (in order of preference: each
  can run it); ``resources.any_of: [...]`` / ``resources.ordered: [...]`` lists of resource sets,
  each with its own ``accelerators``. ``{A100-80GB:8}`` written without a blank after the colon is a
  flow mapping whose *key* is ``A100-80GB:8`` (value null); SkyPilot reads the key, and so do we.
  ``resources.instance_type`` (``p5.48xlarge``) declares the GPU of that instance family when the GPU
  catalog knows it.
* ``resources.image_id: docker:IMAGE`` runs ``setup:`` and ``run:`` in that container image, whose
  tag gives the SGLang release;
* else the release comes from an ``sglang==X`` pin anywhere in the file (``pip install "sglang[all]==0.4.2"``
  in ``setup:``), which :mod:`linter.sglang.release` reads from the file text; a ``docker run`` image
  inside ``run:`` names it for that launch.
* ``run:`` is given ``SKYPILOT_NUM_GPUS_PER_NODE`` ("the same as the count in ``accelerators:
  <name>:<count>`` (rounded up if a fraction)") and ``SKYPILOT_NUM_NODES`` (the nodes of the task,
  ``num_nodes``, 1 by default) — skypilot-org/skypilot ``docs/source/running-jobs/environment-variables.rst``
  @25df97fb, "Environment variables for ``run``" — so ``--tp $SKYPILOT_NUM_GPUS_PER_NODE --nnodes
  $SKYPILOT_NUM_NODES`` are read as those numbers when the file states them (every candidate
  accelerator with one count; ``sky launch --gpus``/``--num-nodes`` may still change them).
"""

from __future__ import annotations

from linter.extract import yamldoc as y
from linter.gpus.catalog import lookup
from linter.gpus.cloud import skypilot_accelerator
from linter.launch import Extraction, GpuDecl
from linter.source import SourceFile, Span
from linter.workspace import Workspace


def accelerator_decls(resources, source: SourceFile, depth: int = 0) -> list[GpuDecl]:
    """Every GPU a ``resources`` mapping names, in all of SkyPilot's forms (see the module docstring)."""
    out: list[GpuDecl] = []
    if not y.is_map(resources) or depth > 4:
        return out
    _, acc = y.get(resources, "accelerators")
    if y.is_str(acc):
        out.extend(skypilot_accelerator(y.mstr(acc, source)))
    elif y.is_map(acc):
        for k, _v in y.items(acc):
            if y.is_str(k):
                out.extend(skypilot_accelerator(y.mstr(k, source), "declared by SkyPilot resources.accelerators "
                                                                   "(one of a set)"))
    elif y.is_seq(acc):
        for item in acc.value:
            if y.is_str(item):
                out.extend(skypilot_accelerator(y.mstr(item, source), "declared by SkyPilot resources.accelerators "
                                                                      "(one of an ordered list)"))
            elif y.is_map(item):
                for k, _v in y.items(item):
                    if y.is_str(k):
                        out.extend(skypilot_accelerator(y.mstr(k, source)))
    if not out:
        _, itype = y.get(resources, "instance_type")
        if y.is_str(itype) and lookup(str(itype.value)) is not None:
            m = y.mstr(itype, source)
            out.append(GpuDecl(m.text, m.span_of() or m.location(), "declared by SkyPilot resources.instance_type"))
    for key in ("any_of", "ordered"):
        _, alternatives = y.get(resources, key)
        if y.is_seq(alternatives):
            for alt in alternatives.value:
                for d in accelerator_decls(alt, source, depth + 1):
                    d.how = f"{d.how} in resources.{key}"
                    out.append(d)
    return out


def accelerator_counts(resources, source: SourceFile, depth: int = 0) -> list[int | None]:
    """The GPU count of every accelerator a ``resources`` mapping names (``H100:8`` → 8; ``{H100: 8}``
    → 8), in the forms :func:`accelerator_decls` reads; one value per candidate."""
    from linter.gpus.counts import accelerator_count

    out: list[int | None] = []
    if not y.is_map(resources) or depth > 4:
        return out
    _, acc = y.get(resources, "accelerators")
    items = []
    if y.is_str(acc):
        text = str(acc.value).strip()
        if text[:1] in "{[" and text[-1:] in "}]":
            items = [(part, None) for part in text[1:-1].split(",")]
        else:
            items = [(text, None)]
    elif y.is_map(acc):
        items = [(str(k.value), v) for k, v in y.items(acc) if y.is_str(k)]
    elif y.is_seq(acc):
        for item in acc.value:
            if y.is_str(item):
                items.append((str(item.value), None))
            elif y.is_map(item):
                items.extend((str(k.value), v) for k, v in y.items(item) if y.is_str(k))
    for name, value in items:
        if value is not None and y.is_str(value) and str(value.value).strip():
            n = str(value.value).strip()
            out.append(int(n) if n.isdigit() else accelerator_count(f"x:{n}"))
        else:
            out.append(accelerator_count(name))
    for key in ("any_of", "ordered"):
        _, alternatives = y.get(resources, key)
        if y.is_seq(alternatives):
            for alt in alternatives.value:
                out.extend(accelerator_counts(alt, source, depth + 1))
    return out


def _counts(root, resources, source: SourceFile) -> list:
    """The file's GPU count per node (the most any candidate accelerator gives: the node has one of
    them) and its ``num_nodes``."""
    from linter.launch import GpuCount

    out = []
    counts = accelerator_counts(resources, source)
    _, acc = y.get(resources, "accelerators") if y.is_map(resources) else (None, None)
    if counts and acc is not None:
        span = Span(source, acc.start_mark.index, acc.end_mark.index)
        best = None if any(c is None for c in counts) else max(counts)
        out.append(GpuCount("accelerators", best, span, "SkyPilot resources.accelerators"))
    _, nodes = y.get(root, "num_nodes")
    if y.is_str(nodes):
        out.append(y.gpu_count(nodes, source, "num_nodes", "SkyPilot num_nodes", per="nodes"))
    return out


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of a SkyPilot task: its ``setup:`` and ``run:`` scripts, with ``envs:`` as their
    variables and ``resources`` as the file's target GPUs."""
    result = Extraction()
    root = y.load(source, result)
    if not y.is_map(root):
        return result
    _, envs = y.get(root, "envs")
    env = y.env_section(envs, source)
    _, resources = y.get(root, "resources")
    decls = accelerator_decls(resources, source)
    result.gpu_decls.extend(decls)
    result.gpu_counts.extend(_counts(root, resources, source))
    image = None
    if y.is_map(resources):
        _, image_id = y.get(resources, "image_id")
        if y.is_str(image_id) and str(image_id.value).startswith("docker:"):
            image = y.mstr(image_id, source)[len("docker:"):]
    for key in ("setup", "run"):
        _, script = y.get(root, key)
        script_env = _run_env(root, resources, source, env) if key == "run" else env
        result.launches.extend(y.script_launches(script, source, script_env, result, key, image=image))
    return result


def _run_env(root, resources, source: SourceFile, env: dict) -> dict:
    """``env`` with the counts SkyPilot gives ``run:`` (see the module docstring), each located at the
    field it comes from; a variable the file sets itself in ``envs:`` is kept as written."""
    from linter.launch import MStr

    out = dict(env)
    counts = accelerator_counts(resources, source)
    _, acc = y.get(resources, "accelerators") if y.is_map(resources) else (None, None)
    if counts and acc is not None and None not in counts and len(set(counts)) == 1:
        where = Span(source, acc.start_mark.index, acc.end_mark.index)
        out.setdefault("SKYPILOT_NUM_GPUS_PER_NODE", MStr.plain(str(counts[0]), where))
    _, nodes = y.get(root, "num_nodes")
    if nodes is None:
        out.setdefault("SKYPILOT_NUM_NODES", MStr.plain("1"))
    elif y.is_str(nodes) and str(nodes.value).strip().isdigit():
        where = Span(source, nodes.start_mark.index, nodes.end_mark.index)
        out.setdefault("SKYPILOT_NUM_NODES", MStr.plain(str(int(str(nodes.value).strip())), where))
    return out
