"""Frameworks that start SGLang for the user, from settings in their own spelling.

ROLL, NeMo-RL, ms-swift, NeMo-Skills, LLaMA-Factory, SkyRL, AReaL and lm-evaluation-harness each
turn their own settings — a YAML config, Hydra overrides, command-line options, a Python call's
keyword arguments — into the ``ServerArgs`` of the SGLang server (or ``Engine``) they start. What
each one does, with the file and line of its source at the commit it follows, is data:
``linter/sglang/data/frameworks.json``. This module reads it and turns a framework's settings into
the launch SGLang sees (:func:`convert`); it knows nothing of file formats: every carrier (a YAML
config, a shell or Python command line, a Python call) hands it :data:`Settings`.

A framework's **settings** are keyword-argument records (:class:`~linter.launch.KwArg`) keyed by the
framework's dotted name (``policy.generation.sglang_cfg.tp_size``, ``sglang_tp_size``,
``generator.engine_init_kwargs.attention_backend``), each keeping where its value is written, so a
finding and its fix land in the framework's own text. :func:`convert` applies a framework's row:

* its **section** settings (``strategy_config.*``, ``sglang_cfg.*``, ``engine_init_kwargs.*``, AReaL's
  ``sglang.*``, lm-eval's ``model_args``) become ``ServerArgs`` fields by their own names — limited to
  ``section_only`` (others are ignored: NeMo-RL copies 17 keys), or refused when not in
  ``section_fields`` (AReaL's ``SGLangConfig``);
* its **fields** are the ``ServerArgs`` fields the framework sets from its other settings or by
  itself: a renamed option (``--sglang_tp_size`` → ``tp_size``), a derived value (ROLL's ``tp_size``
  from ``num_gpus_per_worker``), a fixed value (SkyRL's ``attention_backend='fa3'``); a value the
  framework sets itself is located at the setting that picks SGLang and names its source;
* what the framework refuses (an option it does not have, a keyword given twice, a required key
  missing) and what it accepts but never passes (LLaMA-Factory's ``sglang_config``) are recorded on
  the launch (:class:`~linter.launch.FrameworkFacts`) for SGL301 and ``--explain``.
"""

from __future__ import annotations

import fnmatch
import functools
import re

from linter import datafiles, records
from linter.launch import UNKNOWN, FrameworkFacts, GpuCount, KwArg, MStr, Token
from linter.records import dataclass, field
from linter.sglang.entrypoints import python_program
from linter.source import Span, written

Settings = dict
"""A framework's settings: dotted name -> :class:`~linter.launch.KwArg` (the KwArg's ``name`` is the
dotted name too). A key whose value is a mapping maps to :data:`MAPPING`."""

_MISSING = object()


class _Mapping:
    def __repr__(self) -> str:
        return "MAPPING"


MAPPING = _Mapping()
"""The value of a setting that is a mapping (its children are settings of their own)."""


@dataclass(frozen=True)
class FieldRule:
    """A ``ServerArgs`` field the framework sets (a ``fields`` row of ``frameworks.json``)."""

    field: str
    sources: tuple[str, ...] = ()
    default: object = _MISSING
    mode: str = "set"
    convert: object = None
    when: str = ""
    option: str = ""
    times: str = ""
    above: int | None = None
    refuses_section: bool = False
    if_field: bool = False
    source_passed: bool = False
    cite: str = ""


@dataclass(frozen=True)
class Framework:
    """One row of ``frameworks.json`` ``frameworks`` (see its ``about``)."""

    name: str
    program: str
    repository: str
    commit: str
    source: str
    selector: tuple[str, str] | None = None
    scope: str = "root"
    marker: str = ""
    section: str = ""
    section_only: frozenset[str] | None = None
    section_only_cite: str = ""
    section_fields: frozenset[str] | None = None
    section_fields_cite: str = ""
    section_dropped: dict = field(default_factory=dict)
    section_ignored: dict = field(default_factory=dict)
    section_defaults: dict = field(default_factory=dict)
    section_defaults_cite: str = ""
    drop_values: bool = False
    fields: tuple[FieldRule, ...] = ()
    closed_prefix: str = ""
    closed_why: str = ""
    fields_accepted: frozenset[str] = frozenset()
    ignored: dict = field(default_factory=dict)
    required: tuple[dict, ...] = ()
    requires_truthy: dict | None = None
    not_when: tuple[dict, ...] = ()
    checks: tuple[dict, ...] = ()
    refuses_section_why: str = ""
    gpus: dict | None = None
    image: dict | None = None
    releases: dict | None = None
    installs: dict | None = None
    server_args: str = ""
    output: str = "kwargs"
    judge: str = ""
    inherits: str = ""
    cli: dict = field(default_factory=dict)
    python: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()

    @property
    def short_source(self) -> str:
        """``owner/repo path @commit`` (the source, without its parenthesised detail)."""
        return self.source.split(" (")[0]


def _rule(row: dict) -> FieldRule:
    return FieldRule(row["field"], tuple(row.get("from", ())), row.get("default", _MISSING), row.get("mode", "set"),
                     row.get("convert"), row.get("when", ""), row.get("option", ""), row.get("times", ""),
                     row.get("above"), bool(row.get("refuses_section")), bool(row.get("if_field")),
                     bool(row.get("source_passed")), row.get("cite", ""))


@functools.cache
def frameworks() -> dict[str, Framework]:
    """Every framework of ``frameworks.json``, by name."""
    raw = datafiles.load_json("linter.sglang.data", "frameworks.json")["frameworks"]
    out = {}
    for name, d in raw.items():
        sel = d.get("selector")
        out[name] = Framework(
            name=name, program=d["program"], repository=d["repository"], commit=d["commit"], source=d["source"],
            selector=(sel["key"], sel["equals"]) if sel else None, scope=d.get("scope", "root"),
            marker=d.get("marker", ""), section=d.get("section", ""),
            section_only=frozenset(d["section_only"]) if "section_only" in d else None,
            section_only_cite=d.get("section_only_cite", ""),
            section_fields=frozenset(d["section_fields"]) if "section_fields" in d else None,
            section_fields_cite=d.get("section_fields_cite", ""),
            section_dropped=dict(d.get("section_dropped", {})), section_ignored=dict(d.get("section_ignored", {})),
            section_defaults=dict(d.get("section_defaults", {})), section_defaults_cite=d.get("section_defaults_cite", ""),
            drop_values=bool(d.get("drop_values")), fields=tuple(_rule(r) for r in d.get("fields", ())),
            closed_prefix=d.get("closed_prefix", ""), closed_why=d.get("closed_why", ""),
            fields_accepted=frozenset(d.get("fields_accepted", ())), ignored=dict(d.get("ignored", {})),
            required=tuple(d.get("required", ())), requires_truthy=d.get("requires_truthy"),
            not_when=tuple(d.get("not_when", ())), checks=tuple(d.get("checks", ())),
            refuses_section_why=d.get("refuses_section_why", ""), gpus=d.get("gpus"), image=d.get("image"),
            releases=d.get("releases"), installs=d.get("installs"), server_args=d.get("server_args", ""), output=d.get("output", "kwargs"),
            judge=d.get("judge", ""),
            inherits=d.get("inherits", ""), cli=dict(d.get("cli", {})), python=tuple(d.get("python", ())),
            renamed=tuple(d.get("renamed", {}).items()))
    return out


@functools.cache
def llmaz() -> dict:
    """The ``llmaz`` row of ``frameworks.json`` (BackendRuntime facts and llmaz's built-in runtimes)."""
    return datafiles.load_json("linter.sglang.data", "frameworks.json")["llmaz"]


def by_program(program: str) -> Framework | None:
    """The framework whose launches carry ``program`` (None for SGLang's own entry points)."""
    return next((f for f in frameworks().values() if f.program == program), None)


def by_python_name(qualified: str) -> Framework | None:
    """The framework whose Python API ``qualified`` (``nemo_skills.pipeline.cli.eval``) starts SGLang."""
    return next((f for f in frameworks().values() if qualified in f.python), None)


# -- values ---------------------------------------------------------------------------------------


def yaml_like(text: str) -> object:
    """A value written as text on a command line (a Hydra override, an HfArgumentParser option, a
    ``k=v`` pair) as the framework reads it: booleans, null, integers, floats, else the string
    (quotes taken off)."""
    from linter.sglang.dialects import _hydra_value

    return _hydra_value(text)


def setting(key: str, tok: Token | None, value_text: MStr | None, where: Span | None) -> KwArg:
    """The setting ``key`` written as ``value_text`` (part of a command-line word; None: a flag with no
    value, which is true). ``tok`` is the option's word (for the name's span)."""
    if value_text is None:
        value, text = True, None
    else:
        value = yaml_like(value_text.text) if value_text.known and UNKNOWN_WORD not in value_text.text else UNKNOWN
        text = value_text if isinstance(value, str) and value_text.text == value else None
    name_span = tok.location() if tok is not None else None
    return KwArg(key, value, where or name_span, name_span=name_span, value_text=text,
                 value_span=value_text.span_of() if value_text is not None else None)


UNKNOWN_WORD = "\ue000"


def truthy(kw: KwArg | None) -> bool | None:
    """Whether a setting is true as Python sees it (None: not known)."""
    if kw is None:
        return False
    if kw.value is UNKNOWN or kw.value is MAPPING:
        return None
    return bool(kw.value)


def _as_int(kw: KwArg | None) -> int | None:
    if kw is None or kw.value is UNKNOWN or isinstance(kw.value, bool):
        return None
    if isinstance(kw.value, int):
        return kw.value
    if isinstance(kw.value, str) and re.fullmatch(r"-?\d+", kw.value.strip()):
        return int(kw.value)
    return None


# -- selection ------------------------------------------------------------------------------------


@dataclass
class Instance:
    """One place a framework is told to start SGLang: the settings it reads (``local``: names relative
    to the mapping that holds the selector, ``root``: the whole config), the setting that picks SGLang
    (``anchor``) and, for NeMo-Skills' judge, the prefix its settings carry."""

    framework: Framework
    local: Settings
    root: Settings
    anchor: KwArg
    prefix: str = ""
    path: str = ""


@dataclass
class PassedOver:
    """A place that names a framework's SGLang backend but starts no SGLang server (another backend, a
    backend chosen at run time, a server that is only used, not started), with why."""

    span: Span | None
    message: str


def scopes(fw: Framework, settings: Settings) -> list[str]:
    """The mapping paths (``""`` for the root) whose settings hold ``fw``'s selector (or, for AReaL, its
    section)."""
    if fw.selector is None:
        return [""] if fw.section in settings else []
    key = fw.selector[0]
    if fw.scope != "anywhere":
        return [""] if key in settings else []
    out = []
    for k in settings:
        if k == key:
            out.append("")
        elif k.endswith("." + key):
            out.append(k[:-len(key) - 1])
    return out


def local_settings(settings: Settings, path: str) -> Settings:
    """The settings under the mapping ``path``, named relative to it."""
    if not path:
        return settings
    cut = len(path) + 1
    return {k[cut:]: v for k, v in settings.items() if k.startswith(path + ".")}


def select(fw: Framework, settings: Settings, prefix: str = "") -> tuple[list[Instance], list[PassedOver]]:
    """Where ``fw`` starts SGLang in ``settings`` (the instances) and where it names SGLang, or a backend
    setting, but starts none (passed over, with why). ``prefix`` reads prefixed settings (NeMo-Skills'
    ``judge_server_type``) as the plain ones."""
    if prefix:
        settings = {k[len(prefix):]: v for k, v in settings.items() if k.startswith(prefix)}
    settings = respelled(fw, settings)
    found: list[Instance] = []
    passed: list[PassedOver] = []
    for path in scopes(fw, settings):
        local = local_settings(settings, path)
        if fw.marker and fw.marker not in local:
            continue
        if fw.selector is None:
            anchor = local[fw.section]
        else:
            anchor = local[fw.selector[0]]
            value = anchor.value
            if value is UNKNOWN:
                passed.append(PassedOver(anchor.value_span or anchor.where, _run_time(fw, anchor, prefix)))
                continue
            if not isinstance(value, str) or value.strip().lower() != fw.selector[1]:
                continue
        why = _not_started(fw, local, prefix)
        if why is not None:
            passed.append(PassedOver(anchor.where, why))
            continue
        found.append(Instance(fw, local, settings, anchor, prefix, path))
    return found, passed


def respelled(fw: Framework, settings: Settings) -> Settings:
    """``settings`` with each setting ``fw`` has renamed (``renamed`` in ``frameworks.json``: SkyRL's
    ``generator.inference_engine.backend`` for ``generator.backend``) under the name the row uses, the
    settings under it too; a newer spelling wins over the older one. Each keeps where it is written."""
    if not fw.renamed or not any(k.startswith(new) for k in settings for new, _old in fw.renamed):
        return settings
    out = dict(settings)
    for key, kw in settings.items():
        for new, old in fw.renamed:
            if key == new or key.startswith(new + "."):
                name = old + key[len(new):]
                out[name] = records.replace(kw, name=name)
                break
    return out


def _run_time(fw: Framework, anchor: KwArg, prefix: str) -> str:
    shown = written(anchor.where) or f"{prefix}{fw.selector[0]}"
    return (f"not an SGLang launch: {fw.program.split(' (')[0]}'s {prefix}{fw.selector[0]} is chosen at run time "
            f"({shown}), so which engine it starts is not known; write the backend literally (or a variable with a "
            "default in the file) to have it checked")


def _not_started(fw: Framework, local: Settings, prefix: str) -> str | None:
    for cond in fw.not_when:
        kw = local.get(cond["key"])
        if kw is not None and kw.value == cond["equals"]:
            return f"not an SGLang launch: {cond['why']}"
    req = fw.requires_truthy
    if req is not None and truthy(local.get(req["key"])) is False:
        return f"not an SGLang launch: {req['why'].replace('--', '--' + prefix, 1) if prefix else req['why']}"
    return None


# -- conversion -----------------------------------------------------------------------------------


@dataclass
class Converted:
    """The SGLang launch one framework instance makes: ``kwargs`` (``ServerArgs`` fields) or, for a
    framework that builds a command line, ``tokens`` (SGLang's argv after the entry point); the GPUs
    of one engine; the container image; and the framework's own verdicts (``facts``)."""

    kwargs: list[KwArg]
    tokens: list[Token] | None
    gpu_counts: list[GpuCount]
    image: MStr | None
    facts: FrameworkFacts


def _converted_value(rule: FieldRule, value: object) -> object:
    conv = rule.convert
    if conv is None or value is UNKNOWN:
        return value
    if conv == "not":
        return not value if isinstance(value, bool) else UNKNOWN
    if isinstance(conv, dict):
        table = conv.get("map", {})
        got = table.get(str(value) if not isinstance(value, bool) else str(value).lower(), _MISSING)
        if got is _MISSING:
            got = conv.get("else", value) if "else" in conv else value
        return UNKNOWN if got == "$unknown" else got
    return value


def _default_note(fw: Framework, rule_field: str, value: object, cite: str) -> str:
    return f"{fw.program.split(' (')[0]} sets {rule_field}={value!r} itself ({fw.repository} {cite} @{fw.commit[:8]})"


@dataclass
class _Conversion:
    """The state of one :func:`convert`: the instance, AReaL's allocation, the ``ServerArgs`` fields
    gathered so far (``kwargs``, in the order SGLang receives them), which of them the section wrote
    (``from_section``), the framework's verdicts (``facts``) and where the framework is picked (``at``)."""

    inst: Instance
    alloc: dict | None
    at: Span | None
    facts: FrameworkFacts
    kwargs: dict[str, KwArg] = field(default_factory=dict)
    from_section: set[str] = field(default_factory=set)

    @property
    def fw(self) -> Framework:
        return self.inst.framework

    @property
    def who(self) -> str:
        """The framework's program without its parenthesised detail (``ROLL``), for messages."""
        return self.fw.program.split(" (")[0]

    def get(self, key: str) -> KwArg | None:
        """The setting a row names: ``/key`` from the config's root, ``$alloc.tp`` from AReaL's
        allocation (when there is one), else ``key`` relative to the instance."""
        if key.startswith("/"):
            return self.inst.root.get(key[1:])
        if key.startswith("$alloc.") and self.alloc is not None:
            return self.alloc.get(key[len("$alloc."):])
        return self.inst.local.get(key)


def convert(inst: Instance, alloc: dict | None = None) -> Converted:
    """The SGLang launch ``inst`` makes. ``alloc`` gives AReaL's allocation (``tp``, ``pp``, ``gpus`` and
    the setting they come from) for the ``$alloc.*`` sources.

    The row is applied in stages, in this order (a later stage sees what the earlier ones set): the
    section's settings and its defaults, the field rules, then the framework's refusals (closed
    option prefixes, required keys, limits) and what it ignores; last the release facts."""
    fw, anchor = inst.framework, inst.anchor
    at = anchor.name_span or anchor.where
    conv = _Conversion(inst, alloc, at, FrameworkFacts(fw.name, fw.program, f"{fw.repository}@{fw.commit[:8]}", anchor=at))
    if fw.section:
        _section_settings(conv)
        _section_defaults(conv)
    for rule in fw.fields:
        _apply_field(conv, rule)
    _closed_options(conv)
    _ignored_settings(conv)
    _missing_required(conv)
    _over_limits(conv)
    _release_facts(conv)
    kwargs = conv.kwargs
    tokens = _tokens(inst, kwargs, at) if fw.output == "options" else _argv(kwargs) if fw.output == "argv" else None
    return Converted(list(kwargs.values()), tokens, _gpus(inst, conv.get, at), _image(inst, conv.get, at), conv.facts)


def _section_settings(conv: _Conversion) -> None:
    """The section's own settings (``sglang_cfg.tp_size``) as ``ServerArgs`` fields of the same name,
    unless the row drops, ignores (``section_ignored``, outside ``section_only``) or refuses (outside
    ``section_fields``) them; a setting a field rule reads is passed under that field's name instead."""
    fw, local, facts = conv.fw, conv.inst.local, conv.facts
    read = {k for r in fw.fields if not r.source_passed for k in r.sources}
    prefix = fw.section + "."
    for key, kw in local.items():
        if not key.startswith(prefix) or "." in key[len(prefix):] or key in read:
            continue  # (a setting a field rule reads is passed under that field's name)
        name = key[len(prefix):]
        at = kw.name_span or kw.where
        if name in fw.section_dropped:
            continue
        if name in fw.section_ignored:
            facts.ignored.append((at, f"{key}: {fw.section_ignored[name]}", None))
        elif fw.section_only is not None and name not in fw.section_only:
            facts.ignored.append((at, f"{key} is not passed to SGLang: {fw.section_only_cite}",
                                  _rename(kw, name, fw.section_only)))
        elif fw.section_fields is not None and name not in fw.section_fields:
            facts.refused.append((at, f"{conv.who} has no {key}: {fw.section_fields_cite}",
                                  _rename(kw, name, fw.section_fields)))
        elif kw.value is not MAPPING and not (fw.drop_values and _dropped(kw.value)):
            conv.kwargs[name] = _renamed(kw, name)
            conv.from_section.add(name)


def _section_defaults(conv: _Conversion) -> None:
    """The fields the framework sets when its section does not (``section_defaults``), located at the
    setting that picks SGLang and citing where the framework does it."""
    fw = conv.fw
    for name, value in fw.section_defaults.items():
        if name in conv.kwargs or f"{fw.section}.{name}" in conv.inst.local:
            continue
        if fw.drop_values and _dropped(value):
            continue
        conv.kwargs[name] = KwArg(name, value, conv.at, name_span=conv.at,
                                  default_of=f"{conv.who} sets {name}={value!r} when its "
                                             f"{fw.section}: section does not ({fw.repository} "
                                             f"{fw.section_defaults_cite.split(' (')[0]} @{fw.commit[:8]})")


def _field_value(conv: _Conversion, rule: FieldRule) -> KwArg | None:
    """The field ``rule`` sets, as a setting: from its first source that is written (converted, and
    multiplied by ``times``), else its default (a value the framework sets itself); None when the rule
    does not apply (its ``when`` is false, an ``if_field`` rule with no source, no default, or a value
    not ``above`` its bound)."""
    if rule.when and truthy(conv.get(rule.when)) is False:
        return None
    src = next((conv.get(k) for k in rule.sources if conv.get(k) is not None and conv.get(k).value is not MAPPING),
               None)
    if src is not None:
        kw = _from_source(conv, rule, src)
    elif rule.default is not _MISSING and not rule.if_field:
        value = _converted_value(rule, rule.default)
        kw = KwArg(rule.field, value, conv.at, name_span=conv.at,
                   default_of=_default_note(conv.fw, rule.field, value, rule.cite))
    else:
        return None
    if rule.above is not None and not (isinstance(kw.value, int) and kw.value > rule.above):
        return None
    return kw


def _from_source(conv: _Conversion, rule: FieldRule, src: KwArg) -> KwArg:
    """The field ``rule`` sets from the setting ``src``: its value converted and multiplied by the
    ``times`` setting (unknown when that is written but not a number), keeping ``src``'s text and
    value span while the value is unchanged (so a fix edits the framework's own text)."""
    value = _converted_value(rule, src.value)
    times = _as_int(conv.get(rule.times)) if rule.times else 1
    if rule.times and conv.get(rule.times) is not None and times is None:
        value = UNKNOWN
    elif times not in (None, 1) and isinstance(value, int) and not isinstance(value, bool):
        value = value * times
    same = value is src.value or (value == src.value and type(value) is type(src.value))
    return KwArg(rule.field, value, src.where, name_span=src.name_span,
                 value_text=src.value_text if same and isinstance(value, str) else None,
                 value_span=src.value_span if same else None)


def _apply_field(conv: _Conversion, rule: FieldRule) -> None:
    """Sets the field of ``rule`` (a ``setdefault`` rule only when nothing set it yet); a value the
    section wrote that the rule replaces is recorded as refused (``refuses_section``) or ignored."""
    kw = _field_value(conv, rule)
    if kw is None or rule.mode == "setdefault" and rule.field in conv.kwargs:
        return
    if rule.field in conv.from_section and rule.mode == "set":
        fw, section_kw = conv.fw, conv.kwargs[rule.field]
        where = section_kw.name_span or section_kw.where
        if rule.refuses_section:
            why = f"{fw.section}.{rule.field} repeats a keyword {conv.who} passes itself: {fw.refuses_section_why}"
            conv.facts.refused.append((where, why, None))
        else:
            why = f"{fw.section}.{rule.field} is replaced: {conv.who} sets {rule.field} itself ({rule.cite})"
            conv.facts.ignored.append((where, why, None))
    conv.kwargs.pop(rule.field, None)
    conv.kwargs[rule.field] = kw


def _closed_options(conv: _Conversion) -> None:
    """Refuses a setting under the framework's ``closed_prefix`` that it does not have (with the rename
    to the one known option close to it)."""
    fw = conv.fw
    if not fw.closed_prefix:
        return
    known = {s for r in fw.fields for s in r.sources} | fw.fields_accepted | set(fw.ignored)
    offered = sorted(k for k in known if k.startswith(fw.closed_prefix))
    for key, kw in conv.inst.local.items():
        if key.startswith(fw.closed_prefix) and key not in known and "." not in key:
            why = f"{conv.who} has no {key}: {fw.closed_why}"
            conv.facts.refused.append((kw.name_span or kw.where, why, _rename(kw, key, offered)))


def _ignored_settings(conv: _Conversion) -> None:
    """Records the settings the framework accepts but never passes to SGLang (``ignored``)."""
    for key, why in conv.fw.ignored.items():
        kw = conv.inst.local.get(key)
        if kw is not None:
            conv.facts.ignored.append((kw.name_span or kw.where, why, None))


def _missing_required(conv: _Conversion) -> None:
    """Refuses a config that lacks a key the framework requires (``required``)."""
    fw = conv.fw
    for req in fw.required:
        # (a config without the framework's section at all is taken for an excerpt, as documentation
        # shows one: only a section that is written and lacks the key is refused)
        if conv.get(req["key"]) is None and (not fw.section or fw.section in conv.inst.local):
            conv.facts.refused.append((conv.at, f"{req['key']} is missing: {req['why']}", None))


def _over_limits(conv: _Conversion) -> None:
    """Refuses a field above the bound the framework checks (``checks``), unless the check's
    ``unless`` setting has its value."""
    for check in conv.fw.checks:
        kw = conv.kwargs.get(check["field"])
        n = _as_int(kw)
        unless = check.get("unless")
        if n is None or n <= check["above"]:
            continue
        if unless and (u := conv.get(unless["key"])) is not None and u.value == unless["equals"]:
            continue
        conv.facts.refused.append((kw.value_span or kw.name_span or kw.where, check["message"], None))


def _release_facts(conv: _Conversion) -> None:
    """The releases the framework supports and installs, and the fields it set itself (``sets``,
    ``defaults``) for ``--explain``."""
    fw, facts = conv.fw, conv.facts
    if fw.releases is not None:
        facts.releases = dict(fw.releases)
    if fw.installs is not None:
        facts.installs = f"sglang{'' if fw.installs['version'][0] in '<>=' else '=='}{fw.installs['version']} ({fw.installs['cite']})"
    facts.sets = [f"{k.name}={k.value!r}" for k in conv.kwargs.values() if k.default_of]
    facts.defaults = {k.name: k.default_of for k in conv.kwargs.values() if k.default_of}


def _rename(kw: KwArg, written: str, names) -> tuple[Span, str] | None:
    """The edit that renames the setting ``written`` (as written at ``kw``'s name) to the one name of
    ``names`` close to it (difflib, ratio 0.75 or more), or None: a misspelled option of the
    framework's own."""
    import difflib

    got = difflib.get_close_matches(written, sorted(names or ()), n=2, cutoff=0.75)
    span = kw.name_span
    if len(got) != 1 or span is None:
        return None
    text = span.source.text[span.start:span.end]
    at = text.rfind(written)
    if at < 0:
        return None
    return Span(span.source, span.start + at, span.start + at + len(written)), got[0]


def _dropped(value: object) -> bool:
    """A value AReaL's ``get_py_cmd`` leaves out of the command (None, False, "" and [];
    areal/api/cli_args.py:1610)."""
    return value is None or value is False or (isinstance(value, (str, list)) and len(value) == 0)


def _renamed(kw: KwArg, name: str) -> KwArg:
    return KwArg(name, kw.value, kw.where, name_span=kw.name_span, value_text=kw.value_text,
                 value_span=kw.value_span, default_of=kw.default_of)


def _gpus(inst: Instance, get, at: Span | None) -> list[GpuCount]:
    spec = inst.framework.gpus
    if not spec:
        return []
    for key in spec.get("from", ()):
        kw = get(key)
        if kw is not None:
            return [GpuCount("gpu", _as_int(kw), kw.value_span or kw.where)]
    if "default" in spec:
        return [GpuCount("gpu", int(spec["default"]), at)]
    return []


def _image(inst: Instance, get, at: Span | None) -> MStr | None:
    spec = inst.framework.image
    if not spec:
        return None
    for key in spec.get("from", ()):
        kw = get(key)
        if kw is not None:
            return kw.value_text if kw.value_text is not None else MStr.unknown(kw.where)
    return MStr.plain(spec["default"], at)


def _value_token(kw: KwArg, value: object) -> Token:
    """A command-line word for a setting's value: its own text when it was written as that string,
    else the value as Python's ``str`` writes it, located where the setting is."""
    if kw.value_text is not None and kw.value_text.text == value:
        return Token(kw.value_text)
    if value is UNKNOWN:
        return Token(MStr.unknown(kw.value_span or kw.where))
    return Token(MStr.plain(str(value), kw.value_span or kw.where))


def _argv(kwargs: dict[str, KwArg]) -> list[Token]:
    """AReaL's ``get_py_cmd`` (areal/api/cli_args.py:1606-1621): ``--name-with-dashes`` per setting,
    a bare flag for True, a list's items after its flag; None, False, "" and [] are left out."""
    out: list[Token] = []
    for kw in kwargs.values():
        v = kw.value
        if v is not UNKNOWN and _dropped(v):
            continue
        out.append(Token(MStr.plain("--" + kw.name.replace("_", "-"), kw.name_span or kw.where)))
        if v is True:
            continue
        if isinstance(v, list):
            out.extend(Token(MStr.plain(str(i), kw.value_span or kw.where)) for i in v)
            continue
        out.append(_value_token(kw, v))
    return out


def _tokens(inst: Instance, kwargs: dict[str, KwArg], at: Span | None) -> list[Token]:
    """SGLang's argv for a framework that builds a command line (NeMo-Skills): its own options, then
    the user's ``server_args`` words, which SGLang reads last (so they win)."""
    from linter.extract.words import SplitError, split_words

    fw = inst.framework
    out: list[Token] = []
    for rule in fw.fields:
        kw = kwargs.get(rule.field)
        if kw is None or not rule.option:
            continue
        flag_at = kw.name_span or kw.where or at
        out.append(Token(MStr.plain(rule.option, flag_at)))
        if kw.value is True and rule.default is True and not rule.sources:
            continue  # a flag
        out.append(_value_token(kw, kw.value))
    args = inst.local.get(fw.server_args)
    if args is not None and args.value is not None:
        text = args.value_text
        if text is None:
            out.append(Token(MStr.unknown(args.where), splat=True))
        else:
            try:
                out.extend(split_words(text))
            except SplitError:
                out.append(Token(MStr.unknown(args.where), splat=True))
    return out


# -- AReaL's allocation mode ----------------------------------------------------------------------

_ALLOC_GEN = re.compile(r"(?:^|[+|(\s])sglang(?:\[[A-Za-z_]\w*\])?[:.]((?:[dtp]\d+)+)")


def areal_engine(settings: Settings) -> tuple[str | None, KwArg | None]:
    """The inference engine AReaL's allocation names (``rollout.backend: "sglang:d4t8"``, a top-level
    ``allocation_mode: sglang:d1+d1``) and the setting that names it; (None, None) when the config does
    not say, ("?", setting) when it is not known statically (areal/api/alloc_mode.py:600-640)."""
    for key in ("rollout.backend", "allocation_mode"):
        kw = settings.get(key)
        if kw is None:
            continue
        if not isinstance(kw.value, str) or "${" in kw.value:
            return "?", kw
        m = re.match(r"\s*\(?\s*([A-Za-z_]+)", kw.value)
        if m and m.group(1).lower() in ("sglang", "vllm") and ":" in kw.value or "." in kw.value[:8]:
            return m.group(1).lower() if m else None, kw
    return None, None


def areal_allocation(settings: Settings) -> dict:
    """``{"tp": KwArg, "pp": KwArg, "gpus": KwArg}`` read from the SGLang part of AReaL's allocation
    (``sglang:d4p1t8``: tp 8, pp 1, 8 GPUs an engine), located at the allocation string; {} when there
    is none."""
    for key in ("rollout.backend", "allocation_mode"):
        kw = settings.get(key)
        if kw is None or not isinstance(kw.value, str):
            continue
        m = _ALLOC_GEN.search(kw.value)
        if not m:
            continue
        dims = dict.fromkeys("dtp", 1)
        for letter, n in re.findall(r"([dtp])(\d+)", m.group(1)):
            dims[letter] = int(n)
        span = kw.value_span or kw.where
        if kw.value_span is not None:
            span = Span(kw.value_span.source, kw.value_span.start + m.start(1), kw.value_span.start + m.end(1))
        return {name: KwArg(field_, v, span, name_span=span, value_span=span)
                for name, field_, v in (("tp", "tp_size", dims["t"]), ("pp", "pp_size", dims["p"]),
                                        ("gpus", "gpus", dims["t"] * dims["p"]))}
    return {}


# -- command lines --------------------------------------------------------------------------------

_PYTHON = re.compile(r"^(?:.*/)?python(?:3(?:\.\d+)?)?$")

CONFIG_COMMAND = "python SCRIPT.py --config (framework config)"
"""The program of a command ``python SCRIPT.py --config FILE.yaml [overrides]`` that may start SGLang
through the framework whose config the file is (AReaL, NeMo-RL): decided once the file is read."""


COMMAND_TEXT = re.compile(r"(?:^|[\s;|&(])(?:swift|ns|llamafactory-cli|lmf|lm_eval|lm-eval)[ \t]+\w"
                          r"|--config[= \t]+\S+\.ya?ml\b")
"""Text of a framework command line (a framework CLI, or a script given a YAML ``--config``): a piece
of a document (a Markdown fence) that holds one may start SGLang without naming it."""


@functools.cache
def python_api_text() -> re.Pattern:
    """Text of a call to a framework's Python API that starts SGLang (``frameworks.json`` ``python``):
    the module it is imported from (``nemo_skills.pipeline.cli``) or, for a class's method, the call
    (``SGLangConfig.build_cmd(``) — a piece of a document (a Markdown Python block) that holds it may
    start SGLang without naming an SGLang entry point."""
    alts = set()
    for fw in frameworks().values():
        for q in fw.python:
            owner, name = q.rsplit(".", 1)
            last = owner.rsplit(".", 1)[-1]
            alts.add(re.escape(f"{last}.{name}") + r"\(" if last[:1].isupper() else r"\b" + re.escape(owner) + r"\b")
    return re.compile("|".join(sorted(alts)) or r"(?!)")


def programs() -> frozenset[str]:
    """The command names of the frameworks' CLIs (``swift``, ``ns``, ``llamafactory-cli`` …)."""
    return frozenset(p for f in frameworks().values() for p in f.cli.get("programs", ()))


def match_cli(words: list[Token]) -> tuple[str, int] | None:
    """``(program, index of the first argument the framework reads)`` when ``words`` start a
    framework's command line that may start SGLang: a framework CLI (``swift infer``, ``ns eval``,
    ``llamafactory-cli api``, ``lm_eval``), ``python -m MODULE`` of a framework entry point, or
    ``python SCRIPT.py --config FILE`` (:data:`CONFIG_COMMAND`). Which backend it starts is decided
    from the arguments (and the config file) by the caller."""
    if not words or words[0].value is None:
        return None
    head = words[0].value.rsplit("/", 1)[-1]
    for fw in frameworks().values():
        if head in fw.cli.get("programs", ()):
            return fw.program, 1
    if words[0].raw.rstrip("\"'").endswith(".py"):
        i = 0  # a script run as a program (``uv run train.py``, ``./train.py``)
    elif not _PYTHON.match(words[0].value):
        return None
    else:
        module, i = python_program(words)
        if module is not None:
            for fw in frameworks().values():
                if any(fnmatch.fnmatchcase(module, m) for m in fw.cli.get("modules", ())):
                    return fw.program, i
            return None
    if i < len(words) and words[i].raw.rstrip("\"'").endswith(".py"):
        rest = words[i + 1:]
        if any(w.value == "--config" or (w.value or "").startswith("--config=") for w in rest):
            return CONFIG_COMMAND, i + 1
    return None


def parse_cli(fw: Framework | None, words: list[Token], value_keys: frozenset[str] = frozenset()) -> tuple[
        list[str], Settings, list[Token]]:
    """A framework command line read as settings: ``(positional words, settings, unread words)``.

    ``--key value`` / ``--key=value`` (HfArgumentParser, typer, argparse; a key in ``value_keys``
    takes the next word whatever it is, another takes it unless it looks like an option) and
    ``[+|++]key=value`` Hydra/OmegaConf overrides (``~key`` deletes). lm-eval's ``--model_args`` /
    ``-a`` is read as its ``k=v,k=v`` string (or ``k=v`` words) into ``model_args.k`` settings."""
    positional: list[str] = []
    out: Settings = {}
    unread: list[Token] = []
    syntax = fw.cli.get("syntax", "hf") if fw is not None else "hydra"
    i, n = 0, len(words)
    while i < n:
        tok = words[i]
        raw = tok.raw
        if tok.splat or tok.value is None and not raw.startswith("-") and "=" not in raw:
            unread.append(tok)
            i += 1
        elif _option_like(raw):
            i = _read_option(words, i, syntax, value_keys, out)
        elif not _read_override(tok, syntax, out):
            positional.append(raw)
            i += 1
        else:
            i += 1
    return positional, out, unread


def _option_like(raw: str) -> bool:
    """Whether a word is an option (``-x``, ``--key``, ``--key=v``), not ``-`` or a negative number."""
    return raw.startswith("-") and len(raw) > 1 and not re.fullmatch(r"-\d+(\.\d+)?", raw)


def _read_option(words: list[Token], i: int, syntax: str, value_keys: frozenset[str], out: Settings) -> int:
    """Reads the option at ``words[i]`` (with its value: after ``=``, or the next word when it is a
    value) into ``out``; returns the index of the next word to read. lm-eval's model arguments go
    through :func:`_read_model_args`."""
    tok, n = words[i], len(words)
    name, eq, _ = tok.raw.partition("=")
    key = name.lstrip("-")
    if syntax == "lm_eval" and name in ("-M", "--model", "-a", "--model_args"):
        key = "model" if name in ("-M", "--model") else "model_args"
    if eq:
        value, i = tok.text[len(name) + 1:], i + 1
    elif i + 1 < n and (key in value_keys or _value_like(words[i + 1])):
        if syntax == "lm_eval" and key == "model_args":
            return _read_model_args(words, i, out)
        value, i = words[i + 1].text, i + 2
    else:
        value, i = None, i + 1
    if syntax == "lm_eval" and key == "model_args" and value is not None:
        out.update(model_args(value, tok))
        out["model_args"] = KwArg("model_args", MAPPING, tok.location())
        return i
    where = tok.location() if value is None else _hull(tok.location(), value.location())
    out.pop(key, None)
    out[key] = setting(key, tok, value, where)
    return i


def _read_model_args(words: list[Token], i: int, out: Settings) -> int:
    """lm-eval's ``--model_args`` at ``words[i]`` followed by its value word and any further ``k=v``
    words, into ``model_args.k`` settings of ``out``; returns the index after them."""
    tok, n = words[i], len(words)
    parts = [words[i + 1].text]
    i += 2
    while i < n and _value_like(words[i]) and "=" in words[i].raw:
        parts.append(words[i].text)
        i += 1
    for part in parts:
        out.update(model_args(part, words[i - 1]))
    out["model_args"] = KwArg("model_args", MAPPING, tok.location())
    return i


def _read_override(tok: Token, syntax: str, out: Settings) -> bool:
    """Reads a Hydra/OmegaConf override word (``[+|++]key=value`` sets, ``~key`` deletes) into ``out``;
    False when the word is not one (a positional word)."""
    from linter.sglang.dialects import _override

    raw = tok.raw
    got = _override(tok) if "=" in raw else None
    if got is not None and syntax in ("hydra", "typer", "hf"):
        key, at = got
        start = raw.find(key)
        out.pop(key, None)
        kw = setting(key, None, tok.text[at:], tok.location())
        out[key] = KwArg(key, kw.value, tok.location(), name_span=tok.location(start, start + len(key)),
                         value_text=kw.value_text, value_span=kw.value_span)
        return True
    if raw.startswith("~") and len(raw) > 1:
        out.pop(raw[1:].split("=", 1)[0], None)
        return True
    return False


def _value_like(tok: Token) -> bool:
    if tok.splat:
        return False
    return not _option_like(tok.raw) and not tok.raw.startswith("+")


def _hull(a: Span | None, b: Span | None) -> Span | None:
    if a is None or b is None or a.source is not b.source:
        return a or b
    return Span(a.source, min(a.start, b.start), max(a.end, b.end))


def model_args(text: MStr, tok: Token) -> Settings:
    """lm-eval's ``--model_args`` string as ``model_args.KEY`` settings: ``k=v,k=v`` (lm_eval/utils.py:
    220-236, values read by handle_arg_string, lines 156-190) or a JSON object (lm_eval/_cli/utils.py:
    12-25, read as unknown values)."""
    out: Settings = {}
    s = text.text
    if s.lstrip().startswith("{"):
        out["model_args.$json"] = KwArg("model_args.$json", UNKNOWN, text.location() or tok.location())
        return out
    pos = 0
    for part in s.split(","):
        start = pos
        pos += len(part) + 1
        if not part:
            continue
        key, eq, _ = part.partition("=")
        k = key.strip()
        if not k:
            continue
        piece = text[start:start + len(part)]
        value = piece[len(key) + 1:] if eq else None
        kw = setting(f"model_args.{k}", None, value, piece.location())
        ks = start + len(key) - len(key.lstrip())
        name_span = text.span_of(ks, ks + len(k)) or piece.location()
        out[f"model_args.{k}"] = KwArg(f"model_args.{k}", kw.value, piece.location(), name_span=name_span,
                                       value_text=kw.value_text, value_span=kw.value_span)
    return out
