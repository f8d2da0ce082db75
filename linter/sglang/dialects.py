"""Argument dialects: frameworks that take SGLang's server arguments in their own spelling.

* **slime and miles** (RL trainers) take every SGLang option ``--X`` as ``--sglang-X`` — except the
  ones they set themselves (the model comes from ``--hf-checkpoint``, tensor parallelism from
  ``--rollout-num-gpus-per-engine``, the port, the node rank …). What a trainer does with such an
  option written anyway differs: slime ignores it (``parse_known_args``, then Megatron with
  ``ignore_unknown_args``), miles' strict parser refuses it — except ``--sglang-tp-size``, which miles
  registers and overrides. Their own ``--sglang-router-*``, ``--sglang-server-concurrency`` and
  ``--sglang-config`` are not SGLang's. Options without the prefix (Megatron's ``--attention-backend
  flash``, ``--deterministic-mode``) are the trainer's and are never read as SGLang's. Facts and
  sources: ``linter/sglang/data/dialects.json``.

A trainer is recognised by the script it runs — one of the trainer's entry scripts (``train.py``,
``train_async.py`` …, in any folder) — with ``--hf-checkpoint`` and at least one ``--sglang-`` option
or ``--rollout-num-gpus-per-engine`` (which sizes the SGLang engines it starts) (:func:`match`). Any
other script that takes such options (miles' ``scripts/run_*.py`` with their own ``--sglang-path``, a
benchmark's ``--hf-checkpoint``) has its own command line, which is not the trainer's.
"""

from __future__ import annotations

import fnmatch
import functools
import re

from linter import datafiles
from linter.launch import MStr, Token
from linter.records import dataclass
from linter.sglang.entrypoints import python_program
from linter.source import written

_PYTHON = re.compile(r"^(?:.*/)?python(?:3(?:\.\d+)?)?$")


@dataclass(frozen=True)
class Dialect:
    """One framework's spelling of SGLang's server arguments (a row of ``dialects.json``)."""

    name: str
    program: str
    prefix: str
    skipped: dict
    """SGLang dest → ``{framework: "ignored" | "overridden" | "refused"}``: what each framework of the
    dialect does with the prefixed option of a setting it makes itself (``skipped_handling`` says why)."""
    own: dict
    model_option: str
    instead: dict
    source: str
    checks: tuple = ()
    """The framework's own checks on the settings: ``{when, above, requires, message}`` rows."""
    tp_option: str = ""
    """The trainer's option that sizes its SGLang engines (its presence means engines are started)."""
    entry_scripts: frozenset[str] = frozenset()
    """The file names of the scripts that run the trainer (``train.py`` …): only these take its argv."""
    handling: dict = None
    """``{"ignored" | "overridden" | "refused": {cite, why}}``: the source of each handling of ``skipped``."""


@functools.cache
def dialects() -> dict[str, Dialect]:
    raw = datafiles.load_json("linter.sglang.data", "dialects.json")
    return {name: Dialect(name, d["program"], d["prefix"], dict(d["skipped_dests"]), dict(d["own_options"]),
                          d["model_option"], dict(d.get("instead", {})), d["source"], tuple(d.get("checks", ())),
                          d.get("tp_option", ""), frozenset(d["entry_scripts"]), dict(d["skipped_handling"]))
            for name, d in raw["dialects"].items()}


def failed_checks(dialect: Dialect, parsed) -> list[tuple[dict, object]]:
    """The framework's own checks that the launch's settings fail: ``(check row, the setting that
    triggers it)``. A value that is not known fails nothing."""
    out = []
    for check in dialect.checks:
        s = parsed.get(check["when"])
        if s is None or not isinstance(s.value, str):
            continue
        try:
            value = int(s.value)
        except ValueError:
            continue
        if value > check["above"] and parsed.get(check["requires"]) is None and not parsed.unknown_words:
            out.append((check, s))
    return out


def by_program(program: str) -> Dialect | None:
    """The dialect a launch's ``program`` names, or None for SGLang's own entry points."""
    return next((d for d in dialects().values() if d.program == program), None)


def match(words: list[Token]) -> tuple[Dialect, int] | None:
    """``(dialect, index of its first argument)`` when ``words`` start a trainer that takes SGLang
    options in a dialect: ``python [-u] [DIR/]SCRIPT ARGS`` where SCRIPT is one of the dialect's entry
    scripts, with the model option and a prefixed option (or the option sizing its engines)."""
    if len(words) < 2 or words[0].value is None or not _PYTHON.match(words[0].value):
        return None
    module, i = python_program(words)
    if module is not None or i >= len(words):
        return None
    # the script may be written through a variable (${REPO}/train.py): its file name is what counts
    script = words[i].raw.strip("\"'").rsplit("/", 1)[-1]
    rest = [w.value or "" for w in words[i + 1:]]
    for d in dialects().values():
        if script not in d.entry_scripts:
            continue
        has_model = any(v == d.model_option or v.startswith(d.model_option + "=") for v in rest)
        engine = any(v.startswith(d.prefix) or v == d.tp_option or v.startswith(d.tp_option + "=") for v in rest)
        if has_model and engine:
            return d, i + 1
    return None


@dataclass
class Translated:
    """A dialect argv read as SGLang's: ``tokens`` for SGLang's parser (prefixed options with the
    prefix taken off, their values), ``model`` the token holding the model, ``ignored`` the prefixed
    options of settings the framework makes itself, which it accepts and never passes to SGLang, and
    ``refused`` those a framework of the dialect stops on (each ``(token, why, sources)``)."""

    tokens: list[Token]
    model: Token | None
    ignored: list[tuple[Token, str, tuple[str, ...]]]
    refused: list[tuple[Token, str, tuple[str, ...]]]


_HANDLING_WORDS = {"ignored": "ignores {name}", "overridden": "takes {name} and replaces its value",
                   "refused": "stops with 'unrecognized arguments: {name}'"}


def _skipped(dialect: Dialect, option, sglang_name: str) -> tuple[str, dict] | None:
    """``(field, {framework: handling})`` when the option (SGLang's, or None) sets a field the framework
    makes itself. Its option strings count as well as its ``dest``: SGLang before 0.5.14 stored
    ``--tp-size`` as ``tensor_parallel_size`` (the option tables), miles reads the short name too."""
    names = [option.dest] + [s[2:].replace("-", "_") for s in option.option_strings if s.startswith("--")] \
        if option is not None else [sglang_name[2:].replace("-", "_")]
    field = next((n for n in names if n in dialect.skipped), None)
    return (field, dialect.skipped[field]) if field is not None else None


def _skipped_why(dialect: Dialect, name: str, sglang_name: str, field: str, handling: dict) -> str:
    """Why a prefixed option of a setting the framework makes itself is refused, or has no effect:
    what the framework sets the setting from, and what each framework of the dialect does with the
    option (``dialects.json`` skipped_dests and skipped_handling)."""
    how = dialect.instead.get(field)
    each = ", ".join(f"{fw} {_HANDLING_WORDS[h].format(name=name)}" for fw, h in handling.items())
    sets = f"it sets SGLang's {sglang_name} itself" + (f" (from {how})" if how else "")
    if "refused" in handling.values():
        return f"{dialect.program} has no {name}: {sets}; {each}"
    return f"{sets}; {each}"


def translate(dialect: Dialect, words: list[Token], lookup) -> Translated:
    """Read a trainer's argv; ``lookup(option string)`` is SGLang's option for a spelling after the
    prefix is taken off (exact or a unique prefix, as argparse resolves it), or None."""
    out: list[Token] = []
    ignored: list[tuple[Token, str, tuple[str, ...]]] = []
    refused: list[tuple[Token, str, tuple[str, ...]]] = []
    model = None
    i, n = 0, len(words)
    while i < n:
        tok = words[i]
        raw = tok.value or ""
        name = raw.split("=", 1)[0]
        if name == dialect.model_option:
            if "=" in raw:
                model = Token(tok.text[len(name) + 1:])
            elif i + 1 < n:
                model = words[i + 1]
                i += 1
            i += 1
            continue
        if tok.splat:
            # words not known statically (a variable a shell splits): they may hold prefixed options,
            # unless they stand where the option before them takes its value (an approximation: a
            # trainer flag followed by such words hides them)
            prev = words[i - 1].value if i else None
            if not (prev is not None and prev.startswith("-") and "=" not in prev):
                out.append(tok)
            i += 1
            continue
        if not name.startswith(dialect.prefix) or name in dialect.own:
            i += 1  # the trainer's own option (or its value): never SGLang's
            continue
        sglang_name = "--" + name[len(dialect.prefix):]
        # the "--" is the word's own (its origin, not the place a shell expansion put the word)
        dashes = tok.text[:2] if tok.text.text.startswith("--") else MStr.plain("--", tok.text.where)
        flag = Token(MStr.join([dashes, tok.text[len(dialect.prefix):]]),
                     joinable=tok.joinable)
        option = lookup(sglang_name)
        skipped = _skipped(dialect, option, sglang_name)
        if skipped is not None:
            why = _skipped_why(dialect, name, sglang_name, *skipped)
            cites = tuple(f"{fw}: {dialect.handling[h]['cite']}" for fw, h in skipped[1].items())
            (refused if "refused" in skipped[1].values() else ignored).append((tok, why, cites))
            i += 1
            if "=" not in raw and i < n and not (words[i].value or "-").startswith("-"):
                i += 1
            continue
        out.append(flag)
        i += 1
        if "=" not in raw and (option is None or option.takes_value) and i < n:
            nxt = words[i].value
            if words[i].splat or nxt is None or not nxt.startswith("-") or re.fullmatch(r"-\d+(\.\d+)?", nxt):
                out.append(words[i])
                i += 1
    return Translated(out, model, ignored, refused)


# -- Hydra overrides (verl) -------------------------------------------------------------------------


@dataclass(frozen=True)
class HydraDialect:
    """A trainer configured with Hydra overrides that builds ``ServerArgs`` keyword arguments for its
    SGLang rollout engine (a row of ``dialects.json`` ``hydra``)."""

    name: str
    program: str
    modules: tuple[str, ...]
    selector: str
    engine: str
    field_prefix: str
    model: str
    defaults: dict
    source: str


@functools.cache
def hydra_dialects() -> dict[str, HydraDialect]:
    raw = datafiles.load_json("linter.sglang.data", "dialects.json")
    return {name: HydraDialect(name, d["program"], tuple(d["modules"]), d["engine_selector"], d["engine"],
                               d["field_prefix"], d["model"], dict(d["defaults"]), d["source"])
            for name, d in raw.get("hydra", {}).items()}


def hydra_by_program(program: str) -> HydraDialect | None:
    return next((d for d in hydra_dialects().values() if d.program == program), None)


def _override(tok: Token) -> tuple[str, int] | None:
    """``(key, index of the value)`` of a Hydra override word ``[+|++]key=value``."""
    raw = tok.raw
    k = 2 if raw.startswith("++") else 1 if raw.startswith("+") else 0
    eq = raw.find("=")
    if eq <= k:
        return None
    return raw[k:eq], eq + 1


def match_hydra(words: list[Token]) -> tuple[HydraDialect, int] | None:
    """``(dialect, index of the first override)`` for ``python -m MODULE overrides…`` of a Hydra trainer
    whose rollout engine is set to SGLang by a literal override."""
    if len(words) < 3 or words[0].value is None or not _PYTHON.match(words[0].value):
        return None
    if words[1].value != "-m":
        return None
    for d in hydra_dialects().values():
        if not any(fnmatch.fnmatchcase(words[2].value or "", m) for m in d.modules):
            continue  # verl's trainers and recipes (verl.trainer.main_ppo, verl.experimental.…, recipe.dapo…)
        for tok in words[3:]:
            got = _override(tok)
            if got and got[0] == d.selector and tok.value is not None and tok.raw[got[1]:] == d.engine:
                return d, 3
    return None


def passed_over_hydra(words: list[Token]) -> list[tuple[object, str]]:
    """``(span, why)`` for a Hydra trainer command whose engine override is not known statically
    (``actor_rollout_ref.rollout.name=$ENGINE``): not an SGLang launch, which ``--explain`` says."""
    if len(words) < 3 or words[0].value is None or not _PYTHON.match(words[0].value) or words[1].value != "-m":
        return []
    out = []
    for d in hydra_dialects().values():
        if not any(fnmatch.fnmatchcase(words[2].value or "", m) for m in d.modules):
            continue
        for tok in words[3:]:
            got = _override(tok)
            if got and got[0] == d.selector and tok.value is None:
                shown = written(tok.location()) or tok.raw.replace("\ue000", "…")
                out.append((tok.location(), f"not an SGLang launch: {d.program}'s {d.selector} is chosen at run "
                                            f"time ({shown}), so which engine it starts is not known; write the "
                                            "engine literally (or a variable with a default in the file) to have "
                                            "it checked"))
    return out


def _hydra_value(text: str) -> object:
    """A Hydra override value as Python sees it (YAML-like: booleans, null, numbers, else a string)."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("null", "~"):
        return None
    if re.fullmatch(r"[-+]?\d+", text):
        return int(text)
    if re.fullmatch(r"[-+]?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?", text):
        return float(text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def hydra_kwargs(dialect: HydraDialect, words: list[Token]):
    """The ``ServerArgs`` keyword arguments a Hydra trainer's overrides give its SGLang engine, with the
    trainer's own defaults for the ones not given (located at the override that picks SGLang).
    Returns a list of :class:`~linter.launch.KwArg`; unknown values are :data:`~linter.launch.UNKNOWN`."""
    from linter.launch import UNKNOWN, KwArg

    out: dict[str, KwArg] = {}
    selector_where = None
    for tok in words:
        got = _override(tok)
        if got is None:
            continue
        key, at = got
        where = tok.location()
        if key == dialect.selector:
            selector_where = where
            continue
        if key == dialect.model:
            name = "model_path"
        elif key.startswith(dialect.field_prefix) and "." not in key[len(dialect.field_prefix):]:
            name = key[len(dialect.field_prefix):]
        else:
            continue
        text = tok.text[at:]
        value = _hydra_value(text.text) if text.known and not tok.splat else UNKNOWN
        start = tok.raw.find(key)
        out.pop(name, None)
        out[name] = KwArg(name, value, where, name_span=tok.location(start, start + len(key)),
                          value_text=text if isinstance(value, str) and text.text == value else None,
                          value_span=text.span_of())
    for name, value in dialect.defaults.items():
        if name not in out and selector_where is not None:
            out[name] = KwArg(name, value, selector_where, name_span=selector_where,
                              default_of=f"{dialect.name} sets {name}={value!r} when its overrides do not "
                                         f"({dialect.source.split(' (')[0]})")
    return list(out.values())
