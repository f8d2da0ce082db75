"""What the rules decide a launch by: the server arguments a finding depends on, read from a launch's
words or keywords the way resolution reads them (:func:`linter.resolve.resolve`).

A file that builds a launch along more undecided paths than ``limits.MAX_PATH_VARIANTS`` keeps apart
only the paths that differ in these (:mod:`linter.extract.python.paths`): deterministic inference
(``--enable-deterministic-inference``, ``--rl-on-policy-target``: :func:`~.decision.deterministic`),
the attention backends (:func:`~.decision.canonical_backends`), the model and what overrides its
architecture, the settings the model checks read, and the parallel sizes the placement and memory
checks read (:mod:`linter.sglang.parallel` ``_WHERE``, :mod:`linter.sglang.placement` ``_DESTS``) —
in that order (:data:`PRIORITY`), as many as fit (the shell keeps them alike: :mod:`linter.extract.shell.env`).
Paths that differ only in other arguments are merged: those arguments are unknown.
"""

from __future__ import annotations

import functools

from linter.launch import UNKNOWN, KwArgs, Launch

_MODEL = ("model_path", "json_model_override_args")
"""The model and what overrides its architecture (:func:`mentions_model`)."""

DESTS = (
    # the model and what overrides its architecture (rules/deterministic.py, sglang/models.py)
    *_MODEL,
    # the parallel sizes (sglang/parallel.py _WHERE, sglang/placement.py _DESTS)
    "tp_size", "pp_size", "dp_size", "ep_size", "attn_dp_size", "attn_cp_size", "enable_dp_attention", "nnodes",
)
"""The ``ServerArgs`` fields, besides deterministic inference and the attention backends, whose values
the rules decide by."""

_DETERMINISTIC = ("enable_deterministic_inference", "rl_on_policy_target")
"""Deterministic inference (:func:`~.decision.deterministic`: either turns it on)."""

_SWITCHES = (*_DETERMINISTIC, "attention_backend", "prefill_attention_backend", "decode_attention_backend")
"""Deterministic inference (:func:`~.decision.deterministic`) and the backends (:func:`~.decision.canonical_backends`)."""


@functools.cache
def _table():
    from linter.sglang.options import load_table, newest_version

    return load_table(newest_version())


def _plain(value) -> object:
    """A setting's value as a hashable key: UNKNOWN as ``"?"``, a list as a tuple."""
    if value is UNKNOWN:
        return "?"
    if isinstance(value, list):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), str(v)) for k, v in value.items()))
    return value


def decisive_key(launch: Launch) -> tuple:
    """A hashable summary of what the rules decide ``launch`` by (with the newest release's parser):
    its entry point, whether deterministic inference is on, its three attention backends and the
    values of :data:`DESTS` (``"?"`` where not known statically, None where not given). Two launches
    with the same key get the same findings from the start-up checks."""
    from linter.sglang.decision import canonical_backends, deterministic

    parsed = _parsed(launch)
    table = _table()
    on, _ = deterministic(parsed)
    out = [launch.program, _plain(on)]
    out.extend(_plain(b) for b in canonical_backends(parsed, table))
    for dest in DESTS:
        s = parsed.get(dest)
        out.append(None if s is None else _plain(s.value))
    return tuple(out)


def _parsed(launch: Launch):
    from linter.sglang.dialects import hydra_by_program, hydra_kwargs
    from linter.sglang.options import parse_args, settings_from_kwargs

    table = _table()
    payload = launch.payload
    hydra = hydra_by_program(launch.program)
    if isinstance(payload, KwArgs):
        return settings_from_kwargs(table, payload.kwargs)
    if hydra is not None:
        return settings_from_kwargs(table, hydra_kwargs(hydra, list(payload.tokens)))
    return parse_args(table, payload.tokens, launch.program)


def unknown_values(launch: Launch) -> list:
    """The text of each decisive setting of ``launch`` (deterministic inference, the backends,
    :data:`DESTS`) whose value is not known statically (an :class:`~linter.launch.MStr`): where an
    unknown piece of its value came from tells which undecided paths it depends on."""
    parsed = _parsed(launch)
    out = []
    for dest in _SWITCHES + DESTS:
        s = parsed.get(dest)
        if s is None or s.value is not UNKNOWN:
            continue
        tok = s.value_token
        if tok is not None:
            out.append(tok.text)
        elif s.kwarg is not None and s.kwarg.value_text is not None:
            out.append(s.kwarg.value_text)
    return out


_SHORT = ("tp", "dp", "ep", "pp")
"""The parallel sizes as people abbreviate them (argparse takes a unique prefix: ``--tp 8``)."""


@functools.cache
def _mention_re(dests: tuple = _SWITCHES + DESTS, short: tuple = _SHORT, model: bool = True):
    import re

    from linter.sglang.dialects import dialects

    table = _table()
    dashed: set[str] = set(short)
    for dest in dests:
        option = table.by_dest.get(dest)
        if option is not None:
            dashed.update(o.lstrip("-") for o in option.option_strings)
    if model:
        dashed.update(d.model_option.lstrip("-") for d in dialects().values())

    def alternatives(names) -> str:
        return "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True))

    # ``--attention-backend``, ``--sglang-tp-size``; ``attention_backend`` as a field name anywhere
    return re.compile(rf"(?<![\w-])--(?:sglang-)?(?:{alternatives(dashed)})(?![\w-])"
                      rf"|(?<![\w])(?:{alternatives(dests)})(?![\w])")


def mentions_switch(text: str) -> bool:
    """``text`` names deterministic inference or an attention backend (``--enable-deterministic-inference``,
    ``--rl-on-policy-target``, ``--attention-backend`` …): what the first rules (SGL101–103) decide by,
    a narrower test than :func:`mentions_decisive`."""
    return _mention_re(_SWITCHES, (), False).search(text) is not None


def mentions_deterministic(text: str) -> bool:
    """``text`` names deterministic inference (``--enable-deterministic-inference``,
    ``--rl-on-policy-target``, ``enable_deterministic_inference`` …): the first tier of :data:`PRIORITY`."""
    return _mention_re(_DETERMINISTIC, (), False).search(text) is not None


def mentions_model(text: str) -> bool:
    """``text`` names the model or what overrides its architecture (``--model-path``,
    ``--json-model-override-args``, a dialect's model option such as ``--hf-checkpoint``): what the
    rules decide by after deterministic inference and the backends (:data:`PRIORITY`)."""
    return _mention_re(_MODEL, (), True).search(text) is not None


def mentions_decisive(text: str) -> bool:
    """``text`` (a piece of a command line, a keyword's name) names one of the options the rules decide
    a launch by (``--attention-backend``, ``--sglang-enable-deterministic-inference``, ``--tp``,
    ``attention_backend``, a dialect's model option such as ``--hf-checkpoint`` …)."""
    return _mention_re().search(text) is not None


PRIORITY = (mentions_deterministic, mentions_switch, mentions_model, mentions_decisive)
"""Past ``limits.MAX_PATH_VARIANTS`` paths, the decisions kept apart are chosen tier by tier (each a
test of the text two paths' values differ in): those that turn deterministic inference on or off
first, then those that change a backend (SGL101-103 decide by both: a script's deterministic switch
is one decision, its backends often several), then those that change the model, then the other
options the rules decide by (the parallel sizes). A later tier's decision is kept only while the paths
fit (:func:`linter.branches.kept_apart`, ``linter.extract.shell.env.ranked_decisions``,
``linter.extract.python.paths.Paths._focused``) — 3 × 3 undecided ``--tp`` paths met first no longer
push out the one that turns deterministic inference on (fresh review rev39 D3)."""


@functools.cache
def _option_words() -> frozenset:
    table = _table()
    return frozenset(s for option in table.by_dest.values() for s in option.option_strings if s.startswith("--"))


def names_option(word: str) -> bool:
    """``word`` (one word of a command line) is one of the newest release's server-argument options,
    written as SGLang takes it or as a slime/miles trainer does (``--sglang-tp-size``), ``=value``
    aside: a finding on a launch may be located at it."""
    name = word.split("=", 1)[0]
    words = _option_words()
    return name in words or name.startswith("--sglang-") and "--" + name[len("--sglang-"):] in words
