"""What every rule is made of: :class:`Rule`, :class:`Diagnostic`, :class:`Fix`, :class:`LaunchContext`.

A rule (Fixit 2 style) is a small class whose docstring is its documentation — with the sections
*What it does*, *Why it fails*, *Example*, *Fix safety*, *References* — and whose ``VALID`` and
``INVALID`` examples are launches that must not / must be reported; the test-suite runs every
example through the whole linter. A rule knows SGLang and nothing of file formats: it reads a
resolved :class:`LaunchContext` and yields diagnostics, each with an optional fix made of text edits.
"""

from __future__ import annotations

import enum
import inspect
from dataclasses import field

from linter.records import dataclass


TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from typing import ClassVar, Iterable

    from linter.launch import Launch
    from linter.resolve import LaunchContext


def __getattr__(name: str):
    # LaunchContext is re-exported here, loaded on first use: the report modules import this module
    # for Diagnostic, and a run with no launch need not load the resolver and the SGLang tables.
    if name == "LaunchContext":
        from linter.resolve import LaunchContext

        return LaunchContext
    raise AttributeError(name)
from linter.source import Edit, Span

__all__ = ["Rule", "Diagnostic", "Fix", "Example", "LaunchContext", "Applicability", "Fixability", "Severity", "SAFE",
           "UNSAFE",
           "insertion_point"]


class _StrEnum(str, enum.Enum):
    """A closed set of strings: compares equal to its value, prints as its value (JSON, f-strings)."""

    __str__ = str.__str__
    __format__ = str.__format__


class Severity(_StrEnum):
    """How bad a finding is: an ``error`` (SGLang refuses or crashes) or a ``warning``."""

    ERROR = "error"
    WARNING = "warning"


class Fixability(_StrEnum):
    """Whether a rule offers a fix: ``never``, ``sometimes`` (marked ``(*)`` in ``--show-rules``) or
    ``always`` (``[*]``), as ruff's ``FixAvailability``. A rule class may write the plain string;
    :class:`Rule` turns it into this type when the class is defined."""

    NEVER = "never"
    SOMETIMES = "sometimes"
    ALWAYS = "always"


_ORDER = {"display-only": 0, "unsafe": 1, "safe": 2}


class Applicability(_StrEnum):
    """How sure a fix is, ordered as ruff's: ``DISPLAY_ONLY < UNSAFE < SAFE``. ``--fix`` applies
    safe fixes, ``--unsafe-fixes`` also unsafe ones; a display-only fix is shown, never applied."""

    DISPLAY_ONLY = "display-only"
    UNSAFE = "unsafe"
    SAFE = "safe"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Applicability):
            return NotImplemented
        return _ORDER[self.value] < _ORDER[other.value]

    def __le__(self, other: object) -> bool:
        return self == other or self < other  # type: ignore[operator]

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Applicability):
            return NotImplemented
        return _ORDER[self.value] > _ORDER[other.value]

    def __ge__(self, other: object) -> bool:
        return self == other or self > other  # type: ignore[operator]

    __hash__ = str.__hash__


SAFE = Applicability.SAFE
UNSAFE = Applicability.UNSAFE


@dataclass
class Fix:
    """Edits that remove a diagnostic. ``applicability`` is :data:`SAFE` (applied by ``--fix``),
    :data:`UNSAFE` (applied only with ``--unsafe-fixes``) or display-only; ``message`` says what the
    fix does."""

    applicability: Applicability
    message: str
    edits: list[Edit]


@dataclass
class Diagnostic:
    """One finding. ``span`` is the literal text that produced the offending value (where a fix
    edits); ``key`` is a line-independent identity (path, rule, launch, option) for baselines and
    SARIF fingerprints; ``notes`` are extra lines (the release and CUDA build a finding assumed);
    ``labels`` are the other places the verdict rests on — the model, the option that turned
    deterministic inference on, a target declaration — each ``(span, short label)``, in any file (the
    text output draws those in the finding's file under their source lines)."""

    code: str
    name: str
    severity: str
    message: str
    span: Span
    fix: Fix | None = None
    launch: Launch | None = None
    key: str = ""
    notes: list[str] = field(default_factory=list)
    launch_id: str = ""
    """The identity of the launch the finding belongs to (:attr:`LaunchContext.identity`)."""
    labels: list[tuple[Span, str]] = field(default_factory=list)
    also: list[str] = field(default_factory=list)
    """The identities of other launches of the file with this very finding at this place (merged into
    this one when reported: one fix serves them all)."""

    @property
    def path(self) -> str:
        return self.span.source.display

    def sort_key(self) -> tuple:
        line, col = self.span.start_line_col
        return (self.path, line, col, self.code)


@dataclass(frozen=True)
class Example:
    """A launch for a rule's documentation and tests: the server arguments ``args`` (after
    ``program``, by default ``python3 -m sglang.launch_server``), the ``targets``, and for an invalid example the arguments
    expected after the fix (``fixed``; None when there is no fix)."""

    args: str
    targets: tuple[str, ...] = ("H100",)
    fixed: str | None = None
    sglang: str | None = None
    program: str = "python3 -m sglang.launch_server"
    """The command the arguments follow (a framework's trainer for a dialect rule)."""


def target_labels(targets) -> str:
    """The labels of ``targets`` (:class:`~linter.gpus.targets.Target`) as a message names them, each
    once: a GPU declared twice (a comment and dstack's ``resources.gpu`` both naming H100) is one."""
    return ", ".join(dict.fromkeys(t.label for t in targets))


def candidates_applicability(ctx: LaunchContext, failing: int) -> Applicability:
    """The one rule for a fix when a launch has several candidate targets (an any-of set, an affinity
    ``In`` list, a directive naming two GPUs): the caller offers a replacement only when every
    candidate runs it; the fix is safe when every candidate failed without it (``failing`` of them, all
    known), and unsafe when some candidate did not need it or a candidate is unknown."""
    return SAFE if failing == len(ctx.targets) and not ctx.has_unknown_target else UNSAFE


def insertion_point(token) -> Span | None:
    """Where text can be inserted after ``token`` so that it becomes new words of the command: the end
    of its exact span, when the extractor marked the token ``joinable`` (an unquoted word of a split
    string, an unquoted shell word); None for a list item of its own (YAML, Python) or a quoted word."""
    if token is None:
        return None
    span = token.span_of()
    if span is None or not token.joinable:
        return None
    return Span(span.source, span.end, span.end)


class Rule:
    """Base class. Subclasses set ``code``, ``name``, ``severity``, ``summary`` and ``check``."""

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.ERROR
    summary: ClassVar[str] = ""
    fixable: ClassVar[Fixability] = Fixability.NEVER
    parser: ClassVar[bool] = False
    """A rule about what SGLang's command-line parser does with the launch (an unknown option, a bad
    value, a removed option: SGL2xx). Such a finding holds for the release it was judged against, and
    when the parser stops, argparse ends the process before any start-up check."""
    preview: ClassVar[bool] = False
    """A rule in preview (as ruff's): checked only with ``--preview`` / ``preview = true``, or when its
    exact code or name is selected; ``--list-rules`` marks it. New rules whose findings change what
    established cases report start here."""
    VALID: ClassVar[list[Example]] = []
    INVALID: ClassVar[list[Example]] = []

    def __init_subclass__(cls, **kw) -> None:
        # a closed set: a misspelt severity or fixability is an error when the rule is defined,
        # not a KeyError in a report (ValueError names the value)
        super().__init_subclass__(**kw)
        cls.severity = Severity(cls.severity)
        cls.fixable = Fixability(cls.fixable)

    def check(self, ctx: LaunchContext) -> Iterable[Diagnostic]:
        return ()

    @classmethod
    def docs(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    def diagnostic(self, message: str, span: Span, ctx: LaunchContext | None = None, fix: Fix | None = None,
                   key: str = "", notes: list[str] | None = None,
                   labels: list[tuple[Span | None, str]] | None = None) -> Diagnostic:
        """A diagnostic of this rule; ``labels`` with a None span (a value with no place) or with the
        finding's own span are dropped."""
        launch = ctx.launch if ctx else None
        ident = ctx.identity if ctx else ""
        notes = list(notes or [])
        if ctx is not None:
            # a value nobody wrote (a framework's default) is explained where it is reported
            notes += [s.kwarg.default_of for s in ctx.parsed.settings
                      if s.kwarg is not None and s.kwarg.default_of and s.kwarg.where == span]
            facts = ctx.launch.framework
            if facts is not None and facts.defaults:
                # a framework that builds a command line: its own value is a word nobody wrote
                notes += [facts.defaults[s.dest] for s in ctx.parsed.settings
                          if s.kwarg is None and s.dest in facts.defaults and s.value_location() == span
                          and facts.defaults[s.dest] not in notes]
        full_key = f"{ident}:{key}" if key or launch else ""
        kept = [(s, text) for s, text in labels or () if s is not None and s != span]
        return Diagnostic(self.code, self.name, self.severity, message, span, fix, launch, full_key, notes or [],
                          ident, kept)
