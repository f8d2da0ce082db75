"""Write ``linter/sglang/data/release_dates.json``: the day each SGLang release was published (the
first upload of its files to PyPI, ``https://pypi.org/pypi/sglang/json``), for the releases that have
an option table. A dated nightly image (``lmsysorg/sglang:nightly-dev-20251215-4449c170``) is built
from SGLang's main branch on that day, on the way to the next release: :mod:`linter.sglang.release`
judges it against the first release published after that day.

Usage: ``python scripts/generate_release_dates.py [--from FILE]`` (network: PyPI; ``--from`` reads a
saved copy of the JSON instead) or ``--check`` (exit 1 when a release with a table has no date).
"""

from __future__ import annotations

import json
import sys
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from linter.sglang.options import available_versions  # noqa: E402

TARGET = ROOT / "linter" / "sglang" / "data" / "release_dates.json"
SOURCE = "https://pypi.org/pypi/sglang/json"


def render(pypi: dict, today: str) -> str:
    """The data file's text from PyPI's JSON for the project (``releases``: version -> files)."""
    dates = {}
    for version in available_versions():
        files = pypi["releases"].get(version) or []
        if files:
            dates[version] = min(f["upload_time"] for f in files)[:10]
    doc = {"about": "The day each SGLang release with an option table was published: the first upload "
                    f"of its files to PyPI ({SOURCE}, read {today}). Written by "
                    "scripts/generate_release_dates.py; read by linter/sglang/release.py for dated "
                    "nightly image tags.",
           "dates": dates}
    return json.dumps(doc, indent=1) + "\n"


def main(argv: list[str]) -> int:
    if "--check" in argv:
        dates = json.loads(TARGET.read_text("utf-8"))["dates"]
        missing = [v for v in available_versions() if v not in dates]
        for v in missing:
            print(f"{TARGET.relative_to(ROOT)}: no date for {v}: run python scripts/generate_release_dates.py",
                  file=sys.stderr)
        return 1 if missing else 0
    if "--from" in argv:
        pypi = json.loads(Path(argv[argv.index("--from") + 1]).read_text("utf-8"))
    else:
        with urllib.request.urlopen(SOURCE, timeout=60) as r:  # noqa: S310 - a fixed https address
            pypi = json.load(r)
    TARGET.write_text(render(pypi, date.today().isoformat()), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
