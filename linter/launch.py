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

import bisect
import itertools

from linter.records import dataclass, field
from linter.source import SourceFile, Span

TYPE_CHECKING = False  # typing is imported only by type checkers: a compose file's run need not load it (8 ms)
if TYPE_CHECKING:
    from typing import Callable, Iterable, Sequence

UNKNOWN_CHAR = "\ue000"
"""Placeholder for text whose value is not known (a Unicode private-use character)."""


class UnknownOrigin(tuple):
    """The origin of an :data:`UNKNOWN_CHAR`: ``(source, offset)`` like any origin (so everything
    that reads origins reads it alike), plus ``label``, the span of the expression whose value it
    stands for (``plan.train_args`` in ``f"… {plan.train_args}"``, ``$EXTRA``), or None while no
    one expression is known (paths merged where the expression was not yet read). A run holding it
    is never joined with its neighbours (:func:`join_runs`), so the object — and its label — reaches
    the launch however the text is cut and joined again (a shell script in a string, a split)."""

    def __new__(cls, source: SourceFile | None, offset: int, label: Span | None = None) -> UnknownOrigin:
        self = tuple.__new__(cls, (source, offset))
        self.label = label
        return self

    def __reduce__(self):
        return UnknownOrigin, (self[0], self[1], self.label)


def label_unknowns(m: MStr, where: Span) -> None:
    """Give the unknown characters of ``m`` that have no label yet ``where``, the expression that
    reads them (a shell ``$EXTRA`` whose paths were merged)."""
    if UNKNOWN_CHAR in m.text:
        for _, _, _, atom in m.runs:
            if type(atom) is UnknownOrigin and atom.label is None:
                atom.label = where


def unknown_label(m: MStr) -> Span | None:
    """The label of the first unknown character of ``m`` that has one (:class:`UnknownOrigin`), or None."""
    for _, _, _, atom in m.runs:
        if type(atom) is UnknownOrigin and atom.label is not None and atom.label.end > atom.label.start:
            return atom.label
    return None


class MStr:
    """A string whose characters each remember their origin ``(SourceFile, offset)`` or ``None``.

    ``where`` is the span to report when no character-exact span exists (for example the whole
    ``${VAR}`` that produced an unknown value).

    Origins are stored as *runs* (:attr:`runs`), so a literal of any length costs one run, not a
    tuple per character: ``(n, source, offset, atom)`` says that the next ``n`` characters came from
    ``source`` at ``offset, offset + 1, …`` (``source`` None: no origin, ``offset`` 0). Runs are
    canonical — neighbours that continue one another are one run — so equal origins give equal runs
    (:func:`same_origins`). ``atom`` is None, or, for a one-character run made from an origin object,
    that object: :attr:`origins` gives it back as is, so an extractor may mark a character by the
    identity of its origin (the Python format's splats). :attr:`origins` gives the tuple per
    character. An MStr made from such a tuple (the constructor) keeps it and makes its runs on first
    use; one made from runs (:meth:`from_runs`, :meth:`literal`, :meth:`join`, a slice) builds the
    tuple only if :attr:`origins` is read.
    """

    __slots__ = ("text", "_runs", "where", "_origins", "_starts")

    def __init__(self, text: str, origins: Sequence, where: Span | None = None) -> None:
        assert len(text) == len(origins), (text, len(origins))
        self.text = text
        # kept as given; the runs are made when first asked for (formats that build origins per
        # character pay no second pass over them unless a span is asked of this string)
        self._origins = tuple(origins)
        self._runs = None
        self.where = where
        self._starts = None

    @classmethod
    def from_runs(cls, text: str, runs: tuple, where: Span | None = None) -> MStr:
        """An MStr from canonical ``runs`` (see the class docstring) covering ``text`` exactly."""
        m = cls.__new__(cls)
        m.text = text
        m._runs = runs
        m.where = where
        m._origins = None
        m._starts = None
        return m

    @classmethod
    def literal(cls, source: SourceFile, start: int, end: int) -> MStr:
        """The verbatim source text ``[start, end)``."""
        return cls.from_runs(source.text[start:end], ((end - start, source, start, None),) if end > start else (),
                             Span(source, start, end))

    @classmethod
    def plain(cls, text: str, where: Span | None = None) -> MStr:
        """Text with no origin (made up by the extractor, never editable)."""
        return cls.from_runs(text, ((len(text), None, 0, None),) if text else (), where)

    @classmethod
    def unknown(cls, where: Span | None, label: Span | None = None) -> MStr:
        """The placeholder :data:`UNKNOWN_CHAR`, from the start of ``where``; ``label`` (default
        ``where``) is the expression it stands for (:class:`UnknownOrigin`)."""
        return cls._unknown_at(where, label or where)

    @classmethod
    def unknown_of_paths(cls, where: Span | None) -> MStr:
        """An unknown character standing for what several paths' values differ in: at the start of
        ``where`` (for locations), with no label until an expression reads it (:func:`label_unknowns`)."""
        return cls._unknown_at(where, None)

    @classmethod
    def _unknown_at(cls, where: Span | None, label: Span | None) -> MStr:
        if where is None:
            return cls.from_runs(UNKNOWN_CHAR, ((1, None, 0, None),))
        origin = UnknownOrigin(where.source, where.start, label)
        return cls.from_runs(UNKNOWN_CHAR, ((1, where.source, where.start, origin),), where)

    @classmethod
    def join(cls, parts: Iterable[MStr], where: Span | None = None) -> MStr:
        """The concatenation of ``parts``; ``where`` defaults to the hull of theirs."""
        parts = list(parts)
        if where is None:
            where = hull([p.where for p in parts if p.where is not None])
        return cls.from_runs("".join([p.text for p in parts]), join_runs([p.runs for p in parts]), where)

    @property
    def runs(self) -> tuple:
        """The origins as canonical runs ``(n, source, offset, atom)`` (see the class docstring)."""
        if self._runs is None:
            self._runs = _compress(self._origins)
        return self._runs

    @property
    def origins(self) -> tuple:
        """The origin of each character: ``(SourceFile, offset)`` or None (a tuple as long as the text)."""
        if self._origins is None:
            out: list = []
            for n, src, off, atom in self.runs:
                if atom is not None:
                    out.append(atom)
                elif src is None:
                    out.extend([None] * n)
                else:
                    out.extend([(src, k) for k in range(off, off + n)])
            self._origins = tuple(out)
        return self._origins

    def origin_at(self, i: int):
        """The origin of character ``i`` (``0 <= i < len``): ``(SourceFile, offset)`` or None."""
        got = self.runs_of(i, i + 1)
        if not got or i < 0:
            raise IndexError(i)
        n, src, off, atom = got[0]
        if atom is not None:
            return atom
        return None if src is None else (src, off)

    def runs_of(self, i: int, j: int) -> tuple:
        """The runs of characters ``[i, j)`` (a bisect on a long string: no scan from its start)."""
        if len(self.runs) <= 8:
            return slice_runs(self.runs, i, j)
        if self._starts is None:
            self._starts = list(itertools.accumulate((r[0] for r in self.runs), initial=0))
        return slice_runs(self.runs, i, j, self._starts)

    def __getitem__(self, item: slice) -> MStr:
        start, stop, step = item.indices(len(self.text))
        if step != 1:
            return MStr(self.text[item], self.origins[item], self.where)
        return MStr.from_runs(self.text[start:stop], self.runs_of(start, stop), self.where)

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
        pos = 0
        for n, source, off, _ in self.runs:
            if i < pos + n:
                # runs are canonical: consecutive offsets of one file are one run
                if source is None or j > pos + n:
                    return None
                start = off + i - pos
                if source.text[start:start + (j - i)] != self.text[i:j]:
                    return None
                return Span(source, start, start + (j - i))
            pos += n
        return None

    def location(self, i: int = 0, j: int | None = None) -> Span | None:
        """The best span to report ``text[i:j]`` at: exact if possible, else the hull of its origins."""
        exact = self.span_of(i, j)
        if exact is not None:
            return exact
        j = len(self.text) if j is None else j
        spans = []  # the origins of text[i:j], a span per run, in order
        complete = True
        pos = 0
        for n, src, off, _ in self.runs:
            lo, hi = max(i, pos), min(j, pos + n)
            if lo < hi:
                if src is None:
                    complete = False
                else:
                    spans.append(Span(src, off + lo - pos, off + hi - pos))
            pos += n
            if pos >= j:
                break
        if spans and complete and all(s.source is spans[0].source for s in spans):
            return hull(spans)
        # Some characters have no origin (an escape the alignment could not place): the whole
        # literal they came from, rather than a piece of it.
        return self.where or hull(spans)

    def __repr__(self) -> str:
        return f"MStr({self.text!r})"

    def __reduce__(self):
        # pickled (a pool worker's result) as its text, runs and span: not a tuple per character, which
        # is most of a result's bytes and the parent's time to read it back
        return MStr.from_runs, (self.text, self.runs, self.where)


def _compress(origins: Sequence) -> tuple:
    """The canonical runs of per-character ``origins`` (see :class:`MStr`)."""
    runs: list = []
    n = 0
    src = None
    first = 0
    obj = None  # the origin object of the run's first character
    for o in origins:
        if o is None:
            if n and src is None:
                n += 1
                continue
            if n:
                runs.append((n, src, first, obj if n == 1 else None))  # src is not None here
            n, src, first = 1, None, 0
            continue
        s, off = o
        # (an unknown character's origin is a run of its own: its label stays with it)
        if n and s is src and off == first + n and type(o) is not UnknownOrigin \
                and (n > 1 or type(obj) is not UnknownOrigin):
            n += 1
            continue
        if n:
            runs.append((n, src, first, obj if n == 1 and src is not None else None))
        n, src, first, obj = 1, s, off, o
    if n:
        runs.append((n, src, first, obj if n == 1 and src is not None else None))
    return tuple(runs)


def join_runs(seq: Iterable[tuple]) -> tuple:
    """The canonical runs of texts put one after another, given the runs of each. Each text's runs
    are canonical already, so only the first run of each may continue the run before it; the others
    are copied as they are (in C: a value built by joining is not a Python loop over its runs)."""
    out: list = []
    for runs in seq:
        if not runs:
            continue
        if out:
            last = out[-1]
            run = runs[0]
            src = run[1]
            if last[1] is src and (src is None or last[2] + last[0] == run[2]) \
                    and type(last[3]) is not UnknownOrigin and type(run[3]) is not UnknownOrigin:
                out[-1] = (last[0] + run[0], src, last[2], None)
                out.extend(itertools.islice(runs, 1, None))
                continue
        out.extend(runs)
    return tuple(out)


def slice_runs(runs: tuple, start: int, stop: int, starts: list[int] | None = None) -> tuple:
    """The runs of characters ``[start, stop)`` of a text with ``runs`` (still canonical; a run
    taken whole is the same object). ``starts`` (where each run starts, and the end) lets a bisect
    find the first run."""
    if stop <= start:
        return ()
    out = []
    k = 0
    pos = 0
    if starts is not None:
        k = max(0, bisect.bisect_right(starts, start) - 1)
        pos = starts[k]
    for k in range(k, len(runs)):
        run = runs[k]
        n = run[0]
        end = pos + n
        if end > start:
            lo, hi = max(start, pos), min(stop, end)
            if lo == pos and hi == end:
                out.append(run)
            else:
                src = run[1]
                out.append((hi - lo, src, run[2] + lo - pos if src is not None else 0, None))
            if end >= stop:
                break
        pos = end
    return tuple(out)


def same_origins(a: MStr, b: MStr) -> bool:
    """Whether the characters of ``a`` and ``b`` have equal origins (``a.origins == b.origins``)."""
    ra, rb = a.runs, b.runs
    if ra == rb:
        return True
    return len(ra) == len(rb) and all(x[:3] == y[:3] for x, y in zip(ra, rb))


def hull(spans) -> Span | None:
    """The smallest span covering the given spans of the first one's file (None when there are none)."""
    src = None
    lo = hi = 0
    for s in spans:
        if s is None:
            continue
        if src is None:
            src, lo, hi = s.source, s.start, s.end
        elif s.source is src:
            lo = min(lo, s.start)
            hi = max(hi, s.end)
    return None if src is None else Span(src, lo, hi)


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
    """A target GPU named in a file: ``name`` as written, ``span`` where, ``how`` in words.

    ``count`` is the number of such GPUs the declaration gives each node or container, when it says
    (Modal ``gpu="H100:8"``); ``weak`` marks a declaration read from something that only suggests the
    GPU (an image built for one architecture, a Karpenter NodePool the pod's selectors pick, a
    documentation heading): findings that rest on it say so and their fixes are unsafe."""

    name: str
    span: Span | None
    how: str
    count: int | None = None
    weak: bool = False


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
    """A number of GPUs (or nodes) a deployment gives a launch, as written: ``resource`` names what
    counts (``nvidia.com/gpu``, ``CUDA_VISIBLE_DEVICES``, ``--gres``, ``deploy.resources.reservations.devices``
    …), ``count`` is the number (None when it is not a known integer: ``all``, a variable, an
    expression — unknown, never guessed), ``span`` where it is written and ``how`` says it in words
    for ``--explain``.

    ``per`` says what the number counts: ``"node"`` — the GPUs each node, pod or container of the
    launch can see (an upper bound: the process sees no more); ``"job"`` — GPUs over all the nodes of
    a job together (Slurm ``--gpus``); ``"nodes"`` — how many nodes the launch's group has
    (LeaderWorkerSet ``size``, Slurm ``--nodes``, SkyPilot ``num_nodes``). ``widens`` marks a
    declaration that can show a container more GPUs than its resource request
    (``NVIDIA_VISIBLE_DEVICES=all`` set in the container itself)."""

    resource: str
    count: int | None
    span: Span | None = None
    how: str = ""
    per: str = "node"
    widens: bool = False


@dataclass
class ModelHint:
    """An architecture the deployment declares for the model it serves (OME's
    ``supportedModelFormats[].modelArchitecture``): used when the model path names nothing known."""

    architecture: str
    span: Span | None
    how: str


@dataclass
class FrameworkFacts:
    """What the framework that starts a launch does with its settings (:mod:`linter.sglang.frameworks`):
    the settings it ``refused`` (it stops before SGLang starts) and ``ignored`` (accepted, never passed
    to SGLang), each ``(span, why, rename)`` where ``rename`` is ``(span of the written name, the
    framework's own name it is close to)`` or None; the fields it ``sets`` itself (``name=value``); the SGLang
    ``releases`` it accepts (``{"min": X}`` or ``{"only": [...]}`` with ``cite``); ``follows`` names the
    source it was read from (``owner/repo@commit``)."""

    name: str
    program: str
    follows: str
    refused: list = field(default_factory=list)
    ignored: list = field(default_factory=list)
    sets: list = field(default_factory=list)
    releases: dict | None = None
    installs: str = ""
    """The SGLang the framework's own install pins (``sglang==0.5.12.post1 (pyproject.toml:158)``):
    shown, never taken as the launch's release."""
    defaults: dict = field(default_factory=dict)
    """Field -> the note naming the framework's own value for it (a finding on it says so)."""
    anchor: Span | None = None
    """The setting that picks SGLang (where a finding about the whole launch is reported)."""


@dataclass(frozen=True)
class ContextLabel:
    """A label a documentation block sits under, as the reader of the page is told it: ``kind`` is
    ``"heading"`` (a Markdown heading, an rst section title), ``"tab"`` (a content tab's label:
    MkDocs-Material ``=== "H100"``, MyST/sphinx-design ``{tab-item}``, sphinx-tabs ``.. tab::``),
    ``"admonition"`` (an admonition's or a collapsible block's title, ``!!! note "8x H200"``) or
    ``"caption"`` (a code block's ``:caption:``); ``text`` is the label as shown (quotes taken off);
    ``span`` is where that text is written (None when it has no one place in the file)."""

    kind: str
    text: str
    span: Span | None


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
    are the GPU and node counts given to this launch only (Kubernetes ``resources.limits``, a
    LeaderWorkerSet ``size``, compose ``deploy.resources.reservations.devices``, ``docker run --gpus``,
    ``CUDA_VISIBLE_DEVICES`` in its environment, ``srun --gpus-per-node`` …); ``model_hint`` an
    architecture the deployment declares for its model (see :class:`ModelHint`). ``context`` are
    the labels a documentation block holding the launch sits under, outermost first (see
    :class:`ContextLabel`; empty outside documentation).
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
    overrides: tuple = ()
    """``ServerArgs`` fields a framework sets over the command line for this engine (slime/miles
    ``--sglang-config`` server groups): :class:`KwArg` values, applied last."""
    workdir: str | None = None
    """The folder the launch runs in as far as the file says (a shell ``cd``): an absolute path, a
    path relative to the file's folder (``./..``), ``""`` when a ``cd`` went somewhere not known
    statically, None when the file does not say."""
    mounts: tuple = ()
    """``(container path, host path)`` pairs of the folders a container launch sees from the
    repository (compose bind ``volumes``), so a ``--config /configs/x.yaml`` is read from the host."""
    background: bool = False
    """True when the shell runs the launch in the background (``… &`` on a line of its own, not inside
    an ``if``/``case``/loop/``&&``): it runs together with the launches after it in the same script."""
    framework: FrameworkFacts | None = None
    """For a launch a framework makes from its own settings (ROLL, NeMo-RL, ms-swift …): what it
    refuses, ignores and sets itself (:class:`FrameworkFacts`)."""
    reached_by: tuple[str, ...] = ()
    """The scopes that run this one launch (a Python method inherited unchanged by several classes,
    with the same resolved arguments: ``("Runner.start", "R1.start", "R2.start")``); empty otherwise."""
    context: tuple[ContextLabel, ...] = ()
    """The headings, tab labels, admonition titles and caption a documentation block holding this
    launch sits under, outermost first (:class:`ContextLabel`)."""
    path: tuple[str, ...] = ()
    """The conditions, in words, of the one path of the code this launch is the command of ("`args.x`
    is true"), when the file builds it differently on paths the linter cannot decide (an ``if`` on a
    command-line flag): each path is a launch of its own (at most ``limits.MAX_PATH_VARIANTS``), at
    the same place. Empty when every path gives the same command."""
    not_verified: tuple[str, ...] = ()
    """Why the file does not tell for certain that this command runs as written, in words (an
    entrypoint script in front of it that the repository does not hold): the launch is judged, and
    counted and explained as not fully verified (:func:`linter.coverage.unverified_reasons`)."""

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
    gpu_counts: list[GpuCount] = field(default_factory=list)
    """GPU and node counts the file declares for all its launches (``#SBATCH --gpus-per-node``, SkyPilot
    ``accelerators: H100:8`` and ``num_nodes``, dstack ``resources.gpu``, Truss ``accelerator``)."""
    comments: list[Span] | None = None
    """The file's comments, when the format can list them exactly (else a line scan finds them)."""
    related: list[SourceFile] = field(default_factory=list)
    """Other files read for this one (a compose ``.env``, a model ``config.json``)."""
    escape_edit: Callable[[Span, str], str] | None = None
    """How a fix's new text is written at a span of this file, when it is not written as is (JSON
    escaping inside a notebook's strings, a block quote's ``> `` after a line break in Markdown)."""
