"""Write the hooks' file selection from the format registry (``linter/formats.py``): the ``files:``
pattern of both hooks in ``.pre-commit-hooks.yaml`` and the ``PATTERNS=`` pathspecs of the plain
git hook ``hooks/pre-commit``. Everything else in those files is written by hand and kept as is.

Usage: ``python scripts/generate_hooks.py`` (rewrite) or ``--check`` (exit 1 when a file is stale).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from linter.formats import git_pathspecs, precommit_files_pattern  # noqa: E402

MANIFEST = Path(".pre-commit-hooks.yaml")
PLAIN_HOOK = Path("hooks") / "pre-commit"

_FILES = re.compile(r"^(?P<indent>[ \t]+)files:.*$", re.M)
_PATTERNS = re.compile(r'^PATTERNS=".*"$', re.M)


def render_manifest(text: str) -> str:
    """``.pre-commit-hooks.yaml`` with every hook's ``files:`` line set to the registry's pattern.
    Raises ValueError when the text has no ``files:`` line."""
    # single-quoted YAML: the pattern holds backslashes and no single quote
    pattern = precommit_files_pattern()
    assert "'" not in pattern
    new, n = _FILES.subn(lambda m: f"{m['indent']}files: '{pattern}'", text)
    if not n:
        raise ValueError("no files: line")
    return new


def render_plain_hook(text: str) -> str:
    """``hooks/pre-commit`` with its ``PATTERNS="…"`` line set to the registry's pathspecs (each
    single-quoted: the line is eval'd by the hook). Raises ValueError when there is no such line."""
    specs = git_pathspecs()
    assert not any(c in s for s in specs for c in "'\"$`\\")
    line = 'PATTERNS="' + " ".join(f"'{s}'" for s in specs) + '"'
    new, n = _PATTERNS.subn(lambda m: line, text)
    if n != 1:
        raise ValueError("expected one PATTERNS= line")
    return new


TARGETS = {MANIFEST: render_manifest, PLAIN_HOOK: render_plain_hook}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for rel, render in TARGETS.items():
        path = ROOT / rel
        current = path.read_text("utf-8")
        text = render(current)
        if text == current:
            continue
        stale.append(rel)
        if not check:
            path.write_bytes(text.encode("utf-8"))  # keeps the file's mode (the plain hook is executable)
            print(f"wrote {rel}")
    if check and stale:
        for rel in stale:
            print(f"{rel} is stale: run python scripts/generate_hooks.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
