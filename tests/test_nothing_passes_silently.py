"""Point 6 of issue 11: the summary says what was checked; a run that found no launch says so; a
target-gpu directive in a file with no launch is reported (SGL002)."""

from __future__ import annotations

from linter.coverage import Coverage
from tests.helpers import lint_json, run, write_tree

LAUNCH = "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 16"


def test_summary_counts_launches_files_and_unverified_launches(tmp_path, capsys):
    write_tree(tmp_path, {
        "a.sh": f"#!/bin/bash\n# lint-configs: target-gpu=H100\n{LAUNCH}\n{LAUNCH} --port 2\n",
        "b.sh": f"#!/bin/bash\n{LAUNCH}\n",                                     # no target: not fully verified
        "c.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\n"
                "python3 -m sglang.launch_server --model-path /m/private --tp 16\n",  # unknown model
        "notes.py": "print('hello')\n",
    })
    code, out, _ = run(tmp_path, capsys, ".")
    assert code == 0
    assert out.strip().splitlines()[-1] == "All checks passed!"
    assert ("Checked 4 launches in 3 files; 2 launches could not be fully verified, see --explain."
            in " ".join(out.split()))


def test_a_run_that_found_no_launch_says_so(tmp_path, capsys):
    write_tree(tmp_path, {"a.py": "print(1)\n", "b.sh": "#!/bin/bash\necho sglang\n", "c.yaml": "x: 1\n"})
    code, out, _ = run(tmp_path, capsys, ".")
    assert (code, out) == (0, "No SGLang launch found in 3 files.\n")
    assert "All checks passed" not in out


def test_a_target_directive_in_a_file_with_no_launch_is_unused(tmp_path, capsys):
    write_tree(tmp_path, {
        "run.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\nbash serve.sh\n",            # no SGLang at all
        "wrap.sh": "#!/bin/bash\n# lint-configs: target-gpu=B200, H200\necho sglang is elsewhere\n",
        "serve.sh": f"#!/bin/bash\n# lint-configs: target-gpu=H100\n{LAUNCH}\n",                # used
    })
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert sorted((d["path"], d["line"], d["code"], d["severity"]) for d in diags) == [
        ("run.sh", 2, "SGL002", "warning"), ("wrap.sh", 2, "SGL002", "warning"), ("wrap.sh", 2, "SGL002", "warning")]
    assert all("no SGLang launch found in this file" in d["message"] for d in diags)


def test_unused_target_directive_respects_ignore(tmp_path, capsys):
    write_tree(tmp_path, {"run.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\nbash serve.sh\n"})
    assert lint_json(tmp_path, capsys, "--ignore", "SGL002") == (0, [])


def test_coverage_sentence():
    assert Coverage(41, 0, 0, 0).describe() == "No SGLang launch found in 41 files."
    assert Coverage(1, 0, 0, 0).describe() == "No SGLang launch found in 1 file."
    assert Coverage(0, 0, 0, 0).describe() == "No file linted."
    assert Coverage(12, 9, 12, 2).describe() == ("Checked 12 launches in 9 files; 2 launches could not be fully "
                                                 "verified, see --explain.")
    assert Coverage(3, 1, 1, 0).describe() == "Checked 1 launch in 1 file."


def test_explain_says_what_an_unknown_model_could_change(tmp_path, capsys):
    write_tree(tmp_path, {"serve.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\npython3 -m sglang.launch_server "
                                      "--model-path /m/private --attention-backend fa4 --enable-deterministic-inference\n"})
    _, out, _ = run(tmp_path, capsys, "--explain", "serve.sh:3")
    assert "-> accepted if the model is not absorbed MLA" in out
    assert "if the model were DeepseekV3ForCausalLM: refused at start-up (SGL101)" in out
    assert "not fully verified: the model's architecture is not known" in out
