"""GPU names in cloud launchers' resource specs: SkyPilot ``accelerators``, dstack ``resources.gpu`` and
Baseten Truss ``resources.accelerator`` (reference/gpu-names.md §6, field-notes.md §4).

Each function reads one string as written (an :class:`~linter.launch.MStr`, so every name keeps its
place in the file) and returns a :class:`~linter.launch.GpuDecl` per GPU name, located at the name's
characters. Counts, memory sizes and vendors name no GPU and are skipped; a name the catalog does
not know is still returned (the engine reports it as SGL003 where it is written).

* SkyPilot (docs.skypilot.co "YAML spec", ``resources.accelerators``): ``NAME`` or ``NAME:COUNT``
  (``H100:8``, ``tpu-v5-8``, ``A100:0.5``). The set and list forms are YAML structure, read by the
  format module, which hands each item here — including a flow-mapping key ``A100-80GB:8`` whose
  value is null (``{A100-80GB:8}``: without a blank after the colon YAML keeps ``:8`` in the key).
* dstack (dstack.ai "Reference: .dstack.yml", ``resources.gpu``): ``[VENDOR:]NAMES[:MEMORY][:COUNT]``,
  ``NAMES`` comma-separated (``H100:8``, ``A100,H100:80GB:2``, ``nvidia:H100``); a bare count (``8``,
  ``1..2``) or memory (``24GB..80GB``) names no GPU.
* Truss (docs.baseten.co "config.yaml reference", ``resources.accelerator``): ``NAME[:COUNT]``
  (``H100:2``, ``H100_40GB``, ``A10G``).
"""

from __future__ import annotations

import re

from linter.launch import UNKNOWN_CHAR, GpuDecl, MStr

_COUNT = re.compile(r"\d+(?:\.\d+)?\Z")
_RANGE_COUNT = re.compile(r"(?:\d+)?\.\.(?:\d+)?\Z|\d+\Z")
_MEMORY = re.compile(r"(?:\d+(?:\.\d+)?(?:GB|MB|TB)?)?(?:\.\.)?(?:\d+(?:\.\d+)?(?:GB|MB|TB))?\Z", re.IGNORECASE)
_DSTACK_VENDORS = frozenset({"nvidia", "amd", "intel", "tpu", "google", "tenstorrent"})


def _decl(s: MStr, start: int, end: int, how: str) -> GpuDecl | None:
    # Surrounding blanks are not part of the name (`{ A100-80GB:8 }`).
    while start < end and s.text[start] in " \t":
        start += 1
    while end > start and s.text[end - 1] in " \t":
        end -= 1
    name = s.text[start:end]
    if not name or UNKNOWN_CHAR in name:
        return None
    return GpuDecl(name, s.span_of(start, end) or s.location(start, end), how)


def _name_count(s: MStr, how: str) -> list[GpuDecl]:
    """``NAME`` or ``NAME:COUNT`` (the count is dropped)."""
    text = s.text
    cut = text.rfind(":")
    end = cut if cut >= 0 and _COUNT.match(text[cut + 1:].strip()) else len(text)
    if not text[:end].strip() or _COUNT.match(text[:end].strip()):
        return []
    d = _decl(s, 0, end, how)
    return [d] if d else []


def skypilot_accelerator(s: MStr, how: str = "declared by SkyPilot resources.accelerators") -> list[GpuDecl]:
    """The GPU of one SkyPilot accelerator string (``H100:8``). A whole set or list written inside one
    string (``"{H100:8, B200:8}"``, as ``sky launch --gpus`` takes it) is split on commas."""
    text = s.text.strip()
    if text[:1] in "{[" and text[-1:] in "}]":
        lead = s.text.index(text[0])
        inner = s[lead + 1:lead + len(text) - 1]
        out: list[GpuDecl] = []
        pos = 0
        for part in inner.text.split(","):
            out.extend(_name_count(inner[pos:pos + len(part)], how))
            pos += len(part) + 1
        return out
    return _name_count(s, how)


def truss_accelerator(s: MStr, how: str = "declared by Truss resources.accelerator") -> list[GpuDecl]:
    """The GPU of a Truss accelerator string (``H100:2`` → ``H100``; ``H100_40GB`` kept whole)."""
    return _name_count(s, how)


def dstack_gpu(s: MStr, how: str = "declared by dstack resources.gpu") -> list[GpuDecl]:
    """The GPUs a dstack ``gpu`` spec names (``A100,H100:80GB:8`` → A100, H100); none for a count or
    memory-only spec."""
    out: list[GpuDecl] = []
    pos = 0
    for part in s.text.split(":"):
        start, end = pos, pos + len(part)
        pos = end + 1
        word = part.strip()
        if not word or _RANGE_COUNT.match(word) or _MEMORY.match(word) or word.lower() in _DSTACK_VENDORS:
            continue
        q = start
        for name in part.split(","):
            d = _decl(s, q, q + len(name), how)
            q += len(name) + 1
            if d is not None and not _MEMORY.match(d.name):
                out.append(d)
    return out


def dstack_gpu_name(s: MStr, how: str = "declared by dstack resources.gpu.name") -> list[GpuDecl]:
    """One item of dstack's mapping form ``gpu: {name: [H100, A100], count: 8}``."""
    d = _decl(s, 0, len(s.text), how)
    return [d] if d else []
