"""GitHub Actions workflows and GitLab CI pipelines: run steps and job scripts, variables at every
level, expressions unknown, the container image's release, runner labels never targets."""

from __future__ import annotations

from pathlib import PurePath

import pytest

from linter.engine import extract_text, lint_text, lint_text_result
from linter.formats import detect
from tests.helpers import lint_json, run, write_tree

GLM = "zai-org/GLM-4.7-Flash"
LAUNCH = "python3 -m sglang.launch_server --model-path $MODEL --attention-backend $B"


def args(text: str, fmt: str) -> list[tuple[str, list[str | None]]]:
    return [(launch.key, [t.value for t in launch.args]) for launch in extract_text(text, fmt).launches]


# --- GitHub Actions -------------------------------------------------------------------------------

WF = """\
on: [push]
env:
  B: fa4
  MODEL: workflow-model
jobs:
  serve:
    runs-on: [self-hosted, h100-8gpu]
    env:
      MODEL: {job_model}
    steps:
      - uses: actions/checkout@v4
      - name: start
        run: |
          {launch}
        env:
{step_env}
"""


def wf(job_model=GLM, step_env="          X: '1'", launch=LAUNCH) -> str:
    return WF.format(job_model=job_model, step_env=step_env, launch=launch)


def test_workflow_is_detected():
    assert detect(PurePath(".github/workflows/ci.yml"), wf()).name == "github-actions"
    assert detect(PurePath("ci.yaml"), '"on":\n  push:\njobs: {}\n').name == "github-actions"


@pytest.mark.parametrize("step_env,expected", [
    ("          X: '1'", [GLM, "fa4"]),  # job env over workflow env
    ("          B: fa3", [GLM, "fa3"]),  # step env over workflow env
    ("          MODEL: step-model", ["step-model", "fa4"]),  # step env over job env
    ("          B: ${{ matrix.backend }}", [GLM, None]),  # an expression is unknown
])
def test_workflow_env_levels(step_env, expected):
    (launch,) = extract_text(wf(step_env=step_env), "github-actions").launches
    assert [t.value for t in launch.args][1::2] == expected


def test_expressions_in_the_script_are_unknown():
    text = wf(launch="python3 -m sglang.launch_server --model-path ${{ matrix.model }} --tp 2")
    assert args(text, "github-actions") == [("jobs.serve.steps[1]", ["--model-path", None, "--tp", "2"])]


def test_runner_labels_are_not_targets_but_a_directive_is():
    text = wf(launch=LAUNCH + " --enable-deterministic-inference")
    assert [t.name for t in lint_text_result(text, "github-actions").contexts[0].targets] == []
    assert [d.code for d in lint_text(text, "github-actions")] == ["SGL901"]  # cannot verify without a target
    marked = "# lint-configs: target-gpu=H100\n" + text
    assert [(d.code, d.span.line) for d in lint_text(marked, "github-actions")] == [("SGL101", 4)]


def test_fix_lands_in_the_workflow_env(tmp_path, capsys):
    text = "# lint-configs: target-gpu=H100\n" + wf(launch=LAUNCH + " --enable-deterministic-inference")
    write_tree(tmp_path, {".github/workflows/serve.yml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"], d["line"]) for d in diags] == [(".github/workflows/serve.yml", "SGL101", 4)]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / ".github/workflows/serve.yml").read_text() == text.replace("B: fa4", "B: fa3")


def test_shells_container_image_and_container_env():
    text = """\
on: push
defaults:
  run:
    shell: python
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: print("python -m sglang.launch_server --tp 2")
      - shell: bash -l {0}
        run: python -m sglang.launch_server --tp 4
  b:
    runs-on: ubuntu-latest
    defaults:
      run:
        shell: bash
    container:
      image: lmsysorg/sglang:v0.5.18-cu129
      env:
        TP: "8"
    steps:
      - run: python -m sglang.launch_server --tp $TP
"""
    assert args(text, "github-actions") == [("jobs.a.steps[1]", ["--tp", "4"]), ("jobs.b.steps[0]", ["--tp", "8"])]
    contexts = lint_text_result(text, "github-actions").contexts
    assert contexts[1].table.version == "0.5.18"


def test_broken_run_script_is_a_diagnostic_and_the_next_step_is_linted():
    text = ("# lint-configs: target-gpu=H100\non: push\njobs:\n  t:\n    runs-on: x\n    steps:\n"
            "      - run: echo \"unterminated\n"
            "      - run: python3 -m sglang.launch_server --model-path " + GLM +
            " --attention-backend fa4 --enable-deterministic-inference\n")
    assert [(d.code, d.span.line) for d in lint_text(text, "github-actions")] == [("SGL001", 7), ("SGL101", 8)]


@pytest.mark.parametrize("fmt, text, line", [
    ("github-actions", "# lint-configs: target-gpu=H100\non: push\njobs:\n  t:\n    runs-on: x\n"
     "    container: lmsysorg/sglang:v0.5.23-cu129\n    steps:\n      - run: |\n{script}", 10),
    ("gitlab-ci", "# lint-configs: target-gpu=H100\nserve:\n  image: lmsysorg/sglang:v0.5.23-cu129\n"
     "  script:\n    - |\n{script}", 7),
])
def test_a_path_of_the_script_is_kept_so_a_finding_on_one_path_is_a_warning(fmt, text, line):
    """A script's own paths (an ``if`` on a variable the file does not set) stay apart in a YAML
    carrier, as in a shell script: fa4 read on both paths, deterministic inference only on one, is a
    warning naming the path, with an unsafe fix (it was an error with a safe fix: fresh review rev39 D8)."""
    indent = " " * (10 if fmt == "github-actions" else 8)
    script = (f'{indent}if [ -n "$DET" ]; then X=--enable-deterministic-inference; fi\n'
              f"{indent}python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 $X\n")
    diags = lint_text(text.format(script=script), fmt)
    assert [(d.code, d.severity.value, d.span.line, d.fix.applicability) for d in diags] == [
        ("SGL101", "warning", line, "unsafe")]
    assert '(when `[ -n "$DET" ]` succeeds; not on every path of this launch)' in diags[0].message


# --- GitLab CI -----------------------------------------------------------------------------------

GL = """\
# lint-configs: target-gpu=H100
variables:
  B: fa4
  MODEL: top-model
default:
  image: lmsysorg/sglang:v0.5.18-cu129
.base:
  variables:
    MODEL: zai-org/GLM-4.7-Flash
  before_script:
    - export DET=--enable-deterministic-inference
serve:
  extends: .base
  tags: [h200, gpu]
  variables:
    TP:
      value: "2"
      description: tensor parallel size
  script:
    - python3 -m sglang.launch_server --model-path $MODEL --attention-backend $B $DET --tp $TP
  after_script:
    - python3 -m sglang.launch_server --model-path $MODEL --tp $TP $DET
"""


def test_gitlab_variables_extends_and_before_script():
    assert args(GL, "gitlab-ci") == [
        ("serve.script", ["--model-path", GLM, "--attention-backend", "fa4", "--enable-deterministic-inference",
                          "--tp", "2"]),
        # after_script runs in a fresh shell: DET, exported by before_script, is not set there
        ("serve.after_script", ["--model-path", GLM, "--tp", "2", None])]


def test_gitlab_job_variables_win_over_top_level():
    text = GL.replace('    TP:\n', '    B: fa3\n    TP:\n')
    assert args(text, "gitlab-ci")[0][1][3] == "fa3"


def test_gitlab_image_release_tags_not_targets_and_fix(tmp_path, capsys):
    result = lint_text_result(GL, "gitlab-ci")
    assert [(c.table.version, [t.name for t in c.targets]) for c in result.contexts] == [
        ("0.5.18", ["H100"]), ("0.5.18", ["H100"])]
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("SGL101", 3)]
    write_tree(tmp_path, {".gitlab-ci.yml": GL})
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / ".gitlab-ci.yml").read_text() == GL.replace("  B: fa4", "  B: fa3")


def test_gitlab_hidden_jobs_and_global_keywords_are_not_jobs():
    text = (".tmpl:\n  script:\n    - python3 -m sglang.launch_server --tp 2\nstages: [serve]\n"
            "workflow:\n  rules:\n    - when: always\njob:\n  image:\n    name: lmsysorg/sglang:v0.5.18-cu129\n"
            "  script: python3 -m sglang.launch_server --tp 4\n")
    assert args(text, "gitlab-ci") == [("job.script", ["--tp", "4"])]
    assert lint_text_result(text, "gitlab-ci").contexts[0].table.version == "0.5.18"
    assert detect(PurePath(".gitlab-ci.yml"), "services:\n  - docker:dind\n" + text).name == "gitlab-ci"


def test_gitlab_invalid_yaml_is_a_diagnostic():
    diags = lint_text("job:\n  script: [python3 -m sglang.launch_server\n", "gitlab-ci")
    assert [d.code for d in diags] == ["SGL001"]
