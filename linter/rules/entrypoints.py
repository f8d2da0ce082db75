"""A command the launch's release does not have: SGL213."""

from __future__ import annotations

import re

from linter.rules.base import Example, LaunchContext, Rule
from linter.sglang.entrypoints import SERVE, SERVE_SINCE
from linter.sglang.options import version_tuple
from linter.source import Span


class EntryPointMissing(Rule):
    """The launch starts SGLang with a command its release does not have.

    ## What it does
    Reports ``sglang serve …`` (and ``python -m sglang.cli.main serve …``) on a release before 0.5.5:
    the ``sglang`` console script and the ``sglang.cli`` package first ship in the 0.5.5 wheel
    (``entry_points.txt``: ``sglang = sglang.cli.main:main``; ``sglang/cli/serve.py``); no wheel from
    0.4.0 to 0.5.4.post3 has either.

    ## Why it fails
    The shell prints ``sglang: command not found`` (exit 127), or Python ``No module named
    sglang.cli.main``: no server starts, whatever its arguments.

    ## Example
    An image ``lmsysorg/sglang:v0.5.3-cu126`` running ``sglang serve --model-path Qwen/Qwen3-8B``.

    ## Fix safety
    Start it as ``python3 -m sglang.launch_server`` with the same server arguments (every release has
    it), or move to 0.5.5 or newer. No automatic fix: which one is the team's choice.

    ## References
    SGLang wheels 0.5.4.post3 and 0.5.5 on PyPI (``entry_points.txt``, ``sglang/cli/``).
    """

    code = "SGL213"
    parser = True  # judges the command line as SGLang\'s parser reads it
    name = "entry-point-missing"
    summary = "`sglang serve` on a release before 0.5.5, which has no `sglang` command"
    VALID = [Example("--model-path Qwen/Qwen3-8B", sglang="0.5.3"),
             Example("--model-path Qwen/Qwen3-8B", sglang="0.5.5", program="sglang serve")]
    INVALID = [Example("--model-path Qwen/Qwen3-8B", sglang="0.5.3", program="sglang serve")]

    def check(self, ctx: LaunchContext):
        if ctx.launch.program != SERVE or version_tuple(ctx.table.version) >= version_tuple(SERVE_SINCE):
            return
        yield self.diagnostic(f"SGLang {ctx.table.version} has no `sglang` command (it first ships in "
                              f"{SERVE_SINCE}): the shell stops with 'command not found'; start it with "
                              "`python3 -m sglang.launch_server` and the same arguments",
                              _command_words(ctx.launch.span), ctx, key="entry-point")


_WORDS = re.compile(r"\bsglang(?:\.cli\.main)?[ \t]+serve\b")


def _command_words(span: Span) -> Span:
    """The span of ``sglang serve`` (or ``sglang.cli.main serve``) in the launch's span, else the span."""
    m = _WORDS.search(span.source.text, span.start, span.end)
    return Span(span.source, m.start(), m.end()) if m else span
