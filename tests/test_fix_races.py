"""Issue 26: ``--fix`` racing other writers and killed part-way.

``lint-configs --fix`` runs as a real process over many fixable files while the test rewrites or
deletes one of them, or kills the process after a (seeded) random delay. Whatever the timing,
every file is afterwards whole: its original bytes, its fixed bytes, or what the other writer
wrote — never a mix, never empty. SIGTERM and SIGINT leave no temporary file; after SIGKILL a
temporary file may remain (nothing can remove it), and the next run neither lints nor trips on it.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from linter.discover import FIXER_TEMP
from tests.helpers import FOLDED_H100

ROOT = Path(__file__).resolve().parent.parent
FIXED = FOLDED_H100.replace("--attention-backend fa4", "--attention-backend fa3")
N_FILES = 40


def _tree(tmp_path: Path) -> list[Path]:
    files = []
    for k in range(N_FILES):
        f = tmp_path / f"svc{k:02}" / "compose.yaml"
        f.parent.mkdir()
        f.write_text(FOLDED_H100.replace("sglang:", f"sglang{k}:", 1))
        files.append(f)
    return files


def _start(tmp_path: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "linter", "--fix", "--format", "concise", "."], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})


def _whole(f: Path, k: int, others: tuple[str, ...] = ()) -> bool:
    text = f.read_text()
    return text in (FOLDED_H100.replace("sglang:", f"sglang{k}:", 1), FIXED.replace("sglang:", f"sglang{k}:", 1),
                    *others)


def _temps(tmp_path: Path) -> list[Path]:
    """Every file besides the compose files (the fixer's debris, whatever its name)."""
    return [p for p in tmp_path.rglob("*") if p.is_file() and p.name != "compose.yaml"]


@pytest.mark.parametrize("sig,delay", [(signal.SIGTERM, 0.0), (signal.SIGINT, 0.0), (signal.SIGKILL, 0.0)]
                         + [(s, random.Random(26 + k).uniform(0.3, 2.5)) for k, s in
                            enumerate([signal.SIGTERM, signal.SIGKILL, signal.SIGINT, signal.SIGKILL])])
def test_fix_killed_at_a_random_point_leaves_every_file_whole(tmp_path, sig, delay):
    files = _tree(tmp_path)
    proc = _start(tmp_path)
    # Start the clock once the process is writing, when possible: its first temp file or fixed file.
    deadline = time.monotonic() + 30
    while delay and time.monotonic() < deadline and proc.poll() is None:
        if _temps(tmp_path) or any("fa3" in f.read_text() for f in files[:3]):
            break
        time.sleep(0.005)
    time.sleep(delay / 20)
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    for k, f in enumerate(files):
        assert _whole(f, k), f"{f} is mixed or empty after {sig!r}"
    leftovers = _temps(tmp_path)
    if sig != signal.SIGKILL:
        assert leftovers == []
    assert all(FIXER_TEMP.match(p.name) for p in leftovers)
    # The next run finishes the job and ignores (SIGKILL) debris.
    done = _start(tmp_path)
    done.communicate(timeout=120)
    assert done.returncode == 0
    assert all(f.read_text() == FIXED.replace("sglang:", f"sglang{k}:", 1) for k, f in enumerate(files))


def _writing(files: list[Path], proc: subprocess.Popen) -> None:
    """Wait until ``proc`` has begun writing fixes (its first file is fixed) or has ended."""
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline and "fa3" not in files[0].read_text():
        time.sleep(0.002)


def test_fix_racing_a_writer_never_mixes_and_never_loses_the_last_save(tmp_path):
    files = _tree(tmp_path)
    k = N_FILES - 3  # written late, so the saves below land while lint-configs is fixing
    target = files[k]
    saves = [FOLDED_H100.replace("sglang:", f"sglang{k}:", 1).replace("--tp 8", f"--tp {n}") for n in (1, 2, 4)]
    last = []
    proc = _start(tmp_path)

    def writer():
        _writing(files, proc)
        for n in range(random.Random(7).randint(3, 30)):
            target.write_text(saves[n % len(saves)])
            last[:] = [saves[n % len(saves)]]
            time.sleep(0.001)

    t = threading.Thread(target=writer)
    t.start()
    out, err = proc.communicate(timeout=120)
    t.join()
    assert proc.returncode in (0, 1), err
    # Either the last save (lint-configs saw a change and left it) or its fix (read after it): an
    # earlier save's fix would mean the user's last edit was lost.
    assert target.read_text() in (last[0], last[0].replace("fa4", "fa3"))
    for j, f in enumerate(files):
        if f != target:
            assert f.read_text() == FIXED.replace("sglang:", f"sglang{j}:", 1)
    assert _temps(tmp_path) == []


def test_fix_racing_a_deleter_goes_on_with_the_others(tmp_path):
    files = _tree(tmp_path)
    victims = files[N_FILES - 8::3]
    proc = _start(tmp_path)

    def deleter():
        _writing(files, proc)
        for f in victims:
            f.unlink()

    t = threading.Thread(target=deleter)
    t.start()
    out, err = proc.communicate(timeout=120)
    t.join()
    assert proc.returncode in (0, 1), err
    assert b"Traceback" not in err and b"internal error" not in err
    for j, f in enumerate(files):
        if f in victims:
            assert not f.exists()
        else:
            assert f.read_text() == FIXED.replace("sglang:", f"sglang{j}:", 1)
    assert _temps(tmp_path) == []
