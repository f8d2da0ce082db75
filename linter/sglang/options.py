"""SGLang's server options per release, and argparse's reading of a launch's argument tokens.

The tables are data files, ``linter/sglang/data/options-<version>.json``, generated from the
published ``sglang`` wheels by ``scripts/generate_sglang_options.py`` (each records the wheel and
its sha256). :func:`parse_args` reproduces what SGLang's parser does with an argument list:
``prepare_server_args`` builds ``argparse.ArgumentParser(prog="sglang serve")`` with the default
``allow_abbrev=True`` and calls ``ServerArgs.add_cli_args`` (0.5.18
``python/sglang/srt/server_args.py:9770-9803``), so

* ``--opt value`` and ``--opt=value`` are both accepted for options that take a value;
* a unique prefix of an option string is accepted (``--tp`` → ``--tp-size``), a prefix shared by
  several options is an error (``--attention``); an exact option string always wins;
* an option whose action takes no value — argparse's ``store_true``/``store_false``/``store_const``/
  ``count``, or any custom action registered with ``nargs=0`` (``BooleanOptionalAction`` and its
  ``--no-`` form, ``DeprecatedStoreTrueAction`` behind 0.5.22+'s ``--enable-dp-attention``) — takes
  none (``--flag=true`` is an error; ``--flag true`` leaves ``true`` as an unrecognised argument);
* a value argparse rejects marks its option in :attr:`ParsedArgs.rejected`: SGLang stops in the
  parser, so later checks do not judge it;
* the last occurrence of an option wins.

``sglang serve`` first removes ``--model-type X`` and turns a first non-option token into
``--model-path`` (``python/sglang/cli/serve.py:23-59``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from linter import datafiles
from linter.launch import UNKNOWN, KwArg, MStr, Token

_DATA = "linter.sglang.data"
_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
# argparse's built-in actions that consume no value (Python 3.10-3.13 ``argparse``).
_NO_VALUE_ACTIONS = frozenset({"store_true", "store_false", "store_const", "append_const", "count", "help",
                               "version"})


@dataclass(frozen=True)
class Option:
    """One argparse action of SGLang's parser (a row of the generated table)."""

    dest: str
    option_strings: tuple[str, ...]
    action: str
    type: str | None
    choices: tuple[str, ...] | None
    default: object
    nargs: object
    required: bool
    deprecated: bool

    @property
    def takes_value(self) -> bool:
        """Whether argparse consumes a value for this option.

        argparse's own no-value actions never take one; any other action (SGLang's custom
        ``DeprecatedStoreTrueAction``, ``BooleanOptionalAction``, ...) takes none exactly when it
        was registered with ``nargs=0``, which the table records (e.g. ``--enable-dp-attention`` in
        0.5.22+, ``--disable-cuda-graph`` in 0.5.23: ``custom:DeprecatedStoreTrueAction``, nargs 0).
        """
        return self.action not in _NO_VALUE_ACTIONS and self.nargs != 0

    def allows(self, text: str) -> bool:
        """Whether the command-line word ``text`` passes ``choices`` (argparse converts it with
        ``type`` first, so ``--log-requests-level 0`` matches the int choice 0)."""
        if not self.choices:
            return True
        return text in {str(c) for c in self.choices}

    def flag_value(self, option_string: str) -> object:
        """The value a no-value option stores when given as ``option_string`` (a full string of it).

        ``store_false`` and the ``--no-X`` form of a ``BooleanOptionalAction`` store False;
        every other flag is read as True (``store_const``/``count`` values are not in the table,
        and the rules only ask whether such a flag is on).
        """
        if self.action == "store_false":
            return False
        if self.action.endswith("BooleanOptionalAction") and option_string.startswith("--no-"):
            return False
        return True

    @property
    def primary(self) -> str:
        return self.option_strings[0]


@dataclass
class OptionTable:
    """All options of one SGLang release plus the lists its start-up checks use.

    ``lists`` holds ``attention_backend_choices``, ``deterministic_attention_backends``,
    ``radix_supported_deterministic_attention_backends``, ``absorbed_mla_architectures`` and
    ``rl_on_policy_target_choices`` as read from that release's source.
    """

    version: str
    options: list[Option]
    fields: tuple[str, ...]
    lists: dict[str, list[str] | None]
    source: dict
    by_string: dict[str, Option] = field(default_factory=dict)
    by_dest: dict[str, Option] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for opt in self.options:
            for s in opt.option_strings:
                self.by_string[s] = opt
            self.by_dest.setdefault(opt.dest, opt)
        self._sorted = sorted(self.by_string)

    def prefix_matches(self, prefix: str) -> list[str]:
        """Option strings that start with ``prefix`` (argparse ``_get_option_tuples`` for ``--``)."""
        import bisect

        i = bisect.bisect_left(self._sorted, prefix)
        out = []
        while i < len(self._sorted) and self._sorted[i].startswith(prefix):
            out.append(self._sorted[i])
            i += 1
        return out

    def list(self, name: str) -> list[str]:
        return list(self.lists.get(name) or [])

    @property
    def version_tuple(self) -> tuple[int, ...]:
        return version_tuple(self.version)


_RELEASE = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?$")


@functools.lru_cache(maxsize=1024)
def version_tuple(version: str) -> tuple[int, ...]:
    """``"0.5.18"`` -> ``(0, 5, 18, -1)``, ``"0.4.5.post2"`` -> ``(0, 4, 5, 2)``: a release's sort key
    (``X.Y.Z.postN`` after ``X.Y.Z``; a ``v`` prefix and anything after the first three numbers other
    than ``.postN`` are ignored)."""
    m = _RELEASE.match(version)
    if m:
        return tuple(int(x) for x in m.groups(default="-1"))
    return tuple(int(x) for x in re.findall(r"\d+", version)[:3]) + (-1,)


def is_release(version: str) -> bool:
    """True for ``X.Y.Z`` or ``X.Y.Z.postN`` (with or without a ``v``)."""
    return _RELEASE.match(version) is not None


@functools.cache
def available_versions() -> tuple[str, ...]:
    """Versions with a table, oldest first."""
    names = [n for n in datafiles.names(_DATA) if n.startswith("options-")]
    versions = [n[len("options-"):-len(".json")] for n in names if n.endswith(".json")]
    return tuple(sorted(versions, key=version_tuple))


@functools.cache
def unavailable_versions() -> dict[str, str]:
    """Published releases the generator could not dump (``unavailable.json``): version -> why."""
    if "unavailable.json" not in datafiles.names(_DATA):
        return {}
    releases = datafiles.load_json(_DATA, "unavailable.json")["releases"]
    return {v: r["reason"] for v, r in releases.items()}


def known_versions_text() -> str:
    """The known releases in a few words: ``0.4.0 … 0.5.23 (91 option tables)``."""
    known = available_versions()
    return f"{known[0]} … {known[-1]} ({len(known)} option tables)"


def known_release(value: str) -> str:
    """``value`` (``0.5.18``, ``v0.4.5.post2``) without its ``v`` when it is a release the linter knows:
    one with a table, or one listed in ``unavailable.json`` (its nearest older table is used then).
    Raises ValueError with a message that names the known releases otherwise."""
    version = value.strip().removeprefix("v")
    if not is_release(version):
        raise ValueError(f"{value!r} is not a release such as \"0.5.18\" or \"0.4.5.post2\"; "
                         f"known: {known_versions_text()}")
    if version not in available_versions() and version not in unavailable_versions():
        raise ValueError(f"no option table for SGLang {version!r}; known: {known_versions_text()}")
    return version


def newest_version() -> str:
    """The newest release with a table (used when a launch pins none)."""
    return available_versions()[-1]


@functools.cache
def last_release_with(option: str, before: str) -> str | None:
    """The newest release older than ``before`` whose parser has the exact option string ``option``
    (``--enable-ep-moe`` → ``0.5.x``), or None. Reads the older tables newest first; used only to
    explain an unknown option, so the cost is paid only when there is one."""
    older = [v for v in available_versions() if version_tuple(v) < version_tuple(before)]
    for v in reversed(older):
        if option in load_table(v).by_string:
            return v
    return None


@functools.cache
def load_table(version: str) -> OptionTable:
    """Load the table of ``version`` (e.g. ``"0.5.18"``). Raises KeyError for a version with no table.

    Loaded once per process (a table is read-only once built): a run over many launches of one
    release parses its JSON file once, not once per launch."""
    if version not in available_versions():
        raise KeyError(version)
    raw = datafiles.load_json(_DATA, f"options-{version}.json")
    options = [
        Option(
            # keys at their default are left out of the file (scripts/generate_sglang_options.py OPTION_DEFAULTS)
            dest=o["dest"], option_strings=tuple(o["option_strings"]), action=o.get("action", "store"),
            type=o.get("type"),
            choices=tuple(o["choices"]) if o.get("choices") else None, default=o.get("default"),
            nargs=o.get("nargs"), required=bool(o.get("required")), deprecated=bool(o.get("deprecated")),
        )
        for o in raw["options"]
    ]
    return OptionTable(version=raw["sglang_version"], options=options, fields=tuple(raw.get("fields") or ()),
                       lists=raw.get("lists") or {}, source=raw.get("source") or {})


# --------------------------------------------------------------------------------------------
# argparse semantics


@dataclass
class Setting:
    """One occurrence of an option in a launch.

    ``value`` is a ``str`` (an option with a value), ``True`` (a store-true flag), a Python value
    (keyword-argument launches) or :data:`UNKNOWN`. ``flag`` is the token that named the option
    (None for a keyword argument or a synthesised ``--model-path``); ``value_token`` holds the value
    and ``value_range`` the characters of it that are the value (``--opt=value`` → after ``=``).
    """

    dest: str
    value: object
    spelled: str
    index: int
    flag: Token | None = None
    value_token: Token | None = None
    value_range: tuple[int, int] | None = None
    kwarg: KwArg | None = None

    @property
    def value_text(self) -> MStr | None:
        """The value's characters with their origins, when the value is a string."""
        if self.kwarg is not None:
            return self.kwarg.value_text
        if self.value_token is None or self.value_range is None:
            return None
        i, j = self.value_range
        return self.value_token.text[i:j]

    def value_location(self):
        """The span to report the value at (exact when possible)."""
        text = self.value_text
        if text is not None and len(text):
            loc = text.location()
            if loc is not None:
                return loc
        return self.option_location()

    def value_span(self):
        """The exact span of the value's literal text, or None (then no fix can edit it)."""
        text = self.value_text
        return text.span_of() if text is not None and len(text) else None

    def option_location(self):
        """The span to report the option itself at."""
        if self.kwarg is not None:
            return self.kwarg.name_span or self.kwarg.where
        if self.flag is not None:
            loc = self.flag.location(0, len(self.spelled)) if self.flag.raw.startswith(self.spelled) else None
            return loc or self.flag.location()
        if self.value_token is not None:
            return self.value_token.location()
        return None


@dataclass
class ArgProblem:
    """Something SGLang's parser rejects or ignores. ``kind`` is one of ``unknown-option``,
    ``ambiguous-option``, ``invalid-choice``, ``unexpected-value``, ``missing-value``,
    ``config-equals-ignored``, ``unrecognized-argument``; ``token`` is where it is."""

    kind: str
    token: Token
    message: str
    candidates: tuple[str, ...] = ()
    option: Option | None = None
    range: tuple[int, int] | None = None
    detail: str = ""
    """A finding's whole message when the general wording does not fit (a framework's dialect)."""
    span: object = None
    """Where to report a ``config-file`` problem (a key in the ``--config`` YAML), when not at ``token``."""


@dataclass
class ParsedArgs:
    """The options of one launch as SGLang's parser reads them."""

    table: OptionTable
    settings: list[Setting] = field(default_factory=list)
    problems: list[ArgProblem] = field(default_factory=list)
    unknown_words: list[Token] = field(default_factory=list)
    """Splat tokens (``$EXTRA_ARGS``) and ``--config FILE`` paths that could not be read: they may add
    any options at all."""
    help: bool = False
    """``-h``/``--help`` (or a prefix of it) is given: argparse prints the help and exits."""
    words: list[Token] = field(default_factory=list)
    """The tokens argparse reads, after the ``--config`` file's options were merged in front."""
    config_sources: list = field(default_factory=list)
    """The ``--config`` YAML files read (:class:`~linter.source.SourceFile`)."""
    from_config: set[int] = field(default_factory=set)
    """``id()`` of the tokens that came from the ``--config`` file."""
    rejected: set[str] = field(default_factory=set)
    """Dests whose occurrence argparse rejects (invalid choice, missing or unexpected value, every
    candidate of an ambiguous prefix). SGLang stops in the parser, so no later check sees these
    values: rules that would judge them again stay silent (:meth:`judged`)."""

    def judged(self, *dests: str) -> bool:
        """True when none of ``dests`` is rejected by the parser, so later checks may read them."""
        return not self.rejected.intersection(dests)

    def _reject(self, problem: ArgProblem) -> None:
        self.problems.append(problem)
        if problem.option is not None:
            self.rejected.add(problem.option.dest)
        for c in problem.candidates:
            opt = self.table.by_string.get(c)
            if opt is not None:
                self.rejected.add(opt.dest)

    def all(self, dest: str) -> list[Setting]:
        return [s for s in self.settings if s.dest == dest]

    def get(self, dest: str) -> Setting | None:
        """The occurrence that wins (the last one), or None when the option is not given."""
        for s in reversed(self.settings):
            if s.dest == dest:
                return s
        return None

    def value(self, dest: str, default: object = None) -> object:
        s = self.get(dest)
        return default if s is None else s.value


def _is_option_like(word: str | None) -> bool:
    if word is None or not word.startswith("-") or len(word) < 2:
        return False
    if _NEGATIVE_NUMBER.match(word) or " " in word:
        return False
    return True


def _match(table: OptionTable, word: str) -> tuple[Option | None, str, str | None, tuple[str, ...]]:
    """(option, spelled, explicit value, ambiguous candidates) for an option-like word."""
    if word in table.by_string:
        return table.by_string[word], word, None, ()
    name, eq, explicit = word.partition("=")
    if eq and name in table.by_string:
        return table.by_string[name], name, explicit, ()
    if word.startswith("--"):
        matches = table.prefix_matches(name)
        if len(matches) == 1:
            return table.by_string[matches[0]], name, explicit if eq else None, ()
        if len(matches) > 1:
            return None, name, explicit if eq else None, tuple(matches)
    return None, name, explicit if eq else None, ()


def parse_args(table: OptionTable, tokens: Sequence[Token], program: str = "", open_config=None) -> ParsedArgs:
    """Read ``tokens`` (the words after the entry point) as SGLang's parser would.

    ``open_config(path) -> SourceFile | None`` finds a ``--config`` file (:mod:`linter.sglang.config_file`
    merges it as the release does); without it, or when it returns None, the file's options are unknown."""
    from linter.sglang.dialects import by_program, translate
    from linter.sglang.entrypoints import FOREIGN_OPTION_PREFIXES, LENIENT_UNKNOWN_OPTIONS, SERVE

    foreign = FOREIGN_OPTION_PREFIXES.get(program, ())
    lenient = program in LENIENT_UNKNOWN_OPTIONS
    parsed = ParsedArgs(table)
    words = list(tokens)
    synthetic_model: Token | None = None
    dialect = by_program(program)
    if dialect is not None:
        got = translate(dialect, words, lambda name: _match(table, name)[0])
        words = got.tokens
        for tok, why in got.ignored:
            parsed.problems.append(ArgProblem("unknown-option", tok, why, range=(0, len(tok.raw.split("=")[0])),
                                              detail=why))
        if got.model is not None:
            parsed.settings.append(Setting("model_path", got.model.value if got.model.value is not None else UNKNOWN,
                                           dialect.model_option, -1, value_token=got.model,
                                           value_range=(0, len(got.model.raw))))
    if program == SERVE:
        kept = []
        i = 0
        while i < len(words):
            v = words[i].value
            if v == "--model-type":
                i += 2
                continue
            if v is not None and v.startswith("--model-type="):
                i += 1
                continue
            kept.append(words[i])
            i += 1
        words = kept
        if words and words[0].value is not None and not words[0].value.startswith("-") and not words[0].splat:
            synthetic_model = words[0]
            words = words[1:]
            parsed.settings.append(Setting("model_path", synthetic_model.value, "MODEL", -1,
                                           value_token=synthetic_model, value_range=(0, len(synthetic_model.raw))))
    if any(w.value == "--config" for w in words):  # the merger reads only an exact --config token
        from linter.sglang.config_file import merge

        merged = merge(table, words, open_config)
        words = merged.words
        parsed.config_sources = merged.sources
        parsed.from_config = merged.from_config
        parsed.unknown_words.extend(merged.unknown)
        for cp in merged.problems:
            parsed.problems.append(ArgProblem("config-file", cp.token, cp.message, span=cp.where))
    parsed.words = list(words)
    for tok in words:
        v = tok.value
        if v is not None and (v == "-h" or (len(v) > 3 and "--help".startswith(v.partition("=")[0]))):
            # argparse prints the help and exits before checking anything else.
            parsed.help = True
            return parsed
    i = 0
    n = len(words)
    while i < n:
        tok = words[i]
        word = tok.value
        if tok.splat:
            parsed.unknown_words.append(tok)
            i += 1
            continue
        if word is None:
            # An option whose name is unknown: it may be anything; its value (if any) too.
            parsed.unknown_words.append(tok)
            i += 1
            continue
        if word == "--":
            parsed.problems.append(ArgProblem("unrecognized-argument", tok, "'--' ends the options; "
                                              "SGLang's parser takes no positional arguments"))
            i += 1
            continue
        if not _is_option_like(word):
            parsed.problems.append(ArgProblem("unrecognized-argument", tok, f"unrecognized argument {word[:60]!r}"))
            i += 1
            continue
        if foreign and word.startswith(foreign) and word not in table.by_string:
            # the program's own option (sglang_router's --router-*): skip it and its value
            i += 1
            if "=" not in word and i < n and words[i].value is not None and not _is_option_like(words[i].value):
                i += 1
            continue
        option, spelled, explicit, candidates = _match(table, word)
        if candidates:
            parsed._reject(ArgProblem("ambiguous-option", tok, f"ambiguous option: {spelled} could match "
                                              + ", ".join(candidates), candidates=candidates))
            i += 1
            # argparse stops here with an error; skip a following value so it is not misread.
            if explicit is None and i < n and not _is_option_like(words[i].value):
                i += 1
            continue
        if option is None and lenient:
            # the program's own option: skip it and its value
            i += 1
            if explicit is None and i < n and words[i].value is not None and not _is_option_like(words[i].value):
                i += 1
            continue
        if option is None:
            parsed.problems.append(ArgProblem("unknown-option", tok, f"unrecognized option {spelled!r}",
                                              range=(0, len(spelled))))
            i += 1
            if explicit is None and i < n and words[i].value is not None and not _is_option_like(words[i].value):
                # Probably its value; argparse would report it as unrecognized too.
                i += 1
            continue
        if not option.takes_value:
            if explicit is not None:
                parsed._reject(ArgProblem("unexpected-value", tok, f"argument {option.primary}: ignored "
                                                  f"explicit argument {explicit!r}", option=option,
                                                  range=(len(spelled), len(tok.raw))))
            else:
                full = spelled if spelled in table.by_string else table.prefix_matches(spelled)[0]
                parsed.settings.append(Setting(option.dest, option.flag_value(full), spelled, i, flag=tok))
            i += 1
            continue
        # An option with a value.
        if explicit is not None:
            start = len(spelled) + 1
            value = explicit if tok.text[start:].known else UNKNOWN
            if option.choices and isinstance(value, str) and not option.allows(value):
                parsed._reject(ArgProblem("invalid-choice", tok, f"argument {option.primary}: invalid "
                                                  f"choice: {value!r}", option=option))
            parsed.settings.append(Setting(option.dest, value, spelled, i, flag=tok, value_token=tok,
                                           value_range=(start, len(tok.raw))))
            i += 1
            continue
        nargs = option.nargs
        values: list[Token] = []
        j = i + 1
        if nargs in (None, "?", 1):
            # An unknown expansion right after the option most likely holds its value.
            if j < n and (words[j].splat or not _is_option_like(words[j].value)):
                values.append(words[j])
                j += 1
        elif nargs in ("*", "+"):
            while j < n and not words[j].splat and not _is_option_like(words[j].value):
                values.append(words[j])
                j += 1
        elif isinstance(nargs, int):
            while j < n and len(values) < nargs and not _is_option_like(words[j].value):
                values.append(words[j])
                j += 1
        if not values and nargs not in ("?", "*"):
            parsed._reject(ArgProblem("missing-value", tok, f"argument {option.primary}: expected one "
                                              "argument", option=option))
            i += 1
            continue
        if len(values) == 1 and nargs in (None, "?", 1):
            v = values[0]
            if option.choices and v.value is not None and not option.allows(v.value):
                parsed._reject(ArgProblem("invalid-choice", v, f"argument {option.primary}: invalid choice: "
                                                  f"{v.value!r}", option=option))
            parsed.settings.append(Setting(option.dest, v.value if v.value is not None else UNKNOWN, spelled, i,
                                           flag=tok, value_token=v, value_range=(0, len(v.raw))))
        else:
            joined = [v.value for v in values]
            value = UNKNOWN if any(x is None for x in joined) else joined
            parsed.settings.append(Setting(option.dest, value, spelled, i, flag=tok,
                                           value_token=values[0] if values else None,
                                           value_range=(0, len(values[0].raw)) if values else None))
        i = j
    for s in parsed.all("config"):
        if s.spelled == "--config" and s.value_token is not s.flag and merged.problems:
            # A --config the merger refused (two of them): SGLang stops; its options are not known.
            parsed.unknown_words.append(s.value_token or s.flag)
    if not parsed.unknown_words:
        for opt in table.options:
            if opt.required and parsed.get(opt.dest) is None:
                parsed.problems.append(ArgProblem("missing-required", None, "the following arguments are required: "
                                                  + "/".join(opt.option_strings), option=opt))
    return parsed


def settings_from_kwargs(table: OptionTable, kwargs: Sequence[KwArg]) -> ParsedArgs:
    """Keyword arguments of ``ServerArgs``/``Engine`` are dataclass fields: no abbreviation,
    no ``choices`` check, values as Python gives them (0.5.18 ``srt/entrypoints/engine.py:232-251``)."""
    parsed = ParsedArgs(table)
    for i, kw in enumerate(kwargs):
        parsed.settings.append(Setting(kw.name, kw.value, kw.name, i, kwarg=kw))
    return parsed
