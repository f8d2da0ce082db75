"""Where a rule's documentation lives: ``docs/rules/SGLxxx.md`` in the repository, generated from the
rule's docstring by ``scripts/update_readme.py``. The text output's ``help:`` line and SARIF's
``helpUri`` link there; the README links the same files by relative path.

The repository's address is the one place to change when the project moves (the README's pre-commit
snippet names the same repository).
"""

from __future__ import annotations

REPOSITORY = "https://github.com/OWNER/lint-configs"
"""The project's repository (the same placeholder as the README's pre-commit snippet until it is published)."""

BRANCH = "main"
DOCS_PATH = "docs/rules"
"""The folder of the rule pages, relative to the top of the repository."""


def rule_doc_path(code: str) -> str:
    """``docs/rules/SGL101.md``: the page of a rule, relative to the top of the repository."""
    return f"{DOCS_PATH}/{code}.md"


def rule_url(code: str) -> str:
    """The web address of a rule's page:
    ``https://github.com/OWNER/lint-configs/blob/main/docs/rules/SGL101.md``."""
    return f"{REPOSITORY}/blob/{BRANCH}/{rule_doc_path(code)}"
