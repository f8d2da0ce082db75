"""The one thing extractors hand to rules: :class:`Launch`, made of :class:`Token` values.

A token is the text of one argument as SGLang's parser would receive it, plus, for every
character, where in which file that character was written (its *origin*). That lets a rule point
at — and a fix edit — the literal text a value came from, also when it reached the command through
a variable, a ``${VAR:-default}``, a ``.env`` file or a Python constant.

An expansion whose value cannot be known statically is kept in the text as the placeholder
:data:`UNKNOWN_CHAR`; a token holding it has ``value is None``. A token with ``splat=True`` stands
for an unquoted expansion that the shell (or compose) would split into any number of words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from linter.source import SourceFile, Span

UNKNOWN_CHAR = "\ue000"
"""Placeholder for text whose value is not known (a Unicode private-use character)."""



class MStr:
    """A string whose characters each remember their origin ``(SourceFile, offset)`` or ``None``.

    ``where`` is the span to report when no character-exact span exists (for example the whole
    ``${VAR}`` that produced an unknown value).
    """

    __slots__ = ("text", "origins", "where")

    def __init__(self, text: str, origins: Sequence, where: Span | None = None) -> None:
        assert len(text) == len(origins), (text, len(origins))
        self.text = text
        self.origins = tuple(origins)
        self.where = where

    @classmethod
    def literal(cls, source: SourceFile, start: int, end: int) -> MStr:
        """The verbatim source text ``[start, end)``."""
        return cls(source.text[start:end], [(source, i) for i in range(start, end)], Span(source, start, end))

    @classmethod
    def plain(cls, text: str, where: Span | None = None) -> MStr:
        """Text with no origin (made up by the extractor, never editable)."""
        return cls(text, [None] * len(text), where)

    @classmethod
    def unknown(cls, where: Span | None) -> MStr:
        return cls(UNKNOWN_CHAR, [where and (where.source, where.start)], where)

    @classmethod
    def join(cls, parts: Iterable[MStr], where: Span | None = None) -> MStr:
        parts = list(parts)
        text = "".join(p.text for p in parts)
        origins: list = []
        for p in parts:
            origins.extend(p.origins)
        if where is None:
            wheres = [p.where for p in parts if p.where is not None]
            where = hull(wheres)
        return cls(text, origins, where)

    def __getitem__(self, item: slice) -> MStr:
        return MStr(self.text[item], self.origins[item], self.where)

    def __len__(self) -> int:
        return len(self.text)

    def __add__(self, other: MStr) -> MStr:
        return MStr.join([self, other])

    @property
    def known(self) -> bool:
        return UNKNOWN_CHAR not in self.text

    def span_of(self, i: int = 0, j: int | None = None) -> Span | None:
        """The source span whose text is exactly ``text[i:j]``, or None when there is none.

        It exists when the characters come from one file at consecutive offsets and the source text
        there equals them (so an escape such as ``\\"`` or a folded line break does not qualify).
        """
        j = len(self.text) if j is None else min(j, len(self.text))
        if i >= j:
            return None
        first = self.origins[i]
        if first is None:
            return None
        source, start = first
        for k in range(i, j):
            o = self.origins[k]
            if o is None or o[0] is not source or o[1] != start + (k - i):
                return None
        if source.text[start:start + (j - i)] != self.text[i:j]:
            return None
        return Span(source, start, start + (j - i))

    def location(self, i: int = 0, j: int | None = None) -> Span | None:
        """The best span to report ``text[i:j]`` at: exact if possible, else the hull of its origins."""
        exact = self.span_of(i, j)
        if exact is not None:
            return exact
        j = len(self.text) if j is None else j
        origins = self.origins[i:j]
        spans = [Span(o[0], o[1], o[1] + 1) for o in origins if o is not None]
        if spans and len(spans) == len(origins) and all(s.source is spans[0].source for s in spans):
            return hull(spans)
        # Some characters have no origin (an escape the alignment could not place): the whole
        # literal they came from, rather than a piece of it.
        return self.where or hull(spans)

    def __repr__(self) -> str:
        return f"MStr({self.text!r})"


def hull(spans) -> Span | None:
    """The smallest span covering the given spans of the first one's file (None when there are none)."""
    spans = [s for s in spans if s is not None]
    if not spans:
        return None
    src = spans[0].source
    same = [s for s in spans if s.source is src]
    return Span(src, min(s.start for s in same), max(s.end for s in same))


@dataclass
class Token:
    """One argument. ``value`` is None when any part of it is unknown."""

    text: MStr
    splat: bool = False
    joinable: bool = False
    """True when the token is an unquoted word of a string that is split on blanks (a compose command
    string, a ``sh -c`` script, ``shlex.split``): text inserted after it becomes new words."""

    @property
    def value(self) -> str | None:
        return self.text.text if self.text.known and not self.splat else None

    @property
    def raw(self) -> str:
        return self.text.text

    def span_of(self, i: int = 0, j: int | None = None) -> Span | None:
        return self.text.span_of(i, j)

    def location(self, i: int = 0, j: int | None = None) -> Span | None:
        return self.text.location(i, j)

    def __repr__(self) -> str:
        return f"Token({self.text.text!r}{', splat' if self.splat else ''})"


@dataclass
class KwArg:
    """A keyword argument of a Python call (``ServerArgs``/``Engine`` field) with its value.

    ``value`` is the Python value (str, bool, int, float, None) or :data:`UNKNOWN`; ``value_text``
    is the string literal's content as an :class:`MStr` when the value is a string (for spans and
    fixes); ``where`` is the span of the whole keyword argument.
    """

    name: str
    value: object
    where: Span
    name_span: Span | None = None
    value_text: MStr | None = None
    value_span: Span | None = None
    default_of: str = ""
    """Set when nobody wrote the value: a framework's own default, named with its source."""


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:  # pragma: no cover - guards against silent truthiness
        raise TypeError("UNKNOWN has no truth value")


UNKNOWN = _Unknown()
"""A value that cannot be known statically."""


@dataclass
class GpuDecl:
    """A target GPU named in a file: ``name`` as written, ``span`` where, ``how`` in words."""

    name: str
    span: Span | None
    how: str


@dataclass(frozen=True)
class CliArgs:
    """A launch's payload when SGLang parses it with argparse: the server-argument ``tokens`` after
    the entry point (or, for a framework's dialect, the framework's own argv)."""

    tokens: tuple[Token, ...]


@dataclass(frozen=True)
class KwArgs:
    """A launch's payload when it is ``ServerArgs`` keyword arguments (``Engine(...)``,
    ``ServerArgs(...)``, a framework's config section): no argparse, no abbreviations, Python values."""

    kwargs: tuple[KwArg, ...]


@dataclass
class GpuCount:
    """A GPU resource a launch's container asks for: ``resource`` (``nvidia.com/gpu``, ``amd.com/gpu``),
    ``count`` (None when not a known integer) and where the quantity is written."""

    resource: str
    count: int | None
    span: Span | None = None


@dataclass
class ModelHint:
    """An architecture the deployment declares for the model it serves (OME's
    ``supportedModelFormats[].modelArchitecture``): used when the model path names nothing known."""

    architecture: str
    span: Span | None
    how: str


@dataclass(frozen=True, eq=False)
class Launch:
    """One SGLang server launch found in a file; it does not change after extraction (frozen: a step
    that needs another launch makes one with :func:`dataclasses.replace`).

    ``style`` is ``"cli"`` (``args`` are the server-argument tokens after the entry point) or
    ``"kwargs"`` (``kwargs`` are ``ServerArgs`` fields given to a Python call). ``program`` names the
    entry point (``python -m sglang.launch_server``, ``sglang serve``, ``sglang.Engine`` …).
    ``span`` covers the launch; its first line anchors launch-level suppressions. ``key`` is a
    stable logical name (e.g. ``services.sglang``) used by baselines. ``gpu_decls`` are target
    declarations that belong to this launch only (a Modal decorator, a docker ``--gpus``);
    ``hints`` are strings such as an image reference the version detection reads. ``gpu_counts``
    are the GPUs its container asks for (Kubernetes ``resources.limits``); ``model_hint`` an
    architecture the deployment declares for its model (see :class:`ModelHint`).
    """

    source: SourceFile
    program: str
    span: Span
    style: str = "cli"
    args: list[Token] = field(default_factory=list)
    kwargs: list[KwArg] = field(default_factory=list)
    key: str = ""
    gpu_decls: list[GpuDecl] = field(default_factory=list)
    image: MStr | None = None
    gpu_counts: list[GpuCount] = field(default_factory=list)
    model_hint: ModelHint | None = None

    @property
    def first_line(self) -> int:
        return self.span.line

    @property
    def payload(self) -> CliArgs | KwArgs:
        """The launch's server arguments: :class:`CliArgs` or :class:`KwArgs`."""
        if self.style == "kwargs":
            return KwArgs(tuple(self.kwargs))
        return CliArgs(tuple(self.args))


@dataclass
class Problem:
    """A parse problem (SGL001): ``span`` is the parser's problem position."""

    message: str
    span: Span


@dataclass
class Extraction:
    """What a format module returns for one file."""

    launches: list[Launch] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    gpu_decls: list[GpuDecl] = field(default_factory=list)
    comments: list[Span] | None = None
    """The file's comments, when the format can list them exactly (else a line scan finds them)."""
    related: list[SourceFile] = field(default_factory=list)
    """Other files read for this one (a compose ``.env``, a model ``config.json``)."""
    escape_edit: Callable[[Span, str], str] | None = None
    """How a fix's new text is written at a span of this file, when it is not written as is (JSON
    escaping inside a notebook's strings, a block quote's ``> `` after a line break in Markdown)."""
