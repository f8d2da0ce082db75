"""All rules, by code. A code never changes meaning; each also has a kebab-case name."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from linter.rules.base import Rule

_TABLES = ("META_RULES", "LAUNCH_RULES", "ALL_RULES", "BY_CODE", "BY_NAME")


def _load() -> None:
    """Import every rule module and build the tables. Done on first use (PEP 562 ``__getattr__``):
    importing ``linter.rules.base`` (for :class:`Diagnostic`) must not load the rules, the resolver
    and the SGLang tables in a run whose files all fail the mention filter."""
    from linter.rules.deterministic import (
        DeterministicBackend,
        DeterministicMlaBackend,
        Fa4DeterministicMlaNeedsSm100,
        UnverifiableLaunch,
    )
    from linter.rules.entrypoints import EntryPointMissing
    from linter.rules.frameworks import FrameworkIgnoresSetting, FrameworkRejects
    from linter.rules.gates import GATE_RULES
    from linter.rules.hardware import HARDWARE_RULES
    from linter.rules.meta import (
        InputTooLarge,
        InternalError,
        OutsideRoot,
        UnknownGpu,
        UnparseableFile,
        UnusedSuppression,
    )
    from linter.rules.options import (
        AmbiguousOption,
        ConfigEqualsIgnored,
        ConfigFileRejected,
        DeprecatedOption,
        DeprecatedOptionRejected,
        InvalidChoice,
        InvalidValue,
        MissingValue,
        RepeatedOption,
        RejectedAtStartup,
        UnexpectedValue,
        UnknownOption,
    )

    meta: list[type[Rule]] = [InternalError, UnparseableFile, UnusedSuppression, UnknownGpu, InputTooLarge,
                              OutsideRoot]
    launch: list[type[Rule]] = [
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
        ConfigFileRejected,
        InvalidValue,
        DeprecatedOptionRejected,
        DeprecatedOption,
        RejectedAtStartup,
        EntryPointMissing,
        RepeatedOption,
        FrameworkRejects,
        *HARDWARE_RULES,
        FrameworkIgnoresSetting,
    ]
    all_rules = sorted(meta + launch, key=lambda r: r.code)
    g = globals()
    g.update({r.__name__: r for r in all_rules})
    g.update(GATE_RULES=GATE_RULES, META_RULES=meta, LAUNCH_RULES=launch, ALL_RULES=all_rules,
             BY_CODE={r.code: r for r in all_rules}, BY_NAME={r.name: r for r in all_rules})


def __getattr__(name: str):
    if name in _TABLES or name[:1].isupper() and name not in ("TYPE_CHECKING",):
        if "BY_CODE" not in globals():
            _load()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module 'linter.rules' has no attribute {name!r}")


def rule_for(code_or_name: str) -> type[Rule] | None:
    """The rule with this code (``SGL101``, case-insensitive) or kebab-case name, or None."""
    key = code_or_name.strip()
    if "BY_CODE" not in globals():
        _load()
    return BY_CODE.get(key.upper()) or BY_NAME.get(key.lower())


from linter.codes import expand_selector  # noqa: E402,F401 - the catalog's, re-exported for the CLI


def markdown_table(link: str = "docs/rules/{code}.md") -> str:
    """The README's rule table, made from the rules themselves (code, name, summary, fix); each code
    links to its page, ``link`` with ``{code}`` filled in (relative to the file the table is in)."""
    rows = ["| code | name | severity | fix | what |", "|---|---|---|---|---|"]
    if "BY_CODE" not in globals():
        _load()
    for rule in ALL_RULES:
        code = f"[{rule.code}]({link.format(code=rule.code)})"
        preview = " (preview: `--preview` or select it)" if rule.preview else ""
        rows.append(f"| {code} | {rule.name} | {rule.severity} | {rule.fixable} | {rule.summary}{preview} |")
    return "\n".join(rows) + "\n"
