"""The written pieces of a Python string expression: its literals (implicit concatenation), and the
text parts and replacement fields of an f-string, each at its offset in the source.

``ast`` gives one node for ``"a" f"{x}" 'b'`` and no position for the text inside an f-string (before
Python 3.12), so the pieces are read from the node's source text, which the parser has accepted:
between literals there is only blank space, line continuations and comments. The rules for the end of
a replacement field's expression are CPython's (``fstring_find_expr``): a top-level ``!``, ``:``,
``=`` or ``}`` that is not part of ``!=``, ``==``, ``<=``, ``>=``.
"""

from __future__ import annotations

_PREFIX = frozenset("rRbBuUfF")


class Literal:
    """One string literal: its prefix (as written), its quote, and its body (the text between the
    quotes) as offsets into the source text; ``raw``: an ``r`` prefix."""

    __slots__ = ("prefix", "quote", "start", "end", "raw")

    def __init__(self, prefix: str, quote: str, start: int, end: int) -> None:
        self.prefix = prefix
        self.quote = quote
        self.start = start
        self.end = end
        self.raw = "r" in prefix.lower()


class Field:
    """A replacement field ``{…}`` of an f-string: its offsets (braces included), whether it is
    ``str(value)`` itself (no format spec, no ``!r``/``!a`` conversion, no ``=``), and the offsets
    of its expression (``expr_start``, ``expr_end``: without the blanks around it)."""

    __slots__ = ("start", "end", "simple", "expr_start", "expr_end")

    def __init__(self, start: int, end: int, simple: bool, expr_start: int, expr_end: int) -> None:
        self.start = start
        self.end = end
        self.simple = simple
        self.expr_start = expr_start
        self.expr_end = expr_end


def literals(text: str, start: int, end: int) -> list[Literal] | None:
    """The literals written in ``text[start:end]`` (a string expression's source), in order; None when
    the text is not a run of literals. A literal ends at its first unescaped closing quote (Python up to
    3.11), else — when that does not read the whole text — quotes inside replacement fields are
    strings of their own (Python 3.12)."""
    return _literals(text, start, end, False) or _literals(text, start, end, True)


def _literals(text: str, start: int, end: int, nested: bool) -> list[Literal] | None:
    out: list[Literal] = []
    i = start
    while i < end:
        c = text[i]
        if c in " \t\f\r\n":
            i += 1
            continue
        if c == "\\":  # a line continuation
            i += 1
            continue
        if c == "#":
            while i < end and text[i] not in "\r\n":
                i += 1
            continue
        j = i
        while j < end and text[j] in _PREFIX:
            j += 1
        if j >= end or text[j] not in "\"'":
            return None
        q = text[j]
        quote = q * 3 if text.startswith(q * 3, j) else q
        body = j + len(quote)
        close = closing_quote(text, body, end, quote, nested and "f" in text[i:j].lower())
        if close < 0:
            return None
        out.append(Literal(text[i:j], quote, body, close))
        i = close + len(quote)
    return out


def closing_quote(text: str, i: int, end: int, quote: str, fstring: bool) -> int:
    """The offset of the quote that closes a literal whose body starts at ``i`` (-1: none before
    ``end``). ``fstring``: quotes inside replacement fields are strings of their own (Python 3.12)."""
    depth = 0
    while i < end:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if fstring and depth and c in "\"'":  # a string inside a replacement field (Python 3.12)
            q = c * 3 if text.startswith(c * 3, i) else c
            k = closing_quote(text, i + len(q), end, q, False)
            if k < 0:
                return -1
            i = k + len(q)
            continue
        if depth == 0 and text.startswith(quote, i):
            return i
        if fstring:
            if c == "{":
                if depth == 0 and text.startswith("{{", i):
                    i += 2
                    continue
                depth += 1
            elif c == "}" and depth:
                depth -= 1
        i += 1
    return -1


def fstring_pieces(text: str, lit: Literal) -> list[tuple[int, int] | Field]:
    """The top-level pieces of an f-string literal's body, in order: (start, end) of a text part,
    or a :class:`Field`. Doubled braces stay in the text part they belong to."""
    out: list[tuple[int, int] | Field] = []
    i, end = lit.start, lit.end
    part = i
    while i < end:
        c = text[i]
        if c == "\\":
            if lit.raw:
                i += 1
            elif text.startswith("N{", i + 1):  # a named escape, not a field
                close = text.find("}", i + 3, end)
                i = end if close < 0 else close + 1
            else:
                i += 2 if text[i + 1:i + 2] == "\\" else 1  # ``\{x}``: a backslash, then a field
            continue
        if c in "{}" and text.startswith(c * 2, i):
            i += 2
            continue
        if c != "{":
            i += 1
            continue
        if part < i:
            out.append((part, i))
        j, simple, k = _field_end(text, i, end)
        e0 = i + 1 + len(text[i + 1:k]) - len(text[i + 1:k].lstrip())
        out.append(Field(i, j, simple, e0, max(e0, len(text[:k].rstrip()))))
        i = part = j
    if part < end:
        out.append((part, end))
    return out


def _field_end(text: str, i: int, end: int) -> tuple[int, bool, int]:
    """(the offset after the ``}`` that closes the field opened at ``i``, whether it is simple, the
    offset where its expression ends)."""
    k = i + 1
    depth = 0
    while k < end:  # the expression
        c = text[k]
        if c in "\"'":
            q = c * 3 if text.startswith(c * 3, k) else c
            close = closing_quote(text, k + len(q), end, q, False)
            k = end if close < 0 else close + len(q)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]" or (c == "}" and depth):
            depth -= 1
        elif depth == 0 and c in "!:=}<>":
            nxt = text[k + 1:k + 2]
            if c in "!=<>" and nxt == "=":
                k += 2
                continue
            if c in "<>":
                k += 1
                continue
            break
        k += 1
    expr_end = k
    equal = False
    if k < end and text[k] == "=":
        equal = True
        k += 1
        while k < end and text[k] in " \t\r\n":
            k += 1
    conversion = None
    if k < end and text[k] == "!":
        conversion = text[k + 1:k + 2]
        k += 2
    spec = k < end and text[k] == ":"
    depth = 0
    while k < end:  # the format spec, with its nested fields
        c = text[k]
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return k + 1, not equal and not spec and conversion in (None, "s"), expr_end
            depth -= 1
        k += 1
    return end, False, expr_end
