"""Python string values: literals decoded with each character's origin, ``str.split()``, ``str(v)``,
``str.format`` and ``%`` formatting over known values. Pure functions over :mod:`.values`; nothing
here knows the syntax tree.
"""

from __future__ import annotations

import re
import unicodedata

from linter.extract.python.values import Const, DictV, Ref, Seq, Splat, Str, Unk, Value
from linter.launch import UNKNOWN_CHAR, MStr
from linter.source import SourceFile, Span

_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
                   "t": "\t", "v": "\v"}
_HEX = {"x": 2, "u": 4, "U": 8}


def decode_literal(source: SourceFile, body: str, start: int, raw: bool, fstring: bool = False) -> MStr:
    """The value of a string literal's body (the text between its quotes, at offset ``start``).

    Plain characters point at themselves; an escape's character points at its backslash (so it is
    never "exact"); ``\\\\`` and doubled f-string braces have no origin; a CRLF inside a literal is
    the ``\\n`` Python reads.
    """
    chars: list[str] = []
    origins: list = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        off = start + i
        if c == "\r":
            chars.append("\n")
            origins.append((source, off))
            i += 2 if body[i + 1:i + 2] == "\n" else 1
            continue
        if fstring and c in "{}" and body[i + 1:i + 2] == c:
            chars.append(c)
            origins.append(None)
            i += 2
            continue
        if c == "\\" and not raw and i + 1 < n:
            d = body[i + 1]
            if d == "\n":
                i += 2
                continue
            if d == "\r":
                i += 3 if body[i + 2:i + 3] == "\n" else 2
                continue
            if d in _SIMPLE_ESCAPES:
                chars.append(_SIMPLE_ESCAPES[d])
                origins.append(None if d == "\\" else (source, off))
                i += 2
                continue
            if d in "01234567":
                m = re.match(r"[0-7]{1,3}", body[i + 1:i + 4])
                chars.append(chr(int(m.group(), 8)))
                origins.append((source, off))
                i += 1 + len(m.group())
                continue
            if d in _HEX:
                digits = body[i + 2:i + 2 + _HEX[d]]
                if re.fullmatch(r"[0-9a-fA-F]+", digits or "-") and len(digits) == _HEX[d]:
                    try:
                        chars.append(chr(int(digits, 16)))
                    except (ValueError, OverflowError):
                        chars.append(UNKNOWN_CHAR)
                    origins.append((source, off))
                    i += 2 + _HEX[d]
                    continue
            if d == "N" and body[i + 2:i + 3] == "{":
                close = body.find("}", i + 3)
                if close > 0:
                    try:
                        chars.append(unicodedata.lookup(body[i + 3:close]))
                    except KeyError:
                        chars.append(UNKNOWN_CHAR)
                    origins.append((source, off))
                    i = close + 1
                    continue
            # An unknown escape keeps its backslash: both characters are what is written.
        chars.append(c)
        origins.append((source, off))
        i += 1
    return MStr("".join(chars), origins, Span(source, start, start + n))


def split_whitespace(m: MStr, backslash: bool = False) -> list[MStr]:
    """``str.split()`` over an MStr (``backslash``: every backslash is a blank too, as SGLang's
    ``execute_shell_command`` makes it)."""
    words: list[MStr] = []
    cur: list[int] = []
    text = m.text

    def flush() -> None:
        if cur:
            words.append(MStr("".join(text[k] for k in cur), [m.origins[k] for k in cur], m.where))
            cur.clear()

    for k, c in enumerate(text):
        if c.isspace() or (backslash and c == "\\"):
            flush()
        else:
            cur.append(k)
    flush()
    return words


def as_text(v: Value) -> MStr | None:
    """``str(v)`` with origins where the literal is written as its value, or None when unknown."""
    if isinstance(v, Str):
        return v.m
    if isinstance(v, Const) and not isinstance(v.value, float):
        text = str(v.value)
        if v.span is not None and v.span.text == text:
            return MStr.literal(v.span.source, v.span.start, v.span.end)
        return MStr.plain(text, v.span)
    if isinstance(v, Ref) and v.qual == "sys.executable":
        return MStr.plain("python3")
    return None


def format_text(fmt: MStr, positional: list, keywords: dict, open_args: bool, where: Span, budget=None) -> Value:
    """``fmt.format(*positional, **keywords)``: replacement fields ``{}``, ``{0}``, ``{name}`` (``!s``
    allowed) of known values become their text, with the origins of the values; any other field (a conversion, a
    format spec, an attribute or an index, a value not known) becomes unknown text. What Python
    would refuse (a missing argument, mixed numbering, an unbalanced brace) is unknown as a whole;
    ``open_args``: a ``*x``/``**x`` whose items are not all known was given. ``budget`` (a
    :class:`linter.limits.Budget`) counts the result before it is built: past it, unknown."""
    text = fmt.text
    parts: list[MStr] = []
    auto = 0
    numbering = None
    i = lit = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in "{}" and text[i + 1:i + 2] == c:  # {{ and }}: one brace, not written as such
            parts.append(fmt[lit:i])
            parts.append(MStr.plain(c, fmt.where))
            i += 2
            lit = i
            continue
        if c == "}":
            return Unk(where)  # a single '}' is a ValueError
        if c != "{":
            i += 1
            continue
        parts.append(fmt[lit:i])
        depth, j = 1, i + 1
        while j < n and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        if depth:
            return Unk(where)
        field = text[i + 1:j - 1]
        name, conv, spec = field, None, ""
        if ":" in name:
            name, spec = name.split(":", 1)
        if "!" in name:
            name, conv = name.split("!", 1)
        head = re.match(r"[^.\[]*", name).group()
        if head == "":
            if numbering == "manual":
                return Unk(where)
            numbering, key = "auto", auto
            auto += 1
        elif head.isdigit():
            if numbering == "auto":
                return Unk(where)
            numbering, key = "manual", int(head)
        else:
            key = head
        if isinstance(key, int):
            value = positional[key] if key < len(positional) else None
            if value is None and not open_args:
                return Unk(where)  # IndexError
        else:
            value = keywords.get(key)
            if value is None and not open_args:
                return Unk(where)  # KeyError
        simple = name == head and conv in (None, "s") and spec == ""
        m = as_text(value) if simple and value is not None and not isinstance(value, Splat) else None
        loc = fmt.location(i, j)
        parts.append(m if m is not None else MStr.unknown(loc))
        i = lit = j
    parts.append(fmt[lit:])
    return _built(parts, where, budget)


def _built(parts: list[MStr], where: Span, budget) -> Value:
    """The string ``parts`` make, counted by ``budget`` first (unknown past it)."""
    if budget is not None and not budget.charge(sum(len(p) for p in parts), "a Python string", where):
        return Unk(where)
    return Str(MStr.join(parts, where))


_PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
                      r"(?:\.(?P<prec>\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])")


def percent_format(fmt: MStr, right: Value, where: Span, budget=None) -> Value:
    """``fmt % right``: ``%s`` of a known value (``%d``/``%i`` of an int) becomes its text with its
    origins, ``%%`` a percent sign; any other conversion, or a value not known, unknown text.
    Python's errors (too few or too many values, a bad conversion) make the whole string unknown.
    ``budget`` counts the result before it is built (as :func:`format_text`)."""
    specs = list(_PERCENT.finditer(fmt.text))
    if not _percent_well_formed(fmt.text, specs):
        return Unk(where)
    values = _percent_values([m for m in specs if m.group("conv") != "%"], right)
    if values is _PY_ERROR:
        return Unk(where)
    return _built(_percent_parts(fmt, specs, values), where, budget)


_PY_ERROR = object()
"""What :func:`_percent_values` gives when Python's ``%`` would raise."""


def _percent_well_formed(text: str, specs: list) -> bool:
    """Every ``%`` of ``text`` starts a conversion of ``specs`` (and ``%%`` is exactly that)."""
    return text.count("%") == sum(2 if m.group("conv") == "%" else 1 for m in specs) and \
        not any(m.group("conv") == "%" and m.end() - m.start() != 2 for m in specs)


def _percent_values(used: list, right: Value):
    """The values the conversions ``used`` (the ones other than ``%%``) read from ``right``, in
    order; None when they are not known; :data:`_PY_ERROR` when Python would raise (too few or too
    many values, a mapping mixed with positions or ``*``, a mapping that lacks a key)."""
    star = any(m.group("width") == "*" or m.group("prec") == "*" for m in used)
    if any(m.group("key") is not None for m in used):
        return _percent_mapping_values(used, right, star)
    if isinstance(right, Seq) and right.kind == "tuple":
        if any(isinstance(i, Splat) for i in right.items):
            return None
        if len(right.items) != len(used) or star:
            return _PY_ERROR
        return list(right.items)
    if isinstance(right, (Str, Const)) or (isinstance(right, Seq) and right.kind == "list") or \
            isinstance(right, DictV):
        if len(used) != 1 or star:
            return _PY_ERROR
        return [right]
    return None


def _percent_mapping_values(used: list, right: Value, star: bool):
    """:func:`_percent_values` of ``%(key)s`` conversions: read from a closed dict."""
    if not all(m.group("key") is not None for m in used) or star:
        return _PY_ERROR
    if isinstance(right, DictV) and not right.open:
        table = {e.key: e.value for e in right.entries}
        if any(m.group("key") not in table for m in used):
            return _PY_ERROR
        return [table[m.group("key")] for m in used]
    if isinstance(right, (Str, Const, Seq)):
        return _PY_ERROR  # TypeError: format requires a mapping
    return None


def _percent_parts(fmt: MStr, specs: list, values: list | None) -> list[MStr]:
    """``fmt``'s literal text and each conversion's text (:func:`_converted`), in order."""
    parts: list[MStr] = []
    lit = 0
    k = 0
    for m in specs:
        parts.append(fmt[lit:m.start()])
        lit = m.end()
        if m.group("conv") == "%":
            parts.append(MStr.plain("%", fmt.where))
            continue
        value = values[k] if values is not None else None
        k += 1
        t = _converted(m, value)
        parts.append(t if t is not None else MStr.unknown(fmt.location(m.start(), m.end())))
    parts.append(fmt[lit:])
    return parts


def _converted(m: re.Match, value: Value | None) -> MStr | None:
    """The text conversion ``m`` makes of ``value``: ``%s`` (``%(key)s``) of a value whose text is
    known, ``%d``/``%i`` of an int, without flags, width or precision; else None."""
    plain = m.end() - m.start() == 2 + (len(m.group("key")) + 2 if m.group("key") is not None else 0)
    conv = m.group("conv")
    if value is not None and plain and (
            conv == "s" or (conv in "di" and isinstance(value, Const) and type(value.value) is int)):
        return as_text(value)
    return None
