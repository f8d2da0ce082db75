"""scripts/check_frameworks.py re-reads the lists frameworks.json copies from code, and says where they differ."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from tests.helpers import write_tree

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("check_frameworks", ROOT / "scripts" / "check_frameworks.py")
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)
ROWS = json.loads((ROOT / "linter/sglang/data/frameworks.json").read_text())["frameworks"]


def nemo_rl_source(keys) -> str:
    listed = ", ".join(repr(k) for k in keys)
    return (f"class W:\n    def _compute_server_args(self):\n        kwargs = {{}}\n        for key in [{listed}]:\n"
            "            kwargs[key] = 1\n        return kwargs\n")


def test_nemo_rl_list_agrees_and_a_new_key_is_reported(tmp_path, capsys):
    path = "nemo_rl/models/generation/sglang/sglang_worker.py"
    write_tree(tmp_path, {path: nemo_rl_source(ROWS["nemo-rl"]["section_only"])})
    assert check.main(["--nemo-rl", str(tmp_path)]) == 0
    write_tree(tmp_path, {path: nemo_rl_source(ROWS["nemo-rl"]["section_only"] + ["attention_backend"])})
    assert check.main(["--nemo-rl", str(tmp_path)]) == 1
    assert "attention_backend" in capsys.readouterr().out


def test_areal_fields_and_defaults(tmp_path, capsys):
    fields = ROWS["areal"]["section_fields"]
    defaults = ROWS["areal"]["section_defaults"]
    body = "".join(f"    {f}: object = {defaults.get(f, None)!r}\n" for f in fields)
    write_tree(tmp_path, {"areal/api/cli_args.py": f"class SGLangConfig:\n{body}"})
    assert check.main(["--areal", str(tmp_path)]) == 0
    write_tree(tmp_path, {"areal/api/cli_args.py": f"class SGLangConfig:\n{body.replace(repr('fa3'), repr('triton'))}"})
    assert check.main(["--areal", str(tmp_path)]) == 1
    assert "section_defaults differ" in capsys.readouterr().out
