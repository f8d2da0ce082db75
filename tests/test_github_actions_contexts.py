"""GitHub Actions ``${{ env.X }}`` and ``${{ matrix.x }}`` in a ``run:`` step (fresh review rev39 D8):
the env value the step sees (step over job over workflow), and one launch per matrix leg whose values
the step reads differ, with the leg as its path. Each case launches DeepSeek-V3 with deterministic
inference on an H100, so an ``fa4`` that reaches ``--attention-backend`` is SGL101; a leg-only finding
is a warning naming the leg. Anything not literal stays unknown: no finding, never a wrong one."""

from __future__ import annotations

import pytest

from linter import limits
from linter.engine import extract_text, lint_text
from tests.helpers import lint_json, run, write_tree

LAUNCH = ("python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend {b} "
          "--enable-deterministic-inference")

WF = """\
# lint-configs: target-gpu=H100
on: push
env:
  BACKEND: {wf}
jobs:
  serve:
    runs-on: [self-hosted, h100]
    container:
      image: lmsysorg/sglang:v0.5.23-cu129
{job}    steps:
      - run: {launch}
{step}"""


def wf(b: str, wf_value: str = "fa4", job: str = "", step: str = "") -> str:
    return WF.format(wf=wf_value, job=job, step=step, launch=LAUNCH.format(b=b))


def found(text: str) -> list[tuple[str, str, int, str]]:
    """(code, severity, line, the path's words or "") of the SGL101 findings."""
    out = []
    for d in lint_text(text, "github-actions"):
        if d.code == "SGL101":
            when = d.message.split("(when ", 1)[1].split(";")[0] if "(when " in d.message else ""
            out.append((d.code, d.severity.value, d.span.line, when))
    return out


MATRIX = "    strategy:\n      matrix:\n{rows}"


def matrix(*rows: str) -> str:
    return MATRIX.format(rows="".join(f"        {r}\n" for r in rows))


MUST_FLAG = [
    # ${{ env.X }}: the workflow's env value, located there
    ("env-workflow", wf("${{ env.BACKEND }}"), [("SGL101", "error", 4, "")]),
    ("env-spaces-and-case", wf("${{env.backend}}"), [("SGL101", "error", 4, "")]),
    # the job's env over the workflow's
    ("env-job", wf("${{ env.BACKEND }}", "triton", job="    env:\n      BACKEND: fa4\n"),
     [("SGL101", "error", 11, "")]),
    # the step's env over the job's
    ("env-step", wf("${{ env.BACKEND }}", "triton", step="        env:\n          BACKEND: fa4\n"),
     [("SGL101", "error", 13, "")]),
    # a step env value reading the job's env through env.X
    ("env-step-from-job", wf("$B", "fa4", step="        env:\n          B: ${{ env.BACKEND }}\n"),
     [("SGL101", "error", 4, "")]),
    # a matrix: one launch per leg, the fa4 leg's finding a warning that names it, at the matrix value
    ("matrix-two-legs", wf("${{ matrix.backend }}", "triton", job=matrix("backend: [fa3, fa4]")),
     [("SGL101", "warning", 12, "`matrix.backend` is `fa4`")]),
    ("matrix-block-list", wf("${{ matrix.backend }}", "triton",
                             job=matrix("backend:", "  - triton", "  - fa4", "  - fa3")),
     [("SGL101", "warning", 14, "`matrix.backend` is `fa4`")]),
    # one leg, or every leg the same: an error, no path
    ("matrix-one-leg", wf("${{ matrix.backend }}", "triton", job=matrix("backend: [fa4]")),
     [("SGL101", "error", 12, "")]),
    ("matrix-other-key-only", wf("${{ matrix.backend }}", "triton", job=matrix("backend: [fa4]", "py: ['3.10', '3.12']")),
     [("SGL101", "error", 12, "")]),
    # through the job's env
    ("matrix-via-job-env", wf("$BACKEND", "triton", job=matrix("backend: [fa3, fa4]")
                              + "    env:\n      BACKEND: ${{ matrix.backend }}\n"),
     [("SGL101", "warning", 12, "`matrix.backend` is `fa4`")]),
    # through the step's env
    ("matrix-via-step-env", wf("$BACKEND", "triton", job=matrix("backend: [fa4, fa3]"),
                               step="        env:\n          BACKEND: ${{ matrix.backend }}\n"),
     [("SGL101", "warning", 12, "`matrix.backend` is `fa4`")]),
    # two keys read: only the leg with both fails
    ("matrix-two-keys-flag", wf("${{ matrix.backend }}", "triton", job=matrix(
        "backend: [fa3, fa4]", "det: ['--enable-deterministic-inference', '--disable-radix-cache']")).replace(
        " --enable-deterministic-inference", " ${{ matrix.det }}"),
     [("SGL101", "warning", 12, "`matrix.backend` is `fa4` and `matrix.det` is `--enable-deterministic-inference`")]),
    # include adds a leg of its own when it changes an original value, extends the legs it fits
    ("matrix-include-new-leg", wf("${{ matrix.backend }}", "triton",
                                  job=matrix("backend: [fa3]", "include:", "  - backend: fa4")),
     [("SGL101", "warning", 14, "`matrix.backend` is `fa4`")]),
    ("matrix-include-extends", wf("${{ matrix.backend }}", "triton", job=matrix(
        "gpu: [a, b]", "include:", "  - gpu: b", "    backend: fa4", "  - gpu: a", "    backend: fa3")),
     [("SGL101", "warning", 15, "`matrix.backend` is `fa4`")]),
    # exclude takes a leg out; what is left still fails on one
    ("matrix-exclude-other", wf("${{ matrix.backend }}", "triton", job=matrix(
        "backend: [fa3, fa4, triton]", "exclude:", "  - backend: triton")),
     [("SGL101", "warning", 12, "`matrix.backend` is `fa4`")]),
    # a leg and a path of the script itself: both named
    ("matrix-and-script-if", wf("${{ matrix.backend }} $DET", "triton", job=matrix("backend: [fa3, fa4]")).replace(
        "      - run: python3", "      - run: |\n          if [ -n \"$D\" ]; then DET=--enable-deterministic-inference; fi\n"
        "          python3").replace(" --enable-deterministic-inference\n", "\n"),
     [("SGL101", "warning", 12, '`matrix.backend` is `fa4` and `[ -n "$D" ]` succeeds')]),
    # exactly MAX_PATH_VARIANTS legs: one launch each
    ("matrix-cap-exactly", wf("${{ matrix.backend }}", "triton", job=matrix(
        "backend: [fa4, " + ", ".join(f"b{k}" for k in range(limits.MAX_PATH_VARIANTS - 1)) + "]")),
     [("SGL101", "warning", 12, "`matrix.backend` is `fa4`")]),
]

MUST_NOT_FLAG = [
    # the value is not in the file: unknown
    ("matrix-from-json", wf("${{ matrix.backend }}", "triton", job="    strategy:\n      matrix: ${{ fromJSON(needs.a.outputs.m) }}\n")),
    ("matrix-list-expression", wf("${{ matrix.backend }}", "triton", job=matrix("backend: ${{ fromJSON(inputs.b) }}"))),
    ("matrix-item-expression", wf("${{ matrix.backend }}", "triton", job=matrix("backend: [fa3, '${{ inputs.b }}']"))),
    ("matrix-object-values", wf("${{ matrix.cfg.backend }}", "triton", job=matrix("cfg: [{backend: fa4}]"))),
    ("matrix-include-expression", wf("${{ matrix.backend }}", "triton",
                                     job=matrix("backend: [fa3]", "include: ${{ fromJSON(inputs.extra) }}"))),
    ("no-matrix", wf("${{ matrix.backend }}", "triton")),
    ("key-not-in-matrix", wf("${{ matrix.attn }}", "triton", job=matrix("backend: [fa4]"))),
    ("inputs", wf("${{ inputs.backend }}")),
    ("env-in-workflow-env-unavailable", wf("${{ env.B2 }}").replace("  BACKEND: fa4\n", "  BACKEND: fa4\n  B2: ${{ env.BACKEND }}\n")),
    ("env-undefined", wf("${{ env.ATTN }}")),
    ("env-container-only", wf("${{ env.ATTN }}").replace(
        "      image: lmsysorg/sglang:v0.5.23-cu129\n",
        "      image: lmsysorg/sglang:v0.5.23-cu129\n      env:\n        ATTN: fa4\n")),
    ("env-step-self", wf("$B", "triton", job="    env:\n      B: fa4\n",
                         step="        env:\n          B: ${{ env.B }}-x\n          C: '1'\n")),
    # an expression other than env.X and matrix.x: unknown
    ("matrix-two-keys-and-or", wf("${{ matrix.backend }}", "triton", job=matrix("backend: [fa3, fa4]", "det: ['', '1']")).replace(
        " --enable-deterministic-inference", " ${{ matrix.det && '--enable-deterministic-inference' || '' }}")),
    # a step that runs on some legs only: which ones is not read, so the matrix values are unknown
    ("matrix-step-if", wf("${{ matrix.backend }}", "triton", job=matrix("backend: [fa3, fa4]")).replace(
        "      - run: python3", "      - if: matrix.backend == 'fa3'\n        run: python3")),
    # exclude takes the failing leg out
    ("matrix-exclude-fa4", wf("${{ matrix.backend }}", "triton", job=matrix(
        "backend: [fa3, fa4]", "exclude:", "  - backend: fa4"))),
    ("matrix-all-fine", wf("${{ matrix.backend }}", "fa4", job=matrix("backend: [fa3, triton]"))),
    # more legs the step reads than MAX_PATH_VARIANTS: unknown, never guessed
    ("matrix-past-cap", wf("${{ matrix.backend }}", "triton", job=matrix(
        "backend: [fa4, " + ", ".join(f"b{k}" for k in range(limits.MAX_PATH_VARIANTS)) + "]"))),
    # more combinations than GitHub runs: unknown
    ("matrix-past-jobs", wf("${{ matrix.backend }}", "triton", job=matrix(
        "backend: [fa3, fa4]", "a: [" + ", ".join(str(k) for k in range(17)) + "]",
        "b: [" + ", ".join(str(k) for k in range(17)) + "]"))),
]


@pytest.mark.parametrize("name, text, expected", MUST_FLAG, ids=[c[0] for c in MUST_FLAG])
def test_must_flag(name, text, expected):
    assert found(text) == expected


@pytest.mark.parametrize("name, text", MUST_NOT_FLAG, ids=[c[0] for c in MUST_NOT_FLAG])
def test_must_not_flag(name, text):
    assert found(text) == []


@pytest.mark.parametrize("text, values", [
    # a value not known is unknown (None), never a guess
    (wf("${{ inputs.b }}"), [[None]]),
    (wf("${{ matrix.backend }}", job=matrix("backend: [fa3, fa4]")), [["fa3"], ["fa4"]]),
    (wf("${{ matrix.backend }}", job=matrix("backend: [fa3, fa4]", "model: [x, y]")), [["fa3"], ["fa4"]]),
    (wf("${{ matrix.backend }}", job=matrix("backend: [fa3, fa4]", "exclude:", "  - backend: fa3")), [["fa4"]]),
    (wf("${{ matrix.backend }}", job=matrix(
        "backend: [fa4, " + ", ".join(f"b{k}" for k in range(limits.MAX_PATH_VARIANTS)) + "]")), [[None]]),
])
def test_one_launch_per_distinct_leg_the_step_reads(text, values):
    launches = extract_text(text, "github-actions").launches
    assert [[t.value for t in launch.args if t.value in ("fa3", "fa4", None) or t.value.startswith("b")][:1]
            for launch in launches] == values


def test_legs_are_labelled_and_the_other_leg_reads_nothing_wrong():
    launches = extract_text(wf("${{ matrix.backend }}", job=matrix("backend: [fa3, fa4]", "model: [x]")),
                            "github-actions").launches
    assert [launch.path for launch in launches] == [("`matrix.backend` is `fa3`",), ("`matrix.backend` is `fa4`",)]
    assert {launch.key for launch in launches} == {"jobs.serve.steps[0]"}


def test_a_name_an_earlier_step_writes_to_github_env_is_unknown_after_it():
    text = wf("${{ env.BACKEND }} $BACKEND").replace(
        "    steps:\n", '    steps:\n      - run: echo "BACKEND=fa3" >> "$GITHUB_ENV"\n')
    (launch,) = extract_text(text, "github-actions").launches
    assert [t.value for t in launch.args][2:5] == ["--attention-backend", None, None]
    # unless the step sets it itself (the step's env wins)
    step = "        env:\n          BACKEND: fa4\n"
    assert found(text + step) == [("SGL101", "error", 14, "")]


def test_the_matrix_fix_lands_at_the_leg_value(tmp_path, capsys):
    text = wf("${{ matrix.backend }}", "triton", job=matrix("backend: [fa3, fa4]"))
    write_tree(tmp_path, {".github/workflows/ci.yml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"], d["column"], d["severity"]) for d in diags] == [("SGL101", 12, 24, "warning")]
    run(tmp_path, capsys, "--fix", "--unsafe-fixes", ".")
    assert (tmp_path / ".github/workflows/ci.yml").read_text() == text.replace("[fa3, fa4]", "[fa3, fa3]")


def test_the_review_repro(tmp_path, capsys):
    """The three steps of the review's workflow: $BACKEND (found before), ${{ env.BACKEND }} (the same
    value: one finding at the env value), ${{ matrix.backend }} (a warning on the fa4 leg)."""
    text = """\
name: serve
on: push
env:
  BACKEND: fa4
jobs:
  serve:
    runs-on: [self-hosted, h100]
    strategy:
      matrix:
        backend: [fa3, fa4]
    container:
      image: lmsysorg/sglang:v0.5.23-cu129
    steps:
      # lint-configs: target-gpu=H100
      - run: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend ${{ matrix.backend }} --enable-deterministic-inference
      - run: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend ${{ env.BACKEND }} --enable-deterministic-inference
"""
    assert found(text) == [("SGL101", "error", 4, ""), ("SGL101", "warning", 10, "`matrix.backend` is `fa4`")]
