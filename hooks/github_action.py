"""The command of the GitHub Action (``action.yml``): build lint-configs' arguments from the inputs and run it.

The action passes its inputs here as environment variables, never by interpolating them into a
shell script (GitHub expands ``${{ }}`` before the shell runs, so an input holding ``$(id)`` or
``; rm -rf /`` would be executed — zizmor's template-injection finding). ``LINT_CONFIGS_ARGS`` (the
``args`` input) is split by :func:`shlex.split`: quotes group words as in a POSIX shell, and nothing
else is interpreted (no variables, globs, command substitution, ``;`` or ``|``); every word reaches
lint-configs as one literal argument.

Usage (run with the interpreter of the action's virtual environment)::

    python github_action.py sarif    # SARIF into $RUNNER_TEMP/lint-configs.sarif, exit 0 on findings,
                                     # and file=PATH in $GITHUB_OUTPUT
    python github_action.py report   # --format github when LINT_CONFIGS_ANNOTATIONS is true,
                                     # else text; exit 1 on findings

Exit codes are lint-configs' own (0, 1, 2); 2 also for an ``args`` that cannot be split or an
``annotations`` input that is not true/false.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping

SARIF_NAME = "lint-configs.sarif"


class InputError(Exception):
    """An action input that cannot be used; the message names the input."""


def split_args(text: str) -> list[str]:
    """The words of the ``args`` input (POSIX shell quoting, nothing evaluated)."""
    try:
        return shlex.split(text, comments=False, posix=True)
    except ValueError as exc:  # an unbalanced quote
        raise InputError(f"args: cannot split {text!r}: {exc}") from None


def _flag(name: str, value: str) -> bool:
    v = value.strip().lower()
    if v in ("true", "false"):
        return v == "true"
    raise InputError(f"{name}: expected true or false, got {value!r}")


def command(mode: str, env: Mapping[str, str]) -> tuple[list[str], str | None]:
    """(lint-configs arguments, SARIF file or None) for ``mode`` ("sarif" or "report") and the environment."""
    user = split_args(env.get("LINT_CONFIGS_ARGS", ""))
    if mode == "sarif":
        sarif = os.path.join(env.get("RUNNER_TEMP") or ".", SARIF_NAME)
        ours = ["--format", "sarif", "--output-file", sarif, "--exit-zero"]
        # after the user's options (the last one wins), but before a "--" that ends them
        cut = user.index("--") if "--" in user else len(user)
        return user[:cut] + ours + user[cut:], sarif
    if mode == "report":
        fmt = "github" if _flag("annotations", env.get("LINT_CONFIGS_ANNOTATIONS", "true")) else "text"
        return ["--format", fmt, *user], None  # first, so that args can choose another format
    raise InputError(f"unknown mode {mode!r} (sarif or report)")


def main(argv: list[str]) -> int:
    """Run lint-configs for ``argv[0]`` (the mode); returns its exit code."""
    try:
        args, sarif = command(argv[0] if argv else "", os.environ)
    except InputError as exc:
        print(f"lint-configs action: error: {exc}", file=sys.stderr)
        return 2
    if sarif and os.environ.get("GITHUB_OUTPUT"):
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as out:
            out.write(f"file={sarif}\n")
    print("lint-configs " + shlex.join(args), file=sys.stderr, flush=True)
    os.execv(sys.executable, [sys.executable, "-m", "linter", *args])
    return 2  # pragma: no cover - execv does not return


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
