"""``lint-configs-hook``: the command of the pre-commit hooks (``.pre-commit-hooks.yaml``).

pre-commit runs ``entry`` + the hook's ``args`` + the file names it selected, in that order, and
nothing marks where the ``args`` end (pre-commit ``languages/helpers.py``, ``run_xargs``). A file
name is text a pull request chooses: a committed file named ``--exit-zero`` must not turn the
check green, nor one named ``--output-file=compose.yaml`` overwrite ``compose.yaml`` with the report.
So the hook's arguments are read as:

- everything before the first ``--`` is options (the entry's and the user's ``args``), everything
  after it a file to lint — ``-`` included, which is then a file named ``-``, never standard input;
- the hook's default ``args`` is ``[--]``; a user's own ``args:`` must end with ``--`` too
  (``args: [--fail-on, error, --]``). Arguments with no ``--`` at all are refused (exit 2, with the
  line to write): the file names cannot be told from the options;
- an argument before the ``--`` that starts with ``-`` and names a file of the repository is refused:
  a committed file named ``--`` could otherwise end the options early (pre-commit passes names in
  git's order, where ``--`` sorts before any other name starting with ``--``, but a hook must not
  rest on an order).

``--force-exclude`` is always given (pre-commit passes files one by one, and excluded ones must stay
excluded). Everything else is :func:`linter.cli.main`.
"""

from __future__ import annotations

import os
import sys
from typing import Sequence

USAGE = ("the hook's args must end with '--' (pre-commit puts the file names after them), for example "
         "args: [--fail-on, error, --]")


def split(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(options, files) of the hook's arguments; raises ValueError (the message says what to write)."""
    argv = list(argv)
    if "--" not in argv:
        raise ValueError(f"no '--' among the arguments: {USAGE}")
    cut = argv.index("--")
    options, files = argv[:cut], argv[cut + 1:]
    for word in options:
        if word.startswith("-") and os.path.lexists(word):
            raise ValueError(f"the option {word!r} is also the name of a file in the repository, so the options "
                             f"cannot be told from the file names: {USAGE}")
    return options, files


def main(argv: Sequence[str] | None = None) -> int:
    """Run lint-configs on the files pre-commit passes; returns the exit code (2 for arguments that
    cannot be split safely)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        options, files = split(argv)
    except ValueError as exc:
        print(f"lint-configs-hook: error: {exc}", file=sys.stderr)
        return 2
    from linter.cli import main as lint

    return lint([*options, "--force-exclude", "--", *files])


def entry() -> int:
    """The ``lint-configs-hook`` console script (see :func:`linter.cli.entry` for why the heap is frozen)."""
    import gc

    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(entry())
