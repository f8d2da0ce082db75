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
from dataclasses import dataclass, field
from typing import ClassVar, Iterable

from linter.gpus.targets import Target
from linter.launch import Launch
from linter.sglang.models import ModelInfo
from linter.sglang.options import OptionTable, ParsedArgs
from linter.source import Edit, Span


class _StrEnum(str, enum.Enum):
    """A closed set of strings: compares equal to its value, prints as its value (JSON, f-strings)."""

    __str__ = str.__str__
    __format__ = str.__format__


class Severity(_StrEnum):
    """How bad a finding is: an ``error`` (SGLang refuses or crashes) or a ``warning``."""

    ERROR = "error"
    WARNING = "warning"


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
    SARIF fingerprints; ``notes`` are extra lines (the release and CUDA build a finding assumed)."""

    code: str
    name: str
    severity: str
    message: str
    span: Span
    fix: Fix | None = None
    launch: Launch | None = None
    key: str = ""
    notes: list[str] = field(default_factory=list)
    also: list[Launch] = field(default_factory=list)
    """Other launches with this very finding at this place (merged into this one when reported)."""

    @property
    def path(self) -> str:
        return self.span.source.display

    def sort_key(self) -> tuple:
        line, col = self.span.start_line_col
        return (self.path, line, col, self.code)


@dataclass(frozen=True)
class Example:
    """A launch for a rule's documentation and tests: the server arguments ``args`` (after
    ``python -m sglang.launch_server``), the ``targets``, and for an invalid example the arguments
    expected after the fix (``fixed``; None when there is no fix)."""

    args: str
    targets: tuple[str, ...] = ("H100",)
    fixed: str | None = None
    sglang: str | None = None


@dataclass
class LaunchContext:
    """Everything a rule needs about one launch, already resolved.

    ``cuda_build`` is torch's CUDA build read from the image tag, or None (then 12.8+ is assumed);
    ``version_origin`` and ``target_origin`` say in words where the release and targets came from.
    """

    launch: Launch
    table: OptionTable
    parsed: ParsedArgs
    model: ModelInfo
    targets: list[Target]
    target_origin: str
    cuda_build: tuple[int, int] | None = None
    version_origin: str = ""

    @property
    def assumed_cuda(self) -> tuple[int, int]:
        return self.cuda_build or (13, 0)  # unknown: "12.8 or newer" (13.0 keeps Jetson Thor at sm_110)

    @property
    def known_targets(self) -> list[Target]:
        return [t for t in self.targets if t.gpu is not None]

    @property
    def has_unknown_target(self) -> bool:
        return not self.targets or any(t.gpu is None for t in self.targets)


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
    fixable: ClassVar[str] = "never"  # "never" | "sometimes" | "always"
    VALID: ClassVar[list[Example]] = []
    INVALID: ClassVar[list[Example]] = []

    def check(self, ctx: LaunchContext) -> Iterable[Diagnostic]:
        return ()

    @classmethod
    def docs(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    def diagnostic(self, message: str, span: Span, ctx: LaunchContext | None = None, fix: Fix | None = None,
                   key: str = "", notes: list[str] | None = None) -> Diagnostic:
        launch = ctx.launch if ctx else None
        full_key = f"{launch.key if launch else ''}:{key}" if key or launch else ""
        return Diagnostic(self.code, self.name, self.severity, message, span, fix, launch, full_key, notes or [])
