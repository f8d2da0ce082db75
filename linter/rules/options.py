"""What SGLang's argument parser rejects or silently ignores: SGL201–SGL207.

SGLang parses the server arguments with ``argparse.ArgumentParser(prog="sglang serve")`` (default
``allow_abbrev=True``) built by ``ServerArgs.add_cli_args`` (0.5.18 ``server_args.py:9770-9803``);
a parse error stops the server before anything loads. The options come from the launch's release
table (``linter/sglang/data/options-<version>.json``), so abbreviations and ambiguity are exactly
those of that release. Keyword-argument launches (``Engine``/``ServerArgs``) do not go through
argparse: only SGL201 applies to them (a keyword that is not a ``ServerArgs`` field).
"""

from __future__ import annotations

from linter.rules.base import SAFE, UNSAFE, Example, Fix, LaunchContext, Rule, Severity, insertion_point
from linter.launch import UNKNOWN, CliArgs, KwArgs
from linter.sglang.options import ArgProblem
from linter.sglang.successors import removal_text, removed_choice, removed_option
from linter.source import Edit

_TRUE = {"true", "1", "yes", "y", "on", "True"}


def _problems(ctx: LaunchContext, kind: str) -> list[ArgProblem]:
    if not isinstance(ctx.launch.payload, CliArgs):
        return []
    return [p for p in ctx.parsed.problems if p.kind == kind]


def _short(text: str, limit: int = 60) -> str:
    """A value for a message: a long one is cut in the middle (the source line shows it)."""
    return text if len(text) <= limit else f"{text[:limit // 2]}…{text[-limit // 2:]}"


def _suggest(ctx: LaunchContext, spelled: str) -> tuple[str | None, bool]:
    """(suggestion, certain): the dashed spelling of an underscore option is certain."""
    table = ctx.table
    dashed = "--" + spelled.lstrip("-").replace("_", "-")
    if dashed != spelled:
        if dashed in table.by_string:
            return dashed, True
        matches = table.prefix_matches(dashed)
        if len(matches) == 1:
            return matches[0], True
    from linter.sglang.suggest import close_option

    return close_option(table, spelled), False


class UnknownOption(Rule):
    """An option the launch's SGLang release does not have.

    ## What it does
    Reports a command-line option that is neither an option string nor a unique prefix of one in the
    release's parser — typically a misspelling or the underscore spelling of a real option
    (``--attention_backend``) — and, for ``Engine(...)``/``ServerArgs(...)``, a keyword that is not a
    ``ServerArgs`` field.

    An option that an older release had (``--enable-deepep-moe``, ``--enable-ep-moe``,
    ``--disable-flashinfer`` …) is named with its history and its successor, from the successor table
    (``linter/sglang/data/successors.json``, generated from every release's own code): the release
    that removed it, SGLang's own words on it, and what to write instead.

    ## Why it fails
    SGLang's parser stops with ``error: unrecognized arguments: --attention_backend fa3`` (there are
    no underscore aliases; docs/sglang.md §5); ``ServerArgs(foo=1)`` raises ``TypeError``.

    ## Example
    ``python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention_backend fa3``

    ## Fix safety
    The underscore spelling of an existing option is fixed to its dashed spelling (safe: that is the
    only option the text can mean). Other misspellings get a "did you mean" and no fix. A removed
    option is replaced by its successor where the launch's release takes it: safe where SGLang's own
    words or code make the successor the same for the values written (``--enable-deepep-moe`` →
    ``--moe-a2a-backend deepep``, which 0.5.2's ``__post_init__`` set itself; ``--enable-ep-moe`` →
    ``--ep-size`` with the launch's ``--tp-size``, only when that value is known), unsafe where it
    needs judgement, no fix where nothing is equivalent (the message names the candidates) or where
    SGLang's text does not pass the release's own table (0.4.0's ``--sampling-backend pytroch``).

    ## References
    - docs/sglang.md §5; ``scripts/generate_successors.py`` (each successor's source)
    """

    code = "SGL201"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "unknown-option"
    summary = "an option that the launch's SGLang release does not have"
    fixable = "sometimes"
    VALID = [Example("--model-path Qwen/Qwen3-8B --attention-backend fa3 --tp 2")]
    INVALID = [
        Example("--model-path Qwen/Qwen3-8B --attention_backend fa3",
                fixed="--model-path Qwen/Qwen3-8B --attention-backend fa3"),
        Example("--model-path Qwen/Qwen3-8B --atention-backend fa3"),
        Example("--model-path deepseek-ai/DeepSeek-V3 --enable-deepep-moe",
                fixed="--model-path deepseek-ai/DeepSeek-V3 --moe-a2a-backend deepep"),
        Example("--model-path Qwen/Qwen3-8B --disable-flashinfer-sampling", sglang="0.4.5"),
    ]

    def check(self, ctx: LaunchContext):
        if isinstance(ctx.launch.payload, KwArgs):
            fields = set(ctx.table.fields)
            for kw in ctx.launch.kwargs:
                if fields and kw.name not in fields:
                    import difflib  # (only for a keyword SGLang does not know)

                    close = difflib.get_close_matches(kw.name, sorted(fields), n=1, cutoff=0.75)
                    hint = f"; did you mean {close[0]!r}?" if close else ""
                    fix = None
                    entry = removed_option("--" + kw.name.replace("_", "-"), ctx.table)
                    if entry is not None:
                        from linter.rules.successor_fix import clause, kwarg_fix, said
                        from linter.sglang.successors import plan, removal_text

                        value = kw.value if isinstance(kw.value, str) or kw.value is UNKNOWN else (
                            None if kw.value is True else str(kw.value))
                        got = plan(entry, ctx.table, ctx.parsed, value)
                        hint = f"; its option was {removal_text(entry)}{said(entry)}; {clause(got)}"
                        fix = kwarg_fix(got, kw, ctx.table)
                    yield self.diagnostic(f"{kw.name!r} is not a ServerArgs field in SGLang {ctx.table.version}: "
                                          f"ServerArgs/Engine raise TypeError{hint}",
                                          kw.name_span or kw.where, ctx, fix, key=f"kw:{kw.name}")
            return
        for p in _problems(ctx, "unknown-option"):
            spelled = p.token.raw[:p.range[1]] if p.range else p.token.raw
            if p.detail:
                yield self.diagnostic(p.detail, p.token.location(0, len(spelled)), ctx, key=f"opt:{spelled}")
                continue
            entry = removed_option(spelled, ctx.table) if spelled.startswith("--") else None
            if entry is not None:
                from linter.rules.successor_fix import for_word

                said_, fix, _ = for_word(ctx, entry, p.token, spelled)
                yield self.diagnostic(f"unknown option {spelled}: SGLang {ctx.table.version}'s parser stops with "
                                      f"'unrecognized arguments'; it was {said_}", p.token.location(0, len(spelled)),
                                      ctx, fix, key=f"opt:{spelled}")
                continue
            suggestion, certain = _suggest(ctx, spelled)
            fix = None
            span = p.token.span_of(0, len(spelled))
            if certain and span is None and p.token.text.origins[:2] == (None, None):
                # a --config YAML key: "--" is the merger's, the key is written in the file
                key_span = p.token.span_of(2, len(spelled))
                if key_span is not None:
                    fix = Fix(SAFE, f"Write {suggestion[2:]}", [Edit(key_span, suggestion[2:])])
            elif certain and span is not None:
                fix = Fix(SAFE, f"Write {suggestion}", [Edit(span, suggestion)])
            hint = f"; did you mean {suggestion}?" if suggestion else ""
            if not certain and spelled.startswith("--"):
                from linter.sglang.options import last_release_with

                last = last_release_with(spelled, ctx.table.version)
                if last is not None:  # a removed option: its history says more than a look-alike name
                    hint = f"; it was an option up to SGLang {last} and was removed after it"
            why = " (SGLang has no underscore spellings)" if "_" in spelled and certain else ""
            yield self.diagnostic(f"unknown option {spelled}{why}: SGLang {ctx.table.version}'s parser stops with "
                                  f"'unrecognized arguments'{hint}", p.token.location(0, len(spelled)), ctx, fix,
                                  key=f"opt:{spelled}")


class AmbiguousOption(Rule):
    """A prefix that matches several options of the release.

    ## What it does
    Reports an abbreviated option that is a prefix of more than one option string, such as
    ``--attention`` (``--attention-backend`` and ``--attention-context-parallel-size``) or ``--pp``.

    ## Why it fails
    argparse accepts unique prefixes only: ``error: ambiguous option: --attention could match
    --attention-backend, --attention-context-parallel-size``. A prefix that is unique in one release
    can become ambiguous in the next when an option is added.

    A removed option whose name a newer release made a prefix of other options (``--cuda-graph-max-bs``
    in 0.5.20+: ``--cuda-graph-max-bs-decode`` and ``--cuda-graph-max-bs-prefill``; ``--disable-flashinfer``)
    is named with its successor.

    ## Fix safety
    No fix for a mere abbreviation: the linter cannot know which option was meant. Write the option in
    full. A removed option gets its successor's fix, as for SGL201 (``--cuda-graph-max-bs`` was SGLang's
    own alias of ``--cuda-graph-max-bs-decode`` in 0.5.14–0.5.19: safe).
    """

    code = "SGL202"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "ambiguous-option"
    summary = "an abbreviated option that matches several options"
    VALID = [Example("--model-path Qwen/Qwen3-8B --attention-b fa3")]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --attention fa3"),
               Example("--model-path Qwen/Qwen3-8B --cuda-graph-max-bs 256",
                       fixed="--model-path Qwen/Qwen3-8B --cuda-graph-max-bs-decode 256")]

    def check(self, ctx: LaunchContext):
        for p in _problems(ctx, "ambiguous-option"):
            spelled = p.token.raw.partition("=")[0]
            entry = removed_option(spelled, ctx.table)
            fix, then = None, "; write the option in full"
            if entry is not None:  # a removed option's name is now a prefix of newer ones
                from linter.rules.successor_fix import for_word

                said_, fix, _ = for_word(ctx, entry, p.token, spelled)
                then = f"; {spelled} itself was {said_}"
            yield self.diagnostic(f"ambiguous option {spelled}: it could be {', '.join(p.candidates)} in SGLang "
                                  f"{ctx.table.version}{then}", p.token.location(0, len(spelled)),
                                  ctx, fix, key=f"opt:{spelled}")


class InvalidChoice(Rule):
    """A value outside the option's choices.

    ## What it does
    Reports a value that argparse rejects because it is not one of the option's ``choices`` in the
    launch's release — compared case-sensitively (``--attention-backend FA4``), and including
    backends a release removed (``cutlass_mla`` from 0.5.20). Every value of a multi-value option is
    checked (``--lora-target-modules q_proj FA3``), and a value is compared after argparse's type
    conversion, as argparse does (``--log-requests-level 00`` is the int choice 0).

    ## Why it fails
    ``error: argument --attention-backend: invalid choice: 'FA4' (choose from ...)``.

    A choice an older release had is named with its history and what replaces it (the successor
    table): ``cutlass_mla`` (removed in 0.5.20: no equivalent; the candidates are named),
    ``--load-balance-method shortest_queue`` (0.5.8: ``total_requests`` took its place).

    ## Fix safety
    When the value differs from one choice only by case, the fix writes that choice (safe). A removed
    choice gets its successor where the release takes it: safe where SGLang's words or code make it the
    same, unsafe where it needs judgement, none where nothing is equivalent.
    """

    code = "SGL203"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "invalid-choice"
    summary = "a value outside the option's choices"
    fixable = "sometimes"
    VALID = [Example("--model-path Qwen/Qwen3-8B --attention-backend fa3"),
             Example("--model-path Qwen/Qwen3-8B --log-requests-level 00")]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --attention-backend FA3",
                       fixed="--model-path Qwen/Qwen3-8B --attention-backend fa3"),
               Example("--model-path Qwen/Qwen3-8B --lora-target-modules q_proj FA3", sglang="0.5.1"),
               Example("--model-path Qwen/Qwen3-8B --dp 2 --load-balance-method shortest_queue",
                       fixed="--model-path Qwen/Qwen3-8B --dp 2 --load-balance-method total_requests"),
               Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend cutlass_mla", targets=("B200",))]

    def check(self, ctx: LaunchContext):
        for p in _problems(ctx, "invalid-choice"):
            opt, value = p.option, p.detail
            same_case = [str(c) for c in opt.choices if str(c).lower() == value.lower()]
            fix = None
            span = p.token.span_of(*p.range) if p.range else None
            if len(same_case) == 1 and span is not None:
                fix = Fix(SAFE, f"Write {same_case[0]}", [Edit(span, same_case[0])])
            hint = f"; did you mean {same_case[0]!r}?" if same_case else ""
            entry = removed_choice(opt.option_strings, value, ctx.table) if fix is None else None
            if entry is not None:
                from linter.rules.successor_fix import choice_fix, clause, said
                from linter.sglang.successors import plan, removal_text

                got = plan(entry, ctx.table, ctx.parsed, value)
                hint = f"; {value} was {removal_text(entry)}{said(entry)}; {clause(got)}"
                fix = choice_fix(got, ctx, p.token, p.range, opt)
            where = (p.token.location(*p.range) if p.range else None) or p.token.location()
            yield self.diagnostic(f"invalid choice {value!r} for {opt.primary} in SGLang {ctx.table.version} (choose "
                                  f"from {', '.join(map(str, opt.choices))}){hint}", where, ctx, fix,
                                  key=f"choice:{opt.dest}:{value}")


class UnexpectedValue(Rule):
    """A value given to a store-true flag, or a word the parser cannot place.

    ## What it does
    Reports ``--enable-deterministic-inference=true`` and ``--enable-deterministic-inference true``:
    boolean options are store-true flags that take no value. Also any other stray word among the
    server arguments (SGLang's parser has no positional arguments).

    ## Why it fails
    ``error: argument --enable-deterministic-inference: ignored explicit argument 'true'`` or
    ``error: unrecognized arguments: true`` — the server does not start.

    ## Fix safety
    ``--flag=true`` (or ``=1``/``yes``) is fixed to ``--flag`` — unsafe, because it turns the flag on
    where SGLang currently refuses to start. ``=false`` gets no fix: the right edit is to delete the
    flag, which the linter leaves to you.
    """

    code = "SGL204"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "unexpected-value"
    summary = "a value given to a store-true flag, or a stray word"
    fixable = "sometimes"
    VALID = [Example("--model-path Qwen/Qwen3-8B --enable-deterministic-inference")]
    INVALID = [
        Example("--model-path Qwen/Qwen3-8B --enable-metrics=true", fixed="--model-path Qwen/Qwen3-8B --enable-metrics"),
        Example("--model-path Qwen/Qwen3-8B --enable-metrics true"),
    ]

    def check(self, ctx: LaunchContext):
        for p in _problems(ctx, "unexpected-value"):
            flag = p.token.raw[:p.range[0]]
            value = p.detail
            fix = None
            span = p.token.span_of(p.range[0], p.range[1])
            if value in _TRUE and span is not None and p.token.raw[p.range[0]:p.range[0] + 1] == "=":
                fix = Fix(UNSAFE, f"Write {flag} without a value", [Edit(span, "")])
            name = p.option.primary if p.option is not None else "-h/--help"
            yield self.diagnostic(f"{name} is a flag and takes no value: SGLang's parser stops with "
                                  f"'ignored explicit argument {value!r}'", p.token.location(), ctx, fix,
                                  key=f"value:{p.option.dest if p.option is not None else 'help'}")
        previous = {id(s.flag): s for s in ctx.parsed.settings if s.flag is not None}
        for p in _problems(ctx, "unrecognized-argument"):
            words = ctx.parsed.words or list(ctx.launch.args)
            idx = next((i for i, t in enumerate(words) if t is p.token), -1)
            before = words[idx - 1] if idx > 0 else None
            setting = previous.get(id(before)) if before is not None else None
            if setting is not None and setting.value is True:
                opt = ctx.table.by_dest.get(setting.dest)
                msg = (f"{opt.primary if opt else setting.spelled} is a flag and takes no value: SGLang's parser stops "
                       f"with 'unrecognized arguments: {p.token.raw}'")
            elif p.token.raw.strip() == "" and "\n" in p.token.raw:
                msg = ("a backslash at a line end inside a command string is passed as a newline argument "
                       "(compose and shlex.split do not join lines as a shell does), and SGLang's parser stops on "
                       "it; remove the backslashes (a folded '>' scalar already joins the lines)")
            else:
                msg = f"stray argument {_short(p.token.raw)!r}: SGLang's parser takes no positional arguments and stops"
            yield self.diagnostic(msg, p.token.location(), ctx, key=f"stray:{_short(p.token.raw)}")


class MissingValue(Rule):
    """An option that needs a value, at the end of the command or followed by another option.

    ## What it does
    Reports ``--model-path`` with nothing after it, ``--attention-backend --tp 2``, and a launch
    without the one required option, ``--model-path`` (or ``--model``, or ``sglang serve MODEL``) —
    not a slime/miles trainer's: it builds the engines' server arguments itself, the model from its
    own ``--hf-checkpoint``, which its parser does not require (default None), so SGLang's parser
    never reads its command line.

    ## Why it fails
    ``error: argument --attention-backend: expected one argument``.

    ## Fix safety
    No fix.
    """

    code = "SGL205"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "missing-value"
    summary = "an option that needs a value has none"
    VALID = [Example("--model-path Qwen/Qwen3-8B --tp 2")]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --tp")]

    def check(self, ctx: LaunchContext):
        for p in _problems(ctx, "missing-value"):
            said = p.message.rsplit(": ", 1)[-1]  # argparse's words: "expected at least one argument" for nargs='+'
            yield self.diagnostic(f"{p.option.primary} needs a value: SGLang's parser stops with '{said}'",
                                  p.token.location(), ctx, key=f"missing:{p.option.dest}")
        for p in _problems(ctx, "missing-required"):
            yield self.diagnostic(f"{p.option.primary} is required: SGLang's parser stops with 'the following "
                                  f"arguments are required: {'/'.join(p.option.option_strings)}'", ctx.launch.span,
                                  ctx, key=f"required:{p.option.dest}")


class ConfigEqualsIgnored(Rule):
    """``--config=file.yaml`` is silently ignored.

    ## What it does
    Reports ``--config=FILE`` and abbreviations such as ``--conf FILE``. SGLang merges a YAML config only when the exact token ``--config`` is
    in argv (``if "--config" in argv``, 0.5.18 ``server_args.py:9785``); with ``=``, argparse stores the
    value and ``from_cli_args`` drops it, so every setting in the file is ignored without a word.

    ## Why it fails
    The server starts without the file's settings.

    ## Fix safety
    ``--conf FILE`` becomes ``--config FILE`` (safe). For ``--config=FILE`` in a command string the
    fix writes ``--config FILE`` (safe: it is what the text asks for); in an argv list it cannot split
    the item, so no fix.
    """

    code = "SGL206"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "config-equals-ignored"
    summary = "--config=FILE is silently ignored; only --config FILE is read"
    fixable = "sometimes"
    VALID = [Example("--config serve.yaml")]
    INVALID = [Example("--config=serve.yaml", fixed="--config serve.yaml"),
               Example("--conf serve.yaml", fixed="--config serve.yaml")]

    def check(self, ctx: LaunchContext):
        if not isinstance(ctx.launch.payload, CliArgs):
            return
        for s in ctx.parsed.all("config"):
            if s.flag is None:
                continue
            if s.value_token is not s.flag and s.spelled != "--config":
                # An abbreviation (--conf FILE): argparse accepts it, SGLang's merger looks for the
                # exact token --config and never reads the file.
                span = s.flag.span_of(0, len(s.spelled))
                fix = Fix(SAFE, "Write --config", [Edit(span, "--config")]) if span is not None else None
                yield self.diagnostic(f"{s.spelled} {s.value} is ignored: SGLang reads a config file only from the "
                                      "exact token --config", s.flag.location(0, len(s.spelled)), ctx, fix,
                                      key="config")
                continue
            if s.value_token is not s.flag:
                continue
            raw = s.flag.raw
            eq = raw.find("=")
            fix = None
            eq_span = s.flag.span_of(eq, eq + 1)
            if eq_span is not None and insertion_point(s.flag) is not None:
                fix = Fix(SAFE, "Write --config FILE", [Edit(eq_span, " ")])
            yield self.diagnostic(f"{raw} is ignored: SGLang reads a config file only from the separate token "
                                  "--config FILE", s.flag.location(), ctx, fix, key="config")


class RepeatedOption(Rule):
    """The same option twice with different values.

    ## What it does
    Warns when an option is given more than once with different values (also through aliases and
    abbreviations: ``--tp 4 … --tensor-parallel-size 8``). An option written once that the command
    repeats (in a loop body) is one finding there, with each value it is overridden in.

    ## Why it fails
    It does not fail: argparse keeps the last value. But one of the two was written for a reason,
    and a reader of the file cannot tell which wins.

    ## Fix safety
    No fix.
    """

    code = "SGL207"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "repeated-option"
    severity = Severity.WARNING
    summary = "the same option twice with different values (the last one wins)"
    VALID = [Example("--tp 8 --tp 8")]
    INVALID = [Example("--tp 4 --tensor-parallel-size 8")]

    def check(self, ctx: LaunchContext):
        if not isinstance(ctx.launch.payload, CliArgs):
            return
        seen: dict[str, list] = {}
        for s in ctx.parsed.settings:
            if s.flag is not None and not s.via:  # (a value SGLang wrote itself is not repeated by the user)
                seen.setdefault(s.dest, []).append(s)
        for dest, settings in seen.items():
            values = {repr(s.value) for s in settings}
            if len(settings) < 2 or len(values) < 2:
                continue
            last = settings[-1]
            # one finding per place: an option written once in a loop body is repeated with each
            # word of the loop, and said once with all of its values (fresh review of issue 35, D22)
            at: dict = {}
            for s in settings[:-1]:
                if repr(s.value) == repr(last.value):
                    continue
                if id(s.flag) in ctx.parsed.from_config and id(last.flag) not in ctx.parsed.from_config:
                    continue  # the command line overriding the --config file is SGLang's documented precedence
                where = s.option_location()
                shown = at.setdefault(where.key() if where is not None else id(s), (s, where, []))[2]
                if _show(s.value) not in shown:
                    shown.append(_show(s.value))
            for s, where, shown in at.values():
                said = f"{s.spelled} {_and(shown)} {'is' if len(shown) == 1 else 'are'}"
                yield self.diagnostic(f"{said} overridden by {last.spelled} {_show(last.value)} "
                                      f"later in the command (the last one wins)", where, ctx, key=f"repeat:{dest}")


class ConfigFileRejected(Rule):
    """A ``--config`` file SGLang's config merger refuses.

    ## What it does
    Reports what ``ConfigArgumentMerger`` raises before any option is parsed: two ``--config``
    tokens, ``--config`` with no file after it, a file that does not end in ``.yaml``/``.yml``, a file
    that is not valid YAML or not a mapping, and a key whose option SGLang's merger does not support
    (a flag with a custom argparse action, such as ``--no-…`` boolean pairs or deprecated flags). The
    keys it accepts are those of the launch's release: 0.5.23 changed which (see
    ``linter/sglang/config_file.py``). A finding in the YAML is located at its key.

    ## Why it fails
    ``ValueError: Multiple config files specified! Only one allowed.``, ``Config file must be YAML
    format, got: .json``, ``Config file must contain a dictionary at root level``, ``Unsupported config
    option 'disable_cuda_graph' with action 'DeprecatedStoreTrueAction'`` — the server does not start.

    ## Fix safety
    No fix.

    ## References
    - docs/sglang.md §5; 0.5.23 ``sglang/srt/utils/server_args_config_parser.py``
    """

    code = "SGL208"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "config-file-rejected"
    summary = "a --config file (or a key in it) that SGLang's config merger refuses"
    VALID = [Example("--model-path Qwen/Qwen3-8B --config serve.yaml")]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --config a.yaml --config b.yaml"),
               Example("--model-path Qwen/Qwen3-8B --config serve.json")]

    def check(self, ctx: LaunchContext):
        for p in _problems(ctx, "config-file"):
            where = p.span if p.span is not None else p.token.location()
            yield self.diagnostic(f"SGLang {ctx.table.version} refuses the --config file: {p.message}", where, ctx,
                                  key=f"config:{p.message}")


class InvalidValue(Rule):
    """A value the option's type rejects while SGLang parses the arguments.

    ## What it does
    Reports a value that argparse's ``type=`` conversion rejects in the launch's release:
    ``--nnodes 1.5`` and ``--port 0x10`` (``int``), ``--mem-fraction-static fast`` (``float``), text that
    is not JSON for an option typed ``json.loads``, and what SGLang's own type functions refuse
    (``human_readable_int``, ``json_list_type``, ``parse_cuda_graph_config_arg`` …, each as the release's
    code accepts it; a function the option tables do not describe is not judged). Also a value SGLang's
    own argparse action raises on while parsing (0.5.1+ ``--lora-paths '{…}'`` that is not JSON or lacks
    ``lora_name``/``lora_path``). A value the linter cannot see is not judged.

    ## Why it fails
    ``sglang serve: error: argument --nnodes: invalid int value: '1.5'`` — argparse converts each value
    before anything else, and the server does not start. (``int`` takes ``+4``, `` 8 `` and ``8_000``,
    as Python does.)

    ## Fix safety
    No fix: only the author knows the number meant.

    ## References
    - CPython 3.11 ``argparse.ArgumentParser._get_value``; the ``types`` section of
      ``linter/sglang/data/options-<version>.json`` (generated, with each function's ``file:line``)
    """

    code = "SGL209"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "invalid-value"
    summary = "a value the option's type (or SGLang's argparse action) rejects at parse time"
    VALID = [Example("--model-path Qwen/Qwen3-8B --nnodes 2 --port +30000 --mem-fraction-static 0.8")]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --nnodes 1.5"),
               Example("--model-path Qwen/Qwen3-8B --port 0x10"),
               Example("--model-path Qwen/Qwen3-8B --preferred-sampling-params={bad}", sglang="0.5.23")]

    def check(self, ctx: LaunchContext):
        for p in _problems(ctx, "invalid-value"):
            where = (p.token.location(*p.range) if p.range and p.range[0] is not None else None) or p.token.location()
            yield self.diagnostic(f"SGLang {ctx.table.version}'s parser stops: {p.message}", where, ctx,
                                  key=f"value:{p.option.dest if p.option else ''}:{_short(p.detail)}")


class DeprecatedOptionRejected(Rule):
    """A deprecated option whose argparse action raises in the launch's release.

    ## What it does
    Reports an option that the release still declares but only to stop with a message, as its
    deprecated action does when it is given: 0.4.0's ``--enable-overlap-schedule`` or
    ``--disable-flashinfer`` (``ValueError`` with the option's help text), 0.5.3's
    ``--enable-ep-moe``; 0.5.18+'s ``DeprecatedAction`` with an ``error_message`` (``parser.error``). The
    message is SGLang's own, which usually names what to write instead. The behaviour of each
    deprecated option in each release is in the option tables (``deprecation``), recorded by running
    the release's own action class.

    ## Why it fails
    ``ValueError: '--enable-overlap-schedule' is deprecated. It is enabled by default now. Please drop
    this argument.`` while the arguments are parsed — the server does not start.

    The message then names the successor and the release that removes the option (the successor
    table).

    ## Fix safety
    The successor's fix, as for SGL201: safe where SGLang's words or code make it the same (0.4.0's
    "It is enabled by default now. Please drop this argument." drops the option; 0.5.3's
    ``--enable-deepep-moe`` becomes ``--moe-a2a-backend deepep``), unsafe where it needs judgement, none
    where nothing is equivalent.
    """

    code = "SGL210"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "deprecated-option-rejected"
    summary = "a deprecated option whose argparse action stops SGLang in the launch's release"
    VALID = [Example("--model-path Qwen/Qwen3-8B --tp 2", sglang="0.4.0")]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --enable-overlap-schedule", sglang="0.4.0",
                       fixed="--model-path Qwen/Qwen3-8B"),
               Example("--model-path deepseek-ai/DeepSeek-V3 --enable-deepep-moe", sglang="0.5.3",
                       fixed="--model-path deepseek-ai/DeepSeek-V3 --moe-a2a-backend deepep"),
               Example("--model-path Qwen/Qwen3-8B --enable-expert-distribution-metrics", sglang="0.5.19")]

    def check(self, ctx: LaunchContext):
        for p in _problems(ctx, "deprecated-raises"):
            how = "stops with" if p.detail == "parser" else f"raises {p.detail or 'an error'}:"
            spelled = p.token.raw[:p.range[1]] if p.range else p.token.raw
            fix, then = None, ""
            found = _deprecated(ctx, p.option)
            if found is not None:
                from linter.rules.successor_fix import clause, for_word

                _, fix, got = for_word(ctx, found[0], p.token, spelled)
                then = f"; {clause(got)}" + (f" ({removal_text(found[0])})" if found[0].removed else "")
            yield self.diagnostic(f"{p.option.primary} is deprecated in SGLang {ctx.table.version} and its parser "
                                  f"{how} {p.message!r}{then}", p.token.location(0, len(spelled)), ctx, fix,
                                  key=f"deprecated:{p.option.primary}")


class DeprecatedOption(Rule):
    """A deprecated option the launch's release still accepts, with a warning.

    ## What it does
    Warns on an option whose argparse action only warns in the launch's release (0.5.9–0.5.13's
    ``DeprecatedAction``, ``DeprecatedStoreTrueAction``, ``DeprecatedAliasStoreAction`` …) — quoting
    SGLang's own warning — and says what the option turns into: the value it stores (an alias stores
    the value on the new option), or what SGLang's resolution maps it onto (0.5.23
    ``--dp-size N --enable-dp-attention`` becomes ``--attn-dp-size N`` with ``--dp-size 1``; the
    linter's checks read the mapped values as if they were written).

    Also what the tables' actions do not show: SGLang's start-up code warning about an option or a
    choice it still accepts (0.4.10.post2–0.5.2's ``--enable-ep-moe`` and ``--enable-deepep-moe``,
    ``--attention-backend compressed`` / ``tokenspeed_mla``, ``--tool-call-parser qwen25``), and a removed
    option that the release reads as an abbreviation of another (0.5.1–0.5.6's ``--disable-flashinfer``
    is ``--disable-flashinfer-cutlass-moe-fp4-allgather``). Each warning names the successor and the
    release that removes the option (from the successor table), so a team learns before the upgrade.

    ## Why it fails
    It does not fail yet: SGLang logs the warning and goes on. But a release that warns is usually
    followed by one that removes the option (then SGL201), and a mapped option may not mean what it
    did (``--dp-size`` counts replicas again in 0.5.23).

    ## Fix safety
    The successor's fix where the release takes it and SGLang's own action, code or words make it the
    same (an alias that stores on its successor, ``--dp-size N --enable-dp-attention`` →
    ``--attn-dp-size N`` as 0.5.22's resolution maps it) — unsafe all the same, because the launch works
    as written and the successor may not exist in older releases it also runs on: ``--unsafe-fixes``
    applies it, and ``--upgrade-to X`` fixes what X itself rejects. A removed option that the release
    reads as an abbreviation of another one is a misreading: its successor's fix is safe where it is the
    same.
    """

    code = "SGL211"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "deprecated-option"
    severity = Severity.WARNING
    summary = "a deprecated option (or a removed one) the launch's release still accepts, with a warning"
    VALID = [Example("--model-path Qwen/Qwen3-8B --attn-dp-size 8", sglang="0.5.23")]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --dp-size 8 --enable-dp-attention", sglang="0.5.23",
                       fixed="--model-path Qwen/Qwen3-8B --attn-dp-size 8"),
               Example("--model-path Qwen/Qwen3-8B --cuda-graph-max-bs 256", sglang="0.5.15",
                       fixed="--model-path Qwen/Qwen3-8B --cuda-graph-max-bs-decode 256"),
               Example("--model-path deepseek-ai/DeepSeek-V3 --tp 8 --enable-ep-moe", sglang="0.5.2",
                       fixed="--model-path deepseek-ai/DeepSeek-V3 --tp 8 --ep-size 8")]

    def check(self, ctx: LaunchContext):
        from linter.rules.successor_fix import clause, for_word

        for p in _problems(ctx, "deprecated-warns"):
            opt = p.option
            mapped = [s for s in ctx.parsed.settings if s.via.startswith(opt.primary + ":") and s.value is not False]
            then = ""
            if mapped:
                parts = [f"{ctx.table.by_dest[s.dest].primary if s.dest in ctx.table.by_dest else s.dest} "
                         f"{_show(s.value)}" for s in mapped]
                then = f"; SGLang turns it into {', '.join(parts)}"
            spelled = p.token.raw[:p.range[1]] if p.range else p.token.raw
            fix = None
            found = _deprecated(ctx, opt)
            if found is not None:
                _, fix, got = for_word(ctx, found[0], p.token, spelled)
                then += f"; {removal_text(found[0])}; {clause(got)}"
                fix = _still_works(fix)
            yield self.diagnostic(f"{opt.primary} is deprecated in SGLang {ctx.table.version}: it warns "
                                  f"{p.message!r}{then}", p.token.location(0, len(spelled)), ctx, fix,
                                  key=f"deprecated:{opt.primary}")
        if not isinstance(ctx.launch.payload, CliArgs):
            return
        yield from self._startup_warnings(ctx)

    def _startup_warnings(self, ctx: LaunchContext):
        """What the option tables' actions do not say: SGLang's start-up code warns about an option or a
        choice it still accepts (the successor table's ``warns`` stages), and a removed option that the
        release reads as an abbreviation of another one."""
        from linter.rules.successor_fix import choice_fix, clause, for_word, said
        from linter.sglang.options import match_option
        from linter.sglang.successors import deprecated_choice, deprecated_option, plan

        table = ctx.table
        for s in ctx.parsed.settings:
            if s.flag is None or s.via or id(s.flag) in ctx.parsed.from_config and not s.spelled.startswith("--"):
                continue
            m = match_option(table, s.flag.raw.partition("=")[0]) if s.flag.value is not None else None
            full = m.full if m is not None and m.option is not None else None
            if full is None:
                continue
            opt = table.by_string[full]
            if s.spelled != full and s.spelled.startswith("--"):
                old = removed_option(s.spelled, table)
                if old is not None:
                    _, fix, got = for_word(ctx, old, s.flag, s.spelled)
                    yield self.diagnostic(f"{s.spelled} was {removal_text(old)}{said(old)}, and SGLang {table.version} "
                                          f"reads it as an abbreviation of {full}, another option; {clause(got)}",
                                          s.flag.location(0, len(s.spelled)), ctx, fix, key=f"abbrev:{s.spelled}")
                    continue
            found = deprecated_option(full, table)
            if found is not None and opt.deprecation is None and found[1]["behaviour"] == "warns":
                entry, stage = found
                _, fix, got = for_word(ctx, entry, s.flag, s.spelled)
                fix = _still_works(fix)
                yield self.diagnostic(f"{full} is deprecated in SGLang {table.version}: it warns at start-up "
                                      f"{stage['message']!r} ({stage['source']}); {removal_text(entry)}; "
                                      f"{clause(got)}", s.flag.location(0, len(s.spelled)), ctx, fix,
                                      key=f"deprecated:{full}")
            if isinstance(s.value, str) and opt.choices:
                got_choice = deprecated_choice(opt.option_strings, s.value, table)
                if got_choice is not None:
                    entry, stage = got_choice
                    p = plan(entry, table, ctx.parsed, s.value)
                    vloc = s.value_location()
                    fix = _still_works(choice_fix(p, ctx, s.value_token, s.value_range, opt))
                    yield self.diagnostic(f"{full} {s.value} is deprecated in SGLang {table.version}: it warns at "
                                          f"start-up ({stage['source']}); {removal_text(entry)}; {clause(p)}",
                                          vloc, ctx, fix, key=f"deprecated:{full}={s.value}")


class RejectedAtStartup(Rule):
    """A value the parser accepts and SGLang rejects right after parsing, as it starts.

    ## What it does
    Reports the values SGLang checks once the parser has accepted them, on the way to starting the
    server (the table's ``startup_checks``, found in each release's code): ``--log-level`` must name a
    ``logging`` level (``logging.basicConfig(level=getattr(logging, log_level.upper()))`` in
    ``configure_logger``, the first thing the engine does; 0.5.20+ already in ``prepare_server_args``),
    and ``--json-model-override-args`` must be JSON (``json.loads`` when the model config is built).

    ## Why it fails
    ``AttributeError: module 'logging' has no attribute 'VERBOSE'``; ``json.decoder.JSONDecodeError`` —
    the server stops before it loads anything.

    ## Fix safety
    A ``--log-level`` that differs from a level only by its case is not an error (``.upper()``); no fix.
    """

    code = "SGL212"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "rejected-at-startup"
    summary = "a value SGLang rejects right after parsing (--log-level, --json-model-override-args)"
    VALID = [Example("--model-path Qwen/Qwen3-8B --log-level WARNING"),
             Example("--model-path Qwen/Qwen3-8B --log-level warn")]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --log-level verbose"),
               Example("--model-path Qwen/Qwen3-8B --json-model-override-args rope_scaling=4")]

    def check(self, ctx: LaunchContext):
        from linter.sglang.startup import startup_failures

        for failure in startup_failures(ctx.parsed, ctx.table):
            s = failure.setting
            yield self.diagnostic(f"SGLang {ctx.table.version} stops as it starts: {failure.message} "
                                  f"({failure.where})", s.value_location(), ctx, key=f"startup:{s.dest}")


def _still_works(fix):
    """A fix for an option the release still accepts is unsafe: the launch works as written, and the
    successor may not exist in the releases before it (``--unsafe-fixes``, or ``--upgrade-to``, apply it)."""
    if fix is not None:
        fix.applicability = UNSAFE
    return fix


def _deprecated(ctx: LaunchContext, option):
    """(entry, stage) of the successor table for a deprecated option of the launch's release, or None."""
    from linter.sglang.successors import deprecated_option

    for s in option.option_strings:
        found = deprecated_option(s, ctx.table)
        if found is not None:
            return found
    return None


def _show(value) -> str:
    return value if isinstance(value, str) else "" if value is True else repr(value)


def _and(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
