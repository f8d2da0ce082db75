"""Where the values of a JSON document are written (the standard ``json`` module gives no positions).

:func:`locate` walks a document the standard parser has already accepted and returns the same tree
with positions: objects as :class:`Obj`, arrays as :class:`Arr`, strings as :class:`Str` holding
the decoded text and, for every decoded character, the range of the literal that wrote it (an
escape such as ``\\n`` or ``\\u00e9`` is one character written with several). Other values are kept
only as their span. Offsets are character offsets into the text (RFC 8259 grammar).
"""

from __future__ import annotations

from linter.records import dataclass, field

MAX_DEPTH = 256
"""Deeper nesting is refused (ValueError) rather than recursed into."""

_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_WS = " \t\n\r"


@dataclass
class Str:
    """A string literal ``[start, end)`` (with its quotes); ``text`` decoded, ``origins[i]`` the
    ``(start, end)`` of the escape or character that wrote ``text[i]``."""

    start: int
    end: int
    text: str
    origins: list[tuple[int, int]]


@dataclass
class Arr:
    start: int
    end: int
    items: list = field(default_factory=list)


@dataclass
class Obj:
    start: int
    end: int
    members: dict = field(default_factory=dict)
    """key -> value node (a repeated key: the last one, as ``json.loads`` does)."""


@dataclass
class Other:
    """A number, ``true``, ``false`` or ``null``."""

    start: int
    end: int


def locate(text: str):
    """The positioned tree of ``text`` (a JSON document). Raises ValueError when it is not JSON or
    nests deeper than :data:`MAX_DEPTH`."""
    node, i = _value(text, _skip(text, 0), 0)
    if _skip(text, i) != len(text):
        raise ValueError(f"extra data at offset {i}")
    return node


def _skip(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def _value(text: str, i: int, depth: int):
    if depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    if i >= len(text):
        raise ValueError("unexpected end of the document")
    ch = text[i]
    if ch == '"':
        return _string(text, i)
    if ch == "{":
        obj = Obj(i, i)
        i = _skip(text, i + 1)
        if text[i:i + 1] == "}":
            obj.end = i + 1
            return obj, i + 1
        while True:
            key, i = _string(text, _skip(text, i))
            i = _skip(text, i)
            if text[i:i + 1] != ":":
                raise ValueError(f"expected ':' at offset {i}")
            value, i = _value(text, _skip(text, i + 1), depth + 1)
            obj.members[key.text] = value
            i = _skip(text, i)
            if text[i:i + 1] == ",":
                i += 1
                continue
            if text[i:i + 1] == "}":
                obj.end = i + 1
                return obj, i + 1
            raise ValueError(f"expected ',' or '}}' at offset {i}")
    if ch == "[":
        arr = Arr(i, i)
        i = _skip(text, i + 1)
        if text[i:i + 1] == "]":
            arr.end = i + 1
            return arr, i + 1
        while True:
            value, i = _value(text, _skip(text, i), depth + 1)
            arr.items.append(value)
            i = _skip(text, i)
            if text[i:i + 1] == ",":
                i += 1
                continue
            if text[i:i + 1] == "]":
                arr.end = i + 1
                return arr, i + 1
            raise ValueError(f"expected ',' or ']' at offset {i}")
    j = i
    while j < len(text) and text[j] not in _WS + ",]}":
        j += 1
    if j == i:
        raise ValueError(f"unexpected {ch!r} at offset {i}")
    return Other(i, j), j


def _string(text: str, i: int) -> tuple[Str, int]:
    if text[i:i + 1] != '"':
        raise ValueError(f"expected a string at offset {i}")
    start = i
    i += 1
    out: list[str] = []
    origins: list[tuple[int, int]] = []
    n = len(text)
    while True:
        if i >= n:
            raise ValueError("unterminated string")
        ch = text[i]
        if ch == '"':
            return Str(start, i + 1, "".join(out), origins), i + 1
        if ch != "\\":
            out.append(ch)
            origins.append((i, i + 1))
            i += 1
            continue
        esc = text[i + 1:i + 2]
        if esc in _ESCAPES:
            out.append(_ESCAPES[esc])
            origins.append((i, i + 2))
            i += 2
            continue
        if esc != "u":
            raise ValueError(f"bad escape at offset {i}")
        code = int(text[i + 2:i + 6], 16)
        end = i + 6
        if 0xD800 <= code < 0xDC00 and text[end:end + 2] == "\\u":
            low = int(text[end + 2:end + 6], 16)
            if 0xDC00 <= low < 0xE000:
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                end += 6
        out.append(chr(code))
        origins.append((i, end))
        i = end
