"""Target GPUs a deployment only suggests: weaker declarations, used when nothing names the GPU.

* **An image built for one architecture.** SGLang's ROCm images are built per GPU architecture and
  tagged with it: ``…-mi30x`` is the ``gfx942`` build (AMD Instinct MI300X and MI325X), ``…-mi35x``
  the ``gfx950`` build (MI350X and MI355X) — sgl-project/sglang ``.github/workflows/release-docker-amd.yml``
  @0221e896 (``rocm_tag="rocm700-mi30x"`` for ``gpu_arch`` ``gfx942``, ``"rocm700-mi35x"`` for
  ``gfx950``; the ``rocm720`` builds likewise). The image runs on those GPUs only; which of the two
  it is, the tag does not say (both are candidates).
* **Documentation context** (:attr:`Launch.context`, from the documentation formats): the innermost
  heading, tab, admonition or caption over a launch whose text names exactly one GPU of the catalog
  (``=== "B200"``, ``## Deploy on 8×H200``).

Each is a :class:`~linter.launch.GpuDecl` with ``weak=True``: its findings say where the GPU came
from and their fixes are unsafe.
"""

from __future__ import annotations

import re

from linter.gpus.catalog import lookup
from linter.launch import GpuDecl, MStr

IMAGE_ARCH_TAGS = {
    "mi30x": (("MI300X", "MI325X"), "gfx942"),
    "mi35x": (("MI350X", "MI355X"), "gfx950"),
}
"""SGLang ROCm image-tag suffixes → the GPUs that build runs on and its ``gfx`` target."""

_SGLANG_IMAGES = ("lmsysorg/sglang", "docker.io/lmsysorg/sglang", "rocm/sgl-dev", "docker.io/rocm/sgl-dev")
_ARCH_IN_TAG = re.compile(r"(?:^|[-_.])(mi30x|mi35x)(?:$|[-_.])", re.IGNORECASE)


def image_targets(image: MStr | None) -> list[GpuDecl]:
    """The weaker targets an SGLang image tag names (see the module docstring); [] for any other
    image or tag."""
    if image is None or not image.known:
        return []
    text = image.text.strip()
    name, _, tag = text.rpartition(":") if ":" in text.rsplit("/", 1)[-1] else (text, "", "")
    if name.lower() not in _SGLANG_IMAGES or not tag:
        return []
    m = _ARCH_IN_TAG.search(tag)
    if m is None:
        return []
    gpus, gfx = IMAGE_ARCH_TAGS[m.group(1).lower()]
    start = len(text) - len(tag) + m.start(1)
    span = image.span_of(start, start + len(m.group(1))) or image.location()
    how = (f"suggested by the image tag {text} (SGLang's {gfx} build, which runs on {' and '.join(gpus)} only)")
    return [GpuDecl(g, span, how, weak=True) for g in gpus]


_WORDS = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+]*")
_JOIN = re.compile(r"[ \t_-]+")


def names_in_text(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, canonical)`` of each GPU the catalog knows named in free text, longest names first
    (``RTX PRO 6000 Blackwell`` before ``RTX``); single words of fewer than three characters and
    pure numbers are not read as names."""
    words = [(m.start(), m.end()) for m in _WORDS.finditer(text)]
    out: list[tuple[int, int, str]] = []
    taken: set[int] = set()
    for n in (4, 3, 2, 1):
        for k in range(len(words) - n + 1):
            if any(i in taken for i in range(k, k + n)):
                continue
            start, end = words[k][0], words[k + n - 1][1]
            if any(not _JOIN.fullmatch(text[words[i][1]:words[i + 1][0]]) for i in range(k, k + n - 1)):
                continue  # a name's words are joined by spaces or dashes, not '(' or '/' ("H200 (SXM)")
            phrase = text[start:end]
            if n == 1 and (len(phrase) < 3 or phrase.isdigit() or not re.search(r"\d", phrase)):
                continue
            gpu = lookup(phrase)
            if gpu is not None:
                out.append((start, end, gpu.canonical))
                taken.update(range(k, k + n))
    return sorted(out)


def context_targets(labels) -> list[GpuDecl]:
    """A weaker target from the documentation labels a launch sits under (outermost first; each with
    ``kind``, ``text`` and ``span``): the innermost label that names exactly one GPU."""
    for label in reversed(list(labels or ())):
        text = getattr(label, "text", "") or ""
        found = names_in_text(text)
        gpus = {c for _, _, c in found}
        if len(gpus) != 1:
            continue
        start, end, canonical = found[0]
        span = getattr(label, "span", None)
        where = None
        if span is not None:
            raw = span.source.text[span.start:span.end]
            at = raw.find(text[start:end])
            from linter.source import Span

            where = Span(span.source, span.start + at, span.start + at + (end - start)) if at >= 0 else span
        kind = getattr(label, "kind", "label")
        return [GpuDecl(text[start:end], where, f"suggested by the documentation {kind} {text.strip()!r}", weak=True)]
    return []


__all__ = ["IMAGE_ARCH_TAGS", "image_targets", "names_in_text", "context_targets"]
