"""The cache on the command line: which folder a run uses, ``--no-cache``, and ``lint-configs clean``.

The folder is the user's choice, never a linted file's: ``--cache-dir DIR``, else the environment's
``LINT_CONFIGS_CACHE_DIR``, else ``.lint-configs_cache`` at the project root of a git repository (the
folder of the configuration that applies to the working folder, else the working folder), and for a
folder that no repository holds a folder of its own in the user's cache folder (nothing is written
into such a folder but fixes). It is written wherever it is (outside the run's root too), and used
only when :func:`linter.cache.trust.refusal` allows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from linter import cache

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from typing import Sequence


def folder_for(given: Path | None, cwd: Path, configs, root: Path | str | None = None) -> Path:
    """The cache folder of a run in ``cwd`` with root ``root``: ``given`` (``--cache-dir``), else
    ``LINT_CONFIGS_CACHE_DIR``, else the default (:func:`linter.cache.default_folder`); relative to ``cwd``."""
    if given is None and os.environ.get(cache.ENV_DIR):
        given = Path(os.environ[cache.ENV_DIR])
    folder = given if given is not None else cache.default_folder(cwd, configs, root)
    return folder if folder.is_absolute() else cwd / folder


def open_for_run(args, engine, configs, warn) -> cache.ResultCache | None:
    """The result cache of a lint run, or None: with ``--no-cache`` (or ``LINT_CONFIGS_NO_CACHE``), for
    standard input, ``--explain``, ``--list-launches``, ``--show-files`` and ``--upgrade-to`` (they need
    what only a fresh lint gives: whole launches, each file's skip reason, the launches judged under
    another release), and when the folder may not be used (``warn`` says why)."""
    if getattr(args, "no_cache", False) or cache.disabled_by_environment():
        return None
    if needs_fresh_results(args):
        return None
    from linter.cache.trust import refusal

    folder = folder_for(args.cache_dir, engine.ws.cwd, configs, engine.ws.boundary.root)
    why = refusal(folder)
    if why is not None:
        warn(f"the result cache {engine.ws.display(folder)} is not used: {why}")
        return None
    return cache.ResultCache(folder, engine, shared=folder.parent == cache.user_cache_home())


def needs_fresh_results(args) -> bool:
    """True when the run's output needs more of a result than the cache keeps (:mod:`linter.cache.codec`):
    standard input, ``--explain``, ``--list-launches``, ``--show-files`` and ``--upgrade-to``. Otherwise a
    recorded result gives exactly what a fresh one gives (also across the pool's processes)."""
    return bool(args.stdin_filename is not None or "-" in args.paths or args.explain or args.list_launches
                or args.show_files or args.upgrade_to)


def clean(argv: Sequence[str]) -> int:
    """``lint-configs clean [--cache-dir DIR]``: remove the cache folder a run in this folder uses.
    A folder that is not a lint-configs cache (no ``CACHEDIR.TAG`` of ours) is left, with exit 2."""
    import argparse

    from linter.cache.store import clean as remove, is_cache_folder
    from linter.config import ConfigError, ConfigResolver

    p = argparse.ArgumentParser(prog="lint-configs clean", allow_abbrev=False,
                                description="Remove the result cache of lint-configs (the folder --cache-dir, "
                                            "LINT_CONFIGS_CACHE_DIR or the default .lint-configs_cache names).")
    p.add_argument("--cache-dir", type=Path, default=None, metavar="DIR", help="the cache folder to remove")
    try:
        args = p.parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0) if isinstance(exc.code, int) else 2
    cwd = Path.cwd()
    try:
        configs = ConfigResolver()
    except ConfigError:
        configs = ConfigResolver(isolated=True)
    from linter.boundary import find_root

    root = find_root([cwd], cwd)
    configs.stop = root
    folder = folder_for(args.cache_dir, cwd, configs, root)
    if not os.path.lexists(folder):
        print(f"lint-configs: no result cache at {folder}", file=sys.stderr)
        return 0
    if os.path.islink(folder) or not folder.is_dir() or not is_cache_folder(folder):
        print(f"lint-configs: error: {folder} is not a lint-configs cache folder (no CACHEDIR.TAG of "
              "lint-configs in it): not removed", file=sys.stderr)
        return 2
    from linter.cache.trust import tracked

    if tracked(folder):  # a run never uses it; what git tracks there is the repository's, not ours
        print(f"lint-configs: error: {folder} holds files git tracks (a cache that came with the repository, "
              "never used): not removed; remove it with git rm", file=sys.stderr)
        return 2
    try:
        remove(folder)
    except OSError as exc:
        print(f"lint-configs: error: cannot remove {folder}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"lint-configs: removed the result cache {folder}", file=sys.stderr)
    return 0
