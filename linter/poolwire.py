"""How a worker's result crosses to the parent process (:mod:`linter.pool`): as the result cache records
it when the run's output needs no more (:func:`recorded`), else pickled; either way with each file the
worker read named by its path (its text sent once per worker) and each SGLang option table by its
release, so the parent's results point into its own files and tables. Imported only when a pool runs.
"""

from __future__ import annotations

import copyreg
import pickle
from pathlib import Path

from linter.source import SourceFile
from linter.workspace import Workspace


class Pickler(pickle.Pickler):
    """Pickles a result with each file the worker read named by its path (its text and ``os.stat``
    appended to ``sources`` the first time) and each SGLang option table by its release. (Through
    ``dispatch_table``: the C pickler calls back only for those two types.)"""

    def __init__(self, file, ws: Workspace, shipped: set[str], sources: list) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        from linter.sglang.options import OptionTable, load_table

        self.ws = ws
        self.shipped = shipped
        self.sources = sources
        self.named: set[str] = set()
        self.load_table = load_table
        self.dispatch_table = {**copyreg.dispatch_table, SourceFile: self._source, OptionTable: self._table}

    def _source(self, obj: SourceFile):
        path = obj.path
        if self.ws.unread(path) or self.ws.read(path) is not obj:
            return obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)  # a text of its own (a rendered template)
        key = str(path)
        if key not in self.shipped and key not in self.named:
            self.named.add(key)
            self.sources.append((key, obj.display, obj.text, obj.bom, self.ws.stat_when_read(path)))
        return _source_ref, (key,)

    def _table(self, obj):
        try:
            if self.load_table(obj.version) is obj:
                return _table_ref, (obj.version,)
        except KeyError:
            pass
        return obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)


def recorded(result, ws: Workspace, shipped: set[str], sources: list) -> dict | None:
    """``result`` as the result cache records it (:func:`linter.cache.codec.encode`: the findings, and
    of each launch what a run reads after linting — a fifth of the bytes of the whole result, and a
    quarter of the time to write and read back), with each file it names by path appended to
    ``sources`` as :class:`Pickler` does; None for a result the cache does not record (an internal
    error, an unreadable file, one skipped on its bytes, one with ``--explain``'s or ``--upgrade-to``'s
    parts): it goes pickled whole."""
    from linter.cache import codec
    from linter.isolate import crashed

    if result.prefiltered or result.unreadable or result.passed_over or result.upgrade is not None \
            or crashed(result):
        return None
    data = codec.encode(result, ws)
    named = {s[0] for s in sources}
    for key in codec.paths_on_disk(data):
        if key not in shipped and key not in named:
            named.add(key)
            path = Path(key)
            source = ws.read(path)  # (held: the workspace's own text of it)
            sources.append((key, source.display, source.text, source.bom, ws.stat_when_read(path)))
    return data


def _source_ref(key: str):
    """A placeholder: :class:`Unpickler` gives the adopted file named ``key`` instead."""
    raise pickle.UnpicklingError("a file reference outside the pool")


def _table_ref(version: str):
    """A placeholder: :class:`Unpickler` gives SGLang's option table of ``version`` instead."""
    raise pickle.UnpicklingError("a table reference outside the pool")


class Unpickler(pickle.Unpickler):
    """Reads what :class:`Pickler` wrote: files from ``files`` (path text → the adopted
    :class:`SourceFile`), tables by release."""

    def __init__(self, file, files: dict[str, SourceFile]) -> None:
        super().__init__(file)
        self.files = files

    def find_class(self, module: str, name: str):
        if module == __name__ and name == "_source_ref":
            return self.files.__getitem__
        if module == __name__ and name == "_table_ref":
            from linter.sglang.options import load_table

            return load_table
        return super().find_class(module, name)
