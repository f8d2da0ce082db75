"""Word expansion: quoting, escapes, parameter expansion and field splitting, over text that keeps
each character's origin.

A segment is ("lit", MStr, splittable) — text; splittable for unquoted expansion results, whose
blanks separate words and whose unknown parts may be any number of words —, ("arr", [Token]) — the
elements of "${A[@]}", one word each — or ("splat", MStr) — "$@": an unknown number of words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from linter import limits
from linter.extract.shell.document import Doc
from linter.extract.shell.env import ABSENT, ARGV, NAME, UNKNOWN_V, UNSET, Env, choose, small_number
from linter.extract.shell.subjects import set_key, settled
from linter.launch import UNKNOWN_CHAR, MStr, Token, hull, join_runs, label_unknowns
from linter.source import Span

IFS = " \t\n"


_BLANKS = re.compile("[" + IFS + "]+")


def assemble(segs: list) -> list[Token]:
    """Field splitting: the words a list of segments makes."""
    out: list[Token] = []
    texts: list[str] = []
    runs: list[tuple] = []
    wheres: list = []
    started = fixed = unk = splat = False

    def emit() -> None:
        nonlocal texts, runs, wheres, started, fixed, unk, splat
        if started:
            where = hull(wheres)
            if len(texts) > 1 and not limits.budget().fits(sum(map(len, texts)), "a shell word", where):
                out.append(Token(MStr.unknown(where), splat=splat))
            else:
                m = MStr.from_runs("".join(texts), join_runs(runs), where)
                out.append(Token(m, splat=splat or (unk and not fixed)))
        texts, runs, wheres = [], [], []
        started = fixed = unk = splat = False

    for seg in segs:
        kind = seg[0]
        if kind == "lit":
            m, split = seg[1], seg[2]
            if not split:
                texts.append(m.text)
                runs.append(m.runs)
                wheres.append(m.where)
                started = True
                if m.text:
                    fixed = True
                continue
            text = m.text
            pos = 0
            for blank in _BLANKS.finditer(text) if _has_blank(text) else ():
                a, b = blank.span()
                if a > pos:
                    started, fixed, unk = _piece(m, pos, a, started, fixed, unk, texts, runs, wheres)
                emit()
                pos = b
            if pos < len(text):
                started, fixed, unk = _piece(m, pos, len(text), started, fixed, unk, texts, runs, wheres)
            if started:
                wheres.append(m.where)
        elif kind == "arr":
            for k, tok in enumerate(seg[1]):
                if k:
                    emit()
                texts.append(tok.text.text)
                runs.append(tok.text.runs)
                wheres.append(tok.text.where)
                started = True
                if tok.text.text:
                    fixed = True
                splat = splat or tok.splat
        else:  # splat
            m = seg[1]
            texts.append(m.text)
            runs.append(m.runs)
            wheres.append(m.where)
            started = splat = True
    emit()
    return out


def _has_blank(text: str) -> bool:
    return " " in text or "\t" in text or "\n" in text


def _piece(m: MStr, a: int, b: int, started: bool, fixed: bool, unk: bool, texts: list, runs: list,
           wheres: list) -> tuple[bool, bool, bool]:
    """Add ``m.text[a:b]`` (no blanks in it) to the word being built: the new (started, fixed, unk)."""
    if not started:
        wheres.append(m.where)
    piece = m.text[a:b]
    texts.append(piece)
    runs.append(m.runs if a == 0 and b == len(m.text) else m.runs_of(a, b))
    unknowns = piece.count(UNKNOWN_CHAR)
    return True, fixed or unknowns < len(piece), unk or unknowns > 0


def scalar(segs: list, where: Span | None) -> MStr:
    """The value of segments without field splitting (an assignment's right-hand side)."""
    parts: list[MStr] = []
    for seg in segs:
        if seg[0] == "lit":
            parts.append(seg[1])
        elif seg[0] == "arr":
            for k, tok in enumerate(seg[1]):
                if k:
                    parts.append(MStr.plain(" ", where))
                parts.append(MStr.unknown(tok.text.where or where) if tok.splat else tok.text)
        else:
            parts.append(MStr.unknown(seg[1].where or where))
    if not parts:
        return MStr.plain("", where)
    if len(parts) > 1 and not limits.budget().fits(sum(len(p.text) for p in parts), "a shell value", where):
        return MStr.unknown(where)
    return MStr.join(parts, hull([p.where for p in parts]) or where)


def join_tokens(tokens: list[Token], where: Span | None) -> MStr:
    """The words of an array joined by blanks (``${A[*]}``, an array used as a string)."""
    if not limits.budget().fits(sum(len(t.text.text) + 1 for t in tokens), "a shell array joined", where):
        return MStr.unknown(where)
    parts: list[MStr] = []
    for k, tok in enumerate(tokens):
        if k:
            parts.append(MStr.plain(" ", where))
        parts.append(MStr.unknown(tok.text.where or where) if tok.splat else tok.text)
    return MStr.join(parts, where) if parts else MStr.plain("", where)


_ANSI = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f",
         "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


class Expander:
    """The expansions of the words of one :class:`Doc` (:meth:`segs`), with a walker's variables."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.substitution: Callable | None = None
        """``(node, env) -> MStr | None``: the output of a ``$(...)`` the walker knows (a function that
        prints a plain command line); None: every command substitution is unknown."""
        self.printing = 0
        """Function outputs being read inside one another (:func:`.printed.printed` bounds it)."""

    def segs(self, node, env: Env, quoted: bool = False) -> list:
        """The segments of a word node (a literal, a quoted string, an expansion, a concatenation)."""
        doc = self.doc
        t = node.type
        i, j = doc.rng(node)
        if t == "raw_string":
            return [("lit", doc.mstr(i + 1, max(i + 1, j - 1)), False)]
        if t in ("string", "translated_string"):
            return self._dq(node, env)
        if t == "ansi_c_string":
            return [("lit", self._ansi(i + 2, max(i + 2, j - 1)), False)]
        if t in ("concatenation", "command_name"):
            segs = []
            for child, gap in self._parts(node):
                if child is not None and child.type == "$" and child.next_sibling is not None \
                        and child.next_sibling.type == "string" and child.next_sibling.start_byte == child.end_byte:
                    continue  # $"…" (translated string): tree-sitter splits off the $
                if child is None:
                    segs.extend(self._lit(gap[0], gap[1], quoted))
                else:
                    segs.extend(self.segs(child, env, quoted))
            return segs
        if t in ("simple_expansion", "expansion"):
            return self._param(node, env, quoted)
        if t in ("word", "number", "extglob_pattern", "regex", "$", "special_variable_name", "variable_name",
                 "test_operator", "file_descriptor"):
            return self._lit(i, j, quoted)
        where = doc.where(i, j)
        if t == "command_substitution" and self.substitution is not None:
            printed = self.substitution(node, env)
            if printed is not None:
                return [("lit", printed, not quoted)]
        if t == "arithmetic_expansion":
            # $((A * B)) of known integers: its value, with no origin (no fix edits a computed number)
            inner = [c for c in node.children if c.is_named]
            value = self._arith(inner[0], env) if len(inner) == 1 else None
            if value is not None:
                return [("lit", MStr.plain(str(value), where), not quoted)]
        # command substitution, other arithmetic, brace expansion, anything else: unknown
        return [("lit", MStr.unknown(where), not quoted)]

    def words(self, nodes: list, env: Env) -> list[Token]:
        """The words one shell word makes (``nodes``: its pieces, most often one node): brace expansion
        first (:mod:`.braces`), then each result's expansions and field splitting (:func:`assemble`). A
        word whose braces would make more than ``limits.MAX_PATH_VARIANTS`` words is one word of
        unknown count."""
        from linter.extract.shell.braces import TOO_MANY, alternatives

        got = alternatives(self.doc, nodes) if nodes else None
        if got is None:
            segs: list = []
            for n in nodes:
                segs.extend(self.segs(n, env))
            return assemble(segs)
        where = self.doc.where(self.doc.rng(nodes[0])[0], self.doc.rng(nodes[-1])[1])
        if got is TOO_MANY:
            return [Token(MStr.unknown(where), splat=True)]
        out: list[Token] = []
        for pieces in got:
            segs = []
            for piece in pieces:
                if piece[0] == "text":
                    segs.extend(self._lit(piece[1], piece[2], False))
                elif piece[0] == "made":
                    segs.append(("lit", MStr.plain(piece[1], where), False))
                else:
                    segs.extend(self.segs(piece[1], env))
            out.extend(assemble(segs))
        return out

    def _arith(self, node, env: Env, depth: int = 0) -> int | None:
        """The value of a shell arithmetic expression made of decimal integers, variables holding them
        and ``+ - * / %`` (``/`` and ``%`` truncate toward zero, as bash's C arithmetic does); None for
        anything else (an unknown or unset variable, a division by zero, assignments, comparisons …)."""
        if depth > 32:
            return None
        step = _ARITH_NODES.get(node.type)
        return step(self, node, env, depth) if step is not None else None

    def _arith_number(self, node, env: Env, depth: int) -> int | None:
        """A decimal literal (``0``, ``42``; not ``012``, octal in bash, nor ``0x1F``)."""
        text = self.doc.node_text(node)
        return small_number(text) if text == "0" or not text.startswith("0") else None

    def _arith_variable(self, node, env: Env, depth: int) -> int | None:
        """``A`` or ``$A``/``${A…}`` inside ``$((…))``: the variable's known decimal value."""
        if node.type == "variable_name":
            value = env.get(self.doc.node_text(node))
            text = value.text if isinstance(value, MStr) and value.known else None
        else:
            parts = [seg[1] for seg in self._param(node, env, True)]
            text = "".join(p.text for p in parts) if parts and all(
                isinstance(p, MStr) and p.known for p in parts) else None
        text = text.strip() if text is not None else None
        return int(text) if text and text.isdigit() and len(text) < 19 else None

    def _arith_parens(self, node, env: Env, depth: int) -> int | None:
        inner = [c for c in node.children if c.is_named]
        return self._arith(inner[0], env, depth + 1) if len(inner) == 1 else None

    def _arith_unary(self, node, env: Env, depth: int) -> int | None:
        """``-X`` and ``+X``; other unary operators (``!``, ``~``, ``++``) are not followed."""
        if len(node.children) != 2 or node.children[0].type not in ("-", "+"):
            return None
        v = self._arith(node.children[1], env, depth + 1)
        return None if v is None else (-v if node.children[0].type == "-" else v)

    def _arith_binary(self, node, env: Env, depth: int) -> int | None:
        """``A op B`` for ``op`` in :data:`_ARITH_OPS`; None past 64-bit signed range, as bash wraps."""
        if len(node.children) != 3:
            return None
        compute = _ARITH_OPS.get(node.children[1].type)
        a = self._arith(node.children[0], env, depth + 1)
        b = self._arith(node.children[2], env, depth + 1) if a is not None else None
        if a is None or b is None or compute is None:
            return None
        out = compute(a, b)
        return out if out is not None and abs(out) < 2 ** 63 else None

    def _parts(self, node, start: int | None = None, end: int | None = None):
        """Children of ``node`` in ``[start, end)`` (bytes) and the gaps between them (char ranges)."""
        doc = self.doc
        pos = node.start_byte if start is None else start
        stop = node.end_byte if end is None else end
        for child in node.children:
            if child.end_byte <= pos or child.start_byte >= stop:
                continue
            if child.start_byte > pos:
                yield None, (doc.c(pos), doc.c(child.start_byte))
            yield child, None
            pos = child.end_byte
        if pos < stop:
            yield None, (doc.c(pos), doc.c(stop))

    def _lit(self, i: int, j: int, quoted: bool) -> list:
        """Literal text with backslash escapes removed (double-quote rules when ``quoted``)."""
        if quoted:
            return [("lit", self._dq_text(i, j), False)]
        doc = self.doc
        text = doc.text
        where = doc.where(i, j)
        if text.find("\\", i, j) < 0:
            return [("lit", doc.mstr(i, j, where), True)] if j > i else []
        # An escaped character is a segment that is not split; the text around it is.
        segs: list = []
        texts: list[str] = []
        runs: list[tuple] = []
        split = True

        def flush() -> None:
            if texts:
                segs.append(("lit", MStr.from_runs("".join(texts), join_runs(runs), where), split))
                texts.clear()
                runs.clear()

        def add(a: int, b: int, escaped: bool) -> None:
            nonlocal split
            if a >= b:
                return
            if split == escaped:
                flush()
                split = not escaped
            texts.append(text[a:b])
            runs.append(doc.runs(a, b))

        k = i
        while k < j:
            bs = text.find("\\", k, j)
            if bs < 0 or bs + 1 >= j:
                add(k, j, False)
                break
            add(k, bs, False)
            nxt = text[bs + 1]
            if nxt == "\n":
                k = bs + 2
            elif nxt == "\r" and bs + 2 < j and text[bs + 2] == "\n":
                k = bs + 3
            else:
                add(bs + 1, bs + 2, True)
                k = bs + 2
        flush()
        return segs

    def _dq_text(self, i: int, j: int) -> MStr:
        """Text inside double quotes with its escapes (``\\$ \\` \\" \\\\``, line continuations) removed."""
        doc = self.doc
        text = doc.text
        if text.find("\\", i, j) < 0:
            return doc.mstr(i, j, doc.where(i, j))
        texts: list[str] = []
        runs: list[tuple] = []

        def add(a: int, b: int) -> None:
            if a < b:
                texts.append(text[a:b])
                runs.append(doc.runs(a, b))

        k = i
        while k < j:
            bs = text.find("\\", k, j)
            if bs < 0 or bs + 1 >= j:
                add(k, j)
                break
            nxt = text[bs + 1]
            if nxt in '$`"\\':
                add(k, bs)
                add(bs + 1, bs + 2)
                k = bs + 2
            elif nxt == "\n":
                add(k, bs)
                k = bs + 2
            elif nxt == "\r" and bs + 2 < j and text[bs + 2] == "\n":
                add(k, bs)
                k = bs + 3
            else:  # a backslash that escapes nothing stays
                add(k, bs + 1)
                k = bs + 1
        return MStr.from_runs("".join(texts), join_runs(runs), doc.where(i, j))

    def _dq(self, node, env: Env) -> list:
        doc = self.doc
        i, j = doc.rng(node)
        segs: list = [("lit", MStr.plain("", doc.where(i, j)), False)]
        for child, gap in self._parts(node):
            if child is None:
                segs.append(("lit", self._dq_text(*gap), False))
            elif not child.is_named:
                if child.type in ('"', '$"'):
                    continue
                a, b = doc.rng(child)
                segs.append(("lit", self._dq_text(a, b), False))
            elif child.type == "string_content":
                a, b = doc.rng(child)
                segs.append(("lit", self._dq_text(a, b), False))
            else:
                # tree-sitter-bash puts the blanks between two expansions inside the second one's first
                # token ("$A $B": `$B` starts at the space): they are text of the string
                a, b = doc.rng(child)
                k = a
                while k < b and doc.text[k] in " \t\n\r":
                    k += 1
                if k > a:
                    segs.append(("lit", self._dq_text(a, k), False))
                segs.extend(self.segs(child, env, quoted=True))
        rest = segs[1:]
        if rest and all(seg[0] == "arr" and not seg[1] or seg[0] == "lit" and not seg[1].text for seg in rest) \
                and any(seg[0] == "arr" for seg in rest):
            return []  # "$@" of no parameters, "${A[@]}" of an empty array: no word at all (bash)
        return segs

    def _ansi(self, i: int, j: int) -> MStr:
        doc = self.doc
        text = doc.text
        chars: list[str] = []
        origins: list = []
        k = i
        while k < j:
            ch = text[k]
            if ch != "\\" or k + 1 >= j:
                chars.append(ch)
                origins.append(doc.origin(k))
                k += 1
                continue
            nxt = text[k + 1]
            o = doc.origin(k)
            if nxt in _ANSI:
                chars.append(_ANSI[nxt])
                origins.append(o)
                k += 2
            elif nxt in "01234567":
                m = k + 1
                while m < j and m < k + 4 and text[m] in "01234567":
                    m += 1
                chars.append(chr(int(text[k + 1:m], 8) & 0xFF))
                origins.append(o)
                k = m
            elif nxt in "xuU":
                width = {"x": 2, "u": 4, "U": 8}[nxt]
                m = k + 2
                while m < j and m < k + 2 + width and text[m] in "0123456789abcdefABCDEF":
                    m += 1
                if m == k + 2:
                    chars.append("\\")
                    origins.append(o)
                    k += 1
                    continue
                try:
                    chars.append(chr(int(text[k + 2:m], 16)))
                except (ValueError, OverflowError):
                    chars.append(UNKNOWN_CHAR)
                origins.append(o)
                k = m
            elif nxt == "c" and k + 2 < j:
                chars.append(chr(ord(text[k + 2]) & 0x1F))
                origins.append(o)
                k += 3
            else:
                chars.append("\\")
                origins.append(o)
                k += 1
        return MStr("".join(chars), origins, doc.where(i, j))

    def _param(self, node, env: Env, quoted: bool) -> list:
        """``$NAME``, ``${NAME}``, ``${NAME OP WORD}``, ``${A[@]}`` … as segments.

        The steps follow the bash manual's "Shell Parameter Expansion": which parameter (a name, an
        array element, ``A[@]``, a positional or special parameter), then one method per operator
        family (none, ``:- - := =``, ``:+ +``, ``:? ?``); any other operator (``#``, ``%``, ``/``,
        ``:offset``, ``^``, ``,``, ``@Q`` …) is unknown."""
        p = _Param(self, node, env, quoted)
        target, op_node = self._param_target(node)
        if target is None:
            return p.unknown()
        p.op_node = op_node
        named = self._param_name(target)
        if named is None:
            return p.unknown()
        p.name, p.index = named
        if not NAME.match(p.name):
            return self._special_param(p)
        value = env.get(p.name)
        if p.index in ("@", "*"):
            return p.unknown() if p.op is not None else self._all_elements(p, value)
        if p.index is not None and small_number(p.index) is None:
            return p.unknown()
        return _PARAM_OPS.get(p.op, Expander._op_other)(p, self._element(p.index, value))

    @staticmethod
    def _param_target(node) -> tuple:
        """The parameter node and the operator node of an expansion; (None, None) when it is one the
        reader does not follow (``${#X}``, ``${!X}``, ``${!A[@]}``, an operator with a named node)."""
        kids = node.children
        if node.type == "simple_expansion":
            named = [c for c in kids if c.is_named]
            return (named[0], None) if named else (None, None)
        inner = [c for c in kids if c.type not in ("${", "}")]
        if not inner or not inner[0].is_named:
            return None, None  # ${#X}, ${!X}, ${!A[@]} …
        op_node = inner[1] if len(inner) > 1 else None
        if op_node is not None and op_node.is_named:
            return None, None
        return inner[0], op_node

    def _param_name(self, target) -> tuple[str, str | None] | None:
        """(name, index text or None) of the parameter node; None for a subscript without both."""
        doc = self.doc
        if target.type != "subscript":
            return doc.node_text(target), None
        base = target.child_by_field_name("name")
        idx = target.child_by_field_name("index")
        if base is None or idx is None:
            return None
        return doc.node_text(base), doc.node_text(idx)

    def _special_param(self, p: _Param) -> list:
        """Positional and special parameters: ``$1 $@ $* $# $? $$ $! $0 $-``."""
        name, op_node = p.name, p.op_node
        argv = p.env.get(ARGV)  # inside a call of a function of the file: its arguments
        if isinstance(argv, list):
            if name in ("@", "*") and op_node is None:
                p.index = name
                return self._all_elements(p, argv)
            if small_number(name) is not None and name != "0":
                return _PARAM_OPS.get(p.op, Expander._op_other)(p, self._element(str(int(name) - 1), argv))
        if name in ("@", "*") and op_node is None:
            if name == "@" and p.quoted:
                return [("splat", MStr.unknown(p.where))]
            return p.unknown()
        if name.isdigit() and name != "0" and op_node is not None and op_node.type in (":-", "-"):
            # ``${2:-fa4}``: a default written in the file is taken as the value (DESIGN.md, resolve)
            return p.operand()
        return p.unknown()

    @staticmethod
    def _all_elements(p: _Param, value) -> list:
        """``${A[@]}`` / ``${A[*]}`` with no operator: the elements (one word each when ``"${A[@]}"``)."""
        where, quoted = p.where, p.quoted
        if isinstance(value, MStr):
            tokens = [Token(value)]
        elif isinstance(value, list):
            # items the paths merged (no place of their own): this expansion is where they are read
            tokens = [Token(MStr.unknown(where), splat=True) if t.splat and t.text.where is None else t for t in value]
        elif value is UNSET:
            tokens = []
        else:
            return [("splat", MStr.unknown(where))] if quoted and p.index == "@" else p.unknown()
        if tokens and not limits.budget().charge(sum(len(t.text.text) for t in tokens),
                                                  "a shell expansion", where):
            return p.unknown()
        if quoted and p.index == "@":
            return [("arr", tokens)]
        if tokens:
            return [("lit", join_tokens(tokens, where), not quoted)]
        return p.empty()

    @staticmethod
    def _element(index: str | None, value):
        """The value of ``${A[k]}`` (``index`` the digits of ``k``), or of ``$A`` (``index`` None: an
        array's first element)."""
        if index is None:
            if isinstance(value, list):
                return (UNKNOWN_V if value[0].splat else value[0].text) if value else UNSET
            return value
        if isinstance(value, list):
            k = int(index)
            return (UNKNOWN_V if value[k].splat else value[k].text) if k < len(value) else UNSET
        if isinstance(value, MStr):
            return value if index == "0" else UNSET
        return value

    @staticmethod
    def _op_none(p: _Param, value) -> list:
        """``$NAME`` / ``${NAME}``: the value; nothing (or an empty quoted word) when unset."""
        if isinstance(value, MStr):
            return p.result(value)
        if value is UNSET:
            return p.empty()
        return p.unknown()

    @staticmethod
    def _op_default(p: _Param, value) -> list:
        """``${NAME:-WORD}``, ``${NAME-WORD}``, ``${NAME:=WORD}``, ``${NAME=WORD}``: the value, or the
        word when unset (or null, with the colon); ``=`` also assigns the word to a plain name."""
        colon = p.op.startswith(":")
        if isinstance(value, MStr):
            if not (value.text == "" and colon):
                if not value.known and colon and _all_unknown(value):
                    return p.unknown()
                return p.result(value)
        elif value is not UNSET and value is not ABSENT:
            return p.unknown()
        segs = p.operand()
        if p.op in (":=", "=") and p.index is None:
            p.env.set(p.name, scalar(segs, p.where))
        return segs

    @staticmethod
    def _op_alternative(p: _Param, value) -> list:
        """``${NAME:+WORD}``, ``${NAME+WORD}``: the word when set (and not null, with the colon)."""
        colon = p.op.startswith(":")
        if isinstance(value, MStr):
            if not value.known and colon and _all_unknown(value):
                return _alternative_path(p)
            if value.text == "" and colon:
                return p.empty()
            return p.operand()
        if value is UNSET:
            return p.empty()
        if value is ABSENT or value is UNKNOWN_V:
            # a value from outside the script: the word on the paths where it is set, nothing on the others
            return _alternative_path(p)
        return p.unknown()

    @staticmethod
    def _op_error(p: _Param, value) -> list:
        """``${NAME:?WORD}``, ``${NAME?WORD}``: the value when set (and not null, with the colon)."""
        if isinstance(value, MStr) and (value.text or p.op == "?"):
            return p.result(value)
        return p.unknown()

    @staticmethod
    def _op_other(p: _Param, value) -> list:
        """Any other operator (removal, replacement, substring, case, transformation): unknown."""
        return p.unknown()

    def _operand(self, node, op_node, env: Env, quoted: bool) -> list:
        """The word after an expansion operator, up to the closing brace."""
        close = node.children[-1]
        end = close.start_byte if close.type == "}" else node.end_byte
        segs: list = []
        for child, gap in self._parts(node, op_node.end_byte, end):
            if child is None:
                segs.extend(self._lit(gap[0], gap[1], quoted))
            elif not child.is_named:
                a, b = self.doc.rng(child)
                segs.extend(self._lit(a, b, quoted))
            else:
                segs.extend(self.segs(child, env, quoted))
        if quoted and not segs:
            i, _ = self.doc.rng(op_node)
            segs.append(("lit", MStr.plain("", self.doc.where(i, i)), False))
        return segs


def _alternative_path(p: _Param) -> list:
    """``${NAME:+WORD}`` of a parameter the script does not give: two paths of one decision per name
    and operator ("`$DET` is set and not empty" or not), as ``[ -n "$DET" ] && …`` is; unknown when no
    run along paths is under way (:func:`.env.choose`)."""
    colon = p.op.startswith(":")
    test = f"`${p.name}` is set" + (" and not empty" if colon else "")
    unset = f"`${p.name}` is unset" + (" or empty" if colon else "")
    # ``${DET:+…}`` asks what ``[ -n "$DET" ]`` asks: one decision, settled by a guard before it
    key = set_key(id(p.expander.doc), p.name) if colon else (id(p.expander.doc), "${%s%s}" % (p.name, p.op))
    got = settled(p.env.gone, key) if p.env.gone else None
    if got is None:
        got = choose(key, [(0, test), (1, unset)])
    if got is None:
        return p.unknown()
    return p.operand() if got == 0 else p.empty()


def _all_unknown(m: MStr) -> bool:
    """Every character of ``m`` is unknown (a variable whose whole value the reader cannot know)."""
    return all(c == UNKNOWN_CHAR for c in m.text)


class _Param:
    """One parameter expansion being read: its node, the walker's variables, whether it is inside
    double quotes, and (once read) the parameter's name, index and operator node."""

    __slots__ = ("expander", "node", "env", "quoted", "where", "name", "index", "op_node")

    def __init__(self, expander: Expander, node, env: Env, quoted: bool) -> None:
        self.expander = expander
        self.node = node
        self.env = env
        self.quoted = quoted
        doc = expander.doc
        self.where = doc.where(*doc.rng(node))
        self.name = ""
        self.index: str | None = None
        self.op_node = None

    @property
    def op(self) -> str | None:
        """The operator's text (``:-``, ``+``, ``#`` …), None for a bare ``$NAME``/``${NAME}``."""
        return self.op_node.type if self.op_node is not None else None

    def unknown(self) -> list:
        return [("lit", MStr.unknown(self.where), not self.quoted)]

    def empty(self) -> list:
        """An expansion to nothing: no word unquoted, an empty word in double quotes."""
        return [] if not self.quoted else [("lit", MStr.plain("", self.where), False)]

    def result(self, m: MStr) -> list:
        """A variable's value substituted: counted by the file's budget before it is used."""
        if not limits.budget().charge(len(m.text), "a shell expansion", self.where):
            return self.unknown()
        label_unknowns(m, self.where)  # (paths merged in it: this expansion is where they are read)
        return [("lit", m, not self.quoted)]

    def operand(self) -> list:
        """The word after the operator, expanded."""
        return self.expander._operand(self.node, self.op_node, self.env, self.quoted)


_PARAM_OPS: dict[str | None, Callable[[_Param, object], list]] = {
    None: Expander._op_none,
    ":-": Expander._op_default, "-": Expander._op_default,
    ":=": Expander._op_default, "=": Expander._op_default,
    ":+": Expander._op_alternative, "+": Expander._op_alternative,
    ":?": Expander._op_error, "?": Expander._op_error,
}
"""Operator → the method for its family (bash manual, "Shell Parameter Expansion")."""


def _c_quotient(a: int, b: int) -> int | None:
    """``a / b`` truncated toward zero (C, and so bash); None for a division by zero."""
    if b == 0:
        return None
    return abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)


def _c_remainder(a: int, b: int) -> int | None:
    """``a % b`` with the sign of ``a`` (C, and so bash); None for a division by zero."""
    q = _c_quotient(a, b)
    return None if q is None else a - b * q


_ARITH_OPS: dict[str, Callable[[int, int], int | None]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _c_quotient,
    "%": _c_remainder,
}
"""The binary arithmetic operators ``$((…))`` is evaluated for; any other (``**``, ``<<``, ``==`` …) is
left unknown."""

_ARITH_NODES: dict[str, Callable] = {
    "number": Expander._arith_number,
    "variable_name": Expander._arith_variable,
    "simple_expansion": Expander._arith_variable,
    "expansion": Expander._arith_variable,
    "parenthesized_expression": Expander._arith_parens,
    "unary_expression": Expander._arith_unary,
    "binary_expression": Expander._arith_binary,
}
"""Arithmetic node type → the method that evaluates it."""
