"""How a worker's result crosses to the parent process (:mod:`linter.pool`): pickled, with each file the
worker read named by its path (its text sent once per worker) and each SGLang option table by its
release, so the parent's results point into its own files and tables. Imported only when a pool runs.
"""

from __future__ import annotations

import copyreg
import pickle

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
