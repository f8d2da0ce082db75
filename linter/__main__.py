"""``python -m linter`` — the same as the ``lint-configs`` console script."""

import sys

from linter.cli import entry

if __name__ == "__main__":
    sys.exit(entry())
