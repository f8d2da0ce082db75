"""Many files linted on several processes, with the output of one.

A run lints each file the mention filter lets through on its own — a *unit*: the file and the files
it reads (a compose ``.env`` or stack, a ``--config`` YAML, a chart's ``values.yaml``). Only what
comes after is cross-file: sharing one fix among the readers of one value, applying fixes, the
baseline and the report. :func:`lint_all` takes the walked files in order and lints the first
:data:`MIN_UNITS` units in this process; when more come and more than one process may run
(``--jobs``), worker processes (forked on Linux) lint the next units while this process walks on,
and everything cross-file stays in this process, in the walk's order. The results are those of one
process:

- a worker sends each :class:`~linter.engine.FileResult` pickled, naming the files it read by path
  (their text travels once per worker) and SGLang's option tables by release; this process puts
  those files in its own :class:`~linter.workspace.Workspace`, so every span of a file shares one
  :class:`~linter.source.SourceFile` as in one process, and ``--fix`` checks the bytes that were read;
- in one process, a file that an earlier unit already read (the second file of a COMPOSE_FILE
  stack) is linted the whole way instead of being skipped by the filter on its bytes: workers say
  which files each unit read, and such a file is linted here once the units before it are answered;
- a worker that dies (a crash in a parser's C code, the OOM killer) or spends longer than
  :data:`UNIT_TIMEOUT` on one file loses only that file, which gets SGL000 ``internal-error`` as an
  exception gives it in one process; the worker is replaced and the other units go on.

With a result cache (:mod:`linter.cache`), this process answers a unit from the cache when it can
(the unit then counts as having read the files its cached result read) and the workers lint the
rest, noting what each read; this process keeps their results in the cache.

``multiprocessing`` is imported only when a worker starts.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time
from collections import deque
from io import BytesIO
from pathlib import Path

from linter import engine as engine_module
from linter.engine import Engine, FileResult, skipped_unmentioned, unmentioned_text, without_mention
from linter.isolate import internal_error, lint_file
from linter.source import SourceFile
from linter.workspace import recording

MIN_UNITS = 8
"""A pool starts when more units than this pass the mention filter: below it, starting processes
costs more than it saves (a launch file takes a few milliseconds; a pre-commit run names a few)."""

MIN_UNITS_SPAWNED = 40
""":data:`MIN_UNITS` where workers are spawned (not forked): each imports the linter again (~0.3 s)."""

MIN_SECONDS = 0.4
"""With ``--jobs auto``, the CPU seconds this process lints (and walks) before workers start: a pool
adds a fifth to the CPU time (each result is pickled, sent and read back), so it pays only on a run
long enough for the CPUs it adds to cut that back. Measured on 2 CPUs: 16 launch files (0.1 s) took
15 % more CPU and 6 % more time with workers than in one process; 160 files took 12 % less time."""

MIN_SECONDS_SPAWNED = 1.5
""":data:`MIN_SECONDS` where workers are spawned: each imports the linter again (~0.3 s)."""

UNIT_TIMEOUT = 120.0
"""Seconds one file may take in a worker before it is given up (SGL000) and the worker replaced. The
limits of :mod:`linter.limits` keep every file under about a second; this bounds a bug."""

AHEAD = 4
"""Units sent to a worker before it has answered: it never waits for this process, which is walking."""

WINDOW = 4096
"""Most walked files waiting for an earlier unit's answer: past it the walk waits, so a slow file
keeps no more than this many results in memory."""

_POLL_EVERY = 64
"""Walked files between two looks at the workers' answers while the walk goes on."""

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from typing import Iterable, Iterator, TypeVar
    C = TypeVar("C")


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one), at least 1."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13
    if count is not None:
        return count() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def idle_cpus() -> int:
    """CPUs no other process is using, as the kernel counts them (Linux ``/proc/loadavg``); elsewhere
    every CPU counts as idle. Two counts, the busier wins: the processes runnable now (this one aside),
    and the last minute's load average less one (this run, or the run just before it, of a user or a
    script that runs the linter again and again). The instant count alone misses the other jobs of a
    shared machine between their bursts: there, the pool's workers only share the same CPUs, and
    pickling their results makes a run slower than one process (measured: 22 s against 21 s wall,
    40 % more CPU, over 2,400 launch files on 2 busy CPUs)."""
    cpus = available_cpus()
    try:
        with open("/proc/loadavg", "rb") as fh:
            fields = fh.read().split()
        running = int(fields[3].split(b"/")[0])
        load = float(fields[0])
    except (OSError, ValueError, IndexError):
        return cpus
    busy = max(running - 1, int(load + 0.5) - 1)
    return max(0, cpus - max(0, busy))


def start_method() -> str:
    """``fork`` on Linux (workers start in milliseconds with every module this process loaded), else
    ``spawn`` (macOS and Windows, where fork is unsafe or absent: each worker imports the linter
    again), and ``spawn`` too when this process runs threads (a fork copies a lock another thread
    may hold)."""
    import threading

    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


class WorkerLost(Exception):
    """The worker process linting a file died or hung; the message says which."""


def lint_all(engine: Engine, candidates: Iterable[C], jobs: int | None = None, *, skip_unmentioned: bool = False,
             timeout: float | None = None, method: str | None = None,
             cache=None, recorded: bool = False, freeze: bool = False) -> Iterator[tuple[C, FileResult | None]]:
    """``(candidate, lint_file(engine, candidate.path))`` for each candidate in order, as one process
    gives them; a candidate has ``path`` (a :class:`~pathlib.Path`, absolute) and ``name`` (the same
    as a string), as :class:`linter.discover.Candidate`. With ``skip_unmentioned`` (no output names
    skipped files), a file not read yet that the mention filter skips on its bytes gives None instead
    of a result (no ``Path`` nor result is made for it). ``jobs``: processes linting at once (None: :func:`available_cpus`; 1: this process
    only). The first :data:`MIN_UNITS` units are linted in this process; with ``jobs`` > 1 the pool
    takes the next ones, and each result comes once the units before it are answered (so the results
    waiting here stay few). ``timeout`` (seconds, default :data:`UNIT_TIMEOUT`) and ``method`` (a
    multiprocessing start method, default :func:`start_method`) are for tests. ``cache`` (a
    :class:`linter.cache.ResultCache`) answers the units it can and keeps the others' results. With
    ``recorded`` (the output needs no more of a result than the cache keeps: see
    :func:`linter.cache.cli.needs_fresh_results`), a worker sends a result as the cache records it
    (:mod:`linter.cache.codec`), not pickled whole. With ``freeze`` (the process ends after the run: the
    command), each file linted in this process is settled (:func:`_settle`). Never raises for a bad file
    (SGL000 on it instead)."""
    size = available_cpus() if jobs is None else jobs
    if size <= 1:
        for cand in candidates:
            if cache is None:
                if skip_unmentioned and _skipped_on_bytes(engine.ws, cand):
                    yield cand, None
                else:
                    res = lint_file(engine, cand.path, mentioned=skip_unmentioned)
                    if freeze:
                        _settle(res)
                    yield cand, res
            elif (got := _cached(cache, cand)) is not None:
                yield cand, got[0]
            elif _skipped_on_bytes(engine.ws, cand, cache):
                yield cand, _skipped(engine, cand, skip_unmentioned)
            else:
                yield cand, cache.lint(cand.path, look=False)[0]
        return
    run = _Run(engine, size, UNIT_TIMEOUT if timeout is None else timeout, method, skip_unmentioned, cache,
               auto=jobs is None, recorded=recorded, freeze=freeze)
    try:
        for cand in candidates:
            yield from run.add(cand)
        yield from run.finish()
    finally:
        run.close()


def _settle(result: FileResult) -> None:
    """After a file linted in this process: its garbage cycles are collected, and what is still alive
    (its result, the files it read: kept until the run ends) leaves the collector's view, as a
    worker's result does (:meth:`_Pool._take`). Otherwise each result is scanned again by the
    collections of the files after it (7 % of a run over 2,400 launch files; half of it now). Nothing
    of a file's own work is alive between two files, so nothing frozen here becomes garbage later
    but with the results. Only in a process that ends after the run (:func:`linter.cli.entry`): code
    that calls :func:`linter.cli.main` and goes on keeps its collector as it was."""
    if result.prefiltered or result.source is None:
        return  # nothing was parsed
    gc.collect(1)
    gc.freeze()


def _cached(cache, cand) -> tuple[FileResult, list[Path]] | None:
    """The cache's answer for ``cand`` (:meth:`linter.cache.ResultCache.lookup`) when it holds a result of
    it: asked before the mention filter, whose answer a hit makes known (the same bytes passed it)."""
    return cache.lookup(cand.path) if cache.has_result(cand.name) else None


def _skipped_on_bytes(ws, cand, cache=None) -> bool:
    """The mention filter skips ``cand`` on its bytes (a file an earlier unit read goes the whole way);
    ``cache`` may know it from the file's stat."""
    if not ws.unread_name(cand.name):
        return False
    if cache is not None:
        return cache.unmentioned(cand.name, getattr(cand, "folder", None))
    return unmentioned_text(cand.name) is not None


def _skipped(engine: Engine, cand, skip_unmentioned: bool) -> FileResult | None:
    """What a file the mention filter skipped gives: nothing (``skip_unmentioned``), else its result."""
    if skip_unmentioned:
        return None
    if not engine.options.skip_reasons:
        return skipped_unmentioned(cand.path)
    return without_mention(cand.path) or lint_file(engine, cand.path)


class _Run:
    """One run's candidates in order. Until :data:`MIN_UNITS` units have passed the filter, each
    candidate is linted here as one process lints it; then each is either skipped by the filter on
    its bytes (``quick``) or a unit sent to the pool, and waits in ``window`` until it can be given."""

    def __init__(self, engine: Engine, size: int, timeout: float, method: str, skip_unmentioned: bool,
                 cache=None, auto: bool = False, recorded: bool = False, freeze: bool = False) -> None:
        self.engine = engine
        self.cache = cache
        self.recorded = recorded
        self.freeze = freeze
        self.auto = auto
        """``--jobs auto``: workers start only while CPUs are idle (:meth:`_maybe_start_pool`)."""
        self.skip = skip_unmentioned
        self.size = size
        self.timeout = timeout
        self.method = method
        """The multiprocessing start method (None: :func:`start_method`, asked when a pool may start)."""
        self.units = 0
        self.pool: _Pool | None = None
        self.window: deque[tuple[int, object, object]] = deque()
        """(index, candidate, what is known: _UNIT, _SKIPPED or the filter's FileResult)."""
        self.index = 0
        self.began = time.process_time()
        engine.ws.reads = []  # what this process reads before the pool starts

    def add(self, cand) -> Iterator[tuple]:
        engine = self.engine
        ws = engine.ws
        cache = self.cache
        if self.pool is None:
            if cache is not None:
                got = _cached(cache, cand)
                if got is not None:
                    yield cand, got[0]
                    return
                if _skipped_on_bytes(ws, cand, cache):
                    yield cand, _skipped(engine, cand, self.skip)
                    return
                res, _, hit = cache.lint(cand.path, look=False)
                yield cand, res
                if not hit:
                    self.units += 1
                    self._maybe_start_pool()
                return
            if self.skip and _skipped_on_bytes(ws, cand):
                yield cand, None
                return
            res = lint_file(engine, cand.path, mentioned=self.skip)
            if self.freeze:
                _settle(res)
            yield cand, res
            if not res.prefiltered:
                self.units += 1
                self._maybe_start_pool()
            return
        i = self.index
        self.index += 1
        if cache is not None:
            got = _cached(cache, cand)
            if got is not None:
                known = _Hit(got[0])
                self.pool.read_by(i, got[1])
            elif cache.unmentioned(cand.name, getattr(cand, "folder", None)):
                known = _SKIPPED if self.skip else _skipped(engine, cand, False)
            else:
                known = _UNIT
        elif self.skip:
            known = _UNIT if unmentioned_text(cand.name) is None else _SKIPPED
        else:
            known = without_mention(cand.path, engine.options.skip_reasons) or _UNIT
        self.window.append((i, cand, known))
        if known is _UNIT:
            self.pool.submit(i, cand.path)
        if i % _POLL_EVERY == 0:
            self.pool.pump(block=False)
        yield from self._ready()
        while len(self.window) > WINDOW:  # an earlier unit is slow: wait for it
            self.pool.pump(block=True)
            yield from self._ready()

    def _maybe_start_pool(self) -> None:
        """Start the pool once :data:`MIN_UNITS` units were linted here, when workers pay: with ``--jobs
        auto``, only after :data:`MIN_SECONDS` of CPU here (a short run is over before workers pay for
        themselves) and with an idle CPU (on a busy machine more processes only share the same CPUs,
        and pickling results costs more than it saves), as many workers as CPUs are idle then; asked
        again every :data:`MIN_UNITS` units."""
        fork = self._method() == "fork"
        least = MIN_UNITS if fork else MIN_UNITS_SPAWNED
        if self.units < least or self.units % MIN_UNITS:
            return
        if self.auto:
            if time.process_time() - self.began < (MIN_SECONDS if fork else MIN_SECONDS_SPAWNED):
                return
            idle = idle_cpus()
            if idle < 1:
                return
            self.size = min(self.size, idle)
        self._start_pool()

    def _method(self) -> str:
        if self.method is None:
            self.method = start_method()
        return self.method

    def _start_pool(self) -> None:
        ws = self.engine.ws
        self.pool = _Pool(self.engine, self.size, self.timeout, self._method(), self.cache, self.recorded)
        if self.cache is not None:
            self.cache.walk_skips = False  # every file reaches the window: a worker may have read it
        for p in ws.reads:  # read before every unit of the pool
            self.pool.first_reader.setdefault(str(p), -1)
        ws.reads = None

    def _ready(self) -> Iterator[tuple]:
        """The results at the head of the window that are known: a unit's once answered; a skipped
        file's once every unit before it is answered (one of them may have read it)."""
        pool = self.pool
        while self.window:
            i, cand, known = self.window[0]
            if known is _UNIT:
                if i not in pool.done:
                    return
                res = pool.done.pop(i)
                if res is None:  # no worker could give it: lint it here
                    res = pool.lint_here(i, cand.path, look=False)
            elif isinstance(known, _Hit):
                res = known.result
            else:
                if pool.lowest_open() < i:
                    return
                res = None if known is _SKIPPED else known
                if pool.first_reader.get(cand.name, i) < i and self.engine.ws.try_read(cand.path) is not None:
                    # an earlier unit read this file: one process lints it the whole way
                    res = pool.lint_here(i, cand.path)
            self.window.popleft()
            yield cand, res

    def finish(self) -> Iterator[tuple]:
        if self.pool is None:
            return
        pool = self.pool
        while True:
            yield from self._ready()
            if not self.window:
                break
            if pool.queue:
                # the walk is over and the workers are busy: this process lints the last unit
                # waiting (they take them from the front)
                index, path = pool.queue.pop()
                pool._answer(index, pool.lint_here(index, path, look=False))
                pool.pump(block=False)
                continue
            if not pool.queue and not any(w.sent for w in pool.workers):
                # nothing is under way, yet the head waits (never expected): lint the rest here
                for index in list(pool.open):
                    if index not in pool.answered:
                        pool._answer(index, None)
                continue
            pool.pump(block=True)
        # What comes next (sharing fixes with the readers beside a file, --fix) lints again and
        # skips only files this process has not read: the files workers read count as read, as in
        # one process (most are here already, sent with the results that point into them).
        ws = self.engine.ws
        for key in pool.first_reader:
            path = Path(key)
            if ws.unread(path):
                ws.try_read(path)

    def close(self) -> None:
        self.engine.ws.reads = None
        if self.pool is not None:
            self.pool.close()


_UNIT = object()  # a candidate sent to the pool
_SKIPPED = object()  # a candidate skipped on its bytes, with no result (skip_unmentioned)


class _Hit:
    """A candidate answered from the result cache."""

    __slots__ = ("result",)

    def __init__(self, result: FileResult) -> None:
        self.result = result


class _Worker:
    def __init__(self, proc, conn) -> None:
        self.proc = proc
        self.conn = conn
        self.sent: deque[tuple[int, Path]] = deque()
        self.since = 0.0  # when the unit at the head of ``sent`` started (monotonic seconds)


class _Pool:
    """Worker processes fed with units; answers are kept by unit index."""

    def __init__(self, engine: Engine, size: int, timeout: float, method: str, cache=None,
                 recorded: bool = False) -> None:
        self.recorded = recorded
        self.ctx = None  # multiprocessing's context, once a worker starts
        self.engine = engine
        self.cache = cache
        self.size = size
        self.timeout = timeout
        self.method = method
        self.queue: deque[tuple[int, Path]] = deque()
        self.workers: list[_Worker] = []
        self.done: dict[int, FileResult | None] = {}
        """Answers by unit index (None: no worker could lint it, this process does)."""
        self.open: deque[int] = deque()
        """Units submitted, in order, the answered ones dropped from the front (:meth:`lowest_open`)."""
        self.answered: set[int] = set()
        """Units answered but still in ``open``."""
        self.first_reader: dict[str, int] = {}
        """The first unit (its index) that read each file (its path as text)."""
        self.files: dict[str, SourceFile] = {}
        """The files workers read and sent, by path text, as this process's workspace holds them."""
        self.broken = False  # no worker could be started: the rest is linted by this process

    # -- feeding ----------------------------------------------------------------------------------

    def submit(self, index: int, path: Path) -> None:
        """Queue unit ``index`` (the file ``path``) for the next free worker."""
        self.queue.append((index, path))
        self.open.append(index)
        self._fill()

    def lowest_open(self) -> float:
        """The index of the first unit not answered yet (infinity when all are)."""
        while self.open and self.open[0] in self.answered:
            self.answered.discard(self.open.popleft())
        return self.open[0] if self.open else float("inf")

    def _fill(self) -> None:
        if self.broken:
            while self.queue:  # this process lints them
                self._answer(self.queue.popleft()[0], None)
        while self.queue and not self.broken:
            w = min(self.workers, key=lambda w: len(w.sent)) if self.workers else None
            if (w is None or len(w.sent) >= 2) and len(self.workers) < self.size:
                # every worker has a unit waiting: one more (so a walk that finds few units on many
                # CPUs starts few workers)
                if not self._start():
                    return
                continue
            if len(w.sent) >= AHEAD:
                return
            unit = self.queue.popleft()
            if not w.sent:
                w.since = time.monotonic()
            w.sent.append(unit)
            try:
                w.conn.send(unit)
            except OSError:  # it died: pump() finds out and gives the unit to another
                pass

    def _start(self) -> bool:
        try:
            if self.ctx is None:
                import multiprocessing

                # The parent needs the rules to read results; loaded before forking, workers share them.
                engine_module._load()
                self.ctx = multiprocessing.get_context(self.method)
            parent_end, child_end = self.ctx.Pipe()
            # A forked worker closes the other ends it inherits, so that it (and its siblings) see
            # end of file when this process is gone.
            inherited = [w.conn for w in self.workers] + [parent_end] if self.method == "fork" else []
            if self.method == "fork":
                # Objects made so far stay out of the collector: its passes would write to (and so
                # copy) every page each worker shares with this process.
                gc.freeze()
            proc = self.ctx.Process(target=_serve, args=(child_end, self.engine, inherited, self.recorded),
                                    name="lint-configs worker", daemon=True)
            proc.start()
            child_end.close()
        except Exception:  # noqa: BLE001 - no process can start here (limits, sandbox): lint here
            self.broken = True
            self._fill()
            return False
        self.workers.append(_Worker(proc, parent_end))
        return True

    def lint_here(self, index: int, path: Path, look: bool = True) -> FileResult:
        """Lint candidate ``index`` in this process (from the cache when ``look`` and it can), noting
        the files it read."""
        ws = self.engine.ws
        ws.reads = []
        try:
            if self.cache is not None:
                result = self.cache.lint(path, look)[0]
            else:
                result = lint_file(self.engine, path)
        finally:
            reads, ws.reads = ws.reads, None
        self.read_by(index, reads)
        return result

    def read_by(self, index: int, reads) -> None:
        """Unit ``index`` read the files ``reads`` (paths)."""
        for p in map(str, reads):
            if self.first_reader.get(p, index + 1) > index:
                self.first_reader[p] = index

    # -- answers ----------------------------------------------------------------------------------

    def pump(self, block: bool) -> None:
        """Read the answers that arrived; with ``block``, first wait for one (or a worker's death,
        or the oldest unit's timeout)."""
        busy = [w for w in self.workers if w.sent]
        if not busy:
            self._fill()
            return
        if not block:
            # while walking: one poll per pipe (a closed pipe reads as ready and fails in _drain)
            for w in busy:
                if w.conn.poll() and not self._drain(w):
                    self._lost(w, _death(w.proc))
            self._fill()
            return
        from multiprocessing.connection import wait

        limit = max(0.0, min(w.since for w in busy) + self.timeout - time.monotonic())
        ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], limit))
        for w in busy:
            if w.conn in ready or w.proc.sentinel in ready:
                alive = self._drain(w)
                if not alive or (w.proc.sentinel in ready and not w.proc.is_alive()):
                    self._lost(w, _death(w.proc))
        now = time.monotonic()
        for w in list(self.workers):
            if w.sent and now - w.since > self.timeout:
                self._lost(w, f"it took longer than {self.timeout:g} s (the process linting it was stopped)")
        self._fill()

    def _drain(self, w: _Worker) -> bool:
        """Take every answer waiting from ``w``; False when its pipe is closed (the worker is gone)."""
        try:
            while w.sent and w.conn.poll():
                self._take(w, w.conn.recv())
        except (EOFError, OSError):
            return False
        return True

    def _take(self, w: _Worker, message) -> None:
        index, reads, sources, payload, deps = message
        if not w.sent or w.sent[0][0] != index:  # not what was asked: treat the worker as broken
            raise OSError("unexpected answer")
        _, path = w.sent.popleft()
        w.since = time.monotonic()
        ws = self.engine.ws
        for key, display, text, bom, st in sources:
            if key not in self.files:
                self.files[key] = ws.adopt(SourceFile(Path(key), display, text, bom), st)
        for p in reads:
            if self.first_reader.get(p, index + 1) > index:
                self.first_reader[p] = index
        result = None  # unless it reads back: this process lints it
        if payload is not None:  # (None: it could not be sent)
            try:
                if isinstance(payload, dict):  # the result as the cache records it
                    from linter.cache.codec import decode

                    result = decode(payload, path, self.files)
                else:
                    from linter.poolwire import Unpickler

                    result = Unpickler(BytesIO(payload), self.files).load()
            except Exception:  # noqa: BLE001
                pass
        if result is not None and self.cache is not None and deps is not None:
            self.cache.keep_result(path, result, deps)
        self._answer(index, result)
        # The results live until the run ends: the collector need not walk them again and again
        # (a quarter of this process's time on 2,000 results otherwise).
        gc.freeze()

    def _answer(self, index: int, result: FileResult | None) -> None:
        self.done[index] = result
        self.answered.add(index)

    def _lost(self, w: _Worker, why: str) -> None:
        """``w`` died or hung: the unit it was on gets SGL000; the others go to another worker."""
        if w.proc.is_alive():
            w.proc.kill()
        w.proc.join()
        w.conn.close()
        self.workers.remove(w)
        if w.sent:
            index, path = w.sent.popleft()
            self._answer(index, internal_error(self.engine, path, WorkerLost(why), "linting"))
            self.queue.extendleft(reversed(w.sent))
            w.sent.clear()

    def close(self) -> None:
        """Stop the workers (at once: anything they still do is not needed)."""
        for w in self.workers:
            try:
                w.conn.send(None)
            except OSError:
                pass
        for w in self.workers:
            w.proc.join(timeout=0.5)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join()
            w.conn.close()
        self.workers = []


def _death(proc) -> str:
    proc.join(timeout=1.0)
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the process linting it was killed by {name}"
    return f"the process linting it exited with status {code}"


# -- the worker side ----------------------------------------------------------------------------


def _serve(conn, engine: Engine, inherited: list, recorded: bool = False) -> None:
    """A worker: lint each ``(index, path)`` received, answer ``(index, files read, new files,
    pickled FileResult or None, its dependencies or None)`` — with ``recorded``, the result as the
    cache records it where that gives all of it (:func:`linter.poolwire.recorded`), else pickled; stop
    on None or when this process's end of the pipe closes."""
    for c in inherited:
        c.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the parent, which stops the workers
    ws = engine.ws
    shipped: set[str] = set()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        index, path = task
        ws.reads = []
        deps = None
        # (a unit passed the mention filter in the parent)
        if ws.track_deps:  # a result cache keeps the result: what it depends on travels with it
            with recording() as deps:
                result = lint_file(engine, path, mentioned=True)
        else:
            result = lint_file(engine, path, mentioned=True)
        reads = list(dict.fromkeys(map(str, ws.reads)))
        sources: list[tuple] = []
        try:
            from linter.poolwire import Pickler
            from linter.poolwire import recorded as record

            payload = record(result, ws, shipped, sources) if recorded else None
            if payload is None:
                out = BytesIO()
                Pickler(out, ws, shipped, sources).dump(result)
                payload = out.getvalue()
        except Exception:  # noqa: BLE001 - something that cannot be pickled: the parent lints it
            payload, sources = None, []
        try:
            conn.send((index, reads, sources, payload, deps))
        except (OSError, ValueError):
            return
        shipped.update(s[0] for s in sources)
