"""Where a rule's documentation lives, and the only web addresses lint-configs prints.

The pages are ``docs/rules/SGLxxx.md`` in the repository, generated from each rule's docstring by
``scripts/update_readme.py``; ``lint-configs --show-rule CODE`` prints the same text anywhere, so the
text output's ``help:`` line names that command. A web address is printed (JSON ``url``, SARIF
``helpUri`` and ``informationUri``, the language server's ``codeDescription``) only when the installed
package's metadata says where the documentation is published — ``[project.urls]`` in
``pyproject.toml``, read back as the ``Project-URL`` fields of the distribution's ``METADATA``:

- ``Documentation``: the address where the repository's ``docs/`` folder is published; a rule's page
  is ``{Documentation}/rules/SGLxxx.md`` (so ``https://github.com/ORG/lint-configs/blob/main/docs``
  gives the pages on GitHub);
- ``Homepage`` (or ``Repository``, ``Source``): the project's page, SARIF's ``informationUri``.

With neither set (this repository sets none: it has no published address yet), or when lint-configs
runs from a source tree without installed metadata, no address is printed at all — never one that
does not resolve.
"""

from __future__ import annotations

import functools

DOCS_PATH = "docs/rules"
"""The folder of the rule pages, relative to the top of the repository."""

DOCUMENTATION_LABEL = "documentation"
HOME_LABELS = ("homepage", "home", "repository", "source")


def rule_doc_path(code: str) -> str:
    """``docs/rules/SGL101.md``: the page of a rule, relative to the top of the repository."""
    return f"{DOCS_PATH}/{code}.md"


def show_rule_command(code: str) -> str:
    """``lint-configs --show-rule SGL101``: the command that prints a rule's page (the text output's help)."""
    return f"lint-configs --show-rule {code}"


@functools.lru_cache(maxsize=1)
def project_urls() -> dict[str, str]:
    """``Project-URL`` entries of the installed ``lint-configs`` distribution, by lower-cased label
    (``{"documentation": "https://…"}``); ``{}`` when it is not installed or declares none."""
    try:
        from importlib.metadata import PackageNotFoundError, metadata

        entries = metadata("lint-configs").get_all("Project-URL") or []
    except (ImportError, PackageNotFoundError):
        return {}
    out: dict[str, str] = {}
    for entry in entries:
        label, _, url = entry.partition(",")
        url = url.strip()
        if url.startswith(("https://", "http://")):
            out.setdefault(label.strip().lower(), url)
    return out


def docs_base() -> str | None:
    """The published ``docs/`` folder (the ``Documentation`` project URL, no trailing ``/``), or None."""
    base = project_urls().get(DOCUMENTATION_LABEL)
    return base.rstrip("/") if base else None


def home_url() -> str | None:
    """The project's page (``Homepage``, else ``Repository``/``Source``), or None."""
    urls = project_urls()
    return next((urls[k] for k in HOME_LABELS if k in urls), None)


def rule_url(code: str) -> str | None:
    """The web address of a rule's page, ``{Documentation}/rules/SGL101.md``; None when the package
    declares no documentation address."""
    base = docs_base()
    if base is None:
        return None
    return f"{base}/{rule_doc_path(code).removeprefix('docs/')}"
