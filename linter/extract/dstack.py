"""dstack configurations (``.dstack.yml``, ``*.dstack.yml``; ``type: task | service | dev-environment``).

What dstack does with the fields read here (dstack.ai, "Reference: .dstack.yml" for tasks, services
and dev environments):

* ``commands:`` (``init:`` for a dev environment) is a list of shell lines run one after another in
  one shell in the container, so a variable set by one line reaches the next; they go to the shell
  format as one script (each line keeps its place in the file);
* ``env:`` is a list of ``NAME=VALUE`` (a bare ``NAME`` is taken from the environment ``dstack apply``
  runs in: unknown) or a mapping;
* ``image:`` is the container image (its tag gives the SGLang release);
* ``resources.gpu`` declares the GPU: ``H100:8``, ``A100,H100:80GB:2``, a mapping ``{name: [H100,
  A100], count: 8}``; a count (``1``) or a memory range (``24GB..80GB``) names none;
* a service's ``replicas:`` and a task's ``groups:`` may be lists of groups, each with its own
  ``commands:`` and ``resources:`` (router/prefill/decode groups), which override the top-level ones;
* ``${{ … }}`` (``${{ groups[1].nodes[0].IP_ADDRESS }}``, ``${{ env.X }}``) is filled in by dstack
  when it runs: unknown.
"""

from __future__ import annotations

from linter.extract import yamldoc as y
from linter.gpus.cloud import dstack_gpu, dstack_gpu_name
from linter.launch import Extraction, GpuDecl
from linter.source import SourceFile
from linter.workspace import Workspace


def gpu_decls(resources, source: SourceFile) -> list[GpuDecl]:
    """The GPUs a ``resources`` mapping names through its ``gpu`` key, in every dstack form."""
    if not y.is_map(resources):
        return []
    _, gpu = y.get(resources, "gpu")
    if y.is_str(gpu):
        return dstack_gpu(y.mstr(gpu, source))
    out: list[GpuDecl] = []
    if y.is_map(gpu):
        _, names = y.get(gpu, "name")
        for node in (names.value if y.is_seq(names) else [names]):
            if y.is_str(node):
                out.extend(dstack_gpu_name(y.mstr(node, source)))
    return out


def gpu_counts(resources, source: SourceFile, nodes=None) -> list:
    """The GPU count per node a ``resources.gpu`` gives (``H100:8``, ``2``, ``1..4``, ``{count: 8}``;
    the most it may give) and the node count of ``nodes:`` (a task's nodes)."""
    from linter.gpus.counts import dstack_count

    out = []
    if y.is_map(resources):
        _, gpu = y.get(resources, "gpu")
        if y.is_str(gpu):
            out.append(y.gpu_count(gpu, source, "gpu", "dstack resources.gpu", dstack_count))
        elif y.is_map(gpu):
            _, count = y.get(gpu, "count")
            if y.is_str(count):
                out.append(y.gpu_count(count, source, "gpu.count", "dstack resources.gpu.count", dstack_count))
            elif y.is_map(count):
                _, hi = y.get(count, "max")
                if y.is_str(hi):
                    out.append(y.gpu_count(hi, source, "gpu.count.max", "dstack resources.gpu.count.max",
                                           dstack_count))
    if y.is_str(nodes):
        out.append(y.gpu_count(nodes, source, "nodes", "dstack nodes", per="nodes"))
    return out


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of a dstack task, service or dev environment (see the module docstring)."""
    result = Extraction()
    root = y.load(source, result)
    if not y.is_map(root):
        return result
    _, env_node = y.get(root, "env")
    env = {k: y.unknown_expressions(v) for k, v in y.env_section(env_node, source).items()}
    _, image_node = y.get(root, "image")
    image = y.mstr(image_node, source) if y.is_str(image_node) else None
    _, resources = y.get(root, "resources")
    top_decls = gpu_decls(resources, source)
    _, nodes = y.get(root, "nodes")
    top_counts = gpu_counts(resources, source, nodes)
    for key in ("commands", "init"):
        _, commands = y.get(root, key)
        _script(commands, source, env, result, key, image, top_decls, top_counts)
    for section in ("replicas", "groups"):
        _, groups = y.get(root, section)
        if not y.is_seq(groups):
            continue
        for i, group in enumerate(groups.value):
            if not y.is_map(group):
                continue
            _, commands = y.get(group, "commands")
            _, res = y.get(group, "resources")
            decls = gpu_decls(res, source) if res is not None else top_decls
            counts = gpu_counts(res, source) if res is not None else top_counts
            _script(commands, source, env, result, f"{section}[{i}].commands", image, decls, counts)
    return result


def _script(node, source: SourceFile, env, result: Extraction, key: str, image, decls: list[GpuDecl],
            counts: list | None = None) -> None:
    script = y.script_of(node, source) if node is not None else None
    if script is not None:
        result.launches.extend(y.script_launches_of(y.unknown_expressions(script), node, source, env, result, key,
                                                    image=image, gpu_decls=decls, gpu_counts=counts))
