"""Brace expansion of one shell word (bash manual, "Brace Expansion"): ``pre{a,b}post`` is
``preapost prebpost``, ``{1..3}`` is ``1 2 3``, ``{a..e..2}`` is ``a c e``, nested and one after
another (``{a,b}{1,2}``), left to right as bash does it — before any other expansion, on the word as
written: only unquoted, unescaped braces and commas count; a ``{…}`` with neither a comma at its own
level nor a valid sequence stays as it is (``{}``, ``{x}``), and bash then tries the next ``{``.
Quoted text and expansions (``"a,b"``, ``${X}``, ``$(…)``) are opaque pieces that go into every word.

A word that would make more than ``limits.MAX_PATH_VARIANTS`` words, or a sequence whose form bash
would treat in ways not reproduced here (zero-padded negative bounds), is :data:`TOO_MANY`: the
caller makes it one word of unknown count rather than guess or keep a literal brace.
"""

from __future__ import annotations

import itertools
import re

from linter import limits

TOO_MANY = "too many"
"""What :func:`alternatives` returns for a word past the limit (or of a form not reproduced)."""

_LITERAL = frozenset({"word", "number", "brace_expression", "extglob_pattern", "$"})
"""Word pieces whose text is unquoted literal text, where braces and commas count."""
_SEQ = re.compile(r"(?:(-?\d+)\.\.(-?\d+)|([A-Za-z])\.\.([A-Za-z]))(?:\.\.(-?\d+))?\Z")


class _Many(Exception):
    pass


def alternatives(doc, nodes: list):
    """The words brace expansion makes of the word whose pieces are ``nodes`` (tree-sitter nodes of
    ``doc``, a :class:`~linter.extract.shell.document.Doc`), each a list of pieces — ``("text", i,
    j)`` a range of ``doc.text`` (characters), ``("made", text)`` text a sequence made, ``("node",
    node)`` an opaque piece —; None when the word has no brace to expand; :data:`TOO_MANY`."""
    raw = "".join(doc.node_text(n) for n in nodes)
    if "{" not in raw or "}" not in raw or ("," not in raw and ".." not in raw):
        return None
    units: list = []
    for n in nodes:
        _flatten(doc, n, units)
    try:
        got = _expand(units)
    except _Many:
        return TOO_MANY
    if len(got) == 1 and got[0] is units:
        return None
    return [_pieces(alt) for alt in got]


def _flatten(doc, node, units: list) -> None:
    """Append the units of ``node``: ``(char, offset, special)`` per character of unquoted literal
    text (``special``: a brace or comma not escaped by a backslash) and ``node`` for an opaque piece."""
    if node.type in ("concatenation", "command_name"):
        pos = node.start_byte
        for child in node.children:
            if child.start_byte > pos:
                _text(doc, doc.c(pos), doc.c(child.start_byte), units)
            _flatten(doc, child, units)
            pos = child.end_byte
        if pos < node.end_byte:
            _text(doc, doc.c(pos), doc.c(node.end_byte), units)
    elif node.type in _LITERAL:
        _text(doc, *doc.rng(node), units)
    else:
        units.append(node)


def _text(doc, i: int, j: int, units: list) -> None:
    text = doc.text
    k = i
    while k < j:
        ch = text[k]
        if ch == "\\" and k + 1 < j:
            units.append((ch, k, False))
            units.append((text[k + 1], k + 1, False))
            k += 2
            continue
        units.append((ch, k, ch in "{},"))
        k += 1


def _special(u, ch: str) -> bool:
    return isinstance(u, tuple) and u[2] and u[0] == ch


def _expand(units: list) -> list[list]:
    """Every word ``units`` make, left to right (bash ``braces.c`` ``brace_expand``)."""
    start = 0
    while True:
        s = next((k for k in range(start, len(units)) if _special(units[k], "{") and not _after_dollar(units, k)),
                 None)
        if s is None:
            return [units]
        close, commas = _match(units, s)
        if close is None:
            start = s + 1
            continue
        inner = units[s + 1:close]
        if commas:
            choices: list[list] = []
            cuts = [s] + commas + [close]
            for a, b in itertools.pairwise(cuts):
                choices.extend(_expand(units[a + 1:b]))
        else:
            made = _sequence(inner)
            if made is None:
                start = s + 1
                continue
            choices = [[("made", m)] for m in made]
        rest = _expand(units[close + 1:])
        if len(choices) * len(rest) > limits.MAX_PATH_VARIANTS:
            raise _Many()
        return [units[:s] + c + r for c in choices for r in rest]


def _after_dollar(units: list, k: int) -> bool:
    """``${`` is a parameter expansion, never a brace expansion."""
    u = units[k - 1] if k else None
    return isinstance(u, tuple) and u[0] == "$" and not (k > 1 and isinstance(units[k - 2], tuple)
                                                           and units[k - 2][0] == "\\")


def _match(units: list, s: int) -> tuple[int | None, list[int]]:
    """The ``}`` closing the ``{`` at ``s`` and the commas at its level."""
    depth, commas = 0, []
    for k in range(s + 1, len(units)):
        u = units[k]
        if _special(u, "{"):
            depth += 1
        elif _special(u, "}"):
            if depth == 0:
                return k, commas
            depth -= 1
        elif _special(u, ",") and depth == 0:
            commas.append(k)
    return None, []


def _sequence(inner: list) -> list[str] | None:
    """The words of a sequence expression ``x..y[..incr]`` written in ``inner`` (all literal text), None
    when it is not one; raises :class:`_Many` past the limit or for a form not reproduced."""
    if not inner or not all(isinstance(u, tuple) for u in inner):
        return None
    m = _SEQ.match("".join(u[0] for u in inner))
    if m is None:
        return None
    step = abs(int(m.group(5))) if m.group(5) else 1
    step = step or 1  # bash takes an increment of 0 as 1
    if m.group(1) is not None:
        a, b = int(m.group(1)), int(m.group(2))
        count = abs(b - a) // step + 1
        if count > limits.MAX_PATH_VARIANTS:
            raise _Many()
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        ends = (m.group(1), m.group(2))
        if any(len(e.lstrip("-")) > 1 and e.lstrip("-").startswith("0") for e in ends):
            if any(e.startswith("-") for e in ends) or a < 0 or b < 0:
                raise _Many()  # zero padding with a sign: not reproduced
            width = max(len(e) for e in ends)
            return [str(v).zfill(width) for v in values]
        return [str(v) for v in values]
    a, b = ord(m.group(3)), ord(m.group(4))
    count = abs(b - a) // step + 1
    if count > limits.MAX_PATH_VARIANTS:
        raise _Many()
    values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
    return [chr(v) for v in values]


def _pieces(units: list) -> list:
    """Units as pieces: runs of adjacent characters become ``("text", i, j)`` ranges."""
    out: list = []
    for u in units:
        if isinstance(u, tuple) and u[0] == "made":
            out.append(u)
        elif isinstance(u, tuple):
            last = out[-1] if out else None
            if last is not None and last[0] == "text" and last[2] == u[1]:
                out[-1] = ("text", last[1], u[1] + 1)
            else:
                out.append(("text", u[1], u[1] + 1))
        else:
            out.append(("node", u))
    return out
