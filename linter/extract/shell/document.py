"""The text one tree-sitter-bash parse works on, and the parser itself (imported only when a script
is parsed).
"""

from __future__ import annotations

import functools
import re

from linter.launch import MStr
from linter.source import SourceFile, Span


@functools.cache
def language():
    """The tree-sitter-bash language."""
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Language(tree_sitter_bash.language())


@functools.cache
def _parser():
    import tree_sitter

    return tree_sitter.Parser(language())


def named_kids(node):
    """The named children of ``node``, one at a time (a cursor: unlike ``node.named_children``, the
    list is not kept on the node, so a statement's nodes are freed once it is walked)."""
    cursor = node.walk()
    if not cursor.goto_first_child():
        return
    while True:
        child = cursor.node
        if child.is_named:
            yield child
        if not cursor.goto_next_sibling():
            return


# The end of a script made only of blanks and line continuations (``\\`` before a newline or the end),
# matched on the reversed bytes from their start (a search from the front would try every offset).
_BLANK_TAIL_REVERSED = re.compile(rb"\\?(?:\n\r?\\|[ \t\r\n])*")


def _bash_tail(data: bytes) -> bytes:
    """``data`` with the backslashes of a trailing run of line continuations made blanks.

    bash removes ``\\<newline>`` and ignores a ``\\`` at the end of the file (``bash -n`` accepts
    ``cmd \\`` followed by a blank line, GNU bash 5.2), where tree-sitter-bash 0.23 gives an
    ERROR node. Byte offsets are kept, so spans are unaffected.
    """
    start = len(data) - _BLANK_TAIL_REVERSED.match(data[::-1]).end()
    if data[start:start + 1] == b"\\":
        run = len(data[:start]) - len(data[:start].rstrip(b"\\"))
        if run % 2:  # this backslash is escaped by the one before it: a literal, not a continuation
            start += 1
    tail = data[start:]
    if b"\\" not in tail:
        return data
    return data[:start] + tail.replace(b"\\", b" ")


# What may follow ``$`` in an expansion (bash ``parse.y``/``subst.c``): a name, a digit, a special
# parameter (``@ * # ? $ ! -``), ``{``, ``(``, ``[`` (old arithmetic), ``'`` (ANSI-C) or ``"`` (locale).
_EXPANSION_NEXT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@*#?$!-{([\'\"")
_DOLLAR = re.compile(rb"[$\\]")


def _literal_dollars(data: bytes) -> bytes:
    """``data`` with each ``$`` that bash takes as a literal character made a word character.

    bash expands ``$`` only before a name, a digit, a special parameter, ``{``, ``(``, ``[``, ``'`` or
    ``"``; anywhere else (``$:``, ``$/``, ``$.``, ``$=``, ``$}``, a ``$`` before a blank or at the end)
    it is the character ``$`` — ``--dist-init-addr $NODE$:5757`` is valid (``bash -n`` accepts it) —
    while tree-sitter-bash 0.23 reads it as the start of an expansion and gives an ERROR node. The
    parse sees ``,`` there instead; every value is read from the text itself, which keeps its ``$``.
    Byte offsets are kept, so spans are unaffected. A backslash escapes the next byte."""
    if b"$" not in data:
        return data
    out = None
    pos = 0
    n = len(data)
    while True:
        m = _DOLLAR.search(data, pos)
        if m is None:
            break
        i = m.start()
        if data[i] == 0x5C:  # backslash: the next byte is escaped
            pos = i + 2
            continue
        nxt = data[i + 1] if i + 1 < n else None
        if nxt is not None and nxt in _EXPANSION_NEXT:
            pos = i + 2 if nxt == 0x24 else i + 1  # "$$" is one expansion
            continue
        if out is None:
            out = bytearray(data)
        out[i] = 0x2C  # "," (not a name character: "$A$:" stays "$A" then text)
        pos = i + 1
    return data if out is None else bytes(out)


def parse_script(data: bytes):
    """The tree-sitter-bash tree of ``data`` (UTF-8 bytes)."""
    return _parser().parse(_bash_tail(_literal_dollars(data)))


_NON_ASCII = re.compile("[^\x00-\x7f]+")


class Doc:
    """The text one parse works on: the file itself, or a ``bash -c`` string whose characters map to
    origins in the file. Converts tree-sitter byte offsets to character offsets."""

    def __init__(self, source: SourceFile, text: str, base: MStr | None, fallback: Span) -> None:
        self.source = source
        self.text = text
        self.base = base
        self.fallback = fallback
        self.data = text.encode("utf-8")
        if len(self.data) == len(text):
            self.b2c = None
        else:
            # ASCII stretches map byte k to character k - offset at C speed; only non-ASCII characters
            # are looked at one by one (a 90,000-character `bash -c` string with one such character
            # took 0.3 s a character at a time)
            b2c: list[int] = []
            ci = 0
            for m in _NON_ASCII.finditer(text):
                a = m.start()
                b2c.extend(range(ci, a))
                for k, ch in enumerate(m.group()):
                    b2c.extend([a + k] * len(ch.encode("utf-8")))
                ci = m.end()
            b2c.extend(range(ci, len(text)))
            b2c.append(len(text))
            self.b2c = b2c

    def c(self, byte: int) -> int:
        return byte if self.b2c is None else self.b2c[byte]

    def rng(self, node) -> tuple[int, int]:
        return self.c(node.start_byte), self.c(node.end_byte)

    def origin(self, i: int):
        """The origin ``(SourceFile, offset)`` of character ``i``, or None."""
        if self.base is None:
            return (self.source, i)
        return self.base.origin_at(i)

    def where(self, i: int, j: int) -> Span:
        """The span in the file for doc characters ``[i, j)`` (exact or the hull of their origins)."""
        if self.base is None:
            return Span(self.source, i, j)
        lo = hi = None
        for n, src, off, _ in self._slice(i, j):
            if src is self.source:
                lo = off if lo is None else min(lo, off)
                hi = off + n if hi is None else max(hi, off + n)
        if lo is None:
            return self.fallback
        return Span(self.source, lo, hi)

    def runs(self, i: int, j: int) -> tuple:
        """The origin runs (:class:`~linter.launch.MStr`) of doc characters ``[i, j)``."""
        if self.base is None:
            return ((j - i, self.source, i, None),) if j > i else ()
        return self._slice(i, j)

    def mstr(self, i: int, j: int, where: Span | None = None) -> MStr:
        """The text ``[i, j)`` as is, with its origins."""
        if self.base is None:
            return MStr.from_runs(self.text[i:j], ((j - i, self.source, i, None),) if j > i else (),
                                  where or Span(self.source, i, j))
        return MStr.from_runs(self.text[i:j], self._slice(i, j), where or self.where(i, j))

    def _slice(self, i: int, j: int) -> tuple:
        """The base's runs for characters ``[i, j)``."""
        return self.base.runs_of(i, j)

    def node_text(self, node) -> str:
        i, j = self.rng(node)
        return self.text[i:j]
