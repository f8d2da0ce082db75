"""Which SGLang release a launch runs, and which CUDA build its torch has.

In order (issue "option tables"; DESIGN.md "resolve"): ``--sglang-version``; the ``sglang-version``
configuration key for the file's path; what the file itself pins — an image tag such as
``lmsysorg/sglang:v0.5.18-cu129`` (the image the launch runs in, else the only SGLang image the file
names) or ``sglang==0.5.18`` / ``sglang[all]==…`` in the file or in a ``requirements*.txt`` /
``pyproject.toml`` beside it; else the newest release with a table. ``latest``, ``dev`` and digests
mean the newest table; a dated nightly tag (``nightly-dev-20251215-4449c170``) the first release
published after its day (data/release_dates.json, from PyPI); a release candidate (``v0.5.3rc0``) the
release it is a candidate for.

The image's ``-cuXYZ`` suffix is torch's CUDA build (``cu126`` → 12.6, ``cu130`` → 13.0). SGLang's
SM predicates compare ``torch.version.cuda`` (0.5.18 ``python/sglang/srt/utils/common.py:258-322``),
so a ``-cu126`` image fails the SM100/SM110 test even on a B200.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from linter.records import dataclass
from linter.sglang.options import OptionTable, available_versions, load_table, unavailable_versions, version_tuple

_IMAGE = re.compile(r"(?:^|[\s/\"'=])(?:lmsysorg/)?sglang:(?P<tag>[A-Za-z0-9_.\-]+)")
_PIN = re.compile(r"\bsglang(?:\[[^\]]*\])?[ \t]*==[ \t]*v?(?P<ver>\d+\.\d+\.\d+(?:\.post\d+)?)")
_VERSION = re.compile(r"^v?(?P<ver>\d+\.\d+\.\d+(?:\.post\d+|rc\d+)?)")
_CUDA = re.compile(r"-cu(?P<cuda>\d{2,3})(?![0-9])")
_DATED = re.compile(r"^(?P<kind>[a-z]+(?:-[a-z]+)*)(?:-cu\d+)?-(?P<date>20\d{6})(?:-[0-9a-f]+)?$")
"""A dated nightly tag: ``nightly-dev-20251215-4449c170``, ``nightly-dev-cu13-20260922-582389ce``."""


@dataclass(frozen=True)
class Release:
    """The table to use, the CUDA build when known, and in words where both came from.

    ``written`` is the release the launch names (``--sglang-version``, the configuration, an image tag
    or an ``sglang==`` pin), None when it names none; the table's release differs from it when that
    release has no table (the nearest older one is used, see :func:`table_for`).
    """

    table: OptionTable
    cuda_build: tuple[int, int] | None
    origin: str
    written: str | None = None

    @property
    def assumed(self) -> bool:
        """True when the table is not the release written in or beside the file (or in the config)."""
        return self.written != self.table.version


def parse_image_tag(tag: str) -> tuple[str | None, tuple[int, int] | None]:
    """(version or None, CUDA build or None) of an ``lmsysorg/sglang`` tag (``v0.5.18-cu129``)."""
    m = _VERSION.match(tag)
    version = m.group("ver") if m else None
    c = _CUDA.search(tag)
    cuda = None
    if c:
        digits = c.group("cuda")
        cuda = (int(digits[:2]), int(digits[2:] or 0))  # `cu13` (nightly tags): CUDA 13.0
    return version, cuda


@functools.lru_cache(maxsize=64)
def _file_tags(text: str) -> frozenset[str]:
    """SGLang image tags a file names (once per file, however many launches it has)."""
    if "sglang:" not in text:  # the pattern starts with a class, so a search tries every offset
        return frozenset()
    return frozenset(m.group("tag") for m in _IMAGE.finditer(text))


@functools.lru_cache(maxsize=64)
def _file_pins(text: str) -> frozenset[str]:
    if "==" not in text:
        return frozenset()
    return frozenset(m.group("ver") for m in _PIN.finditer(text))


_SGLANG_IMAGE = re.compile(r"(?:^|/)sglang(?::(?P<tag>[A-Za-z0-9_.\-]+))?(?:@\S+)?$")
MOVING_TAGS = ("latest", "dev", "main", "nightly")
"""Tags of ``lmsysorg/sglang`` that follow the newest build rather than one release (Docker Hub)."""


def _moving_tag(image: str | None) -> str | None:
    """Words saying that ``image`` is an SGLang image on a moving tag (or no tag), else None."""
    m = _SGLANG_IMAGE.search(image.strip()) if image else None
    if m is None:
        return None
    tag = m.group("tag")
    if tag is None:
        return f"the image {image.strip()} has no tag, which means :latest, a tag that moves"
    base = tag.split("-", 1)[0]
    if base in MOVING_TAGS and dated_nightly(tag) is None:
        return f"the image tag :{tag} moves with each build"
    return None


@functools.lru_cache(maxsize=1)
def _release_dates() -> list[tuple[str, str]]:
    from linter import datafiles

    dates = datafiles.load_json("linter.sglang.data", "release_dates.json")["dates"]
    return sorted(((day, version) for version, day in dates.items()), key=lambda p: (p[0], version_tuple(p[1])))


def dated_nightly(tag: str) -> tuple[str, str | None] | None:
    """``(day, release)`` for a dated nightly image tag (``nightly-dev-20251215-4449c170``): built from
    SGLang's main branch on that day, on the way to the next release, so ``release`` is the first one
    published after that day (PyPI upload dates, data/release_dates.json), None when the day is after
    every release known. None for any other tag."""
    m = _DATED.match(tag)
    if m is None or m.group("kind").split("-", 1)[0] not in MOVING_TAGS:
        return None
    d = m.group("date")
    day = f"{d[:4]}-{d[4:6]}-{d[6:]}"
    after = [version for published, version in _release_dates() if published > day]
    return day, (after[0] if after else None)


_CANDIDATE = re.compile(r"^v?(?P<final>\d+\.\d+\.\d+)rc\d+$")

NIGHTLY_WORDS = ", a nightly build of "
"""In a release origin: the release was inferred from a dated nightly image tag."""


def table_for(version: str) -> tuple[OptionTable, str]:
    """The table for ``version``: exact; for a release candidate (``0.5.3rc0``) the release it is a
    candidate for; else the newest older one (or the oldest), with a note."""
    known = available_versions()
    if version in known:
        return load_table(version), ""
    cand = _CANDIDATE.match(version)
    if cand is not None and cand.group("final") in known:
        chosen = cand.group("final")
    else:
        older = [v for v in known if version_tuple(v) <= version_tuple(version)]
        chosen = older[-1] if older else known[0]
    why = unavailable_versions().get(version)
    why = f"; its parser could not be dumped: {why}" if why else ""
    return load_table(chosen), f" (no option table for {version}{why}; using {chosen}, {relation(version, chosen)})"


def relation(written: str, used: str) -> str:
    """How the release whose table is used stands to the release a launch names, in words: ``the
    release it is a candidate for`` (``0.5.3rc0`` -> ``0.5.3``), ``the nearest older release`` or ``the
    oldest known release``."""
    cand = _CANDIDATE.match(written)
    if cand is not None and cand.group("final") == used:
        return "the release it is a candidate for"
    return "the nearest older release" if version_tuple(used) <= version_tuple(written) else "the oldest known release"


def detect(*, cli_version: str | None, config_version: str | None, config_origin: str, image: str | None,
           file_text: str, folder: Path | None, read_text=None) -> Release:
    """Decide the release of one launch. ``image`` is the image the launch runs in, if known;
    ``read_text(path) -> str | None`` reads a file beside the linted one."""
    cuda = None
    tag_text = image
    from_file = False
    if tag_text is None:
        tags = _file_tags(file_text)
        if len(tags) == 1:
            tag_text = "sglang:" + next(iter(tags))
            from_file = True
    tag_version = nightly = None
    if tag_text:
        m = _IMAGE.search(" " + tag_text)
        if m:
            tag_version, cuda = parse_image_tag(m.group("tag"))
            nightly = dated_nightly(m.group("tag"))
    file_pins = set(_file_pins(file_text))
    if from_file and len(file_pins) == 1:
        # the launch does not run in that image (it has none of its own); the file's pip pin is what
        # installs the SGLang it runs
        tag_version = None
    if cli_version:
        table, note = table_for(cli_version)
        return Release(table, cuda, f"--sglang-version {cli_version}{note}", cli_version)
    if config_version:
        table, note = table_for(config_version)
        return Release(table, cuda, f"'sglang-version' in {config_origin}{note}", config_version)
    if tag_version:
        table, note = table_for(tag_version)
        where = "an image named in the file, " if from_file else ""
        return Release(table, cuda, f"{where}image tag {tag_text.strip()}{note}", tag_version)
    if nightly is not None and not (from_file and file_pins):
        day, version = nightly
        where = "an image named in the file, " if from_file else ""
        if version is not None:
            return Release(load_table(version), cuda, f"{where}image tag {tag_text.strip()}{NIGHTLY_WORDS}{day}: "
                                                      f"judged as {version}, the first release after it")
        newest = available_versions()[-1]
        return Release(load_table(newest), cuda, f"{where}image tag {tag_text.strip()}{NIGHTLY_WORDS}{day}: "
                                                 f"judged as {newest}, the newest known release")
    pins = file_pins
    origin = "an sglang== pin in the file"
    if not pins and folder is not None and read_text is not None:
        for name in ("requirements.txt", "requirements-serve.txt", "requirements.in", "pyproject.toml"):
            text = read_text(folder / name)
            if text:
                pins = {m.group("ver") for m in _PIN.finditer(text)}
                if pins:
                    origin = f"an sglang== pin in {name}"
                    break
    if len(pins) == 1:
        version = pins.pop()
        table, note = table_for(version)
        return Release(table, cuda, f"{origin} ({version}){note}", version)
    newest = available_versions()[-1]
    moving = _moving_tag(image)
    if moving is not None:
        return Release(load_table(newest), cuda, f"newest known release: {moving}")
    several = len(_file_tags(file_text)) > 1 or len(pins) > 1
    return Release(load_table(newest), cuda, "newest known release" + (
        " (the file names several SGLang images or pins; set --sglang-version or 'sglang-version')" if several else ""))
