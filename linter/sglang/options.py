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

The reading is CPython 3.11's ``argparse._parse_known_args`` step for step (3.10–3.12.1 share it;
:class:`_Reader`): the words are classified first — exact option string, the part before ``=``,
abbreviations (also with ``=``; several: ``ambiguous option``, raised before anything else), a
negative number, a word with a space (an argument), else an unknown option — then each option takes
the arguments its ``nargs`` matches (``--`` is never an option's argument; ``--opt=--`` stores an
empty list), every value is converted with the option's ``type`` before its ``choices`` are checked
(:mod:`linter.sglang.valuetypes`; every value of a multi-value option), and the option's action runs
as the release's table records it (a deprecated option raises, warns, stores or is mapped onto
another option: :attr:`Option.deprecation`, :func:`apply_resolutions`). Every failure is recorded
(SGLang stops at the first: :meth:`ParsedArgs.sglang_error` is that one, worded as SGLang words
it). ``tests/test_parser_oracle.py`` replays each release's own verdicts, recorded by
``scripts/record_parser_oracle.py``, against this.

``sglang serve`` first removes ``--model-type X`` and turns a first non-option token into
``--model-path`` (``python/sglang/cli/serve.py:23-59``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from linter import datafiles
from linter.launch import UNKNOWN, UNKNOWN_CHAR, KwArg, MStr, Token
from linter.records import dataclass, field
from linter.sglang import valuetypes
from linter.sglang.versions import is_release, version_tuple  # noqa: F401 - part of this module's interface

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
    const: object = None
    """What a ``nargs='?'`` option stores when it is given without a value (argparse's ``const``)."""
    deprecation: dict | None = None
    """What the release's action does when the option is given (generated): ``behaviour`` ``raises`` |
    ``warns`` | ``maps`` | ``stores`` | ``ignored``, SGLang's ``message`` (and ``error``: the exception, or
    ``parser`` for ``parser.error``), ``stores`` (dest → ``{"given": true}`` or ``{"value": X}``),
    ``new_flag``/``help`` (SGLang's own words on what to write instead), ``source`` (file:line of the
    action class) and, for ``maps``, the ``resolution`` rule that turns it into another option's value."""

    @property
    def takes_value(self) -> bool:
        """Whether argparse consumes a value for this option.

        argparse's own no-value actions never take one; any other action (SGLang's custom
        ``DeprecatedStoreTrueAction``, ``BooleanOptionalAction``, ...) takes none exactly when it
        was registered with ``nargs=0``, which the table records (e.g. ``--enable-dp-attention`` in
        0.5.22+, ``--disable-cuda-graph`` in 0.5.23: ``custom:DeprecatedStoreTrueAction``, nargs 0).
        """
        return self.action not in _NO_VALUE_ACTIONS and self.nargs != 0

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
    types: dict = field(default_factory=dict)
    """SGLang's own type functions: name → ``{"source": file:line, "accepts": spec | "unknown"}``
    (:mod:`linter.sglang.valuetypes`)."""
    actions: dict = field(default_factory=dict)
    """SGLang's custom (non-deprecated) argparse actions: class name → ``{"source", "accepts"}``."""
    startup_checks: tuple = ()
    """Values SGLang checks right after parsing: ``{"dest", "kind", "sources"}`` (generated)."""
    by_string: dict[str, Option] = field(default_factory=dict)
    by_dest: dict[str, Option] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for opt in self.options:
            for s in opt.option_strings:
                self.by_string[s] = opt
            self.by_dest.setdefault(opt.dest, opt)
        self._sorted = sorted(self.by_string)
        self._order = {s: k for k, s in enumerate(("-h", "--help", *self.by_string))}
        self.resolved = [opt for opt in self.options if ((opt.deprecation or {}).get("resolution"))]
        """The deprecated options whose release turns them into another option's value
        (:func:`apply_resolutions` asks only these, for every launch)."""

    def in_parser_order(self, strings) -> list[str]:
        """``strings`` in the order argparse registered them (``-h``/``--help`` first): the order of its
        ``ambiguous option`` list."""
        return sorted(set(strings), key=lambda s: self._order.get(s, len(self._order)))

    def default_of(self, dest: str) -> object:
        """The parser's default for ``dest`` (the first option that sets it), None when unknown."""
        opt = self.by_dest.get(dest)
        return None if opt is None else opt.default

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
        if option in _option_strings(v):
            return v
    return None


@functools.cache
def _option_strings(version: str) -> frozenset[str]:
    """The option strings of ``version``'s table, read from its JSON without building the table (a
    launch with an unknown option asks every older release: a fifth of the time of loading them)."""
    raw = datafiles.load_json(_DATA, f"options-{version}.json")
    return frozenset(s for o in raw["options"] for s in o["option_strings"])


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
            deprecation=o.get("deprecation"), const=o.get("const"),
        )
        for o in raw["options"]
    ]
    return OptionTable(version=raw["sglang_version"], options=options, fields=tuple(raw.get("fields") or ()),
                       lists=raw.get("lists") or {}, source=raw.get("source") or {}, types=raw.get("types") or {},
                       actions=raw.get("actions") or {}, startup_checks=tuple(raw.get("startup_checks") or ()))


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
    via: str = ""
    """Set when SGLang wrote the value itself from another option (a deprecated option its resolution
    maps, :func:`apply_resolutions`): what did it, with its source."""

    @property
    def value_text(self) -> MStr | None:
        """The value's characters with their origins, when the value is a string."""
        if self.kwarg is not None:
            return self.kwarg.value_text
        if self.value_token is None or self.value_range is None:
            return None
        i, j = self.value_range
        return self.value_token.text[i:j]

    @property
    def value_runs(self) -> tuple:
        """``value_text.runs`` (``(n, source, offset, atom)``; empty when the value is not a string),
        without making the :class:`~linter.launch.MStr`: the run's fix reconciliation asks it of every
        setting of every launch."""
        if self.kwarg is not None:
            text = self.kwarg.value_text
            return text.runs if text is not None else ()
        if self.value_token is None or self.value_range is None:
            return ()
        text = self.value_token.text
        start, stop, _ = slice(*self.value_range).indices(len(text.text))  # as text[i:j] slices
        return text.runs_of(start, stop)

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
    error: tuple[str, str] | None = None
    """What SGLang raises for it, exactly: ``("ArgparseError", argparse's message)`` or the exception
    class and its text (a deprecated option's ``ValueError``, a ``JSONDecodeError`` in an action)."""
    stage: int = 0
    """When argparse meets it: 1 while classifying the words (ambiguous prefix), 2 while consuming them
    (values, flags, actions), 3 the required check, 4 the unrecognized words; 0 outside argparse.
    SGLang reports the first (:meth:`ParsedArgs.first_error`)."""


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

    extras: list[str] = field(default_factory=list)
    """The words argparse could not place, in order (its ``unrecognized arguments: …`` message)."""
    framework_ignored: list[tuple[Token, str, tuple[str, ...]]] = field(default_factory=list)
    """Options of a dialect (``--sglang-tp-size`` to slime/miles) that the framework accepts and never
    passes to SGLang: ``(token, why, sources)`` (:func:`linter.sglang.dialects.translate`)."""

    def sglang_error(self) -> tuple[str, str] | None:
        """What SGLang's parser stops with: ``(error type, message)`` as CPython 3.11's argparse (or the
        release's own action) words it, or None when it accepts the words."""
        first = self.first_error()
        if first is None:
            return None
        if first.stage == _STAGE_EXTRAS:
            return "ArgparseError", "unrecognized arguments: " + " ".join(self.extras)
        return first.error or ("ArgparseError", first.message)

    def first_error(self) -> ArgProblem | None:
        """The problem SGLang's parser stops on (argparse's order: an ambiguous prefix while the words
        are classified, then the first failure while they are consumed, then a missing required
        option, then the unrecognized words), or None when the parser accepts the words."""
        errors = [p for p in self.problems if p.kind in _ERRORS and p.stage]
        return min(errors, key=lambda p: p.stage) if errors else None

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
        # Rules ask a launch hundreds of times: the last occurrence of each dest, indexed once per length
        # of ``settings`` (which only grows: occurrences are appended while the words are parsed).
        index = self.__dict__.get("_last")
        if index is None or index[0] != len(self.settings):
            last = {s.dest: s for s in self.settings}
            index = self.__dict__["_last"] = (len(self.settings), last)
        return index[1].get(dest)

    def __getstate__(self) -> dict:
        """What pickling keeps (a pool's result): the fields, not :meth:`get`'s index."""
        state = dict(self.__dict__)
        state.pop("_last", None)
        return state

    def value(self, dest: str, default: object = None) -> object:
        s = self.get(dest)
        return default if s is None else s.value


_HELP = ("-h", "--help")
"""argparse's own ``-h/--help`` (added by ``ArgumentParser``; not in the tables)."""
_STAGE_CLASSIFY, _STAGE_CONSUME, _STAGE_REQUIRED, _STAGE_EXTRAS = 1, 2, 3, 4
_VALUE_LIKE = re.compile(r"-[0-9.]")  # a word argparse reads as an option, meant as a number (`-0x1`)


@dataclass(frozen=True)
class _Match:
    """What argparse's ``_parse_optional`` makes of one word: ``option`` (None: an unknown option; the
    help action is ``help=True``), ``full`` (the option string matched), ``spelled`` (the written name,
    before any ``=``), ``explicit`` (the text after ``=``, or None) and ``candidates`` (an ambiguous
    prefix)."""

    option: Option | None
    full: str
    spelled: str
    explicit: str | None = None
    candidates: tuple[str, ...] = ()
    help: bool = False


def _option_tuples(table: OptionTable, word: str) -> list[tuple[str, str | None]]:
    """argparse ``_get_option_tuples`` (CPython 3.10–3.12.1, ``allow_abbrev=True``): (option string,
    explicit argument) for each option string ``word`` abbreviates. ``--x=v`` is split at the first
    ``=`` and the part before it is the prefix; a single-dash word matches ``-h`` followed by text
    (``-hX`` = ``-h`` with ``X``) or an option string it is a prefix of (SGLang has none)."""
    if word[1:2] == "-":
        prefix, eq, explicit = word.partition("=")
        found = [s for s in _HELP if s.startswith(prefix)] + table.prefix_matches(prefix)
        return [(s, explicit if eq else None) for s in table.in_parser_order(found)]
    out = []
    if word[:2] == "-h":
        out.append(("-h", word[2:]))
    return out


def match_option(table: OptionTable, word: str) -> _Match | None:
    """argparse ``_parse_optional`` on a known word, step by step: None for a positional (no leading
    ``-``, the single character ``-``, a negative number, or an unmatched word with a space); else the
    exact option string; the part before ``=`` as an exact option string; the abbreviations of the
    word (several: ambiguous); else an unknown option. An exact option string always wins over an
    abbreviation, and ``=`` is split before the space test, so ``--json-model-override-args={"a": 1}``
    is an option."""
    if not word or word[0] != "-":
        return None
    if word in table.by_string or word in _HELP:
        return _Match(table.by_string.get(word), word, word, help=word in _HELP)
    if len(word) == 1:
        return None
    if "=" in word:
        name, explicit = word.split("=", 1)
        if name in table.by_string or name in _HELP:
            return _Match(table.by_string.get(name), name, name, explicit, help=name in _HELP)
    tuples = _option_tuples(table, word)
    spelled = word.partition("=")[0] if word[1:2] == "-" else word
    if len(tuples) > 1:
        return _Match(None, "", spelled, None, tuple(s for s, _ in tuples))
    if len(tuples) == 1:
        full, explicit = tuples[0]
        written = spelled if word[1:2] == "-" else full
        return _Match(table.by_string.get(full), full, written, explicit, help=full in _HELP)
    if _NEGATIVE_NUMBER.match(word):
        return None  # SGLang's parser has no option that looks like a negative number
    if " " in word:
        return None
    return _Match(None, word, spelled, None)


def _match(table: OptionTable, word: str) -> tuple[Option | None, str, str | None, tuple[str, ...]]:
    """(option, spelled, explicit value, ambiguous candidates) for an option-like word (the dialects'
    lookup: a unique match or nothing)."""
    m = match_option(table, word)
    if m is None:
        return None, word, None, ()
    return m.option, m.spelled, m.explicit, m.candidates


def _known_name(tok: Token) -> tuple[str, int] | None:
    """``(name, '=' index)`` of a token ``--name=VALUE`` whose name is known and whose value is not
    (``--attention-backend=$BACKEND``): argparse decides by the name alone."""
    raw = tok.raw
    if tok.splat or not raw.startswith("-"):
        return None
    k = raw.find("=")
    if k <= 1 or UNKNOWN_CHAR in raw[:k]:
        return None
    return raw[:k], k


class _Reader:
    """One run of argparse's ``_parse_known_args`` (CPython 3.10–3.12.1) over a launch's words, with every
    error recorded instead of stopping at the first: the words are classified first (``O`` option,
    ``A`` argument, ``-`` the ``--`` separator, ``U`` a word the linter cannot see), then options are
    consumed left to right, each taking the arguments its ``nargs`` matches; words no option takes
    are extras (``unrecognized arguments``)."""

    def __init__(self, table: OptionTable, words: list[Token], parsed: ParsedArgs, foreign, lenient: bool) -> None:
        self.table = table
        self.words = words
        self.parsed = parsed
        self.foreign = foreign
        self.lenient = lenient
        self.kinds: list[str] = []
        self.matches: dict[int, _Match] = {}
        self.own: set[int] = set()
        """Words that are the program's own options (``foreign`` prefixes), not SGLang's."""

    def problem(self, stage: int, kind: str, token, message: str, **kw) -> ArgProblem:
        kw.setdefault("error", ("ArgparseError", message))
        p = ArgProblem(kind, token, message, stage=stage, **kw)
        if kind in _REJECTING:
            self.parsed._reject(p)
        else:
            self.parsed.problems.append(p)
        return p

    def classify(self) -> None:
        after_dd = False
        for i, tok in enumerate(self.words):
            word = tok.value
            if after_dd:
                self.kinds.append("A" if word is not None else "U")
                continue
            if word is None:
                named = _known_name(tok)
                if named is None:
                    self.kinds.append("U")
                    continue
                m = match_option(self.table, named[0] + "=x")
                if m is not None and not m.candidates and (m.option is not None or m.help):
                    self.matches[i] = _Match(m.option, m.full, m.spelled, UNKNOWN_CHAR, help=m.help)
                    self.kinds.append("O")
                else:
                    self.kinds.append("U")
                continue
            if word == "--":
                self.kinds.append("-")
                after_dd = True
                continue
            name, eq, explicit = word.partition("=")
            if self.foreign and name.startswith(self.foreign) and name not in self.table.by_string:
                self.matches[i] = _Match(None, name, name, explicit if eq else None)
                self.own.add(i)
                self.kinds.append("O")
                continue
            m = match_option(self.table, word)
            if m is None:
                self.kinds.append("A")
                continue
            if m.candidates:
                self.problem(_STAGE_CLASSIFY, "ambiguous-option", tok, f"ambiguous option: {word} could match "
                             + ", ".join(m.candidates), candidates=tuple(c for c in m.candidates if c not in _HELP))
            self.matches[i] = m
            self.kinds.append("O")

    def run(self) -> None:
        self.classify()
        words, n = self.words, len(self.words)
        i = 0
        while i < n:
            if self.kinds[i] != "O":
                self.extra(i)
                i += 1
                continue
            i = self.consume(i)
            if self.parsed.help:
                return

    def extra(self, i: int) -> None:
        """A word no option takes: argparse's ``unrecognized arguments`` (an unknown word: not judged)."""
        tok = self.words[i]
        if self.kinds[i] == "U":
            self.parsed.unknown_words.append(tok)
            return
        self.parsed.extras.append(tok.value)
        if tok.value == "--":
            self.problem(_STAGE_EXTRAS, "unrecognized-argument", tok, "'--' ends the options; SGLang's parser takes "
                         "no positional arguments")
        else:
            self.problem(_STAGE_EXTRAS, "unrecognized-argument", tok, f"unrecognized argument {tok.value[:60]!r}")

    def _count(self, option: Option, start: int) -> int | None:
        """How many of the words from ``start`` argparse gives ``option`` (``nargs``, optionals'
        pattern: ``--`` is never an option's argument); None when the pattern fails."""
        kinds, n = self.kinds, len(self.kinds)
        nargs = option.nargs
        if nargs in (None, 1, "?"):
            # An unknown word (or expansion) right after the option most likely holds its value.
            if start < n and kinds[start] in ("A", "U"):
                return 1
            return None if nargs in (None, 1) else 0
        if nargs in ("*", "+"):
            j = start
            while j < n and (kinds[j] == "A" or (kinds[j] == "U" and not self.words[j].splat)):
                j += 1
            if nargs == "+" and j == start:
                return None if not (start < n and self.words[start].splat) else 0
            return j - start
        if isinstance(nargs, int):
            j = start
            while j < n and j - start < nargs and kinds[j] in ("A", "U"):
                j += 1
            return j - start if j - start == nargs else None
        return 0

    def consume(self, i: int) -> int:
        """argparse ``consume_optional`` for the option word at ``i``: its value words are taken and its
        action run; the index of the next word to read."""
        m = self.matches[i]
        if m.candidates:
            return self._after_ambiguous(i, m)
        if m.help:
            return self._help(i, m)
        if i in self.own:
            # the program's own option (sglang_router's --router-*): skip it and its value
            return self._skip_value(i, m)
        if m.option is None:
            return self._unknown_option(i, m)
        if m.explicit is not None:
            return self._explicit(i, m)
        if not m.option.takes_value:
            self.take(m.option, m, self.words[i], i, None)
            return i + 1
        return self._separate(i, m)

    def _after_ambiguous(self, i: int, m: _Match) -> int:
        """argparse has stopped already; skip a following value so it is not misread (every following
        value when each candidate takes a list: ``--cuda-graph-bs 1 2 4`` in 0.5.20+)."""
        if m.explicit is not None:
            return i + 1
        table = self.table
        many = all(table.by_string[c].nargs in ("+", "*") for c in m.candidates if c in table.by_string)
        j = i + 1
        while j < len(self.words) and self.kinds[j] == "A" and (j == i + 1 or many):
            j += 1
        return j

    def _help(self, i: int, m: _Match) -> int:
        """``-h``/``--help``: argparse prints the help and exits before anything else is checked."""
        tok = self.words[i]
        if m.explicit is not None and not (m.full == "-h" and m.explicit and set(m.explicit) == {"h"}):
            # -h takes no argument (``-hh`` is -h twice); ``-hX`` tries -X as a flag, then argparse stops
            self.problem(_STAGE_CONSUME, "unexpected-value", tok, "argument -h/--help: ignored explicit argument "
                         f"{m.explicit!r}", range=(len(m.spelled), len(tok.raw)), detail=m.explicit)
            return i + 1
        if not any(p.stage in (_STAGE_CLASSIFY, _STAGE_CONSUME) and p.kind in _ERRORS for p in self.parsed.problems):
            self.parsed.help = True
        return i + 1

    def _unknown_option(self, i: int, m: _Match) -> int:
        """An option the release does not have: part of argparse's 'unrecognized arguments' error (with
        its value, if any), or skipped for an entry point that takes options of its own."""
        tok, parsed = self.words[i], self.parsed
        if self.lenient and not _removed_from_sglang(m.spelled, self.table):
            return self._skip_value(i, m)
        parsed.problems.append(ArgProblem("unknown-option", tok, f"unrecognized option {m.spelled!r}",
                                          range=(0, len(m.spelled)), stage=_STAGE_EXTRAS))
        parsed.extras.append(tok.value if tok.value is not None else tok.raw)
        # its value, if any, is part of the same 'unrecognized arguments' error
        nxt = self._skip_value(i, m)
        if nxt == i + 2:
            parsed.extras.append(self.words[i + 1].value)
        return nxt

    def _explicit(self, i: int, m: _Match) -> int:
        """``--option=value``: the value is the rest of the word."""
        tok, option = self.words[i], m.option
        start = len(m.spelled) + 1
        if not option.takes_value:
            self.problem(_STAGE_CONSUME, "unexpected-value", tok, f"argument {'/'.join(option.option_strings)}: "
                         f"ignored explicit argument {tok.raw[start:]!r}", option=option,
                         range=(len(m.spelled), len(tok.raw)), detail=tok.raw[start:])
            return i + 1
        if isinstance(option.nargs, int) and option.nargs > 1:
            self.problem(_STAGE_CONSUME, "missing-value", tok, f"argument {'/'.join(option.option_strings)}: "
                         f"expected {option.nargs} arguments", option=option)
            return i + 1
        text = tok.text[start:]
        if text.text == "--":
            # argparse removes the first '--' from an option's strings: no value is left, so it
            # stores an empty list, converted and checked against nothing — or, for nargs='?', the
            # option's const (3.11 ``_get_values``)
            self.run_action(option, m, tok, i, [(tok, start, "--")], [option.const] if option.nargs == "?" else [])
            return i + 1
        value = text.text if text.known else UNKNOWN
        self.take(option, m, tok, i, [(tok, start, value)])
        return i + 1

    def _separate(self, i: int, m: _Match) -> int:
        """``--option value …``: the value words that follow, as many as ``nargs`` takes."""
        tok, option = self.words[i], m.option
        count = self._count(option, i + 1)
        if count is None:
            expected = {None: "one argument", 1: "one argument", "+": "at least one argument"}.get(
                option.nargs, f"{option.nargs} arguments")
            self.problem(_STAGE_CONSUME, "missing-value", tok, f"argument {'/'.join(option.option_strings)}: "
                         f"expected {expected}", option=option)
            nxt = self.words[i + 1].value if i + 1 < len(self.words) else None
            if nxt is not None and _VALUE_LIKE.match(nxt):
                # `--port -0x1`: the value argparse took for an option; not an unknown option of its own
                return i + 2
            return i + 1
        args = []
        for v in self.words[i + 1:i + 1 + count]:
            args.append((v, 0, v.value if v.value is not None else UNKNOWN))
        self.take(option, m, tok, i, args)
        return i + 1 + count

    def _skip_value(self, i: int, m: _Match) -> int:
        if m.explicit is None and i + 1 < len(self.words) and self.kinds[i + 1] == "A":
            return i + 2
        return i + 1

    def take(self, option: Option, m: _Match, tok: Token, i: int, args) -> None:
        """argparse ``take_action``: convert each value with the option's type, check its choices, then
        run the action (store, flag, a custom or deprecated action as the table records it)."""
        parsed, table = self.parsed, self.table
        if args is None:  # a flag
            self.run_action(option, m, tok, i, None)
            return
        failed = False
        values = []
        for vtok, start, value in args:
            values.append(value)
            if value is UNKNOWN:
                continue
            error = valuetypes.convert(option.type, value, table.types)
            if isinstance(error, str):
                self.problem(_STAGE_CONSUME, "invalid-value", vtok, f"argument {'/'.join(option.option_strings)}: "
                             f"{error}", option=option, range=(start, len(vtok.raw)), detail=value)
                failed = True
                break
        if not failed and option.choices:
            for vtok, start, value in args:
                if value is UNKNOWN:
                    continue
                converted = valuetypes.value_of(option.type, value, table.types)
                if converted is valuetypes.UNJUDGED:
                    continue
                if converted not in option.choices:
                    self.problem(_STAGE_CONSUME, "invalid-choice", vtok, f"argument {'/'.join(option.option_strings)}: "
                                 f"invalid choice: {converted!r} (choose from {', '.join(map(repr, option.choices))})",
                                 option=option, range=(start, len(vtok.raw)), detail=value)
                    failed = True
                    break
        if not args and option.nargs == "?":
            values = [option.const]
        if failed:
            # SGLang stops; the occurrence is still recorded (rules that read it check ``judged``)
            pass
        self.run_action(option, m, tok, i, args, values)

    def run_action(self, option: Option, m: _Match, tok: Token, i: int, args, values=None) -> None:
        """argparse runs the option's action: a setting stored (a deprecated option's own stores, or a
        problem when it raises), after a custom action's check of its values."""
        first = args[0] if args else None
        vtok, start = (first[0], first[1]) if first is not None else (None, None)
        value = _action_value(option, m, values)

        def setting(dest, v):
            return Setting(dest, v, m.spelled, i, flag=tok, value_token=vtok,
                           value_range=(start, len(vtok.raw)) if vtok is not None else None)

        if option.deprecation is not None:
            self._deprecated(option, m, tok, value, setting)
            return
        if option.action.startswith("custom:") and option.action != "custom:BooleanOptionalAction" and \
                self._custom_action_raises(option, values, tok, vtok, start):
            return
        self.parsed.settings.append(setting(option.dest, value))

    def _deprecated(self, option: Option, m: _Match, tok: Token, value, setting) -> None:
        """A deprecated option's action as the table records it: raises, or warns/maps and stores."""
        dep = option.deprecation
        behaviour = dep.get("behaviour")
        if behaviour == "raises":
            kind = dep.get("error") or "ValueError"
            self.problem(_STAGE_CONSUME, "deprecated-raises", tok, dep.get("message") or "", option=option,
                         range=(0, len(m.spelled)), detail=kind,
                         error=("ArgparseError" if kind == "parser" else kind, dep.get("message") or ""))
            return
        if behaviour in ("warns", "maps"):
            self.parsed.problems.append(ArgProblem("deprecated-warns", tok, dep.get("message") or "", option=option,
                                                   range=(0, len(m.spelled))))
        for dest, how in (dep.get("stores") or {}).items():
            self.parsed.settings.append(setting(dest, value if how.get("given") else how.get("value")))

    def _custom_action_raises(self, option: Option, values, tok: Token, vtok: Token | None, start) -> bool:
        """Whether the option's custom action (as the table records what it accepts) raises on the
        values (a problem is recorded then)."""
        spec = (self.table.actions.get(option.action[len("custom:"):]) or {}).get("accepts")
        texts = [v for v in (values or []) if isinstance(v, str)]
        if values is None or len(texts) != len(values):
            return False
        got = valuetypes.action_outcome(spec, texts)
        if not isinstance(got, tuple):
            return False
        self.problem(_STAGE_CONSUME, "invalid-value", vtok or tok, f"argument {option.primary}: SGLang's "
                     f"{option.action[len('custom:'):]} raises {got[0]}: {got[1]}", option=option,
                     range=(start, len(vtok.raw)) if vtok is not None else None, detail="action",
                     error=tuple(got))
        return True


def _action_value(option: Option, m: _Match, values):
    """The value the action stores: the list of values for an option that takes several (UNKNOWN when
    one is), the value, or a flag's own value (``store_true``, ``store_const`` …)."""
    if option.nargs in ("*", "+") or (isinstance(option.nargs, int) and option.nargs > 1) or values == []:
        return UNKNOWN if any(v is UNKNOWN for v in values) else list(values)
    if values is not None:
        return values[0]
    return option.flag_value(m.full)


def _removed_from_sglang(option: str, table: OptionTable) -> bool:
    """Whether ``option`` is one SGLang itself had and removed by ``table``'s release (the successor table):
    an entry point that takes options of its own (Dynamo's) still hands it to SGLang's parser."""
    from linter.sglang.removals import removed_option

    return option.startswith("--") and removed_option(option, table) is not None


_ERRORS = {"ambiguous-option", "invalid-choice", "invalid-value", "unexpected-value", "missing-value",
           "deprecated-raises", "unknown-option", "unrecognized-argument", "missing-required"}
"""Problem kinds that stop SGLang's parser (the others — a deprecation warning — do not)."""
_REJECTING = {"ambiguous-option", "invalid-choice", "invalid-value", "unexpected-value", "missing-value",
              "deprecated-raises"}


def apply_resolutions(parsed: ParsedArgs) -> None:
    """The deprecated options the release's resolution turns into another option's value (the table's
    ``deprecation.resolution.rule``, e.g. 0.5.23 ``--dp-size N --enable-dp-attention`` →
    ``--attn-dp-size N`` with ``dp_size`` 1, ``arg_groups/parallel_hook.py:39``): the new values are
    added as settings located where the old ones were written, so the rules read them as if written."""
    table = parsed.table
    for opt in table.resolved:
        trigger = parsed.get(opt.dest)
        if trigger is None or trigger.value is not True:
            continue  # the deprecated option is not set: SGLang's handler returns at once
        resolution = opt.deprecation["resolution"]
        rule = resolution.get("rule") or {}
        fields = set(rule.get("if", {})) | set(rule.get("set", {})) | {
            v["from"] for v in rule.get("set", {}).values() if isinstance(v, dict)}
        current: dict[str, object] = {}
        for dest in fields:
            s = parsed.get(dest)
            value = s.value if s is not None else table.default_of(dest)
            if isinstance(value, str):
                got = valuetypes.value_of(table.by_dest[dest].type if dest in table.by_dest else None, value,
                                          table.types)
                value = UNKNOWN if got is valuetypes.UNJUDGED else got
            current[dest] = value
        if any(v is UNKNOWN for v in current.values()):
            continue
        note = (f"{opt.primary}: SGLang {table.version}'s {resolution.get('function')} "
                f"({resolution.get('source')})")
        if all(current.get(k) == v for k, v in rule.get("if", {}).items()):
            for dest, how in rule.get("set", {}).items():
                if isinstance(how, dict):
                    src = parsed.get(how["from"])
                    value = src.value if src is not None else table.default_of(how["from"])
                    parsed.settings.append(Setting(dest, value, src.spelled if src is not None else opt.primary,
                                                   len(parsed.settings), flag=src.flag if src else trigger.flag,
                                                   value_token=src.value_token if src else None,
                                                   value_range=src.value_range if src else None,
                                                   kwarg=src.kwarg if src else None, via=note))
                else:
                    parsed.settings.append(Setting(dest, how if trigger.kwarg is not None else str(how), opt.primary,
                                                   len(parsed.settings), flag=trigger.flag, kwarg=trigger.kwarg,
                                                   via=note))
        for dest in rule.get("clear", ()):  # whenever the deprecated option was set
            parsed.settings.append(Setting(dest, False, opt.primary, len(parsed.settings), flag=trigger.flag,
                                           kwarg=trigger.kwarg, via=note))


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
        for tok, why, _ in got.refused:
            parsed.problems.append(ArgProblem("unknown-option", tok, why, range=(0, len(tok.raw.split("=")[0])),
                                              detail=why, stage=_STAGE_EXTRAS))
        parsed.framework_ignored.extend(got.ignored)
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
    merged = None
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
    _Reader(table, words, parsed, foreign, lenient).run()
    if parsed.help:
        return parsed
    for s in parsed.all("config"):
        if merged is not None and s.spelled == "--config" and s.value_token is not s.flag and merged.problems:
            # A --config the merger refused (two of them): SGLang stops; its options are not known.
            parsed.unknown_words.append(s.value_token or s.flag)
    # A trainer's argv never reaches SGLang's parser: it builds ServerArgs itself, the model from its own
    # --hf-checkpoint, which its parser does not require (default None: THUDM/slime
    # slime/utils/arguments.py @624b824a, radixark/miles miles/utils/arguments.py @31f1ca96)
    if not parsed.unknown_words and dialect is None:
        for opt in table.options:
            if opt.required and parsed.get(opt.dest) is None:
                parsed.problems.append(ArgProblem("missing-required", None, "the following arguments are required: "
                                                  + "/".join(opt.option_strings), option=opt, stage=_STAGE_REQUIRED))
    apply_resolutions(parsed)
    return parsed


def settings_from_kwargs(table: OptionTable, kwargs: Sequence[KwArg]) -> ParsedArgs:
    """Keyword arguments of ``ServerArgs``/``Engine`` are dataclass fields: no abbreviation,
    no ``choices`` check, values as Python gives them (0.5.18 ``srt/entrypoints/engine.py:232-251``).
    SGLang's resolution still maps deprecated fields (:func:`apply_resolutions`)."""
    parsed = ParsedArgs(table)
    for i, kw in enumerate(kwargs):
        parsed.settings.append(Setting(kw.name, kw.value, kw.name, i, kwarg=kw))
    if any(kw.value is UNKNOWN for kw in kwargs):
        return parsed
    apply_resolutions(parsed)
    return parsed
