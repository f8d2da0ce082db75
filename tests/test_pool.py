"""The process pool (linter/pool.py): a run linted by several processes gives byte for byte what one
process gives — stdout, stderr, exit code, JSON, fixed files — and a worker that dies or hangs costs
only the file it was on."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from linter import pool
from linter.config import ConfigResolver
from linter.discover import walk
from linter.engine import Engine, RunOptions, without_mention
from linter.workspace import Workspace
from tests.helpers import FOLDED_H100, ROOT, chdir, run, write_tree
from tests.test_imports import imported_modules

SHELL = ("#!/bin/bash\n# lint-configs: target-gpu=H100\n"
         "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 \\\n"
         "  --attention-backend {backend} --enable-deterministic-inference --port {port}\n")
PYTHON = ("# lint-configs: target-gpu=H100\nimport subprocess\n\n"
          "subprocess.run([\"python3\", \"-m\", \"sglang.launch_server\", \"--model-path\", \"deepseek-ai/DeepSeek-V3\",\n"
          "                \"--attention-backend\", \"{backend}\", \"--enable-deterministic-inference\"])\n")


def compose_reading(target: str) -> str:
    return (f"# lint-configs: target-gpu={target}\nservices:\n  sglang:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
            "    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3\n"
            "      --attention-backend ${ATTN} --enable-deterministic-inference\n")


def make_repo(root: Path) -> Path:
    """Launch files of several formats (the examples: compose, Helm, Kubernetes, SkyPilot, Dockerfile,
    Markdown; plus shell and Python), a .env two compose files read, a COMPOSE_FILE stack whose second
    file does not mention SGLang, files that cannot be parsed or decoded, and files of no launch."""
    shutil.copytree(ROOT / "examples", root / "examples")
    files: dict[str, str | bytes] = {
        "shared/.env": "ATTN=fa4\n",
        "shared/a.yml": compose_reading("H100"),
        "shared/b.yml": compose_reading("H100"),
        # docker compose reads a.yaml then z.yaml: z.yaml changes the SGLang service's environment
        "stack/.env": "COMPOSE_FILE=a.yaml:z.yaml\n",
        "stack/a.yaml": FOLDED_H100.replace("  sglang:", "  llm:"),
        "stack/z.yaml": "services:\n  llm:\n    environment:\n      - LOG_LEVEL=debug\n",
        "broken/compose.yml": "services:\n  sglang:\n    command: python3 -m sglang.launch_server\n  - [\n",
        "undecodable/run.sh": b"#!/bin/sh\npython3 -m sglang.launch_server --model-path \xff\xfe\n",
        "plain/compose.yaml": "services:\n  web:\n    image: nginx\n",
        "plain/tool.py": "print('hello')\n",
    }
    for k in range(6):
        backend = ("fa4", "fa3", "triton")[k % 3]
        files[f"scripts/serve{k}.sh"] = SHELL.format(backend=backend, port=30000 + k)
        files[f"py/launch{k}.py"] = PYTHON.format(backend=backend)
        files[f"services/s{k}/docker-compose.yml"] = FOLDED_H100.replace("fa4", backend)
    write_tree(root, files)
    return root


class Spy:
    """Counts the units workers answered (in this process: the parent's side of the pool)."""

    def __init__(self, monkeypatch) -> None:
        self.answered = 0
        take = pool._Pool._take

        def counting(inner, w, message):
            self.answered += 1
            return take(inner, w, message)

        monkeypatch.setattr(pool._Pool, "_take", counting)


MODES = [
    [],
    ["--format", "json"],
    ["--format", "concise"],
    ["--format", "sarif"],
    ["--statistics"],
    ["--show-files"],
    ["--show-fixes"],
    ["--list-launches", "--format", "json"],
    ["--diff"],
    ["--diff", "--unsafe-fixes"],
]


@pytest.mark.parametrize("args", MODES, ids=lambda a: " ".join(a) or "text")
def test_a_run_on_two_processes_prints_what_one_process_prints(tmp_path, capsys, monkeypatch, args):
    repo = make_repo(tmp_path)
    spy = Spy(monkeypatch)
    one = run(repo, capsys, "--jobs", "1", "--color", "never", *args, ".")
    assert spy.answered == 0
    two = run(repo, capsys, "--jobs", "2", "--color", "never", *args, ".")
    assert spy.answered > 0  # the pool did lint
    assert two == one  # exit code, stdout, stderr


def test_the_pool_run_finds_what_the_repository_holds(tmp_path, capsys, monkeypatch):
    repo = make_repo(tmp_path)
    code, out, _ = run(repo, capsys, "--jobs", "2", "--format", "json", ".")
    diags = json.loads(out)
    assert code == 1
    paths = {d["path"] for d in diags}
    assert {"broken/compose.yml", "undecodable/run.sh", "scripts/serve0.sh", "py/launch0.py",
            "services/s0/docker-compose.yml", "shared/.env", "examples/runbooks/deepseek-v3-h100.md"} <= paths
    # the .env two compose files read: one finding, one fix that serves both readers
    env = [d for d in diags if d["path"] == "shared/.env" and d["code"] == "SGL101"]
    assert len(env) == 1 and env[0]["fix"]["edits"][0]["content"] == "fa3"


def test_a_file_an_earlier_unit_read_is_linted_as_one_process_lints_it(tmp_path, capsys):
    # stack/z.yaml does not mention SGLang, so the filter on its bytes skips it; in one process it is
    # read with stack/a.yaml first, and then linted the whole way (as part of the stack): a launch file
    repo = make_repo(tmp_path)
    assert without_mention(repo / "stack/z.yaml").skipped == "does not mention SGLang"
    for jobs in ("1", "2"):
        _, out, _ = run(repo, capsys, "--jobs", jobs, "--show-files", "--format", "json", ".")
        rows = {r["path"]: r for r in json.loads(out)}
        assert rows["stack/z.yaml"] == {"path": "stack/z.yaml", "format": "compose", "launches": 1, "skipped": None}
        assert rows["plain/compose.yaml"]["skipped"] == "does not mention SGLang"


def test_fix_on_two_processes_writes_what_one_process_writes(tmp_path, capsys, monkeypatch):
    one = make_repo(tmp_path / "one")
    two = make_repo(tmp_path / "two")
    spy = Spy(monkeypatch)
    first = run(one, capsys, "--jobs", "1", "--fix", "--unsafe-fixes", "--show-fixes", ".")
    second = run(two, capsys, "--jobs", "2", "--fix", "--unsafe-fixes", "--show-fixes", ".")
    assert spy.answered > 0
    assert second == first
    assert "Fixed " in first[1]
    written = {p.relative_to(one): p.read_bytes() for p in sorted(one.rglob("*")) if p.is_file()}
    assert written == {p.relative_to(two): p.read_bytes() for p in sorted(two.rglob("*")) if p.is_file()}
    assert b"fa3" in written[Path("shared/.env")]  # a fix was written, in a file read by two others


def test_the_baseline_is_applied_alike(tmp_path, capsys):
    repo = make_repo(tmp_path)
    run(repo, capsys, "--jobs", "2", "--write-baseline", "base.json", ".")
    (repo / "scripts/serve9.sh").write_text(SHELL.format(backend="fa4", port=1))
    one = run(repo, capsys, "--jobs", "1", "--baseline", "base.json", "--format", "concise", ".")
    two = run(repo, capsys, "--jobs", "2", "--baseline", "base.json", "--format", "concise", ".")
    assert two == one
    assert one[1].startswith("scripts/serve9.sh:")  # only the new finding is reported


# -- failures ------------------------------------------------------------------------------------


def linted(root: Path, jobs: int, **kw) -> dict[str, list[tuple]]:
    """lint_all over ``root``: file → its findings as (code, line, message)."""
    ws = Workspace(root)
    engine = Engine(ws, RunOptions(), ConfigResolver(isolated=True))
    out = {}
    for cand, res in pool.lint_all(engine, walk([root], lambda p, d: False, False), jobs, **kw):
        out[ws.display(cand.path)] = [(d.code, d.span.line, d.message) for d in res.diagnostics]
    return out


def in_a_worker(parent: int, name: str, action, monkeypatch) -> None:
    """Make ``action()`` happen when a worker process (not this one) lints a file named ``name``."""
    real = pool.lint_file

    def lint_file(engine, path, fmt=None, mentioned=False):
        if path.name == name and os.getpid() != parent:
            action()
        return real(engine, path, fmt, mentioned)

    monkeypatch.setattr(pool, "lint_file", lint_file)


def test_a_worker_that_dies_costs_only_its_file(tmp_path, monkeypatch):
    repo = make_repo(tmp_path)
    (repo / "c").mkdir()
    (repo / "c/crash.sh").write_text(SHELL.format(backend="fa4", port=1))
    monkeypatch.setattr(pool, "MIN_UNITS", 1)  # c/crash.sh is the second unit (after broken/): a worker's, not this process's
    expected = linted(repo, 1)
    in_a_worker(os.getpid(), "crash.sh", lambda: os.kill(os.getpid(), signal.SIGKILL), monkeypatch)
    got = linted(repo, 2)
    [(code, line, message)] = got.pop("c/crash.sh")
    assert (code, line) == ("SGL000", 1)
    assert "WorkerLost: the process linting it was killed by SIGKILL" in message
    del expected["c/crash.sh"]
    assert got == expected


def test_a_file_that_hangs_in_a_worker_costs_only_that_file(tmp_path, monkeypatch):
    repo = make_repo(tmp_path)
    (repo / "c").mkdir()
    (repo / "c/hang.sh").write_text(SHELL.format(backend="fa4", port=1))
    monkeypatch.setattr(pool, "MIN_UNITS", 1)  # c/hang.sh is the second unit (after broken/): a worker's, not this process's
    expected = linted(repo, 1)
    in_a_worker(os.getpid(), "hang.sh", lambda: time.sleep(3600), monkeypatch)
    got = linted(repo, 2, timeout=1.0)
    [(code, _, message)] = got.pop("c/hang.sh")
    assert code == "SGL000"
    assert "took longer than 1 s (the process linting it was stopped)" in message
    del expected["c/hang.sh"]
    assert got == expected


def test_a_crash_in_a_worker_exits_2_and_the_rest_is_reported(tmp_path, capsys, monkeypatch):
    repo = make_repo(tmp_path)
    (repo / "c").mkdir()
    (repo / "c/crash.sh").write_text(SHELL.format(backend="fa4", port=1))
    monkeypatch.setattr(pool, "MIN_UNITS", 1)  # c/crash.sh is the second unit (after broken/): a worker's, not this process's
    in_a_worker(os.getpid(), "crash.sh", lambda: os._exit(3), monkeypatch)
    code, out, _ = run(repo, capsys, "--jobs", "2", "--format", "json", ".")
    diags = json.loads(out)
    assert code == 2
    [crash] = [d for d in diags if d["path"] == "c/crash.sh"]
    assert crash["code"] == "SGL000" and "exited with status 3" in crash["message"]
    assert any(d["path"] == "scripts/serve0.sh" and d["code"] == "SGL101" for d in diags)


def test_spawned_workers_give_the_same_results(tmp_path, monkeypatch):
    # macOS and Windows start workers with spawn: the engine travels pickled
    repo = make_repo(tmp_path)
    spy = Spy(monkeypatch)
    monkeypatch.setattr(pool, "MIN_UNITS_SPAWNED", pool.MIN_UNITS)
    assert linted(repo, 2, method="spawn") == linted(repo, 1)
    assert spy.answered > 0


# -- when the pool is used -----------------------------------------------------------------------


def test_a_handful_of_launch_files_is_linted_in_one_process(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {f"s{k}.sh": SHELL.format(backend="fa4", port=k) for k in range(pool.MIN_UNITS)})

    def no_worker(*args):
        raise AssertionError("a worker started")

    monkeypatch.setattr(pool._Pool, "_start", no_worker)
    code, out, _ = run(tmp_path, capsys, "--jobs", "2", "--format", "concise", ".")
    assert code == 1
    assert out.count("SGL101") == pool.MIN_UNITS


def test_multiprocessing_is_imported_only_when_the_pool_starts(tmp_path):
    write_tree(tmp_path, {f"s{k}.sh": SHELL.format(backend="fa4", port=k) for k in range(pool.MIN_UNITS)})
    assert not any(m.startswith("multiprocessing") for m in imported_modules(tmp_path, "--jobs", "2", "."))
    (tmp_path / "one-more.sh").write_text(SHELL.format(backend="fa4", port=99))
    assert "multiprocessing" in imported_modules(tmp_path, "--jobs", "2", ".")
    assert not any(m.startswith("multiprocessing") for m in imported_modules(tmp_path, "--jobs", "1", "."))


def test_the_command_line_with_a_pool_matches_one_process(tmp_path):
    # a fresh interpreter, as users run it: python -m linter, forked workers
    repo = make_repo(tmp_path)

    def cli(jobs: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "linter", "--jobs", jobs, "--format", "concise", "."],
                              cwd=repo, capture_output=True, timeout=120)

    one, two = cli("1"), cli("2")
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)
    assert one.returncode == 1 and b"SGL101" in one.stdout


@pytest.mark.parametrize("value", ["0", "-1", "many"])
def test_jobs_must_be_a_number_of_processes(tmp_path, capsys, value):
    code, _, err = run(tmp_path, capsys, "--jobs", value, ".")
    assert code == 2
    assert f"argument -j/--jobs: {value!r} is not a number of processes (1 or more, or auto)" in err


def test_jobs_auto_is_one_per_cpu(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(pool, "available_cpus", lambda: 1)

    def no_pool(*args):
        raise AssertionError("the pool started")

    monkeypatch.setattr(pool, "_Run", no_pool)
    make_repo(tmp_path)
    code, out, _ = run(tmp_path, capsys, "--jobs", "auto", "--format", "concise", ".")
    assert code == 1 and "SGL101" in out


def test_available_cpus_is_this_process_share():
    n = pool.available_cpus()
    assert n >= 1
    if hasattr(os, "sched_getaffinity"):
        assert n == len(os.sched_getaffinity(0))


def test_workers_fork_on_linux_unless_threads_run():
    import threading

    if sys.platform.startswith("linux"):
        assert pool.start_method() == "fork"
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert pool.start_method() == "spawn"
    finally:
        stop.set()
        thread.join()


def test_more_processes_than_cpus_give_the_same_results(tmp_path, monkeypatch):
    repo = make_repo(tmp_path)
    spy = Spy(monkeypatch)
    assert linted(repo, 8) == linted(repo, 1)
    assert spy.answered > 0


def test_a_slow_unit_holds_back_at_most_a_window_of_results(tmp_path, monkeypatch):
    repo = make_repo(tmp_path)
    monkeypatch.setattr(pool, "WINDOW", 3)
    waiting = []
    ready = pool._Run._ready

    def watched(self):
        waiting.append(len(self.window))
        return ready(self)

    monkeypatch.setattr(pool._Run, "_ready", watched)
    assert linted(repo, 2) == linted(repo, 1)
    assert max(waiting) <= 4  # the walk waits once more than 3 files wait


def test_auto_starts_workers_only_on_idle_cpus(tmp_path, capsys, monkeypatch):
    # On a busy machine more processes only share the same CPUs (and pickling results costs more than it
    # saves): --jobs auto lints in one process then; --jobs N is obeyed.
    repo = make_repo(tmp_path)
    spy = Spy(monkeypatch)
    monkeypatch.setattr(pool, "MIN_SECONDS", 0.0)
    monkeypatch.setattr(pool, "available_cpus", lambda: 2)
    monkeypatch.setattr(pool, "idle_cpus", lambda: 0)
    busy = run(repo, capsys, "--format", "json", ".")
    assert spy.answered == 0
    assert run(repo, capsys, "--jobs", "2", "--format", "json", ".") == busy and spy.answered > 0
    spy.answered = 0
    monkeypatch.setattr(pool, "idle_cpus", lambda: 2)
    assert run(repo, capsys, "--format", "json", ".") == busy and spy.answered > 0


def test_auto_starts_workers_only_on_a_run_that_pays(tmp_path, capsys, monkeypatch):
    # --jobs auto: a short run (less than MIN_SECONDS of linting here) ends in this process; a longer one
    # starts workers (idle CPUs here); --jobs N starts them whatever the run's length
    repo = make_repo(tmp_path)
    spy = Spy(monkeypatch)
    monkeypatch.setattr(pool, "available_cpus", lambda: 2)
    monkeypatch.setattr(pool, "idle_cpus", lambda: 2)
    monkeypatch.setattr(pool, "MIN_SECONDS", 3600.0)
    short = run(repo, capsys, "--format", "json", ".")
    assert spy.answered == 0
    assert run(repo, capsys, "--jobs", "2", "--format", "json", ".") == short and spy.answered > 0
    spy.answered = 0
    monkeypatch.setattr(pool, "MIN_SECONDS", 0.0)
    assert run(repo, capsys, "--format", "json", ".") == short and spy.answered > 0


@pytest.mark.parametrize("loadavg, idle", [
    (b"0.40 0.62 0.58 3/350 12345\n", 2),  # 3 runnable now, this process one of them; a quiet minute
    (b"1.30 1.10 0.98 1/350 12345\n", 4),  # the last minute's load: this run, or the one before it
    (b"2.60 2.10 1.98 1/350 12345\n", 2),  # between their bursts, two other jobs ran this last minute
    (b"5.81 6.21 5.78 3/350 12345\n", 0),  # a busy shared machine: one process
])
def test_idle_cpus_reads_the_runnable_processes_and_the_load(monkeypatch, tmp_path, loadavg, idle):
    monkeypatch.setattr(pool, "available_cpus", lambda: 4)
    real_open = open

    def fake(path, *args, **kwargs):
        if path == "/proc/loadavg":
            (tmp_path / "loadavg").write_bytes(loadavg)
            return real_open(tmp_path / "loadavg", *args, **kwargs)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", fake)
    assert pool.idle_cpus() == idle


# -- the collector in one process ----------------------------------------------------------------


def test_one_process_collects_each_file_and_freezes_its_result(tmp_path):
    import gc

    root = tmp_path / "repo"
    shutil.copytree(ROOT / "examples" / "inference", root)
    (root / "notes.txt").write_text("nothing to lint here\n")
    before = gc.get_freeze_count()
    try:
        ws = Workspace(root)
        engine = Engine(ws, RunOptions(), ConfigResolver(isolated=True))
        results = {ws.display(c.path): r for c, r in pool.lint_all(engine, walk([root], lambda p, d: False, False), 1,
                                                                          freeze=True)}
        assert results["docker-compose.yml"].contexts and results["notes.txt"].prefiltered
        frozen = gc.get_freeze_count()
        assert frozen > before  # the results (and the files read) left the collector's view
        pool._settle(results["notes.txt"])  # a file the filter passed over: nothing to collect nor freeze
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


# -- what crosses from a worker ------------------------------------------------------------------


def _shown(res) -> list[tuple]:
    return [(d.code, d.span.source.display, d.span.start, d.span.end, d.message, list(d.notes),
             d.fix and (str(d.fix.applicability), [(e.span.start, e.span.end, e.content) for e in d.fix.edits]))
            for d in res.diagnostics]


def test_a_worker_sends_a_result_as_the_cache_records_it_when_the_output_needs_no_more(tmp_path):
    from linter.cache.codec import RecordedLaunch

    repo = make_repo(tmp_path)
    whole = {}
    for recorded in (False, True):
        ws = Workspace(repo)
        engine = Engine(ws, RunOptions(), ConfigResolver(isolated=True))
        got = {ws.display(c.path): r for c, r in pool.lint_all(engine, walk([repo], lambda p, d: False, False), 2,
                                                               method="fork", recorded=recorded) if r is not None}
        if not recorded:
            whole = got
            continue
        assert {k: _shown(r) for k, r in got.items()} == {k: _shown(r) for k, r in whole.items()}
        assert {k: [c.identity for c in r.contexts] for k, r in got.items()} == \
            {k: [c.identity for c in r.contexts] for k, r in whole.items()}
        sent = [r for r in got.values() if any(isinstance(c, RecordedLaunch) for c in r.contexts)]
        assert sent  # the units the workers linted came back recorded
        for r in sent:  # pointing into this process's own files
            assert all(ws.holds(d.span.source) for d in r.diagnostics if ws.holds(r.source))


def test_what_the_cache_does_not_record_goes_pickled_whole(tmp_path):
    from linter.engine import FileResult
    from linter.poolwire import recorded
    from linter.rules.base import Diagnostic
    from linter.source import Span

    ws = Workspace(tmp_path)
    (tmp_path / "a.sh").write_text("python -m sglang.launch_server\n")
    source = ws.read(tmp_path / "a.sh", named=True)
    crash = Diagnostic("SGL000", "internal-error", "error", "internal error", Span(source, 0, 0), key="SGL000")
    sources: list = []
    assert recorded(FileResult(tmp_path / "a.sh", prefiltered=True), ws, set(), sources) is None
    assert recorded(FileResult(tmp_path / "a.sh", source=source, diagnostics=[crash]), ws, set(), sources) is None
    assert recorded(FileResult(tmp_path / "a.sh", source=source, passed_over=[(Span(source, 0, 1), "x")]), ws, set(),
                    sources) is None
    data = recorded(FileResult(tmp_path / "a.sh", source=source, fmt="shell"), ws, {"other"}, sources)
    assert data["fmt"] == "shell" and [s[0] for s in sources] == [str(tmp_path / "a.sh")]
    assert recorded(FileResult(tmp_path / "a.sh", source=source, fmt="shell"), ws, {str(tmp_path / "a.sh")}, []) \
        is not None  # a file sent before is named, not sent again


def test_a_run_through_main_freezes_nothing(tmp_path):
    import gc

    root = tmp_path / "repo"
    shutil.copytree(ROOT / "examples" / "inference", root)
    ws = Workspace(root)
    engine = Engine(ws, RunOptions(), ConfigResolver(isolated=True))
    gc.unfreeze()  # (what earlier tests froze: a worker's results in the pool's parent)
    assert list(pool.lint_all(engine, walk([root], lambda p, d: False, False), 1))
    assert gc.get_freeze_count() == 0  # only the command (linter.cli.entry) asks for freeze=True
