"""The GPU catalog: a GPU name as people write it in deployment files -> one GPU and its compute capability.

The data is ``catalog.json`` beside this module: one entry per canonical GPU (``canonical``, ``vendor``,
``cc``, ``arch``, ``verified``, ``note``, ``sources``, ``aliases``), the instance-family tables used to read
cloud instance types, and the names that are *not* one GPU (families, ambiguous names, look-alikes) with
the reason why. Its ``provenance`` object names the sources: ``reference/gpu-names.md`` and what it cites,
NVIDIA's CUDA GPUs page (https://developer.nvidia.com/cuda-gpus) first.

Matching (``reference/gpu-names.md`` sections 4 and 5):

* case-insensitive; space, ``-``, ``_`` and other punctuation are equivalent (they are dropped), so
  ``NVIDIA-H100-80GB-HBM3``, ``nvidia_h100_80gb_hbm3`` and ``NVIDIA H100 80GB HBM3`` are one name;
* a leading ``NVIDIA`` / ``Tesla`` / ``GeForce`` (and ``AMD`` / ``Instinct``) is optional;
* GPU Feature Discovery suffixes ``-SHARED`` and ``-MIG-<profile>``, a Slurm MIG suffix ``_1g.10gb``, a
  Slurm ``gpu:`` prefix and a count suffix ``:8`` are stripped;
* trailing memory / form-factor words are tolerated (``H100-PCIE-80GB`` -> H100 PCIe,
  ``NVIDIA-B300-SXM6-AC-269GB`` -> B300), but never ``NVL`` (H100 NVL is not H100 SXM);
* cloud instance types are read by family: AWS (``p5.48xlarge``, ``ml.p6-b200.48xlarge``; ``p5en`` is not
  ``p5``), GCP machine types (``a4-highgpu-8g-lowmem``), Azure sizes (``Standard_ND96isr_H100_v5``),
  OCI shapes (``BM.GPU.B200.8``; ``BM.GPU.B4.8`` is an A100) and Lambda types (``gpu_8x_b200_sxm6``).

Names that name no single GPU ("Blackwell", "RTX 6000", a MIG profile, Intel's "B580") are unknown:
``lookup`` returns None and ``why_unknown`` says why in one sentence.
"""

from __future__ import annotations

import functools
import json
import re

from linter import datafiles

from linter.records import dataclass

__all__ = ["Gpu", "Memory", "all_gpus", "lookup", "memory_of", "normalise", "why_unknown"]

CATALOG_FILE = "linter/gpus/catalog.json"


@dataclass(frozen=True)
class Gpu:
    """One GPU of the catalog.

    ``canonical`` is its catalog name ("NVIDIA H100 SXM5 80GB"); ``vendor`` is "nvidia" or "amd"; ``cc`` is
    the CUDA compute capability ``(major, minor)``, None for non-CUDA GPUs (AMD: ROCm's PyTorch reports a
    capability tuple, but SGLang's CUDA checks never pass there); ``arch`` is the architecture ("Hopper",
    "Blackwell", "CDNA3" …); ``verified`` is False where the compute capability is derived or unverified
    (not on NVIDIA's CC page, or a preview); ``note`` says what a reader should know (Thor's two numbers,
    Rubin's preview status …); ``sources`` are the source ids of ``catalog.json``'s provenance;
    ``memory_mib`` is the device memory in MiB (see :class:`Memory`), ``memory_kind`` ``"reported"``
    (what nvidia-smi reports) or ``"nominal"`` (the vendor's GB taken as GiB: an upper bound) and
    ``memory_source`` where the figure comes from.
    """

    canonical: str
    vendor: str
    cc: tuple[int, int] | None
    arch: str
    verified: bool
    note: str | None
    sources: tuple[str, ...] = ()
    memory_mib: int | None = None
    memory_kind: str = ""
    memory_source: str = ""

    @property
    def sm(self) -> str:
        """The SM name of the compute capability: "SM90", "SM100", "SM103", "SM110", "SM120"; AMD: "ROCm"."""
        if self.cc is None:
            return "ROCm"
        return f"SM{self.cc[0]}{self.cc[1]}"

    @property
    def is_cuda(self) -> bool:
        """True for a CUDA (NVIDIA) GPU, the only kind SGLang's compute-capability checks can pass on."""
        return self.vendor == "nvidia" and self.cc is not None


# --- normalisation -----------------------------------------------------------------------------------

_PROFILE = r"(?:\d+c\.)?\d+g\.\d+gb(?:\+me)?"  # MIG profile: 1g.10gb, 1c.3g.40gb, 1g.10gb+me
_COUNT = re.compile(r"\s*:\s*\d+$")  # H100:8
_GRES = re.compile(r"^gpu:")  # Slurm gres spec gpu:h100
_SHARED = re.compile(r"[-_ ]shared$")  # GFD time-slicing / MPS
_MIG_SUFFIX = re.compile(rf"(?:[-_ ]mig)?[-_ ]{_PROFILE}$")  # GFD -MIG-1g.10gb, Slurm _1g.10gb
_BRANDS = ("nvidia", "tesla", "geforce", "amd", "instinct")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")

_LATER = {
    "mig_only": (rf"(?:nvidia\.com/)?(?:mig[-_ ]?)?({_PROFILE})",),
    "sm_target": (r"(?:sm|compute)[-_ ]?(\d{2,3})[afs]?",),
    "gfx": (r"gfx\d+[a-z]?",),
    "separators": (r"[\s_\-]+",),
    # Trailing words that do not change which GPU is meant (memory, memory type, form factor, edition).
    # Deliberately not "nvl": H100 NVL and H200 NVL are GPUs of their own.
    "tolerated": (r"\d+(?:\.\d+)?(?:gb|g|gib)|hbm\d*e?|sxm\d*|pcie|ac|pc|oam|hf|nvlink|nvl\d+|edition|gpus?",),
    # Instance types (reference/gpu-names.md section 5); the family tables are in catalog.json.
    "aws": (r"(?:ml\.)?([a-z][a-z0-9]*(?:-[a-z0-9]+)?)\.(?:\d*xlarge|large|medium|metal(?:-\d+xl)?|\*)",),
    "gcp": (r"([a-z]\d+[a-z]?-[a-z]+)-\d+g?(?:-[a-z0-9]+)*",),
    "azure": (r"(?:standard[-_])?(n[a-z]?)[a-z]?\d+[a-z0-9]*((?:[-_][a-z0-9]+)*)[-_]v\d+",),
    "oci": (r"(?:bm|vm)\.gpu(\d*)(?:\.([a-z0-9.-]+?))?\.\d+",),
    "oci_version": (r"-v\d+$",),
    "lambda": (r"gpu[-_]\d+x[-_](.+)",),
}
"""Patterns a lookup needs only for a name not found as written (a MIG profile, an ``sm_90`` target, an
instance type …): compiled on first use (:func:`_rx`), not at import (start-up of every launch's run)."""


@functools.cache
def _rx(name: str) -> re.Pattern:
    """The compiled pattern ``name`` of :data:`_LATER`."""
    return re.compile(*_LATER[name])


def _prepare(name: str) -> str:
    """Case-fold and strip the decorations that never change the GPU: count, ``gpu:``, ``-SHARED``, MIG."""
    s = name.strip().casefold()
    # (each pattern only where the text it needs is there: the catalog normalises its 640 aliases at start-up)
    if ":" in s:
        s = _COUNT.sub("", s)
        s = _GRES.sub("", s)
    if "shared" in s:
        s = _SHARED.sub("", s)
    if "gb" in s:
        s = _MIG_SUFFIX.sub("", s)
    return s.strip()


def _compact(s: str) -> str:
    key = _NON_ALNUM.sub("", s.casefold())
    stripped = True
    while stripped:
        stripped = False
        for brand in _BRANDS:
            if key.startswith(brand):
                key = key[len(brand) :]
                stripped = True
    return key


def normalise(name: str) -> str:
    """The key ``lookup`` matches on: ``"NVIDIA-H100-80GB-HBM3"`` -> ``"h10080gbhbm3"``.

    Case-folded; a count suffix ``:N``, a Slurm ``gpu:`` prefix, GFD ``-SHARED`` / ``-MIG-<profile>`` and a
    Slurm ``_<profile>`` suffix removed; every character that is not a letter or digit removed; then leading
    ``nvidia`` / ``tesla`` / ``geforce`` / ``amd`` / ``instinct`` removed. May return "" (e.g. for
    "NVIDIA"). Raises TypeError if ``name`` is not a str.
    """
    if not isinstance(name, str):
        raise TypeError(f"GPU name must be a str, not {type(name).__name__}")
    return _compact(_prepare(name))


# --- the catalog -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Catalog:
    gpus: dict[str, Gpu]  # canonical -> Gpu
    index: dict[str, str]  # normalised alias -> canonical
    display: dict[str, str]  # normalised alias -> the shortest spelling, for suggestions
    not_gpus: dict[str, str]  # normalised name -> reason template ("{name} ...")
    families: dict[str, dict[str, str]]  # "aws" | "gcp" | "azure" | "oci" -> family/token -> canonical
    ambiguous_memory: dict[str, tuple[int, str]] = None  # normalised name -> (MiB, why)


@functools.cache
def _catalog() -> _Catalog:
    """``catalog.json``, loaded and indexed once (on the first lookup)."""
    text = datafiles.read_text(__package__ or "linter.gpus", "catalog.json")
    return _build(json.loads(text))


def _build(data: dict) -> _Catalog:
    """Index the parsed catalog. Raises ValueError on a broken catalog (a name listed twice, an alias that
    normalises to another GPU's alias or to nothing, a not-a-GPU name that is an alias, an instance family
    naming no catalog GPU)."""
    gpus: dict[str, Gpu] = {}
    index: dict[str, str] = {}
    display: dict[str, str] = {}
    for entry in data["gpus"]:
        cc = entry["cc"]
        gpu = Gpu(
            canonical=entry["canonical"],
            vendor=entry["vendor"],
            cc=(int(cc[0]), int(cc[1])) if cc is not None else None,
            arch=entry["arch"],
            verified=bool(entry["verified"]),
            note=entry["note"],
            sources=tuple(entry["sources"]),
            memory_mib=int(entry["memory"]["mib"]) if entry.get("memory") else None,
            memory_kind=entry["memory"]["kind"] if entry.get("memory") else "",
            memory_source=entry["memory"]["source"] if entry.get("memory") else "",
        )
        if gpu.canonical in gpus:
            raise ValueError(f"{CATALOG_FILE}: {gpu.canonical!r} is listed twice")
        gpus[gpu.canonical] = gpu
        for alias in [gpu.canonical, *entry["aliases"]]:
            key = normalise(alias)
            owner = index.setdefault(key, gpu.canonical)
            if not key or owner != gpu.canonical:
                raise ValueError(
                    f"{CATALOG_FILE}: alias {alias!r} of {gpu.canonical!r} normalises to {key!r}, "
                    f"which is already {owner!r}"
                )
            if key not in display or len(alias) < len(display[key]):
                display[key] = alias
    not_gpus: dict[str, str] = {}
    for group in data["not_gpus"]:
        for name in group["names"]:
            key = normalise(name)
            if key in index:
                raise ValueError(f"{CATALOG_FILE}: {name!r} is both an alias of {index[key]!r} and not a GPU")
            not_gpus[key] = group["reason"]
    families = data["instance_families"]
    for table in families.values():
        for canonical in table.values():
            if canonical not in gpus:
                raise ValueError(f"{CATALOG_FILE}: instance family target {canonical!r} is not a catalog GPU")
    ambiguous: dict[str, tuple[int, str]] = {}
    for group in data.get("memory_ambiguous", ()):
        for name in group["names"]:
            key = normalise(name)
            if key not in index:
                raise ValueError(f"{CATALOG_FILE}: memory_ambiguous name {name!r} is not a catalog alias")
            ambiguous[key] = (int(group["mib"]), group["why"])
    return _Catalog(gpus, index, display, not_gpus, families, ambiguous)


def all_gpus() -> tuple[Gpu, ...]:
    """Every GPU of the catalog, in ``catalog.json`` order."""
    return tuple(_catalog().gpus.values())


# --- lookup ------------------------------------------------------------------------------------------


def _instance_type(s: str, families: dict[str, dict[str, str]]) -> str | None:
    """The canonical GPU of a cloud instance type / machine type / VM size / shape, or None."""
    m = _rx("aws").fullmatch(s)
    if m and m.group(1) in families["aws"]:
        return families["aws"][m.group(1)]
    m = _rx("gcp").fullmatch(s)
    if m and m.group(1) in families["gcp"]:
        return families["gcp"][m.group(1)]
    m = _rx("azure").fullmatch(s)
    if m:
        series = m.group(1)
        for token in _rx("separators").split(m.group(2)):
            for key in (f"{series}:{token}", token):
                if token and key in families["azure"]:
                    return families["azure"][key]
    m = _rx("oci").fullmatch(s)
    if m:
        token = m.group(2) if m.group(2) else f"gpu{m.group(1)}"
        for key in (token, _rx("oci_version").sub("", token)):
            if key in families["oci"]:
                return families["oci"][key]
    return None


def _reductions(s: str):
    """Keys of ``s`` with trailing tolerated words (memory, form factor …) dropped one by one."""
    tokens = [t for t in _rx("separators").split(s) if t]
    while len(tokens) > 1 and _rx("tolerated").fullmatch(tokens[-1]):
        tokens.pop()
        yield _compact(" ".join(tokens))


def _keys(s: str, cat: _Catalog):
    """Candidate keys for a prepared name, most specific first."""
    yield _compact(s)
    canonical = _instance_type(s, cat.families)
    if canonical is not None:
        yield _compact(canonical)
    yield from _reductions(s)
    m = _rx("lambda").fullmatch(s)
    if m:
        yield _compact(m.group(1))
        yield from _reductions(m.group(1))


def _resolve(name: str) -> tuple[Gpu | None, str | None]:
    """(the GPU, None) or (None, the normalised not-a-GPU name that stopped the search, or None)."""
    cat = _catalog()
    s = _prepare(name)
    if not _compact(s):
        return None, None
    for key in _keys(s, cat):
        if key in cat.index:
            return cat.gpus[cat.index[key]], None
        if key in cat.not_gpus:
            return None, key
    return None, None


def lookup(name: str) -> Gpu | None:
    """The GPU a name means, or None when the catalog does not know it or it names no single GPU.

    ``lookup("NVIDIA-H100-80GB-HBM3").cc == (9, 0)``; ``lookup("p6-b200.48xlarge").canonical ==
    "NVIDIA B200"``; ``lookup("Blackwell") is None`` (a family). See the module docstring for the matching
    rules and ``why_unknown`` for the reason of a None. Raises TypeError if ``name`` is not a str.
    """
    if not isinstance(name, str):
        raise TypeError(f"GPU name must be a str, not {type(name).__name__}")
    return _resolve(name)[0]


def why_unknown(name: str) -> str:
    """One sentence saying why ``lookup(name)`` is None, for the SGL003 ``unknown-gpu`` message.

    E.g. "'Blackwell' names a GPU family (…), not one GPU; name the product (B200, …)", "MIG profile
    '1g.10gb' is a slice size, not a GPU; …", or "'H10' is not in the GPU catalog
    (linter/gpus/catalog.json); did you mean 'H100' (NVIDIA H100 SXM5 80GB)?". Raises TypeError if
    ``name`` is not a str and ValueError if ``lookup(name)`` knows the name.
    """
    if not isinstance(name, str):
        raise TypeError(f"GPU name must be a str, not {type(name).__name__}")
    gpu, stopped_at = _resolve(name)
    if gpu is not None:
        raise ValueError(f"{name!r} is in the GPU catalog ({gpu.canonical})")
    cat = _catalog()
    shown = repr(name.strip())
    raw = _COUNT.sub("", name.strip().casefold())
    if not raw:
        return "an empty GPU name names no GPU; name the product (H100, B200, …)"
    m = _rx("mig_only").fullmatch(raw)
    if m:
        return (
            f"MIG profile {m.group(1)!r} is a slice size, not a GPU; name the GPU it is cut from "
            "(a profile is at most a hint: the same size exists on several GPUs)"
        )
    m = _rx("sm_target").fullmatch(raw)
    if m:
        digits = m.group(1)
        return (
            f"{shown} names a compute-capability target ({digits[:-1]}.{digits[-1]}), not a GPU; "
            "name the product (B200, H100, …)"
        )
    if _rx("gfx").fullmatch(raw):
        return f"{shown} names an AMD GPU ISA, not one GPU; name the product (MI300X, MI355X, …)"
    if stopped_at is not None:
        return cat.not_gpus[stopped_at].format(name=shown)
    key = normalise(name)
    if not key:
        return f"{shown} names a vendor or brand, not a GPU; name the product (H100, B200, …)"
    reason = f"{shown} is not in the GPU catalog ({CATALOG_FILE})"
    import difflib  # (only for a name the catalog does not know)

    close = difflib.get_close_matches(key, list(cat.display), n=1, cutoff=0.8)
    if close:
        alias = cat.display[close[0]]
        canonical = cat.index[close[0]]
        reason += f"; did you mean {alias!r}" + (f" ({canonical})?" if alias != canonical else "?")
    return reason


@dataclass(frozen=True)
class Memory:
    """The device memory a GPU name stands for: ``mib`` (MiB, as nvidia-smi reports ``memory.total``),
    ``exact`` (False when the figure is an upper bound: a nominal size, or the larger of the variants
    a name does not tell apart) and ``why`` (its source, in words)."""

    mib: int
    exact: bool
    why: str


def memory_of(name: str) -> Memory | None:
    """The memory of the GPU a name means, for "cannot fit" claims: a name that does not say which
    variant it is (``A100``: 40 GB or 80 GB) gets the larger (``catalog.json`` ``memory_ambiguous``).
    None when the catalog does not know the name. Raises TypeError if ``name`` is not a str."""
    gpu = lookup(name)
    if gpu is None or gpu.memory_mib is None:
        return None
    cat = _catalog()
    s = _prepare(name)
    for key in _keys(s, cat):
        if key in (cat.ambiguous_memory or {}):
            mib, why = cat.ambiguous_memory[key]
            return Memory(mib, False, f"{why}: the larger, {mib} MiB, is assumed")
        if key in cat.index:
            break
    return Memory(gpu.memory_mib, gpu.memory_kind == "reported", gpu.memory_source)
