#!/usr/bin/env python3
"""Generate ``linter/sglang/data/successors.json``: what replaces every option or choice SGLang removed,
renamed or deprecated, per release, with SGLang's own words and where they are.

Usage::

    python scripts/generate_successors.py --wheel-dir WHEELS           # rewrite the data file
    python scripts/generate_successors.py --wheel-dir WHEELS --check   # exit 1 when it differs

``WHEELS`` holds ``sglang-<release>-*.whl`` for every release that has an option table (the folder
``scripts/generate_sglang_options.py --wheel-dir`` fills). Nothing is imported or run: the wheels'
sources are read as text and with :mod:`ast`.

What is read
------------
*Events*, from the option tables (``linter/sglang/data/options-*.json``, generated from the same
wheels): every option string present in one release and absent from the next (``last`` and
``removed``), every choice an option lost, and every option whose argparse action is a deprecation in
some release (the tables' ``deprecation`` records: raises / warns / maps, SGLang's message, the action's
file:line). Ranges of releases in which SGLang's own start-up code warns about an option or a choice
(``__post_init__`` / ``_handle_deprecated_args`` / ``arg_groups/serving_hook.py``: text the tables do not
hold) are found by scanning every wheel for the warning's text.

*Successors*. A deprecated action that stores its value on another option (``DeprecatedAliasStoreAction``,
``DeprecatedStoreConstAction``, ``DeprecatedStoreTrueAction`` with ``new_flag``) gives its successor
mechanically: the action itself made the old spelling the new one, so they are equivalent. An option whose
``dest`` is not a ``ServerArgs`` field in its last release did nothing (``from_cli_args`` builds the
dataclass from the fields only), so dropping it is equivalent. Every other event needs a judgement, written
once in :data:`CATALOG` below: what to write instead (``write``: words, with ``{value}`` for the value
written for the old option and ``{tp_size}``-style placeholders for another option's value in the launch;
``values``: a map of old values), whether it is equivalent (``yes`` / ``judgement`` / ``no``), the
``candidates`` where it is not, and the evidence: ``words`` (quotes of SGLang's own help texts, messages and
warnings) and ``code`` (quotes of the code that took its place), each looked up in a named release and
recorded with its ``file:line``. A quote that is not where the catalog says makes the generation fail; so
does a removal or deprecation event the catalog does not judge (a new release must be read, never guessed).
``renamed`` judgements are checked too: the new option's help text (or, without help, its type, choices
and default) in the first release without the old one must equal the old option's in its last release.

Output
------
One entry per event (an option and, for a choice, the choice), in order of removal: ``first``/``last``
(the first and last release whose parser declares it), ``removed`` (the first release without it; null
while the newest still has it), ``takes_value``, ``stages`` (what SGLang does when it is given, per range
of releases: ``warns``, ``raises``, ``maps``, with the message and its source), ``successor``, ``words``,
``code``, ``declared`` (the last declaration's file:line) and ``basis`` (``words``: SGLang said what
replaces it; ``code``: read from the code; ``none``: nothing replaces it). The linter
(:mod:`linter.sglang.successors`) reads only this file at lint time.
"""

from __future__ import annotations

import argparse
import ast
import glob
import hashlib
import json
import re
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "linter" / "sglang" / "data"
OUT = DATA / "successors.json"
GENERATOR = "scripts/generate_successors.py"
SCANNED = re.compile(r"^sglang/srt/(server_args\.py|arg_groups/.*\.py)$")
"""The files every release is scanned in for warnings (other files only where a quote names them)."""

ATTENTION_OPTIONS = ("--attention-backend", "--prefill-attention-backend", "--decode-attention-backend")


def W(release: str, text: str, file: str | None = None, own: bool = False) -> tuple:
    """SGLang's words: ``text`` (a substring of one string literal, implicit concatenation and f-string
    parts joined) in ``release``'s sources (``file``: a path under ``sglang/srt/``; default: server_args.py
    and arg_groups/). They count as SGLang's words on the option when they name it or are its own help
    (``own``: when they speak of it by another name)."""
    return ("words", release, text, file, own)


def C(release: str, text: str, file: str | None = None) -> tuple:
    """Code that took the old option's place: ``text`` on one line of ``release``'s sources (blanks
    normalised)."""
    return ("code", release, text, file, False)


# Each judgement: write (words to write instead; [] = drop the option), equivalent (yes | judgement | no),
# evidence (W/C quotes), candidates (what may serve where it is not equivalent), values (old value ->
# new value, or -> list of words), warns (quotes of a start-up warning whose releases form a "warns" stage),
# renamed (True: the new option's declaration must match the old one's), absorbs (a dest whose written
# option the successor replaces), note (one line of our own, where SGLang said nothing).
CATALOG: dict[str, dict] = {
    # -- 0.4.x ---------------------------------------------------------------------------------------
    "--disable-nan-detection": dict(write=[], equivalent="yes", candidates=["--enable-nan-detection"],
                                    note="NaN detection is off unless --enable-nan-detection is given"),
    "--enable-overlap-schedule": dict(write=[], equivalent="yes", evidence=[
        W("0.4.0", "It is enabled by default now. Please drop this argument.")]),
    "--disable-flashinfer": dict(write=["--attention-backend", "triton"], equivalent="yes", evidence=[
        W("0.4.0", "Please use '--attention-backend triton' instead.")]),
    "--disable-flashinfer-sampling": dict(write=["--sampling-backend", "pytroch"], equivalent="yes", evidence=[
        W("0.4.0", "Please use '--sampling-backend pytroch' instead.")],
        note="SGLang's text misspells the choice pytorch"),
    "--disable-disk-cache": dict(write=["--disable-outlines-disk-cache"], equivalent="yes", evidence=[
        W("0.4.0", "Please use '--disable-outlines-disk-cache' instead.")]),
    "--return-token-ids": dict(equivalent="no", note="dropped with no option in its place"),
    "--file-storage-pth": dict(write=["--file-storage-path", "{value}"], equivalent="yes", renamed=True),
    "--disable-jump-forward": dict(equivalent="no", note="no option controls jump-forward from this release on"),
    "--return-hidden-states": dict(write=["--enable-return-hidden-states"], equivalent="judgement",
                                   candidates=["--enable-return-hidden-states"], evidence=[
        C("0.4.3.post3", "return_hidden_states: bool = False", "sglang/srt/managers/io_struct.py"),
        W("0.4.7.post1", "Enable returning hidden states with responses.")],
        note="from 0.4.3.post3 each request asks for hidden states (return_hidden_states); "
             "--enable-return-hidden-states (0.4.7.post1 on) allows it"),
    "--prefill-only-one-req": dict(equivalent="no", note="dropped with no option in its place"),
    "--disable-mla": dict(equivalent="no", note="no option disables MLA from this release on"),
    "--disable-shared-experts-fusion": dict(write=["--n-share-experts-fusion", "0"], equivalent="yes", evidence=[
        W("0.4.5.post1", "Disable shared experts fusion by setting n_share_experts_fusion to 0.")]),
    "--enable-llama4-multimodal": dict(write=["--enable-multimodal"], equivalent="judgement", evidence=[
        W("0.4.6", "Enable the multimodal functionality for the served model.")],
        note="the new flag turns multimodal on for any model, not only Llama 4"),
    "--n-share-experts-fusion": dict(equivalent="judgement", values={"0": ["--disable-shared-experts-fusion"]},
                                     candidates=["--disable-shared-experts-fusion"], evidence=[
        W("0.4.7", "Disable shared experts fusion optimization for deepseek v3/r1.")],
        note="0 (no fusion) is --disable-shared-experts-fusion; other counts are chosen by SGLang itself"),
    "--enable-flashinfer-mla": dict(write=["--attention-backend", "flashinfer"], equivalent="yes", evidence=[
        W("0.4.5.post2", "Please use '--attention-backend flashinfer' instead.")]),
    "--enable-flashmla": dict(write=["--attention-backend", "flashmla"], equivalent="yes", evidence=[
        W("0.4.5.post2", "Please use '--attention-backend flashmla' instead.")]),
    "--impl": dict(write=["--model-impl", "{value}"], equivalent="yes", renamed=True),
    "--disable-overlap-cg-plan": dict(write=[], equivalent="yes"),
    "--enable-flashinfer-moe": dict(write=["--enable-flashinfer-cutlass-moe"], equivalent="yes", renamed=True),
    "--pdlb-url": dict(equivalent="no", note="dropped with no option in its place"),
    # -- 0.5.x ---------------------------------------------------------------------------------------
    "--max-micro-batch-size": dict(write=["--pp-max-micro-batch-size", "{value}"], equivalent="yes", renamed=True),
    "--debug-tensor-dump-prefill-only": dict(equivalent="no", note="dropped with no option in its place"),
    "--crash-on-nan": dict(equivalent="no", note="dropped with no option in its place"),
    **{f"--nsa-{phase}": dict(write=[f"--nsa-{phase}-backend", "{value}"], equivalent="judgement",
                              values={"flashmla_prefill": "flashmla_sparse", "flashmla_decode": "flashmla_kv"},
                              evidence=[C("0.5.3.post3", 'NSA_CHOICES = ["flashmla_prefill", "flashmla_decode", "fa3", '
                                                         '"tilelang", "aiter"]'),
                                        C("0.5.4", 'NSA_CHOICES = ["flashmla_sparse", "flashmla_kv", "fa3", "tilelang", '
                                                   '"aiter"]')],
                              note="the choices were renamed in the same release, in the same places of NSA_CHOICES")
       for phase in ("prefill", "decode")},
    "--enable-beta-spec": dict(equivalent="no", candidates=["SGLANG_ENABLE_SPEC_V2=1"], evidence=[
        C("0.5.4.post1", "SGLANG_ENABLE_SPEC_V2 = EnvBool(False)", "sglang/srt/environ.py")],
        note="the overlapped speculative decoding it enabled is the environment variable SGLANG_ENABLE_SPEC_V2"),
    "--enable-ep-moe": dict(write=["--ep-size", "{tp_size}"], equivalent="yes", evidence=[
        W("0.5.3", "Please set `--ep-size` to the same value as `--tp-size` instead."),
        C("0.5.2", "self.ep_size = self.tp_size")], warns=["NOTE: --enable-ep-moe is deprecated."]),
    "--enable-deepep-moe": dict(write=["--moe-a2a-backend", "deepep"], equivalent="yes", evidence=[
        W("0.5.3", "Please set `--moe-a2a-backend` to 'deepep' instead."),
        C("0.5.2", 'self.moe_a2a_backend = "deepep"')], warns=["NOTE: --enable-deepep-moe is deprecated."]),
    "--enable-flashinfer-cutlass-moe": dict(write=["--moe-runner-backend", "flashinfer_cutlass"], equivalent="yes",
                                            evidence=[
        W("0.5.3", "Please set `--moe-runner-backend` to 'flashinfer_cutlass' instead."),
        C("0.5.2", 'self.moe_runner_backend = "flashinfer_cutlass"')],
        warns=["NOTE: --enable-flashinfer-cutlass-moe is deprecated."]),
    "--enable-flashinfer-cutedsl-moe": dict(write=["--moe-runner-backend", "flashinfer_cutedsl"], equivalent="yes",
                                            evidence=[
        W("0.5.3", "Please set `--moe-runner-backend` to 'flashinfer_cutedsl' instead.")]),
    "--enable-flashinfer-trtllm-moe": dict(write=["--moe-runner-backend", "flashinfer_trtllm"], equivalent="yes",
                                           evidence=[
        W("0.5.3", "Please set `--moe-runner-backend` to 'flashinfer_trtllm' instead."),
        C("0.5.2", 'self.moe_runner_backend = "flashinfer_trtllm"')],
        warns=["NOTE: --enable-flashinfer-trtllm-moe is deprecated."]),
    "--enable-triton-kernel-moe": dict(write=["--moe-runner-backend", "triton_kernel"], equivalent="yes", evidence=[
        W("0.5.3", "Please set `--moe-runner-backend` to 'triton_kernel' instead."),
        C("0.5.2", 'self.moe_runner_backend = "triton_kernel"')],
        warns=["NOTE: --enable-triton-kernel-moe is deprecated."]),
    "--enable-flashinfer-mxfp4-moe": dict(write=["--moe-runner-backend", "flashinfer_mxfp4"], equivalent="yes",
                                          evidence=[
        W("0.5.3", "Please set `--moe-runner-backend` to 'flashinfer_mxfp4' instead."),
        C("0.5.2", 'self.moe_runner_backend = "flashinfer_mxfp4"')],
        warns=["NOTE: --enable-flashinfer-mxfp4-moe is deprecated."]),
    "--oltp-traces-endpoint": dict(write=["--otlp-traces-endpoint", "{value}"], equivalent="yes", renamed=True),
    "--kt-amx-weight-path": dict(write=["--kt-weight-path", "{value}"], equivalent="yes", renamed=True),
    "--kt-amx-method": dict(write=["--kt-method", "{value}"], equivalent="yes", renamed=True),
    "--dllm-block-size": dict(equivalent="no", candidates=["--dllm-algorithm-config"], evidence=[
        W("0.5.6.post1", "The diffusion LLM algorithm configurations. Must be a YAML file.")],
        note="the block size moved into the algorithm's YAML configuration"),
    "--load-watch-interval": dict(equivalent="no", note="dropped with no option in its place"),
    "--enable-flashinfer-autotune": dict(write=[], equivalent="yes", candidates=["--disable-flashinfer-autotune"],
                                         evidence=[W("0.5.7", "Disable FlashInfer autotuning.")],
                                         note="autotuning is on unless --disable-flashinfer-autotune is given"),
    "--disaggregation-decode-enable-fake-auto": dict(equivalent="no", note="dropped with no option in its place"),
    "--speculative-ngram-min-match-window-size": dict(equivalent="no", candidates=["--speculative-ngram-max-trie-depth"],
                                                      note="ngram speculation matches through a trie from 0.5.10"),
    "--speculative-ngram-max-match-window-size": dict(equivalent="no", candidates=["--speculative-ngram-max-trie-depth"],
                                                      evidence=[W("0.5.10", "The max trie depth for ngram speculative decoding.")],
                                                      note="ngram speculation matches through a trie from 0.5.10"),
    "--speculative-ngram-branch-length": dict(equivalent="no", note="ngram speculation matches through a trie from 0.5.10"),
    "--disable-hicache-numa-detect": dict(equivalent="no", note="dropped with no option in its place"),
    "--hierarchical-sparse-attention-extra-config": dict(equivalent="no", candidates=["--hisparse-config"], evidence=[
        W("0.5.10", "A dictionary in JSON string format for hierarchical sparse attention configuration.")],
        note="--hisparse-config takes other keys (no algorithm/backend)"),
    "--disaggregation-decode-tp": dict(equivalent="no", note="dropped with no option in its place"),
    "--disaggregation-decode-dp": dict(equivalent="no", note="dropped with no option in its place"),
    "--disaggregation-prefill-pp": dict(equivalent="no", note="dropped with no option in its place"),
    "--mm-max-concurrent-calls": dict(equivalent="no", note="dropped with no option in its place"),
    "--mm-per-request-timeout": dict(equivalent="no", note="dropped with no option in its place"),
    "--enable-double-sparsity": dict(equivalent="no", note="double sparsity attention was removed"),
    "--ds-channel-config-path": dict(equivalent="no", note="double sparsity attention was removed"),
    "--ds-heavy-channel-num": dict(equivalent="no", note="double sparsity attention was removed"),
    "--ds-heavy-token-num": dict(equivalent="no", note="double sparsity attention was removed"),
    "--ds-heavy-channel-type": dict(equivalent="no", note="double sparsity attention was removed"),
    "--ds-sparse-decode-threshold": dict(equivalent="no", note="double sparsity attention was removed"),
    "--multi-item-scoring-delimiter": dict(equivalent="no", note="dropped with no option in its place"),
    "--record-nolora-graph": dict(equivalent="no", note="dropped with no option in its place"),
    "--no-record-nolora-graph": dict(equivalent="no", note="dropped with no option in its place"),
    "--enable-nan-detection": dict(equivalent="no",
                                   candidates=["SGLANG_SPEC_NAN_DETECTION=1", "SGLANG_SPEC_OOB_DETECTION=1"],
                                   evidence=[W("0.5.10", "Use SGLANG_SPEC_NAN_DETECTION=1 and SGLANG_SPEC_OOB_DETECTION=1 "
                                                         "instead.")],
                                   warns=["--enable-nan-detection is deprecated. Use SGLANG_SPEC_NAN_DETECTION=1"],
                                   note="environment variables, not options"),
    "--hybrid-kvcache-ratio": dict(equivalent="no", candidates=["--swa-full-tokens-ratio"], evidence=[
        W("0.5.8", "Please use --swa-full-tokens-ratio instead.")],
        note="a different ratio; from 0.5.8 the option did nothing (it is not a ServerArgs field)"),
    "--custom-sigquit-handler": dict(write=[], equivalent="yes", evidence=[
        W("0.5.13.post1", "This is only available for Engine, not for CLI.")]),
    "--enable-piecewise-cuda-graph": dict(write=[], equivalent="yes", evidence=[
        W("0.5.10", "Piecewise cuda graph is enabled by default.")]),
    "--debug-tensor-dump-inject": dict(equivalent="no", note="dropped with no option in its place"),
    "--enable-deepep-waterfill": dict(write=["--enable-waterfill", "--moe-a2a-backend", "deepep"],
                                      equivalent="judgement", evidence=[
        W("0.5.15.post1", "Automatically sets --moe-a2a-backend deepep"),
        W("0.5.16", "Enable Waterfill: dispatch the fused shared expert as an extra routed expert slot")]),
    "--optimistic-prefill-retries": dict(write=["--optimistic-prefill-attempts", "{value}"], equivalent="judgement",
                                         evidence=[W("0.5.16", "Number of optimistic prefill forward passes that skip "
                                                               "the bootstrap wait.")],
                                         note="it counts forward passes where the old option counted retries"),
    "--torchao-config": dict(equivalent="no", note="torchao quantization was removed"),
    "--enable-expert-distribution-metrics": dict(equivalent="no", candidates=["--expert-balancedness-report-mode"],
                                                 evidence=[W("0.5.18", "Use --expert-balancedness-report-mode with one "
                                                                       "of: off, server_log, prometheus, both.")]),
    "--prefill-round-robin-balance": dict(write=[], equivalent="yes", evidence=[
        W("0.5.8", "Note: --prefill-round-robin-balance is deprecated now.")]),
    "--collect-tokens-histogram": dict(write=[], equivalent="yes", candidates=["--enable-metrics"], evidence=[
        W("0.5.11", "Token histograms are now automatically collected when --enable-metrics is set.")]),
    "--dsa-prefill-cp-mode": dict(write=["--cp-strategy", "{value}"], equivalent="yes",
                                  values={"in-seq-split": "zigzag", "round-robin-split": "interleave"}, evidence=[
        W("0.5.14", "'in-seq-split' maps to 'zigzag'; 'round-robin-split' maps to 'interleave'.")]),
    "--nsa-prefill-cp-mode": dict(write=["--cp-strategy", "{value}"], equivalent="yes",
                                  values={"in-seq-split": "zigzag", "round-robin-split": "interleave"}, evidence=[
        W("0.5.14", "'in-seq-split' maps to 'zigzag'; 'round-robin-split' maps to 'interleave'.")]),
    "--prefill-cp-mode": dict(write=["--cp-strategy", "{value}"], equivalent="yes", values={"in-seq-split": "zigzag"},
                              evidence=[W("0.5.14", "[Deprecated] Use --cp-strategy {zigzag,interleave} instead. "
                                                    "'in-seq-split' maps to 'zigzag'.")]),
    "--elastic-ep-rejoin": dict(write=["--elastic-ep-join-mode", "recover"], equivalent="yes", evidence=[
        W("0.5.16", "--elastic-ep-rejoin is deprecated, use --elastic-ep-join-mode recover instead."),
        C("0.5.16", 'self.ep_join_mode = "recover"')],
        warns=["--elastic-ep-rejoin is deprecated, use --elastic-ep-join-mode recover instead."]),
    "--keep-mm-feature-on-device": dict(write=["--mm-feature-transport", "cuda_ipc"], equivalent="yes", evidence=[
        W("0.5.16", "--keep-mm-feature-on-device is deprecated; using --mm-feature-transport=cuda_ipc instead.")],
        warns=["--keep-mm-feature-on-device is deprecated; using --mm-feature-transport=cuda_ipc instead."]),
    "--cuda-graph-tc-compiler": dict(write=[], equivalent="yes", evidence=[
        W("0.5.22", "tc_compiler was removed with tc_piecewise", "sglang/srt/model_executor/cuda_graph_config.py",
          own=True)]),
    "--speculative-skip-dp-mlp-sync": dict(equivalent="no", note="dropped with no option in its place"),
    # -- deprecated, still declared by the newest release ---------------------------------------------
    "--grpc-mode": dict(write=["--smg-grpc-mode"], equivalent="yes", candidates=["--grpc-port"], evidence=[
        W("0.5.16", "Use --smg-grpc-mode for the legacy SMG gRPC server, or --grpc-port for the native gRPC server.")],
        warns=["--grpc-mode is deprecated and will be removed in a future version."]),
    "--disable-fast-image-processor": dict(write=["--image-processor-backend", "pil"], equivalent="yes", evidence=[
        W("0.5.18", "--disable-fast-image-processor is deprecated; use --image-processor-backend=pil instead.")],
        warns=["--disable-fast-image-processor is deprecated; use --image-processor-backend=pil instead."]),
    "--enable-flashinfer-allreduce-fusion": dict(write=["--flashinfer-allreduce-fusion-backend", "auto"],
                                                 equivalent="yes", evidence=[
        W("0.5.14", "Please use --flashinfer-allreduce-fusion-backend=auto instead.")],
        warns=["--enable-flashinfer-allreduce-fusion is deprecated. Please use --flashinfer-allreduce-fusion-backend=auto"]),
    "--disable-cuda-graph": dict(write=["--cuda-graph-backend-decode", "disabled", "--cuda-graph-backend-prefill",
                                        "disabled"], equivalent="yes", evidence=[
        W("0.5.14", "Use --cuda-graph-backend-{decode,prefill}=disabled instead.")]),
    "--enable-dp-attention": dict(write=["--attn-dp-size", "{dp_size}"], equivalent="yes", absorbs="dp_size", evidence=[
        W("0.5.22", "Use --attn-dp-size <dp-size> instead of --dp-size <dp-size> --enable-dp-attention.")]),
    "--monokernel-backend": dict(equivalent="yes", values={"amd": ["--enable-amd-monokernel"]}, evidence=[
        W("0.5.23", "Use --enable-amd-monokernel instead of --monokernel-backend amd.")]),
    # -- choices -------------------------------------------------------------------------------------
    "--tool-call-parser=qwen3": dict(write=["--tool-call-parser", "qwen3_coder"], equivalent="judgement", evidence=[
        C("0.4.9.post4", '"qwen3_coder": Qwen3CoderDetector,', "sglang/srt/function_call/function_call_parser.py")],
        note="0.4.9.post3's qwen3 parsed Qwen3's XML tool calls; qwen3_coder has a detector of its own"),
    "--tool-call-parser=qwen25": dict(write=["--tool-call-parser", "qwen"], equivalent="yes", evidence=[
        C("0.5.3.post1", 'deprecated_tool_call_parsers = {"qwen25": "qwen", "glm45": "glm"}')],
        warns=['deprecated_tool_call_parsers = {"qwen25": "qwen", "glm45": "glm"}']),
    "--tool-call-parser=glm45": dict(write=["--tool-call-parser", "glm"], equivalent="yes", evidence=[
        C("0.5.3.post1", 'deprecated_tool_call_parsers = {"qwen25": "qwen", "glm45": "glm"}')],
        warns=['deprecated_tool_call_parsers = {"qwen25": "qwen", "glm45": "glm"}']),
    "--flashinfer-mxfp4-moe-precision=mxfp4": dict(write=["--flashinfer-mxfp4-moe-precision", "default"],
                                                   equivalent="judgement", evidence=[
        C("0.5.1.post3", 'flashinfer_mxfp4_moe_precision: Literal["default", "bf16"] = "default"')],
        note="the code only ever read default or bf16"),
    "--load-balance-method=decode_round_robin": dict(write=["--load-balance-method", "round_robin"],
                                                     equivalent="judgement", evidence=[
        W("0.5.8", "means `bootstrap_room` routing (use 'follow_bootstrap_room' instead).")],
        candidates=["round_robin", "follow_bootstrap_room"]),
    "--load-balance-method=shortest_queue": dict(write=["--load-balance-method", "total_requests"],
                                                 equivalent="judgement", candidates=["total_requests"],
                                                 evidence=[C("0.5.8", "LoadBalanceMethod.TOTAL_REQUESTS: "
                                                                      "self.total_requests_scheduler,",
                                                             "sglang/srt/managers/data_parallel_controller.py")]),
    "--load-balance-method=minimum_tokens": dict(write=["--load-balance-method", "total_tokens"],
                                                 equivalent="judgement", candidates=["total_tokens"], evidence=[
        W("0.5.7", "The 'minimum_tokens' load balancing method is deprecated for now and will introduced later.",
          "sglang/srt/managers/data_parallel_controller.py")]),
    "--reasoning-parser=nano_v3": dict(write=["--reasoning-parser", "nemotron_3"], equivalent="judgement", evidence=[
        C("0.5.10", '"nemotron_3": Nemotron3Detector,', "sglang/srt/parser/reasoning_parser.py")],
        note="nemotron_3 stands where nano_v3 stood (NanoV3Detector)"),
    "--quantization=qoq": dict(equivalent="no", note="the QoQ method was removed"),
    "--speculative-draft-model-quantization=qoq": dict(equivalent="no", note="the QoQ method was removed"),
    "--fp4-gemm-backend=cutlass": dict(write=["--fp4-gemm-backend", "flashinfer_cutlass"], equivalent="judgement",
                                       candidates=["flashinfer_cutlass", "auto"]),
    "--quantization=marlin": dict(equivalent="no", candidates=["gptq_marlin", "awq_marlin"],
                                  note="Marlin kernels remain for GPTQ/AWQ checkpoints"),
    "--speculative-draft-model-quantization=marlin": dict(equivalent="no", candidates=["gptq_marlin", "awq_marlin"],
                                                          note="Marlin kernels remain for GPTQ/AWQ checkpoints"),
    "--bf16-gemm-backend=flashinfer_pr4266": dict(equivalent="no", candidates=["auto"]),
    "--kv-cache-dtype=fp4_e2m1": dict(equivalent="no", candidates=["nvfp4", "fp4_mx_block16"]),
    **{f"{o}=hybrid_linear_attn": dict(write=[], equivalent="judgement", evidence=[
        C("0.5.2", 'self.server_args.attention_backend = "hybrid_linear_attn"',
          "sglang/srt/model_executor/model_runner.py")],
        note="SGLang chose it itself for hybrid linear-attention models") for o in ATTENTION_OPTIONS},
    **{f"{o}=cutlass_mla": dict(equivalent="no", candidates=["trtllm_mla", "flashinfer"],
                                note="the Blackwell MLA backends that remain") for o in ATTENTION_OPTIONS},
    **{f"{o}=dual_chunk_flash_attn": dict(equivalent="no", note="dual-chunk attention was removed")
       for o in ATTENTION_OPTIONS},
    **{f"{o}=tc_piecewise": dict(equivalent="no", candidates=["breakable", "full", "disabled"], evidence=[
        W("0.5.22", "tc_piecewise was removed; select breakable, full, or disabled",
          "sglang/srt/model_executor/cuda_graph_config.py")])
       for o in ("--cuda-graph-backend-decode", "--cuda-graph-backend-prefill")},
    **{f"{o}=compressed": dict(write=[o, "dsv4"], equivalent="yes", evidence=[
        W("0.5.12", "=compressed is deprecated; use 'dsv4' instead."),
        C("0.5.23", 'aliases = {"compressed": "dsv4", "tokenspeed_mla": "cutedsl_mla"}')],
        warns=["=compressed is deprecated; use 'dsv4' instead.", 'aliases = {"compressed": "dsv4"'])
       for o in ATTENTION_OPTIONS},
    **{f"{o}=tokenspeed_mla": dict(write=[o, "trtllm_mla" if o == "--prefill-attention-backend" else "cutedsl_mla"],
                                   equivalent="yes", evidence=[
        C("0.5.23", 'aliases = {"compressed": "dsv4", "tokenspeed_mla": "cutedsl_mla"}'),
        *([C("0.5.23", 'renamed["prefill_attention_backend"] = "trtllm_mla"')]
          if o == "--prefill-attention-backend" else [])],
        warns=['"tokenspeed_mla": "cutedsl_mla"'])
       for o in ATTENTION_OPTIONS},
}
"""The judgements (see the module text). Keys: ``--option`` or ``--option=choice``."""


# ---------------------------------------------------------------------------------------------------


def version_key(version: str) -> tuple[int, ...]:
    m = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?", version)
    if not m:
        raise ValueError(version)
    return tuple(int(x) for x in m.groups(default="-1"))


def load_tables(data: Path) -> list[dict]:
    """Every option table, oldest first."""
    out = [json.loads(p.read_text(encoding="utf-8")) for p in data.glob("options-*.json")]
    return sorted(out, key=lambda t: version_key(t["sglang_version"]))


class Wheels:
    """The releases' sources, read from their wheels (zip members, never unpacked), cached."""

    def __init__(self, folder: Path, tables: list[dict]) -> None:
        self.paths: dict[str, Path] = {}
        for t in tables:
            v = t["sglang_version"]
            found = sorted(glob.glob(str(folder / f"sglang-{v}-*.whl")))
            if not found:
                raise SystemExit(f"error: no wheel of SGLang {v} in {folder} (generate_sglang_options.py --wheel-dir)")
            self.paths[v] = Path(found[0])
            want = t["source"]["sha256"]
            got = hashlib.sha256(self.paths[v].read_bytes()).hexdigest()
            if got != want:
                raise SystemExit(f"error: {self.paths[v]} is not the wheel the {v} table was read from")
        self._zips: dict[str, zipfile.ZipFile] = {}
        self._texts: dict[tuple[str, str], str | None] = {}
        self._strings: dict[tuple[str, str], list] = {}

    def _zip(self, v: str) -> zipfile.ZipFile:
        if v not in self._zips:
            self._zips[v] = zipfile.ZipFile(self.paths[v])
        return self._zips[v]

    def names(self, v: str) -> list[str]:
        return sorted(n for n in self._zip(v).namelist() if SCANNED.match(n))

    def text(self, v: str, name: str) -> str | None:
        key = (v, name)
        if key not in self._texts:
            try:
                self._texts[key] = self._zip(v).read(name).decode("utf-8")
            except KeyError:
                self._texts[key] = None
        return self._texts[key]

    def strings(self, v: str, name: str) -> list[tuple[int, str]]:
        """``(line, text)`` of each string literal of a file (implicit concatenations joined, an f-string's
        values as ``{…}``), whitespace runs made one blank."""
        key = (v, name)
        if key not in self._strings:
            text = self.text(v, name)
            out = []
            if text is not None:
                for node in ast.walk(ast.parse(text)):
                    if isinstance(node, ast.Constant) and isinstance(node.value, str):
                        out.append((node.lineno, " ".join(node.value.split())))
                    elif isinstance(node, ast.JoinedStr):
                        parts = [p.value if isinstance(p, ast.Constant) else "{" + ast.unparse(p.value) + "}"
                                 for p in node.values]
                        out.append((node.lineno, " ".join("".join(parts).split())))
            self._strings[key] = out
        return self._strings[key]

    def find(self, kind: str, v: str, quote: str, file: str | None, prefer=None) -> tuple[str, str] | None:
        """``(file:line, the whole string or line)`` of ``quote`` in release ``v`` (the first hit for which
        ``prefer(text)`` is true, when there is one), else None."""
        names = [file] if file else self.names(v)
        want = " ".join(quote.split())
        hits = []
        for name in names:
            if kind == "words":
                hits += [(f"{name}:{line}", s) for line, s in self.strings(v, name) if want in s]
            else:
                text = self.text(v, name)
                hits += [(f"{name}:{k}", line.strip()) for k, line in enumerate((text or "").splitlines(), 1)
                         if want in " ".join(line.split())]
        preferred = [h for h in hits if prefer is not None and prefer(h[1])]
        return (preferred or hits or [None])[0]

    def declared(self, v: str, option: str, dest: str) -> str | None:
        """``file:line`` where release ``v`` declares ``option`` (its string literal, else its field)."""
        lit = re.compile(r"""["']""" + re.escape(option) + r"""["']""")
        field = re.compile(r"^\s*" + re.escape(dest) + r"\s*:")
        for pattern in (lit, field):
            for name in self.names(v):
                for k, line in enumerate((self.text(v, name) or "").splitlines(), 1):
                    if pattern.search(line):
                        return f"{name}:{k}"
        return None

    def help_of(self, v: str, option: str, dest: str) -> str | None:
        """The help text release ``v`` declares for ``option`` (``add_argument`` or a field's annotation)."""
        for name in self.names(v):
            text = self.text(v, name)
            if text is None or (option not in text and dest not in text):
                continue
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument" and node.args \
                        and isinstance(node.args[0], ast.Constant) and node.args[0].value == option:
                    for kw in node.keywords:
                        if kw.arg == "help":
                            return _literal_text(kw.value)
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == dest \
                        and isinstance(node.annotation, ast.Subscript):
                    elts = node.annotation.slice.elts if isinstance(node.annotation.slice, ast.Tuple) else []
                    for e in elts[1:]:
                        got = _literal_text(e)
                        if got:
                            return got
                        if isinstance(e, ast.Call):
                            for kw in e.keywords:
                                if kw.arg == "help":
                                    return _literal_text(kw.value)
        return None


def _literal_text(node) -> str | None:
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None
    return " ".join(value.split()) if isinstance(value, str) else None


# ---------------------------------------------------------------------------------------------------


def events(tables: list[dict]) -> list[dict]:
    """Removal events (options, choices) and options deprecated in some release, from the tables."""
    out: dict[str, dict] = {}
    versions = [t["sglang_version"] for t in tables]
    present: dict[str, list[int]] = {}
    rows: dict[str, dict] = {}
    for k, t in enumerate(tables):
        for o in t["options"]:
            for s in o["option_strings"]:
                present.setdefault(s, []).append(k)
                rows.setdefault(s, {})[k] = o
    for s, ks in present.items():
        last = ks[-1]
        removed = versions[last + 1] if last + 1 < len(versions) else None
        deprecated = any(rows[s][k].get("deprecation") for k in ks)
        gap = [k for k in range(ks[0], last + 1) if k not in ks]
        if gap:  # removed and declared again later: the removal that matters is the first
            last, removed = gap[0] - 1, versions[gap[0]]
        if removed is None and not deprecated:
            continue
        out[s] = {"key": s, "option": s, "choice": None, "first": versions[ks[0]], "last": versions[last],
                  "removed": removed, "row": rows[s][last], "rows": rows[s]}
    for s, by in rows.items():
        ks = sorted(by)
        for a, b in zip(ks, ks[1:]):
            ca, cb = by[a].get("choices"), by[b].get("choices")
            if not ca or cb is None:
                continue
            for c in ca:
                if c not in cb and f"{s}={c}" not in out:
                    first = next(k for k in ks if c in (by[k].get("choices") or ()))
                    out[f"{s}={c}"] = {"key": f"{s}={c}", "option": s, "choice": c, "first": versions[first],
                                       "last": versions[a], "removed": versions[b], "row": by[a], "rows": {}}
    return list(out.values())


def stages_from_tables(event: dict, versions: list[str]) -> list[dict]:
    """Ranges of releases whose action for the option is a deprecation (the tables' records)."""
    out: list[dict] = []
    for k in sorted(event["rows"]):
        dep = event["rows"][k].get("deprecation")
        if not dep:
            continue
        v = versions[k]
        key = (dep.get("behaviour"), dep.get("message"))
        if out and out[-1]["_key"] == key and out[-1]["_k"] == k - 1:
            out[-1]["to"], out[-1]["_k"] = v, k
            continue
        out.append({"_key": key, "_k": k, "from": v, "to": v, "behaviour": dep.get("behaviour"),
                    "message": dep.get("message") or dep.get("help") or "",
                    "source": f"{v} {dep.get('source', '').split(' (')[0]}"})
    return out


def warn_stages(wheels: Wheels, quotes: list[str], versions: list[str]) -> list[dict]:
    """Ranges of releases whose sources hold one of ``quotes`` (a start-up warning or the mapping it
    makes): each a "warns" stage with the text found and where."""
    out: list[dict] = []
    for k, v in enumerate(versions):
        if not v:  # a release left out (see the caller)
            continue
        hit = None
        for q in quotes:
            hit = wheels.find("words", v, q, None) or wheels.find("code", v, q, None)
            if hit:
                break
        if hit is None:
            continue
        if out and out[-1]["_k"] == k - 1:
            out[-1]["to"], out[-1]["_k"] = v, k
            continue
        out.append({"_k": k, "from": v, "to": v, "behaviour": "warns", "message": hit[1],
                    "source": f"{v} {hit[0]}"})
    return out


def _mechanical(event: dict, table_of: dict) -> dict | None:
    """The judgement a deprecated action's own record gives (it stored the value on its successor), or
    dropping an option that did nothing (its dest is no ServerArgs field)."""
    row = event["row"]
    dep = row.get("deprecation") or {}
    new = dep.get("new_flag")
    if event["choice"] is None and new and re.fullmatch(r"--[a-z0-9-]+(=[a-z0-9_]+)?", new):
        name, _, value = new.partition("=")
        takes = row.get("nargs") != 0 and row.get("action") not in ("store_true",) and \
            "StoreTrue" not in row.get("action", "") and "StoreConst" not in row.get("action", "")
        write = [name, value] if value else ([name, "{value}"] if takes else [name])
        return dict(write=write, equivalent="yes", _record=dep)
    if event["choice"] is None and dep.get("behaviour") != "raises" and row["dest"] not in table_of[event["last"]]["fields"]:
        return dict(write=[], equivalent="yes")
    return None


def _names(text: str, event: dict) -> bool:
    """Whether ``text`` names the event's option (or its choice): its option string or its dest."""
    if event["choice"] is not None:
        return re.search(r"(?<![\w-])" + re.escape(event["choice"]) + r"(?![\w-])", text) is not None
    dest = event["row"]["dest"]
    return event["option"] in text or re.search(r"\b" + re.escape(dest) + r"\b", text) is not None


def _check_renamed(wheels: Wheels, event: dict, judgement: dict, table_of: dict) -> dict:
    """Evidence that ``write[0]`` in the first release without the old option is the old option renamed:
    the same help text, else the same type, choices, default and action."""
    new = judgement["write"][0]
    old_row = event["row"]
    new_row = next(o for o in table_of[event["removed"]]["options"] if new in o["option_strings"])
    old_help = wheels.help_of(event["last"], event["option"], old_row["dest"])
    new_help = wheels.help_of(event["removed"], new, new_row["dest"])
    where = wheels.declared(event["removed"], new, new_row["dest"])
    if old_help and new_help:
        if old_help != new_help:
            raise SystemExit(f"error: {event['key']}: 'renamed' to {new}, but the help texts differ:\n  {old_help}\n  "
                             f"{new_help}")
        return {"text": f"{new} is declared with the same help: {new_help!r}", "release": event["removed"],
                "where": where}
    same = {k: old_row.get(k) for k in ("type", "choices", "default", "action", "nargs")}
    if same != {k: new_row.get(k) for k in same}:
        raise SystemExit(f"error: {event['key']}: 'renamed' to {new}, but the declarations differ")
    return {"text": f"{new} is declared with the same type, choices and default", "release": event["removed"],
            "where": where}


def build(tables: list[dict], wheels: Wheels) -> dict:
    versions = [t["sglang_version"] for t in tables]
    table_of = {t["sglang_version"]: t for t in tables}
    evs = {e["key"]: e for e in events(tables)}
    for key, j in CATALOG.items():  # deprecated-only judgements (a choice SGLang maps, a warning at start-up)
        if key in evs:
            continue
        option, _, choice = key.partition("=")
        have = [t for t in tables if any(option in o["option_strings"] for o in t["options"])]
        if not have:
            raise SystemExit(f"error: CATALOG names {option}, which no release declares")
        last = have[-1]
        row = next(o for o in last["options"] if option in o["option_strings"])
        evs[key] = {"key": key, "option": option, "choice": choice or None, "first": have[0]["sglang_version"],
                    "last": last["sglang_version"], "removed": None, "row": row, "rows": {}}
    entries = []
    for key in sorted(evs, key=lambda k: (version_key(evs[k]["removed"]) if evs[k]["removed"] else (9,), k)):
        e = evs[key]
        j = CATALOG.get(key) or _mechanical(e, table_of)
        if j is None:
            raise SystemExit(f"error: SGLang {e['removed'] or e['last']} removed or deprecated {key} and CATALOG does "
                             "not say what replaces it")
        words, code = [], []
        row = e["row"]
        for kind, release, quote, file, forced in j.get("evidence", []):
            hit = wheels.find(kind, release, quote, file, lambda text: _names(text, e))
            if hit is None:
                raise SystemExit(f"error: {key}: {kind} {quote!r} is not in SGLang {release}"
                                 + (f" {file}" if file else ""))
            item = {"text": hit[1] if kind == "words" else quote, "release": release, "where": hit[0]}
            # SGLang's words on this option: a text that names it, or the option's own help; any other text
            # (the help of the option that took its place) is evidence from the code
            own = kind == "words" and (forced or _names(hit[1], e) or hit[1] == wheels.help_of(release, e["option"], row["dest"]))
            (words if own else code).append(item)
        dep = row.get("deprecation")
        if dep is not None and not any(_names(w["text"], e) for w in words):  # the deprecated action's own help (or, hidden, its warning), as the table recorded it
            helped = dep.get("help") not in (None, "==SUPPRESS==")
            hit = wheels.find("words", e["last"], dep["help"], None) if helped else None
            words.append({"text": hit[1] if hit else dep.get("message", ""), "release": e["last"],
                          "where": hit[0] if hit else dep.get("source", "").split(" (")[0]})
        if j.get("renamed"):
            code.append(_check_renamed(wheels, e, j, table_of))
        if e["choice"] is None and row["dest"] not in table_of[e["last"]]["fields"] and \
                (row.get("deprecation") or {}).get("behaviour") != "raises":
            code.append({"text": f"{row['dest']} is not a ServerArgs field: from_cli_args drops the option's value",
                         "release": e["last"], "where": wheels.declared(e["last"], e["option"], row["dest"])})
        stages = stages_from_tables(e, versions)
        # a warning's text may also be a raising action's (0.5.3's NOTE: ... help): the tables' record wins there
        recorded = {v for s in stages for v in versions[versions.index(s["from"]):versions.index(s["to"]) + 1]}
        stages += warn_stages(wheels, j.get("warns", []), [v if v not in recorded else "" for v in versions])
        stages.sort(key=lambda s: version_key(s["from"]))
        for s in stages:
            s.pop("_k", None)
            s.pop("_key", None)
        successor = {"write": j.get("write"), "equivalent": j["equivalent"]}
        for k in ("values", "candidates", "absorbs", "note"):
            if j.get(k):
                successor[k] = j[k]
        if successor["write"] is None:
            del successor["write"]
        takes = e["choice"] is None and row.get("nargs") != 0 and row.get("action", "store") not in (
            "store_true", "store_false", "store_const", "count") and not row.get("action", "").endswith(
            ("StoreTrueAction", "StoreConstAction", "BooleanOptionalAction"))
        basis = "words" if words else ("code" if code else "none")
        entry = {"option": e["option"], "choice": e["choice"], "dest": row["dest"], "takes_value": takes,
                 "first": e["first"], "last": e["last"], "removed": e["removed"], "stages": stages,
                 "successor": successor, "words": words, "code": code,
                 "declared": f"{e['last']} {wheels.declared(e['last'], e['option'], row['dest'])}", "basis": basis}
        entries.append(entry)
    unused = set(CATALOG) - set(evs)
    if unused:
        raise SystemExit(f"error: CATALOG judges what no release removed or deprecated: {sorted(unused)}")
    return {
        "generator": GENERATOR,
        "note": ("What replaces each option or choice SGLang removed, renamed or deprecated (read from the option "
                 "tables and the wheels; see the generator's docstring). 'words' are SGLang's own texts, 'code' "
                 "the code that took the old option's place, each with the release and file:line."),
        "releases": f"{versions[0]} … {versions[-1]} ({len(versions)} option tables)",
        "entries": entries,
    }


def dumps(doc: dict) -> str:
    head = {k: v for k, v in doc.items() if k != "entries"}
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    lines = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in doc["entries"]]
    return text + ',\n "entries": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="generate_successors.py", description=__doc__.splitlines()[0])
    p.add_argument("--wheel-dir", required=True, type=Path, help="sglang-<release>-*.whl of every release with a table")
    p.add_argument("--check", action="store_true", help="compare with the committed file; write nothing")
    args = p.parse_args(argv)
    tables = load_tables(DATA)
    text = dumps(build(tables, Wheels(args.wheel_dir, tables)))
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.relative_to(ROOT)}: {'identical' if same else 'DIFFERS'}", file=sys.stderr)
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    doc = json.loads(text)
    n = len(doc["entries"])
    words = sum(1 for e in doc["entries"] if e["basis"] == "words")
    print(f"wrote {OUT.relative_to(ROOT)}: {n} entries, {words} from SGLang's own words", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
