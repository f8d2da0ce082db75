"""How many GPUs (and nodes) a deployment gives a launch, read from the places deployments write it.

Each function reads one declaration as written and returns :class:`~linter.launch.GpuCount` values
(``count`` None when the number is not known: ``all``, a variable, an expression — never guessed):

* ``CUDA_VISIBLE_DEVICES`` — a comma-separated list of device indices, UUIDs or MIG ids; CUDA
  enumerates only those, so the process sees at most that many devices; an empty value or a
  list starting with ``-1`` hides every device (NVIDIA, "CUDA C++ Programming Guide", CUDA
  Environment Variables: ``CUDA_VISIBLE_DEVICES``).
* ``NVIDIA_VISIBLE_DEVICES`` — which GPUs the NVIDIA Container Toolkit puts in a container: a list
  of indices or UUIDs, or ``all``, ``none``, ``void`` (NVIDIA Container Toolkit docs, "Specialized
  Configurations with Docker": GPU Enumeration). ``all`` set in a container's own environment can
  show it every GPU of the host, more than its resource request (the toolkit's
  ``accept-nvidia-visible-devices-envvar-when-unprivileged`` default): it is ``widens``.
* ``docker run --gpus`` — ``all``, a count ``N``, ``device=0,1`` or ``count=N`` with capabilities
  (docs.docker.com, "docker container run": ``--gpus``).
* compose ``deploy.resources.reservations.devices[]`` — ``count: N | all`` or ``device_ids: [...]``
  (Compose Specification, "Deploy Specification": devices), and the service-level ``gpus:``.
* Slurm — ``--gpus``/``-G`` (over the whole job), ``--gpus-per-node``, ``--gres=gpu[:TYPE]:N`` and
  ``--tres-per-node=gres/gpu[:TYPE]:N`` (per node; a bare ``gpu`` is one), ``--gpus-per-task`` ×
  ``--ntasks-per-node``, and ``--nodes``/``-N`` (sbatch(1), srun(1): slurm.schedmd.com).
* ``NAME:N`` accelerator strings — SkyPilot ``accelerators``, Modal ``gpu=``, Truss ``accelerator``,
  dstack ``gpu`` (``H100:8``; dstack also ``A100:40GB:2``, ``2``, ``1..2``).
"""

from __future__ import annotations

import re

from linter.launch import UNKNOWN_CHAR, GpuCount, MStr, Token
from linter.source import Span

VISIBLE_DEVICE_VARIABLES = ("CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES")
"""Environment variables that limit the GPUs a process or container sees."""

_INT = re.compile(r"\d+\Z")
_RANGE = re.compile(r"(\d*)\.\.(\d*)\Z")


def _count_list(text: str) -> int:
    return len([p for p in text.split(",") if p.strip()])


def visible_devices(name: str, value: MStr | None, where: Span | None = None) -> GpuCount | None:
    """The count a ``CUDA_VISIBLE_DEVICES`` / ``NVIDIA_VISIBLE_DEVICES`` value gives (see the module
    docstring); None for another variable. ``value`` None or not known statically gives a count of
    None (unknown)."""
    if name not in VISIBLE_DEVICE_VARIABLES:
        return None
    span = (value.span_of() or value.location()) if value is not None else where
    how = f"the environment variable {name}"
    if value is None or not value.known:
        return GpuCount(name, None, span, how)
    text = value.text.strip().strip("'\"")
    if name == "CUDA_VISIBLE_DEVICES":
        first = text.split(",", 1)[0].strip()
        if not text or first == "-1" or first.lower() in ("none", "void", "nodevfiles"):
            return GpuCount(name, 0, span, how)
        return GpuCount(name, _count_list(text), span, how)
    low = text.lower()
    if low == "all":
        return GpuCount(name, None, span, how, widens=True)
    if low in ("none", "void") or not text:
        return GpuCount(name, None, span, how)  # no device nodes injected: what CUDA sees is not ours to say
    return GpuCount(name, _count_list(text), span, how)


def docker_gpus(value: Token, how: str = "docker run --gpus") -> GpuCount:
    """The count of a ``docker run --gpus`` value: ``all`` → unknown, ``2`` → 2, ``device=0,1`` → 2,
    ``count=2,capabilities=utility`` → 2 (docker's CSV form; surrounding quotes removed)."""
    span = value.span_of() or value.location()
    raw = value.value
    if raw is None:
        return GpuCount("--gpus", None, span, how)
    text = raw.strip().strip("'\"").strip()
    if _INT.match(text):
        return GpuCount("--gpus", int(text), span, how)
    inner = text.replace('"', "")
    if inner.startswith("device="):
        return GpuCount("--gpus", _count_list(inner[len("device="):]), span, how)
    for field in inner.split(","):
        key, _, val = field.partition("=")
        if key.strip() == "count":
            val = val.strip()
            return GpuCount("--gpus", int(val) if _INT.match(val) else None, span, how)
    return GpuCount("--gpus", None, span, how)


def accelerator_count(text: str) -> int | None:
    """The count of a ``NAME:N`` accelerator string (``H100:8`` → 8; ``H100`` → 1; ``A100:0.5`` → 1,
    a fraction of one GPU); None when the text holds an unknown part."""
    if not text or UNKNOWN_CHAR in text:
        return None
    name, sep, count = text.strip().rpartition(":")
    if not sep:
        return 1 if text.strip() else None
    count = count.strip()
    if _INT.match(count):
        return int(count)
    try:
        return 1 if 0 < float(count) < 1 else None
    except ValueError:
        return None


def dstack_count(text: str) -> int | None:
    """The most GPUs a dstack ``gpu`` spec asks for (``H100:8`` → 8, ``A100:40GB:2`` → 2, ``2`` → 2,
    ``1..4`` → 4, ``H100`` → 1); None for an open range (``2..``) or an unknown part."""
    if not text or UNKNOWN_CHAR in text:
        return None
    for part in reversed(text.split(":")):
        word = part.strip()
        if _INT.match(word):
            return int(word)
        m = _RANGE.match(word)
        if m:
            return int(m.group(2)) if m.group(2) else None
    return 1


def _split_count(body: str) -> int | None:
    """``[TYPE:]N`` → N; a missing count is one GPU (Slurm's default for ``--gres=gpu``)."""
    last = body.rsplit(":", 1)[-1] if ":" in body else body
    if _INT.match(last):
        return int(last)
    if ":" not in body:
        return None if _INT.match(body) is None and body not in ("gpu",) else 1
    return 1


def slurm_counts(opts: list[tuple[str, Token | None]], how: str) -> list[GpuCount]:
    """The GPU and node counts of one Slurm command's options (``#SBATCH`` lines together, or one
    ``srun``/``salloc``/``sbatch`` call): ``opts`` are ``(option name, value token)`` pairs in order.

    ``--gpus-per-node``, ``--gres``/``--tres-per-node`` give GPUs per node; ``--gpus`` a total over
    the job (per node when ``--nodes`` is 1); ``--gpus-per-task`` × ``--ntasks-per-node`` GPUs per
    node; ``--nodes`` the number of nodes (a range ``2-4`` is not one number: unknown)."""
    out: list[GpuCount] = []
    per_task: tuple[int | None, Span | None] | None = None
    tasks_per_node: int | None = None
    for name, value in opts:
        if value is None:
            continue
        raw = value.value
        span = value.span_of() or value.location()
        what = f"{how} {name}"
        if raw is None:
            if name in ("--gpus", "-G", "--gpus-per-node", "--gres", "--tres-per-node"):
                out.append(GpuCount(name, None, span, what, "job" if name in ("--gpus", "-G") else "node"))
            elif name in ("--nodes", "-N"):
                out.append(GpuCount(name, None, span, what, "nodes"))
            continue
        if name in ("--gpus-per-node", "--gpus", "-G"):
            total = 0
            known = True
            for item in raw.split(","):
                n = _split_count(item.strip())
                if n is None:
                    known = False
                else:
                    total += n
            out.append(GpuCount(name, total if known else None, span, what,
                                "job" if name in ("--gpus", "-G") else "node"))
        elif name in ("--gres", "--tres-per-node"):
            for item in raw.split(","):
                body = item.strip()
                if body.startswith(("gres/", "gres:")):
                    body = body[5:]
                if body == "gpu" or body.startswith("gpu:"):
                    out.append(GpuCount(name, _split_count(body), span, what))
        elif name == "--gpus-per-task":
            per_task = (_split_count(raw.strip()), span)
        elif name == "--ntasks-per-node":
            tasks_per_node = int(raw) if _INT.match(raw.strip()) else None
        elif name in ("--nodes", "-N"):
            text = raw.strip()
            out.append(GpuCount(name, int(text) if _INT.match(text) else None, span, what, "nodes"))
    if per_task is not None:
        n, span = per_task
        count = n * tasks_per_node if n is not None and tasks_per_node is not None else None
        out.append(GpuCount("--gpus-per-task", count, span,
                            f"{how} --gpus-per-task × --ntasks-per-node", "node"))
    return out


SLURM_COUNT_OPTIONS = frozenset({"--gpus", "-G", "--gpus-per-node", "--gres", "--tres-per-node", "--gpus-per-task",
                                 "--ntasks-per-node", "--nodes", "-N"})
"""The Slurm options :func:`slurm_counts` reads."""


__all__ = ["VISIBLE_DEVICE_VARIABLES", "SLURM_COUNT_OPTIONS", "visible_devices", "docker_gpus", "accelerator_count",
           "dstack_count", "slurm_counts"]
