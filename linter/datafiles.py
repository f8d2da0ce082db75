"""The data files shipped inside the package (option tables, catalogs, wrapper and dialect tables).

``read_text("linter.sglang.data", "models.json")`` reads the file beside the package's modules.
``importlib.resources`` does the same for any loader, but importing it costs a few milliseconds of
start-up (it imports tempfile, zipfile, random …; CPython 3.11 ``importlib/resources/_common.py``),
so it is used only when the package is not on a file system (a zip import).
"""

from __future__ import annotations

import json
import os

_ROOT = os.path.dirname(os.path.abspath(__file__))


def _folder(package: str) -> str:
    # "linter.sglang.data" -> <site-packages>/linter/sglang/data
    return os.path.join(_ROOT, *package.split(".")[1:])


def read_text(package: str, name: str) -> str:
    """The UTF-8 text of the data file ``name`` of ``package`` (a ``linter.…`` dotted name).
    Raises FileNotFoundError when the package has no such file."""
    path = os.path.join(_folder(package), name)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:  # FileNotFoundError, or NotADirectoryError inside a zip
        if os.path.isdir(_folder(package)):
            raise
    from importlib import resources  # not on a file system: let the package's loader read it

    return resources.files(package).joinpath(name).read_text("utf-8")


def load_json(package: str, name: str):
    """``json.loads(read_text(package, name))``."""
    return json.loads(read_text(package, name))


def names(package: str) -> list[str]:
    """The names of the files in ``package``'s folder (unsorted)."""
    folder = _folder(package)
    if os.path.isdir(folder):
        return os.listdir(folder)
    from importlib import resources

    return [p.name for p in resources.files(package).iterdir()]
