"""argparse's ``type=`` conversion of an option's value, applied statically, per release.

argparse converts every value with the option's ``type`` before it checks ``choices``
(CPython 3.10–3.12 ``argparse.ArgumentParser._get_values``/``_get_value``): a ``TypeError`` or
``ValueError`` becomes ``invalid <type name> value: '<value>'`` (``invalid int value: '1.5'``;
``json.loads`` is named ``loads``), an ``argparse.ArgumentTypeError`` becomes its own text, and the
parser stops with ``argument --X: <that>``. The option tables record each option's ``type``
(``int``, ``float``, ``json`` for ``json.loads``, ``bool``, ``str``, or the name of one of SGLang's
own type functions); for SGLang's functions the table's ``types`` section records what the
function accepts (``accepts``), read by ``scripts/generate_sglang_options.py`` from that release's
code and checked there against the real function on a fixed set of probes, with its ``file:line``.
A function the generator does not recognise is ``"unknown"``: its values are not judged.

Kinds of ``accepts`` (each names the function it describes, e.g. 0.5.23
``sglang/srt/utils/common.py:3394`` ``human_readable_int``):

* ``{"kind": "any"}`` — never raises (``nullable_str``);
* ``{"kind": "human_readable_int"}`` — an integer, or a number with an SI (``k M G T``, decimals
  allowed) or IEC (``Ki Mi Gi Ti``) suffix;
* ``{"kind": "json", "loader": "json"|"orjson", "error": TEXT}`` — a JSON document (``orjson`` is
  stricter: no ``NaN``/``Infinity``/``1e400``, no lone surrogates, nesting at most 1024 deep);
  ``error`` is the ArgumentTypeError text with ``{value}``;
* ``{"kind": "not-in", "values": [...], "error": TEXT}`` — any string but those;
* ``{"kind": "cuda-graph-config", "phases": [...], "keys": {phase: [...]}, "rejected_backends":
  [...], "backend_error": TEXT}`` — a JSON object of phase → object of allowed keys.

:func:`convert` returns None when the value is accepted, the error text (without ``argument --X:``)
when argparse rejects it, and :data:`UNJUDGED` when the type cannot be applied statically.
"""

from __future__ import annotations

import json
import math
import re

UNJUDGED = object()
"""The value is not judged: the type function is unknown to the linter."""

_BUILTIN_NAMES = {"int": "int", "float": "float", "json": "loads"}


def _builtin(name: str, text: str) -> str | None:
    try:
        if name == "int":
            int(text)
        elif name == "float":
            float(text)
        else:
            json.loads(text)
    except (TypeError, ValueError, RecursionError):
        # RecursionError: json.loads of deep nesting; SGLang then fails with a traceback too
        return f"invalid {_BUILTIN_NAMES[name]} value: {text!r}"
    return None


_HRI = re.compile(r"(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)")


def _human_readable_int(text: str) -> str | None:
    """0.5.10+ ``sglang/srt/utils/common.py`` ``human_readable_int`` (ArgumentTypeError texts verbatim)."""
    value = text.strip()
    m = _HRI.fullmatch(value)
    if m:
        number, suffix = m.groups()
        if len(suffix) == 2 and "." in number:
            from decimal import Decimal, InvalidOperation  # (rare: 3 ms at start-up otherwise)

            try:
                whole = int(Decimal(number))
            except (InvalidOperation, ValueError):  # pragma: no cover - \d digits always convert
                whole = number
            return (f"Decimals are not allowed with IEC suffixes like '{suffix}'. Use an integer IEC value such as "
                    f"'{whole}{suffix}', or an SI value such as '{number}{suffix[0]}'.")
        return None
    try:
        int(value)
    except ValueError:
        return (f"Invalid integer value: '{value}'. Use a plain integer, SI suffixes (1k, 1M), or IEC suffixes "
                "(1Ki, 1Mi). Suffixes are case-sensitive.")
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _strict_json(text: str) -> object:
    """What ``orjson.loads`` accepts (orjson 3.x): RFC 8259 JSON — ``json.loads`` without ``NaN``/
    ``Infinity`` or a number that overflows to infinity (``1e400``), without lone surrogate escapes,
    nesting at most 1024 deep.
    Raises ValueError when orjson would raise ``JSONDecodeError``."""
    def constant(name: str) -> object:
        raise ValueError(f"invalid constant {name}")

    def number(s: str) -> float:
        x = float(s)
        if math.isinf(x):
            raise ValueError("number out of range")
        return x

    value = json.loads(text, parse_constant=constant, parse_float=number)
    depth = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                raise ValueError("lone surrogate")
        elif isinstance(v, (list, dict)):
            depth = max(depth, d)
            if isinstance(v, dict):
                stack.extend((k, d) for k in v)
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    if depth > 1024:
        raise ValueError("too deep")
    return value


def _json(spec: dict, text: str) -> str | None:
    try:
        if spec.get("loader") == "orjson":
            _strict_json(text)
        else:
            json.loads(text)
    except (ValueError, RecursionError):
        return spec["error"].replace("{value}", text)
    return None


def _cuda_graph_config(spec: dict, text: str) -> str | None:
    """0.5.15.post1+ ``sglang/srt/model_executor/cuda_graph_config.py`` ``parse_cuda_graph_config_arg``."""
    try:
        parsed = json.loads(text)
    except ValueError as e:
        return f"--cuda-graph-config must be JSON: {e}"
    except RecursionError:
        return "--cuda-graph-config must be JSON"
    if not isinstance(parsed, dict):
        return f"--cuda-graph-config must be a JSON object, got {type(parsed).__name__}"
    phases = spec["phases"]
    for phase, settings in parsed.items():
        if phase not in phases:
            return f"--cuda-graph-config: unknown phase '{phase}', expected one of {tuple(phases)}"
        if not isinstance(settings, dict):
            return f"--cuda-graph-config['{phase}'] must be a JSON object, got {type(settings).__name__}"
        if "backend" in settings and settings["backend"] in spec.get("rejected_backends", ()):
            return spec["backend_error"]
        allowed = spec["keys"][phase]
        for key in settings:
            if key not in allowed:
                return f"--cuda-graph-config['{phase}']: unknown key '{key}', expected one of {tuple(allowed)}"
    return None


def convert(type_name: str | None, text: str, types: dict | None = None) -> object:
    """argparse's verdict on ``text`` for an option of type ``type_name`` in a release whose table's
    ``types`` section is ``types``: None (accepted), the error text, or :data:`UNJUDGED`."""
    if type_name is None or type_name in ("str", "bool"):
        return None  # str() and bool() accept every string
    if type_name in _BUILTIN_NAMES:
        return _builtin(type_name, text)
    info = (types or {}).get(type_name)
    accepts = info.get("accepts") if info else None
    if not isinstance(accepts, dict):
        return UNJUDGED
    kind = accepts.get("kind")
    if kind == "any":
        return None
    if kind == "human_readable_int":
        return _human_readable_int(text)
    if kind == "json":
        return _json(accepts, text)
    if kind == "not-in":
        return accepts["error"] if text in accepts["values"] else None
    if kind == "cuda-graph-config":
        return _cuda_graph_config(accepts, text)
    return UNJUDGED


def value_of(type_name: str | None, text: str, types: dict | None = None) -> object:
    """The Python value argparse stores for ``text`` (what ``choices`` is checked against): ``int``,
    ``float``, ``json.loads`` and ``bool`` applied, a ``not-in`` function's value unchanged; the text
    itself for ``str``; :data:`UNJUDGED` when the value cannot be computed (a failing conversion, or a
    type function whose result is not recorded)."""
    if type_name is None or type_name == "str":
        return text
    try:
        if type_name == "int":
            return int(text)
        if type_name == "float":
            return float(text)
        if type_name == "json":
            return json.loads(text)
    except (ValueError, RecursionError):
        return UNJUDGED
    if type_name == "bool":
        return bool(text)
    info = (types or {}).get(type_name)
    accepts = info.get("accepts") if info else None
    if isinstance(accepts, dict) and accepts.get("kind") == "not-in" and text not in accepts["values"]:
        return text
    return UNJUDGED


def action_outcome(accepts: object, values: list[str]) -> object:
    """What a custom argparse action (the table's ``actions``) does with the option's ``values``: None
    (stores them), ``(exception type, message)`` when it raises — SGLang then stops with a traceback,
    not an argparse error —, or :data:`UNJUDGED` for an action the linter does not know.

    ``lora-paths`` is 0.5.1+ ``LoRAPathAction`` (``sglang/srt/server_args.py``, 0.5.20+
    ``arg_groups/argparse_actions.py``): a value that starts with ``{`` and ends with ``}`` (after
    ``strip()``) is ``json.loads``-ed and must hold ``lora_name`` and ``lora_path``."""
    if not isinstance(accepts, dict):
        return UNJUDGED
    if accepts.get("kind") == "any":
        return None
    if accepts.get("kind") != "lora-paths":
        return UNJUDGED
    for value in values:
        v = value.strip()
        if v.startswith("{") and v.endswith("}"):
            try:
                obj = json.loads(v)
            except ValueError as e:
                return ("JSONDecodeError", str(e))
            except RecursionError as e:
                return ("RecursionError", str(e))
            if not ("lora_path" in obj and "lora_name" in obj):
                return ("AssertionError", f"{v!r} looks like a JSON str, but it does not contain 'lora_name' and "
                                          "'lora_path' keys.")
    return None


def display_name(type_name: str | None) -> str:
    """How argparse names the type in ``invalid <name> value`` (``json.loads`` → ``loads``)."""
    return _BUILTIN_NAMES.get(type_name or "", type_name or "str")
