"""Rule codes and names as data, for what selects and suppresses rules without running them: the
configuration's ``select``/``ignore``, ``--select``/``--ignore`` and the ``ignore[...]`` comments.

The catalog is ``linter/data/rule_codes.json`` (code -> kebab-case name, preview codes and each
rule's one-line summary for reports of cached results), written from the rule
classes of :mod:`linter.rules` by ``scripts/update_readme.py`` (``tests/test_rule_docs.py`` keeps it
equal to them). Reading it needs no rule module, so the directive scanner and the configuration sit
below the rules, and a run whose files all fail the mention filter never loads a rule.
"""

from __future__ import annotations

import functools

from linter import datafiles

__all__ = ["catalog", "code_for", "expand_selector", "preview_codes", "summary"]


@functools.lru_cache(maxsize=1)
def catalog() -> dict[str, str]:
    """Every rule: code (``SGL101``) -> name (``fa4-deterministic-mla-needs-sm100``), in code order."""
    return dict(datafiles.load_json("linter.data", "rule_codes.json")["rules"])


@functools.lru_cache(maxsize=1)
def preview_codes() -> frozenset[str]:
    """The codes of the rules in preview (:attr:`linter.rules.base.Rule.preview`)."""
    return frozenset(datafiles.load_json("linter.data", "rule_codes.json").get("preview", ()))


def summary(code: str) -> str | None:
    """A rule's one-line summary (:attr:`linter.rules.base.Rule.summary`), or None for a code no rule has."""
    return _summaries().get(code)


@functools.lru_cache(maxsize=1)
def _summaries() -> dict[str, str]:
    return datafiles.load_json("linter.data", "rule_codes.json").get("summaries", {})


@functools.lru_cache(maxsize=1)
def _by_name() -> dict[str, str]:
    return {name: code for code, name in catalog().items()}


def code_for(code_or_name: str) -> str | None:
    """The code of the rule with this code (case-insensitive) or kebab-case name, or None."""
    key = code_or_name.strip()
    if key.upper() in catalog():
        return key.upper()
    return _by_name().get(key.lower())


def expand_selector(selector: str) -> set[str] | None:
    """Codes a ``--select``/``--ignore`` value names: a code, a name, a prefix such as ``SGL1`` or
    ``ALL`` (ruff's selectors). None when it names nothing."""
    key = selector.strip()
    if key.upper() == "ALL":
        return set(catalog())
    code = code_for(key)
    if code is not None:
        return {code}
    matched = {c for c in catalog() if c.startswith(key.upper())} if key.upper().startswith("SGL") else set()
    return matched or None


def render_catalog(rules) -> str:
    """The text of ``rule_codes.json`` for ``rules`` (rule classes with ``code`` and ``name``)."""
    import json

    doc = {"about": "Every rule's code, name and summary, for selecting and suppressing rules without loading them "
                    "(linter/codes.py). Generated from linter/rules by scripts/update_readme.py; do not edit.",
           "rules": [[r.code, r.name] for r in sorted(rules, key=lambda r: r.code)],
           "preview": sorted(r.code for r in rules if r.preview),
           "summaries": {r.code: r.summary for r in sorted(rules, key=lambda r: r.code)}}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
