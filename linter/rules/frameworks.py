"""Checks the frameworks that start SGLang add themselves: SGL301."""

from __future__ import annotations

from linter.rules.base import Example, LaunchContext, Rule
from linter.sglang.dialects import by_program, failed_checks


class FrameworkRejects(Rule):
    """A framework that starts SGLang (slime, miles) refuses the launch's settings before SGLang sees them.

    ## What it does
    Reports settings an RL trainer checks itself when it starts its SGLang engines — for slime and
    miles, an SGLang data-parallel size above 1 (``--sglang-dp-size 2``) without DP attention
    (``--sglang-enable-dp-attention``).

    ## Why it fails
    slime's and miles' ``validate_args`` assert ``args.sglang_enable_dp_attention`` when
    ``args.sglang_dp_size > 1`` (THUDM/slime ``slime/backends/sglang_utils/arguments.py`` @624b824a;
    radixark/miles ``miles/backends/sglang_utils/arguments.py`` @06ea7c62): the trainer stops with an
    ``AssertionError`` before any engine starts.

    ## Example
    ``python3 train.py --hf-checkpoint Qwen/Qwen3-8B --sglang-dp-size 2``

    ## Fix safety
    No fix: whether to turn DP attention on or the DP size down is the user's choice.

    ## References
    - ``THUDM/slime:scripts/run-deepseek-r1.sh`` @624b824a and
      ``radixark/miles:examples/infra_features/true_on_policy/run_simple.py`` @31f1ca96 (``--sglang-``
      options in use); radixark/miles#1260 (the trainer refusing settings itself)
    """

    code = "SGL301"
    name = "framework-rejects-launch"
    summary = "the framework that starts SGLang (slime, miles) refuses these settings itself"
    VALID = [Example("--hf-checkpoint Qwen/Qwen3-8B --sglang-dp-size 2 --sglang-enable-dp-attention",
                     program="python3 train.py", sglang="0.5.18")]
    INVALID = [Example("--hf-checkpoint Qwen/Qwen3-8B --sglang-dp-size 2", program="python3 train.py")]

    def check(self, ctx: LaunchContext):
        dialect = by_program(ctx.launch.program)
        if dialect is None:
            return
        for check, setting in failed_checks(dialect, ctx.parsed):
            opt = ctx.table.by_dest.get(check["requires"])
            need = dialect.prefix + opt.primary[2:] if opt is not None else check["requires"]
            yield self.diagnostic(
                f"{dialect.program} refuses {setting.spelled.replace('--', dialect.prefix, 1)} {setting.value} without "
                f"{need}: {check['message']}", setting.value_location(), ctx, key=f"framework:{check['when']}",
                notes=[f"source: {dialect.source.split(' (')[0]}"])
