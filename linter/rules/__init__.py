"""All rules, by code. A code never changes meaning; each also has a kebab-case name."""

from __future__ import annotations

from linter.rules.base import Rule
from linter.rules.deterministic import (
    DeterministicBackend,
    DeterministicMlaBackend,
    Fa4DeterministicMlaNeedsSm100,
    UnverifiableLaunch,
)
from linter.rules.frameworks import FrameworkRejects
from linter.rules.gates import GATE_RULES
from linter.rules.meta import InputTooLarge, InternalError, UnknownGpu, UnparseableFile, UnusedSuppression
from linter.rules.options import (
    AmbiguousOption,
    ConfigEqualsIgnored,
    InvalidChoice,
    MissingValue,
    RepeatedOption,
    UnexpectedValue,
    UnknownOption,
)

META_RULES: list[type[Rule]] = [InternalError, UnparseableFile, UnusedSuppression, UnknownGpu, InputTooLarge]
LAUNCH_RULES: list[type[Rule]] = [
    Fa4DeterministicMlaNeedsSm100,
    DeterministicMlaBackend,
    DeterministicBackend,
    *GATE_RULES,
    UnverifiableLaunch,
    UnknownOption,
    AmbiguousOption,
    InvalidChoice,
    UnexpectedValue,
    MissingValue,
    ConfigEqualsIgnored,
    RepeatedOption,
    FrameworkRejects,
]
ALL_RULES: list[type[Rule]] = sorted(META_RULES + LAUNCH_RULES, key=lambda r: r.code)
BY_CODE: dict[str, type[Rule]] = {r.code: r for r in ALL_RULES}
BY_NAME: dict[str, type[Rule]] = {r.name: r for r in ALL_RULES}


def rule_for(code_or_name: str) -> type[Rule] | None:
    """The rule with this code (``SGL101``, case-insensitive) or kebab-case name, or None."""
    key = code_or_name.strip()
    return BY_CODE.get(key.upper()) or BY_NAME.get(key.lower())


def expand_selector(selector: str) -> set[str] | None:
    """Codes a ``--select``/``--ignore`` value names: a code, a name, a prefix such as ``SGL1`` or
    ``ALL``. None when it names nothing."""
    key = selector.strip()
    if key.upper() == "ALL":
        return set(BY_CODE)
    rule = rule_for(key)
    if rule is not None:
        return {rule.code}
    matched = {c for c in BY_CODE if c.startswith(key.upper())} if key.upper().startswith("SGL") else set()
    return matched or None


def markdown_table(link: str = "docs/rules/{code}.md") -> str:
    """The README's rule table, made from the rules themselves (code, name, summary, fix); each code
    links to its page, ``link`` with ``{code}`` filled in (relative to the file the table is in)."""
    rows = ["| code | name | severity | fix | what |", "|---|---|---|---|---|"]
    for rule in ALL_RULES:
        code = f"[{rule.code}]({link.format(code=rule.code)})"
        rows.append(f"| {code} | {rule.name} | {rule.severity} | {rule.fixable} | {rule.summary} |")
    return "\n".join(rows) + "\n"
