"""Compose variables: ``${VAR}`` interpolation and the ``.env`` file (Compose Specification,
"Interpolation"; compose-go ``dotenv``), with the origin of every character kept.

Shared by the compose format (:mod:`linter.extract.compose`), the stack loader
(:mod:`linter.extract.compose_stack`) and the Dockerfile format's ``ARG``/``ENV`` expansion; it imports
neither, so the compose format and its stack loader do not import each other both ways.
"""

from __future__ import annotations

import re

from linter import limits
from linter.launch import MStr
from linter.source import SourceFile, Span

__all__ = ["interpolate", "parse_dotenv"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# ------------------------------------------------------------------------------------------------
# interpolation


def interpolate(s: MStr, env: dict[str, MStr]) -> MStr:
    """Compose interpolation of ``s`` with variables from ``env`` (the ``.env`` file)."""
    text = s.text
    if "$" not in text:
        return s
    parts: list[MStr] = []
    i = 0
    n = len(text)
    lit = 0
    while i < n:
        if text[i] != "$":
            i += 1
            continue
        if i > lit:  # (an empty slice adds nothing but its cost: 20,000 chained ARGs make 40,000)
            parts.append(s[lit:i])
        if i + 1 < n and text[i + 1] == "$":
            parts.append(s[i + 1:i + 2])
            i += 2
        elif i + 1 < n and text[i + 1] == "{":
            j, depth = i + 2, 1
            while j < n and depth:
                if text[j] == "{":
                    depth += 1
                elif text[j] == "}":
                    depth -= 1
                j += 1
            if depth:  # unterminated: compose reports an error; keep the text as unknown
                parts.append(MStr.unknown(s.location(i, n)))
                i = lit = n
                continue
            parts.append(_expand(s, i, j, s[i + 2:j - 1], env))
            i = j
        else:
            m = _NAME.match(text, i + 1)
            if m:
                parts.append(_lookup(m.group(), None, None, s.location(i, m.end()), env))
                i = m.end()
            else:
                parts.append(s[i:i + 1])
                i += 1
        lit = i
    if lit < n:
        parts.append(s[lit:])
    if not limits.budget().fits(sum(len(p) for p in parts), "the expansion of a variable", s.where):
        return MStr.unknown(s.where)  # `A=$B$B` doubling: the value is unknown rather than built
    return MStr.join(parts, s.where)


def _expand(s: MStr, i: int, j: int, body: MStr, env: dict[str, MStr]) -> MStr:
    m = _NAME.match(body.text)
    where = s.location(i, j)
    if not m:
        return MStr.unknown(where)
    name = m.group()
    rest = body[m.end():]
    for op in (":-", ":?", ":+", "-", "?", "+"):
        if rest.text.startswith(op):
            return _lookup(name, op, interpolate(rest[len(op):], env), where, env)
    if rest.text:
        return MStr.unknown(where)
    return _lookup(name, None, None, where, env)


def _lookup(name: str, op: str | None, word: MStr | None, where: Span | None, env: dict[str, MStr]) -> MStr:
    value = _charged(env.get(name), name, where)
    empty = value is not None and value.text == ""
    if op in (":-", "-"):
        if value is not None and not (op == ":-" and empty):
            return value
        return word
    if op in (":+", "+"):
        if value is not None and not (op == ":+" and empty):
            return word
        return MStr.plain("", where)
    if value is not None and not (op == ":?" and empty):
        return value
    return MStr.unknown(where)


def _charged(value: MStr | None, name: str, where: Span | None) -> MStr | None:
    """``value`` of ``name`` substituted, counted by the file's budget first (unknown past it)."""
    if value is None or limits.budget().charge(len(value), f"the expansion of ${{{name}}}", where):
        return value
    return MStr.unknown(where)


def parse_dotenv(source: SourceFile) -> dict[str, MStr]:
    """Variables of a compose ``.env`` file: ``KEY=VALUE`` lines, ``export`` allowed, ``#`` comments,
    single quotes literal, double quotes with escapes, unquoted values end at `` #``; double-quoted
    and unquoted values are interpolated with the variables above them. Read once per linted file
    (its compose stack reads the ``.env`` more than once: its expansions are counted once); the dict
    returned is the caller's own."""
    return dict(limits.budget().once(("dotenv", id(source), source), lambda: _parse_dotenv(source)))


def _parse_dotenv(source: SourceFile) -> dict[str, MStr]:
    env: dict[str, MStr] = {}
    text = source.text
    pos = 0
    # Every character of a value carries its origin: past the limits, values are unknown, not built.
    too_big = len(text) > limits.MAX_PARSED_CHARS
    if too_big:
        limits.record("MAX_PARSED_CHARS", f"{source.display} of {len(text):,} characters", Span(source, 0, 0),
                      "the values it sets are unknown")
    for raw in text.splitlines(keepends=True):
        line_start = pos
        pos += len(raw)
        line = raw.rstrip("\r\n")
        stripped = line.lstrip()
        off = line_start + len(line) - len(stripped)
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("export "):
            k = len("export ")
            stripped, off = stripped[k:].lstrip(), off + k + (len(stripped[k:]) - len(stripped[k:].lstrip()))
        m = re.match(r"([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*", stripped)
        if not m:
            continue
        key = m.group(1)
        vstart = off + m.end()
        value = stripped[m.end():]
        if too_big or len(value) > limits.MAX_LINE_CHARS:
            if not too_big:
                limits.record("MAX_LINE_CHARS", f"the value of {key} ({len(value):,} characters)",
                              Span(source, vstart, vstart), "it is unknown")
            env[key] = MStr.unknown(Span(source, vstart, vstart + len(value)))
            continue
        if value.startswith("'"):
            close = value.find("'", 1)
            close = len(value) if close < 0 else close
            env[key] = MStr.literal(source, vstart + 1, vstart + close)
        elif value.startswith('"'):
            chars, origins, k = [], [], 1
            escapes = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "$": "$"}
            while k < len(value) and value[k] != '"':
                if value[k] == "\\" and k + 1 < len(value) and value[k + 1] in escapes:
                    chars.append(escapes[value[k + 1]])
                    origins.append((source, vstart + k + 1))
                    k += 2
                    continue
                chars.append(value[k])
                origins.append((source, vstart + k))
                k += 1
            env[key] = interpolate(MStr("".join(chars), origins, Span(source, vstart, vstart + k + 1)), env)
        else:
            cut = re.search(r"[ \t]#", value)
            value = value[:cut.start()] if cut else value
            value = value.rstrip()
            env[key] = interpolate(MStr.literal(source, vstart, vstart + len(value)), env)
    return env
