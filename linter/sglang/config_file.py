"""SGLang's ``--config FILE``: the YAML file's keys merged into the argv, as each release merges them.

``prepare_server_args`` calls ``ConfigArgumentMerger(parser).merge_config_with_args(argv)`` when the
exact token ``--config`` is in argv (0.5.18 ``srt/server_args.py:9785``; 0.5.22
``srt/server_args.py:669-674``; 0.5.23 ``srt/server_args.py:683-688``). The merger is
``srt/server_args_config_parser.py`` in 0.5.18, ``srt/utils/server_args_config_parser.py`` from
0.5.19 on. What it does (line numbers of 0.5.23's file; 0.5.22's differs only in ``__init__``):

* more than one ``--config`` → ``ValueError("Multiple config files specified! Only one allowed.")``;
  ``--config`` last → ``"No config file specified after --config flag!"`` (``:108-122``);
* the file must end in ``.yaml``/``.yml`` (case-insensitive) → else ``"Config file must be YAML
  format, got: <suffix>"``; it is read with PyYAML's ``yaml.safe_load`` (YAML 1.1: ``yes``/``on`` are
  booleans), an empty file is ``{}``, anything but a mapping → ``"Config file must contain a dictionary
  at root level"`` (``:124-162``);
* each key, in file order (``:164-183``): ``key.replace("-", "_")`` found among the *unsupported*
  keys → ``ValueError("Unsupported config option '<key>' with action '<ActionClass>'")``; a ``bool``
  on a *store-true* key → ``--key`` when true, nothing when false, on any other key ``--key true|false``;
  a list → ``--key item…`` (``str`` of each; an empty list adds nothing); a dict → ``--key
  <json.dumps>``; anything else → ``--key str(value)``. The flag is ``--`` + the key **verbatim**, so
  aliases and unique prefixes work and an underscore key is an unknown option;
* the merged argv is ``config_args + before + after`` (``:99-106``): the file's options come first, so
  the command line overrides them (argparse keeps the last).

Which keys are store-true and which unsupported changed in 0.5.23 (``__init__``, ``:17-66``):

* up to 0.5.22 (0.5.22 ``:29-43``; 0.5.18's file is byte for byte the same): store-true keys are
  the ``dest`` of each ``_StoreTrueAction``;
  unsupported keys are the ``dest`` of each action with option strings that is neither a
  ``_StoreTrueAction`` nor a ``_StoreAction`` (SGLang's custom actions all derive from
  ``argparse.Action``), except ``--config`` and help;
* 0.5.23: each action's keys are its ``dest`` and every ``--long`` spelling with ``-`` → ``_``; a
  store-true key is any key of a ``_StoreTrueAction``; an action is supported when it is store-true,
  a ``_StoreAction`` or has ``nargs=None``; unsupported keys are the keys of the other actions that no
  supported action also has.

The option tables (``linter/sglang/data/options-<version>.json``) give each action's class and
``nargs``, so both rules are computed from the launch's release. The answers were checked against
SGLang's own code with the oracle (``tests/data/config_file_oracle.jsonl``).
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Callable, Sequence

from linter import limits
from linter.launch import MStr, Token
from linter.records import dataclass, field
from linter.source import SourceFile, Span

_BUILTIN_CLASS = {"store": "_StoreAction", "store_true": "_StoreTrueAction", "store_false": "_StoreFalseAction",
                  "store_const": "_StoreConstAction", "append": "_AppendAction", "append_const": "_AppendConstAction",
                  "count": "_CountAction", "help": "_HelpAction", "version": "_VersionAction",
                  "extend": "_ExtendAction"}

KEYS_BY_SPELLING = (0, 5, 23)
"""The first release whose merger accepts any long spelling of a flag as a key (see the module text)."""


@dataclass
class ConfigProblem:
    """Something SGLang's config merger raises: ``message`` is SGLang's own text, ``where`` the span
    (the ``--config`` token, or the YAML key or position)."""

    message: str
    where: Span | None
    token: Token | None = None


@dataclass
class Merged:
    """The argv after the merge. ``words`` are the tokens argparse sees (the file's options first);
    ``sources`` the YAML files read; ``from_config`` the ids of tokens that came from the file;
    ``unknown`` tokens that make the argv unknown (a config path not known or not found)."""

    words: list[Token]
    problems: list[ConfigProblem] = field(default_factory=list)
    sources: list[SourceFile] = field(default_factory=list)
    from_config: set[int] = field(default_factory=set)
    unknown: list[Token] = field(default_factory=list)
    key_starts: list[int] = field(default_factory=list)
    """Where the tokens of each key of the file start in its options (:func:`_convert`)."""


def action_class(action: str) -> str:
    """The argparse class name of a table row's ``action`` (``custom:X`` → ``X``)."""
    return action[len("custom:"):] if action.startswith("custom:") else _BUILTIN_CLASS.get(action, action)


def _keys(opt, by_spelling: bool) -> set[str]:
    keys = {opt.dest}
    if by_spelling:
        keys |= {s[2:].replace("-", "_") for s in opt.option_strings if s.startswith("--")}
    return keys


def merger_keys(table) -> tuple[set[str], dict[str, str]]:
    """(store-true keys, unsupported key → action class name) for ``table``'s release."""
    by_spelling = table.version_tuple >= KEYS_BY_SPELLING
    opts = [o for o in table.options if o.option_strings]
    store_true: set[str] = set()
    for o in opts:
        if o.action == "store_true":
            store_true |= _keys(o, by_spelling)
    excluded = {"--config", "--help", "-h"}
    unsupported: dict[str, str] = {}
    if by_spelling:
        def supported(o) -> bool:
            return o.action in ("store_true", "store") or o.nargs is None
        supported_keys = {k for o in opts if supported(o) for k in _keys(o, True)}
        for o in opts:
            if supported(o) or excluded & set(o.option_strings):
                continue
            for k in _keys(o, True) - supported_keys:
                unsupported[k] = action_class(o.action)
    else:
        for o in opts:
            if o.action not in ("store_true", "store") and not excluded & set(o.option_strings):
                unsupported[o.dest] = action_class(o.action)
    return store_true, unsupported


def merge(table, words: Sequence[Token], open_config: Callable[[str], SourceFile | None] | None) -> Merged:
    """Merge the ``--config`` file of ``words`` as the launch's release does. ``open_config(path)``
    finds and reads the file (None when it cannot be found statically: the argv is then unknown).
    Without an exact ``--config`` token, or when the release has no ``--config`` option, ``words`` are
    returned unchanged."""
    words = list(words)
    out = Merged(words)
    if "--config" not in table.by_string:
        return out
    at = [i for i, w in enumerate(words) if w.value == "--config"]
    if not at:
        return out
    if len(at) > 1:
        out.problems.append(ConfigProblem("Multiple config files specified! Only one allowed.",
                                          words[at[1]].location(), words[at[1]]))
        return out
    i = at[0]
    flag = words[i]
    if i == len(words) - 1:
        out.problems.append(ConfigProblem("No config file specified after --config flag!", flag.location(), flag))
        out.words = words[:i]
        return out
    path_tok = words[i + 1]
    rest = words[:i] + words[i + 2:]
    path = path_tok.value
    if path is None:
        out.unknown.append(path_tok)
        out.words = rest
        return out
    suffix = PurePosixPath(path).suffix
    if suffix.lower() not in (".yaml", ".yml"):
        out.problems.append(ConfigProblem(f"Config file must be YAML format, got: {suffix}", path_tok.location(),
                                          path_tok))
        out.words = rest
        return out
    from linter.boundary import referenced_at

    with referenced_at(path_tok.location()):  # a file outside the root is refused here (SGL005)
        source = open_config(path) if open_config is not None else None
    if source is None:
        out.unknown.append(path_tok)
        out.words = rest
        return out
    out.sources.append(source)
    config_words = _converted(table, source, out)
    if config_words is not None and not limits.budget().spend(
            JUDGING_STEPS * len(config_words), f"the options of the --config file {source.display}",
            path_tok.location(), "its options are unknown"):
        config_words = None
    if config_words is None:
        out.unknown.append(path_tok)
        out.words = rest
        return out
    out.from_config = {id(t) for t in config_words}
    out.words = config_words + rest
    return out


JUDGING_STEPS = 4
"""Evaluator steps (:data:`linter.limits.MAX_EVAL_STEPS`) a token of a ``--config`` file costs each
launch that reads it: parsed as argparse does and judged by the rules, a token costs about four
times a step of an expander. Many launches sharing a file of hundreds of options are bounded by it."""

def _converted(table, source: SourceFile, out: Merged) -> list[Token] | None:
    """:func:`_convert`, once per linted file and release (the tokens are the same objects for every
    launch of the file that reads it). Judged once: the first launch that reads it gets every key and
    the merger's problems; the launches after it get only the keys that are options of the release —
    a key that is not (unknown, ambiguous) sets nothing, its findings are the first launch's, so 500
    launches sharing a file of 500 unknown keys are not 250,000 findings to make."""
    budget = limits.budget()

    def convert():
        mine = Merged([])
        words = _convert(table, source, mine)
        return words, mine.problems, _options_only(table, words, mine.key_starts) if words is not None else None

    words, problems, options = budget.once(("--config", id(source), source, table.version), convert)
    if not budget.first(("--config judged", id(source), table.version)):
        return options
    out.problems.extend(problems)
    return words


def _options_only(table, words: list[Token], starts: list[int]) -> list[Token]:
    """The tokens of the keys (each from its start in ``starts`` to the next) whose flag names an
    option of ``table``, exactly or as a unique prefix."""
    keep: list[Token] = []
    bounds = starts + [len(words)]
    for a, b in zip(bounds, bounds[1:]):
        if a == b:  # a key that adds no token (false on a store-true key, an empty list)
            continue
        name = (words[a].value or "").partition("=")[0]
        if name in table.by_string or len(table.prefix_matches(name)) == 1:
            keep.extend(words[a:b])
    return keep


def _convert(table, source: SourceFile, out: Merged) -> list[Token] | None:
    """The file's options as argv tokens; None when the file is past a limit (its options unknown)."""
    pairs = _pairs(source, out)
    if pairs is None:
        return None
    merged = _merged(pairs, source, out)
    if merged is None:
        return []
    store_true, unsupported = merger_keys(table)
    args: list[Token] = []
    for key, (k_node, v_node, value) in merged.items():
        _add_key(args, out, source, key, k_node, v_node, value, store_true, unsupported)
    return args


def _pairs(source: SourceFile, out: Merged) -> list | None:
    """``(key node, value node, key, value)`` of each top-level entry, as ``yaml.safe_load`` constructs
    them (merge keys flattened); ``[]`` for an empty file or one that is no mapping or no YAML (with a
    problem in ``out``); None when its aliases expand past ``MAX_YAML_NODES``."""
    import yaml

    from linter import limits

    try:
        loader = yaml.SafeLoader(source.text)
        try:
            root = loader.get_single_node()
            if root is not None and _expanded_size(root) > limits.MAX_YAML_NODES:
                limits.record("MAX_YAML_NODES", f"the aliases of the --config file {source.display}",
                              Span(source, 0, 0), "its options are unknown")
                return None
            if root is not None and isinstance(root, yaml.MappingNode):
                loader.flatten_mapping(root)
                return [(k, v, loader.construct_object(k, deep=True), loader.construct_object(v, deep=True))
                        for k, v in root.value]
            value = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        off = min(mark.index, len(source.text)) if mark is not None else 0
        why = (exc.problem or exc.context or "").strip()
        out.problems.append(ConfigProblem(f"the config file is not valid YAML: {why}",
                                          Span(source, off, off)))
        return []
    except (yaml.YAMLError, TypeError, ValueError, RecursionError) as exc:
        out.problems.append(ConfigProblem(f"the config file is not valid YAML: {exc}", Span(source, 0, 0)))
        return []
    if value is not None:  # (an empty file is an empty mapping)
        out.problems.append(ConfigProblem("Config file must contain a dictionary at root level",
                                          Span(source, root.start_mark.index, root.start_mark.index)))
    return []


def _merged(pairs: list, source: SourceFile, out: Merged) -> dict | None:
    """key -> (first key node, last value node, last value): a mapping with a repeated key keeps the
    first key's place and the last value (a dict). None when a key is unhashable (safe_load fails)."""
    merged: dict = {}
    for k_node, v_node, key, value in pairs:
        try:
            merged[key] = (k_node if key not in merged else merged[key][0], v_node, value)
        except TypeError:  # an unhashable key: safe_load itself fails
            out.problems.append(ConfigProblem("a key of the config file is not a string",
                                              Span(source, k_node.start_mark.index, k_node.end_mark.index)))
            return None
    return merged


def _add_key(args: list[Token], out: Merged, source: SourceFile, key, k_node, v_node, value,
             store_true, unsupported) -> None:
    """Append to ``args`` the words SGLang's merger makes of one key and its value (a problem in ``out``
    for a key it fails on or does not support)."""
    key_span = Span(source, k_node.start_mark.index, k_node.end_mark.index)
    if not isinstance(key, str):
        out.problems.append(ConfigProblem(f"the key {key!r} is not a string: SGLang's merger fails on it "
                                          "('replace' of a non-string)", key_span))
        return
    norm = key.replace("-", "_")
    if norm in unsupported:
        out.problems.append(ConfigProblem(f"Unsupported config option '{norm}' with action '{unsupported[norm]}'",
                                          key_span))
        return
    out.key_starts.append(len(args))
    flag = Token(MStr.join([MStr.plain("--", key_span), _text(k_node, key, source)], key_span))
    if isinstance(value, bool):
        if norm in store_true:
            if value:
                args.append(flag)
        else:
            args += [flag, Token(_text(v_node, str(value).lower(), source))]
    elif isinstance(value, list):
        if value:
            args.append(flag)
            items = v_node.value if isinstance(v_node.value, list) and len(v_node.value) == len(value) else None
            for n, item in enumerate(value):
                node = items[n] if items is not None else v_node
                args.append(Token(_text(node, str(item), source)))
    elif isinstance(value, dict):
        args += [flag, Token(_text(v_node, json.dumps(value), source))]
    else:
        args += [flag, Token(_text(v_node, str(value), source))]


def _expanded_size(root, budget: int | None = None) -> int:
    """How many nodes ``root`` expands to, counting an aliased node at every use (stops past ``budget``,
    by default ``MAX_YAML_NODES``: a "billion laughs" file is not expanded)."""
    from linter import limits

    budget = limits.MAX_YAML_NODES + 1 if budget is None else budget
    count = 0
    stack = [root]
    while stack and count <= budget:
        node = stack.pop()
        count += 1
        value = node.value
        if isinstance(value, list):
            for item in value:
                stack.extend(item if isinstance(item, tuple) else (item,))
    return count


def _text(node, text: str, source: SourceFile) -> MStr:
    """``text`` (what SGLang passes on) with origins in the YAML: the scalar's own characters when
    they are that text, else no origin (reported at the node, never edited)."""
    from linter.extract import yamltree

    span = Span(source, node.start_mark.index, node.end_mark.index)
    if getattr(node, "tag", "").startswith("tag:yaml.org,2002:") and isinstance(node.value, str):
        mstr = yamltree.mstr(node, source)
        if mstr.text == text:
            return mstr
    return MStr.plain(text, span)


__all__ = ["merge", "Merged", "ConfigProblem", "merger_keys", "action_class", "KEYS_BY_SPELLING"]
