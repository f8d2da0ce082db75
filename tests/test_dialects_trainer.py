"""The slime/miles trainer dialect on the command lines of radixark/miles and THUDM/slime (fresh review
rev39 D5, D11).

* Only the trainer's entry scripts (``train.py``, ``train_async.py``, miles' ``train_multi_lora_async.py``)
  take the trainer's argv; a miles ``scripts/run_*.py`` has its own typer CLI (``--sglang-path`` is a
  field of its ``ScriptArgs``), a tool or benchmark its own options.
* ``--sglang-tp-size`` is accepted by both trainers (slime ignores it, miles overrides it from
  ``--rollout-num-gpus-per-engine``): SGL302, a warning — not SGL201. A skipped option miles does not
  register (``--sglang-port``) stops miles' strict parser: still SGL201.
* A trainer's argv never reaches SGLang's parser: no SGL205 "--model-path is required" for it.
"""

from __future__ import annotations

import pytest

from linter.engine import lint_text, lint_text_result

TRAINER = "slime/miles trainer"


def _found(text: str, fmt: str = "shell", targets=("H100",), **kw) -> tuple[list[str], list[tuple]]:
    result = lint_text_result(text, fmt, list(targets), **kw)
    diags = sorted(result.diagnostics, key=lambda d: d.sort_key())
    return ([c.launch.program for c in result.contexts],
            [(d.code, d.severity.value, d.span.line, d.span.text) for d in diags])


# -- 1. which command lines are the trainer's ----------------------------------------------------------

NOT_THE_TRAINER = [
    # radixark/miles docs/models/kimi/kimi-k3.md:102 @31f1ca96 (a run script's typer CLI)
    "python scripts/run_kimi_k3_lora.py train \\\n  --mode normal --num-nodes 16 --num-gpus-per-node 4 \\\n"
    "  --hf-checkpoint /models/kimi --sglang-path /sgl-workspace/sglang/python\n",
    "python tools/bench.py --hf-checkpoint /models/kimi --sglang-path /sgl-workspace/sglang/python\n",
    "python3 scripts/run_qwen3_4b.py --hf-checkpoint /root/Qwen3-4B --rollout-num-gpus-per-engine 8\n",
    "python3 examples/my_eval.py --hf-checkpoint /root/Qwen3-4B --sglang-mem-fraction-static 0.7\n",
    "python3 /root/miles/scripts/run_deepseek.py --hf-checkpoint /root/DeepSeek-V3 --sglang-tp-size 8\n",
    "python3 train.py.orig --hf-checkpoint /root/Qwen3-4B --sglang-mem-fraction-static 0.7\n",
    "python3 my_train.py --hf-checkpoint /root/Qwen3-4B --sglang-mem-fraction-static 0.7\n",
]


@pytest.mark.parametrize("text", NOT_THE_TRAINER)
def test_a_script_that_is_not_the_trainer_is_not_read_in_its_dialect(text):
    assert _found(text) == ([], [])


THE_TRAINER = [
    "python3 train.py --hf-checkpoint /root/Qwen3-4B --sglang-mem-fraction-static 0.7\n",
    "python train_async.py --hf-checkpoint /root/Qwen3-4B --rollout-num-gpus-per-engine 8 --sglang-dp-size 1\n",
    "python3 -u /root/slime/train.py --hf-checkpoint /root/Qwen3-4B --sglang-mem-fraction-static 0.7\n",
    'python3 "${MILES_DIR}/train_multi_lora_async.py" --hf-checkpoint /root/Qwen3-4B '
    "--rollout-num-gpus-per-engine 8 --sglang-mem-fraction-static 0.7\n",
    "ray job submit --address=http://127.0.0.1:8265 -- python3 ${SLIME_DIR}/train_async.py "
    "--hf-checkpoint /root/Qwen3-4B --sglang-mem-fraction-static 0.7\n",
    # radixark/miles docs/user-guide/agentic-rollout.md:195: a thin entry point over miles' parse_args
    "python scripts/tools/verify_session_tito_tokenizer.py \\\n    --hf-checkpoint Qwen/Qwen3-4B --tito-model qwen3 "
    "\\\n    --sglang-reasoning-parser qwen3 \\\n"
    "    --rollout-num-gpus-per-engine 1\n",
]


@pytest.mark.parametrize("text", THE_TRAINER)
def test_the_trainers_entry_scripts_are_still_read_in_its_dialect(text):
    assert _found(text) == ([TRAINER], [])


def test_the_kimi_k3_runbook_fence_has_no_finding():
    """The review's case: ``--sglang-path`` was read as SGLang's ``--path`` (SGL201, exit 1)."""
    text = ("# Kimi-K3\n\n```bash\npython scripts/run_kimi_k3_lora.py train \\\n  --mode normal --num-nodes 16 \\\n"
            "  --hf-checkpoint /models/kimi --sglang-path /sgl-workspace/sglang/python\n```\n")
    assert lint_text(text, "markdown") == []


# -- 2. options of settings the trainer makes itself ------------------------------------------------------

BASE = "python3 train.py --hf-checkpoint /root/Qwen3-4B --rollout-num-gpus-per-engine 8 "


@pytest.mark.parametrize("args, version, expected", [
    # accepted by both trainers, its value replaced: a warning at the option
    ("--sglang-tp-size 8", None, [("SGL302", "warning", 1, "--sglang-tp-size")]),
    ("--sglang-tp-size=8", None, [("SGL302", "warning", 1, "--sglang-tp-size")]),
    ("--sglang-tensor-parallel-size 8", None, [("SGL302", "warning", 1, "--sglang-tensor-parallel-size")]),
    # SGLang 0.5.9 stores --tp-size as tensor_parallel_size: the same field (read as tp 8 before)
    ("--sglang-tp-size 8", "0.5.9", [("SGL302", "warning", 1, "--sglang-tp-size")]),
    # not registered by miles (_SKIPPED_SERVER_ARGS), whose Megatron parser is strict: an error
    ("--sglang-port 30000", None, [("SGL201", "error", 1, "--sglang-port")]),
    ("--sglang-model-path /x", None, [("SGL201", "error", 1, "--sglang-model-path")]),
    ("--sglang-nnodes 2", None, [("SGL201", "error", 1, "--sglang-nnodes")]),
    # SGLang's own options, the trainer's own: nothing
    ("--sglang-mem-fraction-static 0.7", None, []),
    ("--sglang-router-port 3000 --sglang-server-concurrency 64", None, []),
])
def test_options_of_settings_the_trainer_makes_itself(args, version, expected):
    assert _found(BASE + args + "\n", sglang_version=version) == ([TRAINER], expected)


def test_the_tp_size_warning_says_what_each_trainer_does_and_cites_both():
    [d] = lint_text(BASE + "--sglang-tp-size 8\n", "shell", ["H100"])
    assert d.message == ("slime/miles trainer ignores this setting: it sets SGLang's --tp-size itself (from "
                         "--rollout-num-gpus-per-engine); slime ignores --sglang-tp-size, miles takes "
                         "--sglang-tp-size and replaces its value")
    assert [n.split(" @")[0] for n in d.notes] == ["source: slime: THUDM/slime", "source: miles: radixark/miles"]
    assert "miles/backends/sglang_utils/arguments.py" in d.notes[1]


def test_a_refused_option_says_which_trainer_stops():
    [d] = lint_text(BASE + "--sglang-port 30000\n", "shell", ["H100"])
    assert d.message == ("slime/miles trainer has no --sglang-port: it sets SGLang's --port itself; slime ignores "
                         "--sglang-port, miles stops with 'unrecognized arguments: --sglang-port'")


def test_the_tp_size_option_is_a_warning_beside_the_launchs_real_error():
    """radixark/miles scripts/run_deepseek.py:242 passes --sglang-tp-size beside the engine settings: the
    accepted option is a warning, the start-up checks still run."""
    text = ("python3 train.py --hf-checkpoint deepseek-ai/DeepSeek-V3 --rollout-num-gpus-per-engine 8 "
            "--sglang-tp-size 8 --sglang-attention-backend fa4 --sglang-enable-deterministic-inference\n")
    assert _found(text)[1] == [("SGL302", "warning", 1, "--sglang-tp-size"), ("SGL101", "error", 1, "fa4")]


def test_the_tp_size_in_a_miles_run_script_is_a_warning():
    """The shape of radixark/miles scripts/run_deepseek.py (train_args built from strings, execute_train)."""
    text = ("import miles.utils.external_utils.command_utils as U\n\n"
            'rollout_args = "--hf-checkpoint /root/models/DeepSeek-V3 --rollout-num-gpus-per-engine 32 "\n'
            'sglang_args = (\n    "--sglang-mem-fraction-static 0.7 "\n    "--sglang-tp-size 32 "\n)\n'
            'U.execute_train(train_args=rollout_args + sglang_args, num_gpus_per_node=8, '
            'megatron_model_type="deepseek-v3")\n')
    assert _found(text, "python") == ([TRAINER], [("SGL302", "warning", 6, "--sglang-tp-size")])


# -- 3. the trainer's argv never reaches SGLang's parser ------------------------------------------------

MILES_TEST = """\
import pytest

import miles.utils.external_utils.command_utils as command_utils


@pytest.fixture
def commands(monkeypatch):
    monkeypatch.setattr(command_utils, "check_has_nvlink", lambda: False)


def test_submit(commands):
    command_utils.execute_train(train_args="", num_gpus_per_node=1, megatron_model_type="qwen3-4B")
    command_utils.execute_train(train_args="--train-backend fsdp", num_gpus_per_node=8, megatron_model_type=None)
"""


def test_execute_train_without_a_checkpoint_is_no_sglang_parser_error():
    """radixark/miles tests/fast/utils/test_command_utils.py:270 and :309 @31f1ca96: 24 SGL205 'the
    following arguments are required: --model-path' before; the trainer's parser does not require
    --hf-checkpoint and SGLang's parser never reads this argv."""
    programs, diags = _found(MILES_TEST, "python", ())
    assert programs == [TRAINER, TRAINER] and diags == []


@pytest.mark.parametrize("text, expected", [
    ("python -m sglang.launch_server --tp 2\n",
     [("SGL205", "error", 1, "python -m sglang.launch_server --tp 2")]),
    ("sglang serve --tp 2\n", [("SGL205", "error", 1, "sglang serve --tp 2")]),
])
def test_sglangs_own_entry_points_still_require_the_model(text, expected):
    assert _found(text)[1] == expected
