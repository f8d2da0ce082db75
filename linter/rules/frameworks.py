"""Checks the frameworks that start SGLang add themselves: SGL301."""

from __future__ import annotations

from linter.rules.base import UNSAFE, Example, Fix, LaunchContext, Rule, Severity
from linter.sglang.dialects import by_program, failed_checks
from linter.source import Edit


def rename_fix(rename, who: str) -> Fix | None:
    """The fix that renames a misspelled framework setting to the framework's own name close to it:
    unsafe (the name is a guess from its spelling)."""
    if rename is None:
        return None
    span, name = rename
    return Fix(UNSAFE, f"Use {who}'s {name}", [Edit(span, name)])


def setting_findings(rule: Rule, ctx: LaunchContext, entries, verb: str, key: str):
    """A finding of ``rule`` for each ``(span, why, rename)`` of the launch's framework facts: "<framework>
    <verb> this setting: why", with the rename fix when there is one."""
    facts = ctx.launch.framework
    who = facts.program.split(" (")[0]
    for n, (span, why, rename) in enumerate(entries):
        if span is not None:
            yield rule.diagnostic(f"{who} {verb} this setting: {why}", span, ctx, fix=rename_fix(rename, who),
                                  key=f"{key}:{n}", notes=[f"read from {facts.follows}"])


class FrameworkRejects(Rule):
    """A framework that starts SGLang refuses the launch's settings before SGLang sees them.

    ## What it does
    Reports settings a framework checks itself when it starts its SGLang engines — for slime and
    miles, an SGLang data-parallel size above 1 (``--sglang-dp-size 2``) without DP attention
    (``--sglang-enable-dp-attention``); an SGLang option the framework does not have
    (ms-swift's and LLaMA-Factory's ``--sglang_*`` options, a key AReaL's ``SGLangConfig`` lacks); a
    keyword SkyRL passes itself repeated in ``generator.engine_init_kwargs``; a setting the framework
    requires (ROLL's ``mem_fraction_static``); and, where the file pins the release, an SGLang release
    the framework refuses (ROLL's list, AReaL 0.5.10.post1 and later, LLaMA-Factory 0.4.5 and later).

    ## Why it fails
    slime's and miles' ``validate_args`` assert ``args.sglang_enable_dp_attention`` when
    ``args.sglang_dp_size > 1`` (THUDM/slime ``slime/backends/sglang_utils/arguments.py`` @624b824a;
    radixark/miles ``miles/backends/sglang_utils/arguments.py`` @06ea7c62): the trainer stops with an
    ``AssertionError`` before any engine starts. The other frameworks' checks are cited, file and line
    at the commit followed, in ``linter/sglang/data/frameworks.json`` and in each finding's message.

    ## Example
    ``python3 train.py --hf-checkpoint Qwen/Qwen3-8B --sglang-dp-size 2``

    ## Fix safety
    A misspelled option of the framework's own (``--sglang_kv_cache_type`` for ms-swift's
    ``--sglang_kv_cache_dtype``) is renamed to the one close name (unsafe: the name is a guess from its
    spelling). Otherwise no fix: whether to turn DP attention on or the DP size down is the user's choice.

    ## References
    - ``THUDM/slime:scripts/run-deepseek-r1.sh`` @624b824a and
      ``radixark/miles:examples/infra_features/true_on_policy/run_simple.py`` @31f1ca96 (``--sglang-``
      options in use); radixark/miles#1260 (the trainer refusing settings itself)
    """

    code = "SGL301"
    name = "framework-rejects-launch"
    fixable = "sometimes"
    summary = "the framework that starts SGLang (slime, miles, ms-swift, AReaL, SkyRL …) refuses these settings itself"
    VALID = [Example("--hf-checkpoint Qwen/Qwen3-8B --sglang-dp-size 2 --sglang-enable-dp-attention",
                     program="python3 train.py", sglang="0.5.18"),
             Example("--model Qwen/Qwen3-8B --infer_backend sglang --sglang_kv_cache_dtype fp8_e5m2",
                     program="swift infer")]
    INVALID = [Example("--hf-checkpoint Qwen/Qwen3-8B --sglang-dp-size 2", program="python3 train.py"),
               Example("--model Qwen/Qwen3-8B --infer_backend sglang --sglang_kv_cache_type fp8_e5m2",
                       fixed="--model Qwen/Qwen3-8B --infer_backend sglang --sglang_kv_cache_dtype fp8_e5m2",
                       program="swift infer")]

    def check(self, ctx: LaunchContext):
        facts = ctx.launch.framework
        if facts is not None:
            yield from self._facts(ctx, facts)
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

    def _facts(self, ctx: LaunchContext, facts):
        who = facts.program.split(" (")[0]
        yield from setting_findings(self, ctx, facts.refused, "refuses", "framework")
        releases = facts.releases
        if releases and ctx.version_written is not None:
            from linter.sglang.options import version_tuple

            version = ctx.table.version
            refused = (("min" in releases and version_tuple(version) < version_tuple(releases["min"]))
                       or ("only" in releases and version not in releases["only"]))
            if refused:
                allowed = f"{releases['min']} or later" if "min" in releases else ", ".join(releases["only"])
                yield self.diagnostic(f"{who} refuses SGLang {version}: it runs with {allowed} ({releases['cite']})",
                                      facts.anchor or ctx.launch.span, ctx, key="framework:release",
                                      notes=[f"read from {facts.follows}; the release: {ctx.version_origin}"])


class FrameworkIgnoresSetting(Rule):
    """A setting the framework accepts but never passes to SGLang: it has no effect.

    ## What it does
    Reports a setting in a framework's SGLang configuration that the framework reads past: NeMo-RL
    copies only 17 keys of ``policy.generation.sglang_cfg`` into the server arguments (an
    ``attention_backend`` there is dropped), LLaMA-Factory accepts ``sglang_config`` and never uses
    it, ROLL pops ``pipeline_parallel_size``, and a field the framework sets itself replaces the one
    written in its section (ROLL's ``model_path``, lm-eval's ``tp_size`` under another name, the
    slime/miles trainer's ``--sglang-tp-size``, which it sets from ``--rollout-num-gpus-per-engine``:
    slime ignores the option, miles takes it and replaces its value).

    ## Why it fails
    Nothing stops: the server starts without the setting, so the configuration that was reviewed is
    not the one that runs (an attention backend, a memory fraction, a parallel size silently absent).
    Each message cites the framework's source, file and line at the commit followed
    (``linter/sglang/data/frameworks.json``).

    ## Example
    ``llamafactory-cli api --model_name_or_path Qwen/Qwen3-8B --infer_backend sglang --sglang_config
    '{"attention_backend": "fa4"}'``

    ## Fix safety
    A key close to one the framework does pass (NeMo-RL's ``mem_fraction`` for ``mem_fraction_static``)
    is renamed (unsafe: the name is a guess from its spelling); otherwise no fix.

    ## References
    - linter/sglang/data/frameworks.json (section_only, ignored, section_ignored)
    - linter/sglang/data/dialects.json (skipped_dests, skipped_handling: THUDM/slime
      ``slime/backends/sglang_utils/arguments.py`` @624b824a, radixark/miles
      ``miles/backends/sglang_utils/arguments.py`` @31f1ca96)
    """

    code = "SGL302"
    name = "framework-ignores-setting"
    fixable = "sometimes"
    severity = Severity.WARNING
    summary = "a setting the framework that starts SGLang accepts but never passes to it"
    VALID = [Example("--model_name_or_path Qwen/Qwen3-8B --infer_backend sglang --sglang_maxlen 8192",
                     program="llamafactory-cli api")]
    INVALID = [Example("--model_name_or_path Qwen/Qwen3-8B --infer_backend sglang --sglang_config {}",
                       program="llamafactory-cli api"),
               Example("--hf-checkpoint Qwen/Qwen3-8B --rollout-num-gpus-per-engine 8 --sglang-tp-size 8",
                       program="python3 train.py")]

    def check(self, ctx: LaunchContext):
        if ctx.launch.framework is not None:
            yield from setting_findings(self, ctx, ctx.launch.framework.ignored, "ignores", "framework-ignored")
        who = ctx.launch.program
        for tok, why, sources in ctx.parsed.framework_ignored:
            spelled = tok.raw.split("=", 1)[0]
            yield self.diagnostic(f"{who} ignores this setting: {why}", tok.location(0, len(spelled)), ctx,
                                  key=f"dialect-ignored:{spelled}", notes=[f"source: {s}" for s in sources])
