"""Helm charts: a template under ``templates/`` of a folder with ``Chart.yaml``, rendered over the
chart's ``values.yaml`` as far as it is plain, then read as a Kubernetes manifest.

A linter cannot run Go templates with Sprig, but the part of a chart that decides a launch usually is
plain: the command in a template or a ``define`` in ``_helpers.tpl``, the values in ``values.yaml``, the
GPU in the values' ``nodeSelector``. This module evaluates the actions of Go's ``text/template`` that
charts use for that (Go ``text/template`` documentation; Helm "Template Functions and Pipelines",
"Flow Control", "Named Templates"):

* ``{{ .Values.a.b }}``, ``$.Values…``, ``.`` and ``$var`` (``:=``), with ``| quote``, ``| squote``,
  ``| default X`` (``default X V``), ``| toString``, ``| int``, ``| trim``, ``| trunc N``,
  ``| trimSuffix S``, ``printf "%s…"``; every character of a value keeps its origin in ``values.yaml``,
  so a finding and its fix land there;
* ``{{ include "name" . }}`` / ``{{ template "name" . }}`` expand a ``define`` of any template of the
  chart, with ``| nindent N`` / ``| indent N``;
* ``{{ with X }}`` (rebinding ``.``), ``{{ range X }}`` and ``{{ range $k, $v := X }}`` over a values
  list or mapping, ``{{ toYaml X | nindent N }}`` of a values node (its text in ``values.yaml``,
  re-indented, so its characters keep their origins);
* ``{{ if }}``/``{{ else if }}``/``{{ else }}``/``{{ end }}`` with ``not``, ``and``, ``or``, ``eq``,
  ``ne``, ``empty``: the branch the values select (a value missing from ``values.yaml`` is nil, as in
  Helm). A condition that cannot be decided leaves an unknown item where its branch would write a
  list item, else nothing;
* ``.Chart.Name``/``.Version``/``.AppVersion`` from ``Chart.yaml``; ``.Release.Service`` is ``Helm``;
  other ``.Release.*``, ``.Capabilities.*`` and anything else are unknown.

``--set`` and ``-f`` overlays are outside the chart and not read. Trim markers ``{{-``/``-}}`` and
comments ``{{/* */}}`` are honoured. The rendered text goes to :mod:`linter.extract.kubernetes` with
every character's origin (template text, a helper, or ``values.yaml``).
"""

from __future__ import annotations

import re
from pathlib import Path

from linter import limits
from linter.extract import kubernetes as k8s
from linter.extract import yamltree
from linter.launch import Extraction, MStr, Problem
from linter.records import dataclass, field
from linter.source import SourceFile, Span
from linter.workspace import Workspace, is_file, listing

_TOKEN = re.compile(r"""\s*(?:(?P<str>"(?:[^"\\]|\\.)*"|`[^`]*`)|(?P<num>-?\d+(?:\.\d+)?)|(?P<op>:=|=|\(|\)|\||,)"""
                    r"""|(?P<var>\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|(?P<field>(?:\.[A-Za-z0-9_]+)+|\.)"""
                    r"""|(?P<ident>[A-Za-z_][A-Za-z0-9_]*))""")
_SPACE = re.compile(r"\s*")
MAX_TEMPLATE_FILES = 300

class _Unknown:
    def __repr__(self) -> str:
        return "UNK"


UNK = _Unknown()
"""A value the chart does not decide."""


@dataclass
class Node:
    """A values.yaml node (:mod:`linter.extract.yamlload`) with the file it is in."""

    node: object
    source: SourceFile


# ------------------------------------------------------------------------------------------------
# parsing templates


@dataclass
class _Block:
    kind: str  # root, if, with, range, define
    expr: str = ""
    where: Span | None = None
    body: list = field(default_factory=list)
    branches: list = field(default_factory=list)  # if: [(expr, body)], else last with expr None
    else_body: list | None = None


def parse(text: MStr) -> tuple[list, dict[str, list], list[tuple[str, Span | None]]]:
    """(nodes, defines, errors) of a template: nodes are MStr text, ("action", expr, span) tuples and
    :class:`_Block` objects; errors are (message, where) for unbalanced blocks."""
    root = _Block("root")
    stack = [root]
    defines: dict[str, list] = {}
    errors: list[tuple[str, Span | None]] = []
    for c in _chunks(text.text):
        if c[0] == "text":
            if c[2] > c[1]:
                _current(stack).append(text[c[1]:c[2]])
            continue
        expr = c[1]
        where = text.location(c[2], c[3])
        if expr.startswith("/*"):
            continue
        word = expr.split(None, 1)[0] if expr else ""
        rest = expr[len(word):].strip()
        if word in ("if", "with", "range", "define", "block"):
            b = _Block("define" if word == "block" else word, rest, where)
            if word == "if":
                b.branches.append((rest, []))
            if word == "block":
                _current(stack).append(("action", f'template {rest}', where))
            stack.append(b)
        elif word == "else":
            _else(stack[-1], rest, where, errors)
        elif word == "end":
            _end(stack, where, defines, errors)
        else:
            _current(stack).append(("action", expr, where))
    if len(stack) > 1:
        errors.append((f"{{{{ {stack[-1].kind} }}}} without {{{{ end }}}}", stack[-1].where))
    return root.body, defines, errors


def _chunks(s: str) -> list[list]:
    """The template ``s`` as ``["text", start, end]`` and ``["action", inner, start, end, left trim,
    right trim]`` chunks, with the text beside a trim marker (``{{-``, ``-}}``) trimmed of its blanks."""
    chunks: list = []
    pos = 0
    for start, end, inner, left, right in _actions(s):
        chunks.append(["text", pos, start])
        chunks.append(["action", inner.strip(), start, end, left, right])
        pos = end
    chunks.append(["text", pos, len(s)])
    for i, c in enumerate(chunks):
        if c[0] != "action":
            continue
        if c[4] and i > 0:
            prev = chunks[i - 1]
            while prev[2] > prev[1] and s[prev[2] - 1] in " \t\r\n":
                prev[2] -= 1
        if c[5] and i + 1 < len(chunks):
            nxt = chunks[i + 1]
            while nxt[1] < nxt[2] and s[nxt[1]] in " \t\r\n":
                nxt[1] += 1
    return chunks


def _current(stack: list) -> list:
    """The body the next node of the innermost open block goes to."""
    b = stack[-1]
    if b.kind == "if":
        return b.branches[-1][1]
    if b.else_body is not None:
        return b.else_body
    return b.body


def _else(b: _Block, rest: str, where, errors: list) -> None:
    """``{{ else }}`` or ``{{ else if X }}`` in the open block ``b``."""
    if b.kind == "if":
        if rest.startswith("if "):
            b.branches.append((rest[3:].strip(), []))
        else:
            b.branches.append((None, []))
    elif b.kind in ("with", "range"):
        b.else_body = []
    else:
        errors.append(("{{ else }} outside if/with/range", where))


def _end(stack: list, where, defines: dict, errors: list) -> None:
    """``{{ end }}``: close the innermost block (a define is recorded by name, others join their parent)."""
    if len(stack) == 1:
        errors.append(("unbalanced {{ end }}", where))
        return
    b = stack.pop()
    if b.kind == "define":
        name = _string(b.expr.split(None, 1)[0]) if b.expr else None
        if name is not None:
            defines[name] = b.body
    else:
        _current(stack).append(b)


def _actions(s: str):
    """(start, end, inner text, left trim, right trim) of each ``{{ … }}`` action, in one pass: an
    action runs from ``{{`` to the first ``}}`` after it, a ``-`` after the opening or before the
    closing braces trims (Go ``text/template``). A ``{{`` with no ``}}`` after it ends the actions
    (a regular expression would look for the close again from each of them: quadratic)."""
    pos = 0
    while True:
        start = s.find("{{", pos)
        if start < 0:
            return
        close = s.find("}}", start + 2)
        if close < 0:
            return
        inner = s[start + 2:close]
        left = inner.startswith("-")
        if left:
            inner = inner[1:]
        right = inner.endswith("-")
        if right:
            inner = inner[:-1]
        yield start, close + 2, inner, left, right
        pos = close + 2


def _string(tok: str) -> str | None:
    if len(tok) >= 2 and tok[0] == tok[-1] and tok[0] in "\"`":
        return tok[1:-1]
    return None


# ------------------------------------------------------------------------------------------------
# values


def _field(obj, name: str):
    if obj is UNK:
        return UNK
    if isinstance(obj, Node):
        if not k8s._is_map(obj.node):
            return None
        _, v = yamltree.get(obj.node, name)
        return Node(v, obj.source) if v is not None else None
    if isinstance(obj, dict):
        return obj.get(name, UNK if obj.get("*") is UNK else None)
    return None


def _scalar_text(n: Node) -> MStr:
    node = n.node
    if node.tag == "tag:yaml.org,2002:null":
        return MStr.plain("")
    return yamltree.mstr(node, n.source)


def truth(v):
    """Go template truth: false, 0, nil, empty strings and collections are false; UNK when unknown."""
    if v is UNK:
        return UNK
    if v is None or v is False:
        return False
    if v is True:
        return True
    if isinstance(v, (int, float)):
        return v != 0
    if isinstance(v, MStr):
        return UNK if not v.known else v.text != ""
    if isinstance(v, Node):
        node = v.node
        if k8s._is_map(node) or k8s._is_seq(node):
            return bool(node.value)
        tag = node.tag
        if tag == "tag:yaml.org,2002:null":
            return False
        if tag == "tag:yaml.org,2002:bool":
            return str(node.value).lower() in ("true", "yes", "on", "y")
        if tag == "tag:yaml.org,2002:int":
            try:
                return int(str(node.value), 0) != 0
            except ValueError:
                return True
        if tag == "tag:yaml.org,2002:float":
            try:
                return float(str(node.value)) != 0
            except ValueError:
                return True
        return str(node.value) != ""
    if isinstance(v, (dict, list)):
        return bool(v)
    return UNK


def text_of(v, where: Span | None) -> MStr:
    """How Go prints a value (``<no value>`` is empty in Helm); collections and unknowns are unknown."""
    if isinstance(v, MStr):
        return v
    if v is None:
        return MStr.plain("", where)
    if v is True or v is False:
        return MStr.plain("true" if v else "false", where)
    if isinstance(v, (int, float)) and v is not UNK:
        return MStr.plain(str(v), where)
    if isinstance(v, Node) and not (k8s._is_map(v.node) or k8s._is_seq(v.node)):
        return _scalar_text(v)
    return MStr.unknown(where)


def to_yaml(v, where: Span | None) -> MStr:
    """``toYaml`` of a values node: its own text in values.yaml, re-indented to column 0."""
    if isinstance(v, Node):
        node = v.node
        if not (k8s._is_map(node) or k8s._is_seq(node)):
            return _scalar_text(v)
        if getattr(node, "flow_style", False):
            return MStr.literal(v.source, node.start_mark.index, node.end_mark.index)
        src = v.source.text
        start, end = node.start_mark.index, node.end_mark.index
        col = node.start_mark.column
        while end > start and src[end - 1] in " \t\r\n":
            end -= 1
        parts = []
        line_start = start
        first = True
        while line_start < end:
            nl = src.find("\n", line_start, end)
            stop = end if nl < 0 else nl
            a = line_start if first else min(line_start + col, stop)
            if not first and src[line_start:a].strip():
                a = line_start  # a line indented less than the node (should not happen)
            if not first:
                parts.append(MStr.plain("\n", where))
            parts.append(MStr.literal(v.source, a, stop))
            first = False
            line_start = stop + 1
        return MStr.join(parts, where)
    if v is None:
        return MStr.plain("null", where)
    return text_of(v, where)


def _indent(s: MStr, n: int, where) -> MStr:
    pad = MStr.plain(" " * n, where)
    parts = [pad]
    last = 0
    for i, ch in enumerate(s.text):
        if ch == "\n":
            parts.append(s[last:i + 1])
            parts.append(pad)
            last = i + 1
    parts.append(s[last:])
    return MStr.join(parts, where)


# ------------------------------------------------------------------------------------------------
# rendering


class Renderer:
    """Renders templates of one chart: ``values`` (a :class:`Node`, or UNK without values.yaml),
    ``chart`` (Chart.yaml fields) and the chart's ``defines``."""

    def __init__(self, values, chart: dict, defines: dict[str, list]) -> None:
        self.root = {"Values": values, "Chart": chart, "Release": {"Service": MStr.plain("Helm"), "*": UNK},
                     "Capabilities": UNK, "Template": UNK, "Files": UNK}
        self.defines = defines
        self.used: set[str] = set()
        self.budget = limits.budget()
        self.included: dict[tuple, tuple] = {}  # (define, dot) -> (its output, the dot kept alive)

    def render(self, nodes: list, dot, variables: dict, depth: int = 0) -> MStr:
        """The text of ``nodes``. Each node is an evaluator step of the file's budget, and the text is
        counted before it is joined; past either, :class:`linter.limits.LimitExceeded`."""
        parts: list[MStr] = []
        for n in nodes:
            self.budget.step("rendering the Helm template")
            if isinstance(n, MStr):
                parts.append(n)
            elif isinstance(n, tuple):
                _, expr, where = n
                value = self.pipeline(expr, dot, variables, where, depth)
                if value is not _ASSIGNED:
                    parts.append(text_of(value, where))
            else:
                parts.append(self.block(n, dot, variables, depth))
        if not parts:
            return MStr.plain("")
        if len(parts) > 1 and not self.budget.charge(sum(len(p) for p in parts), "the rendered Helm template",
                                                     one_value=False):
            raise limits.LimitExceeded("MAX_EXPANDED_CHARS", "the rendered Helm template")
        return MStr.join(parts)

    def block(self, b: _Block, dot, variables: dict, depth: int) -> MStr:
        if b.kind == "if":
            undecided = []
            for expr, body in b.branches:
                t = True if expr is None else truth(self.pipeline(expr, dot, variables, b.where, depth))
                if t is UNK:
                    undecided.append(body)
                    continue
                if t and not undecided:
                    return self.render(body, dot, variables, depth)
                if t:
                    undecided.append(body)
                    break
            if not undecided:
                return MStr.plain("")
            return self._undecided(undecided, b.where)
        value = self.pipeline(b.expr.split(":=", 1)[-1] if b.kind == "range" else b.expr, dot, variables, b.where,
                              depth)
        if b.kind == "with":
            t = truth(value)
            if t is UNK:
                return self._undecided([b.body] + ([b.else_body] if b.else_body else []), b.where)
            if t:
                return self.render(b.body, value, variables, depth)
            return self.render(b.else_body or [], dot, variables, depth)
        # range
        names = [x.strip() for x in b.expr.split(":=", 1)[0].split(",")] if ":=" in b.expr else []
        items = self._items(value)
        if items is UNK:
            return self._undecided([b.body], b.where)
        if not items:
            return self.render(b.else_body or [], dot, variables, depth)
        parts = []
        for key, item in items:
            self.budget.step("a Helm range iteration")
            scope = dict(variables)
            if len(names) == 1:
                scope[names[0]] = item
            elif len(names) == 2:
                scope[names[0]], scope[names[1]] = key, item
            parts.append(self.render(b.body, item, scope, depth))
        if not self.budget.charge(sum(len(p) for p in parts), "the output of a Helm range", b.where, one_value=False):
            raise limits.LimitExceeded("MAX_EXPANDED_CHARS", "the output of a Helm range")
        return MStr.join(parts)

    def _items(self, value):
        if isinstance(value, Node):
            if k8s._is_seq(value.node):
                return [(i, Node(v, value.source)) for i, v in enumerate(value.node.value)]
            if k8s._is_map(value.node):
                # Go ranges over a map in key order
                pairs = [(yamltree.mstr(k, value.source), Node(v, value.source)) for k, v in yamltree.items(value.node)]
                return sorted(pairs, key=lambda p: p[0].text)
            return [] if truth(value) is False else UNK
        if value is None:
            return []
        return UNK

    def _undecided(self, bodies: list, where) -> MStr:
        """What an undecidable branch leaves: an unknown list item where a branch writes list items."""
        for body in bodies:
            for n in body:
                if isinstance(n, MStr) and n.text.strip():
                    m = re.match(r"\s*?(\n?[ \t]*- )", n.text)
                    if m:
                        return MStr.join([MStr.plain(m.group(1), where), MStr.unknown(where)])
                    return MStr.plain("")
        return MStr.plain("")

    # -- expressions ----------------------------------------------------------------------------

    def pipeline(self, expr: str, dot, variables: dict, where, depth: int):
        self.budget.step("a Helm pipeline")
        tokens = _tokens(expr)
        if tokens is None:
            return UNK
        if len(tokens) >= 2 and tokens[0][0] == "var" and tokens[1] == ("op", ":="):
            variables[tokens[0][1]] = self._pipe(tokens[2:], dot, variables, where, depth)
            return _ASSIGNED
        if len(tokens) >= 2 and tokens[0][0] == "var" and tokens[1] == ("op", "="):
            variables[tokens[0][1]] = self._pipe(tokens[2:], dot, variables, where, depth)
            return _ASSIGNED
        return self._pipe(tokens, dot, variables, where, depth)

    def _pipe(self, tokens, dot, variables, where, depth):
        commands, cur, level = [], [], 0
        for t in tokens:
            if t == ("op", "("):
                level += 1
            elif t == ("op", ")"):
                level -= 1
            if t == ("op", "|") and level == 0:
                commands.append(cur)
                cur = []
            else:
                cur.append(t)
        commands.append(cur)
        value = _NOTHING
        for cmd in commands:
            value = self._command(cmd, dot, variables, where, depth, value)
        return None if value is _NOTHING else value

    def _args(self, tokens, dot, variables, where, depth) -> list:
        out, i = [], 0
        while i < len(tokens):
            t = tokens[i]
            if t == ("op", "("):
                level, j = 1, i + 1
                while j < len(tokens) and level:
                    level += {("op", "("): 1, ("op", ")"): -1}.get(tokens[j], 0)
                    j += 1
                out.append(self._pipe(tokens[i + 1:j - 1], dot, variables, where, depth))
                i = j
                continue
            out.append(self._operand(t, dot, variables, where, depth))
            i += 1
        return out

    def _operand(self, t, dot, variables, where, depth):
        kind, val = t
        if kind == "str":
            return MStr.plain(bytes(val[1:-1], "utf-8").decode("unicode_escape") if val[0] == '"' else val[1:-1],
                              where)
        if kind == "num":
            return float(val) if "." in val else int(val)
        if kind == "field":
            obj = dot
            for name in [p for p in val.split(".") if p]:
                obj = self.root[name] if obj is self.root and name in self.root else _field(obj, name)
            return obj
        if kind == "var":
            head, *path = val.split(".")
            obj = self.root if head == "$" else variables.get(head, UNK)
            for name in path:
                obj = _field(obj, name)
            return obj
        if kind == "ident":
            return {"true": True, "false": False, "nil": None}.get(val, UNK)
        return UNK

    def _command(self, cmd, dot, variables, where, depth, piped):
        if not cmd:
            return UNK
        head = cmd[0]
        if head[0] == "ident" and head[1] not in ("true", "false", "nil"):
            args = self._args(cmd[1:], dot, variables, where, depth)
            if piped is not _NOTHING:
                args.append(piped)
            return self.call(head[1], args, dot, where, depth, cmd[1:])
        if piped is not _NOTHING or len(cmd) > 1 and cmd[0] != ("op", "("):
            return UNK
        got = self._args(cmd, dot, variables, where, depth)
        return got[0] if len(got) == 1 else UNK

    def call(self, name: str, args: list, dot, where, depth: int, raw):
        """The value of the template function ``name`` called with ``args`` (already evaluated) at
        ``where``: one of :data:`_FUNCTIONS`; ``UNK`` for any other function or arguments it cannot use."""
        fn = _FUNCTIONS.get(name)
        return UNK if fn is None else fn(self, name, args, where, depth)

    def include(self, args: list, where, depth: int):
        """``include``/``template``: the named define rendered with the given dot (once per define and dot)."""
        tname = args[0]
        if not isinstance(tname, MStr) or not tname.known or tname.text not in self.defines:
            return UNK
        if depth >= limits.MAX_TEMPLATE_DEPTH:
            self.budget.hit("MAX_TEMPLATE_DEPTH", f"the nesting of include {tname.text!r}", where,
                            "its output is unknown")
            return UNK
        self.used.add(tname.text)
        arg = args[1] if len(args) > 1 else None
        dot_ = self.root if arg is self.root else arg
        # an include renders the same for the same define and dot (its variables start afresh): once
        key = (tname.text, id(dot_.node) if isinstance(dot_, Node) else id(dot_))
        got = self.included.get(key)
        if got is None:
            got = self.included[key] = (self.render(self.defines[tname.text], dot_, {"$": self.root}, depth + 1),
                                        dot_)
        out = got[0]
        # an include's output is an expansion: counted where it is used (a define including another
        # twice doubles at each level)
        return out if self.budget.charge(len(out), f"the output of include {tname.text!r}", where) else UNK


# ------------------------------------------------------------------------------------------------
# the template functions: (renderer, name, evaluated args, where, depth) -> value; UNK for arguments
# a function cannot use (Go text/template builtins and the Sprig functions charts use)


def _fn_include(r: Renderer, name: str, args: list, where, depth: int):
    return r.include(args, where, depth) if args else UNK


def _fn_quote(r: Renderer, name: str, args: list, where, depth: int):
    if not args:
        return UNK
    q = MStr.plain('"' if name == "quote" else "'", where)
    return MStr.join([q, text_of(args[-1], where), q])


def _fn_default(r: Renderer, name: str, args: list, where, depth: int):
    if len(args) != 2:
        return UNK
    t = truth(args[1])
    return UNK if t is UNK else (args[1] if t else args[0])


def _fn_to_string(r: Renderer, name: str, args: list, where, depth: int):
    return text_of(args[-1], where) if args else UNK


def _fn_trim(r: Renderer, name: str, args: list, where, depth: int):
    if not args:
        return UNK
    v = text_of(args[-1], where)
    a, b = 0, len(v.text)
    while a < b and v.text[a] in " \t\r\n":
        a += 1
    while b > a and v.text[b - 1] in " \t\r\n":
        b -= 1
    return v[a:b]


def _fn_int(r: Renderer, name: str, args: list, where, depth: int):
    if not args:
        return UNK
    v = text_of(args[-1], where)
    if re.fullmatch(r"-?\d+", v.text):
        return v
    return UNK if not v.known or v.text else MStr.plain("0", where)


def _fn_to_yaml(r: Renderer, name: str, args: list, where, depth: int):
    return to_yaml(args[-1], where) if args else UNK


def _fn_indent(r: Renderer, name: str, args: list, where, depth: int):
    if len(args) != 2 or not isinstance(args[0], int):
        return UNK
    body = _indent(text_of(args[1], where), args[0], where)
    return MStr.join([MStr.plain("\n", where), body]) if name == "nindent" else body


def _fn_trunc(r: Renderer, name: str, args: list, where, depth: int):
    if len(args) != 2 or not isinstance(args[0], int):
        return UNK
    v = text_of(args[1], where)
    return v[:args[0]] if args[0] >= 0 else v[args[0]:]


def _fn_trim_suffix(r: Renderer, name: str, args: list, where, depth: int):
    if len(args) != 2:
        return UNK
    suf, v = text_of(args[0], where), text_of(args[1], where)
    return v[:len(v.text) - len(suf.text)] if suf.known and suf.text and v.text.endswith(suf.text) else v


def _fn_printf(r: Renderer, name: str, args: list, where, depth: int):
    if not (args and isinstance(args[0], MStr) and args[0].known):
        return UNK
    fmt = args[0].text
    parts, k, last = [], 1, 0
    for m in re.finditer(r"%[sdv]", fmt):
        parts.append(MStr.plain(fmt[last:m.start()], where))
        parts.append(text_of(args[k], where) if k < len(args) else MStr.unknown(where))
        k += 1
        last = m.end()
    if "%" in fmt[last:]:
        return UNK
    parts.append(MStr.plain(fmt[last:], where))
    return MStr.join(parts)


def _fn_not(r: Renderer, name: str, args: list, where, depth: int):
    if len(args) != 1:
        return UNK
    t = truth(args[0])
    return UNK if t is UNK else not t


def _fn_and_or(r: Renderer, name: str, args: list, where, depth: int):
    if not args:
        return UNK
    ts = [truth(a) for a in args]
    if name == "and":
        return False if False in ts else (UNK if UNK in ts else args[-1])
    return next((a for a, t in zip(args, ts) if t is True), None) if UNK not in ts or True in ts else UNK


def _fn_eq_ne(r: Renderer, name: str, args: list, where, depth: int):
    if len(args) < 2:
        return UNK
    vals = [text_of(a, where) for a in args]
    if not all(v.known for v in vals):
        return UNK
    same = any(vals[0].text == v.text for v in vals[1:])
    return same if name == "eq" else not same


def _fn_empty(r: Renderer, name: str, args: list, where, depth: int):
    if not args:
        return UNK
    t = truth(args[-1])
    return UNK if t is UNK else not t


def _fn_required(r: Renderer, name: str, args: list, where, depth: int):
    return args[1] if len(args) == 2 else UNK


_FUNCTIONS = {
    "include": _fn_include, "template": _fn_include, "quote": _fn_quote, "squote": _fn_quote,
    "default": _fn_default, "toString": _fn_to_string, "trim": _fn_trim, "int": _fn_int, "int64": _fn_int,
    "toYaml": _fn_to_yaml, "nindent": _fn_indent, "indent": _fn_indent, "trunc": _fn_trunc,
    "trimSuffix": _fn_trim_suffix, "printf": _fn_printf, "not": _fn_not, "and": _fn_and_or, "or": _fn_and_or,
    "eq": _fn_eq_ne, "ne": _fn_eq_ne, "empty": _fn_empty, "required": _fn_required,
}
"""The template functions the renderer knows, by name; any other renders as unknown."""


_ASSIGNED = object()
_NOTHING = object()


def _tokens(expr: str):
    out = []
    pos = 0
    n = len(expr)
    while pos < n:
        if _SPACE.match(expr, pos).end() == n:  # (not expr[pos:].strip(): a copy per token is quadratic)
            break
        m = _TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            return None
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


# ------------------------------------------------------------------------------------------------
# the chart


_CACHE: dict[int, tuple[SourceFile, tuple]] = {}


def _parsed(f: SourceFile) -> tuple:
    """:func:`parse` of a whole file, once per file object (every template of a chart reads the others'
    defines)."""
    hit = _CACHE.get(id(f))
    if hit is not None and hit[0] is f:
        return hit[1]
    if len(_CACHE) > 512:
        _CACHE.clear()
    got = parse(MStr.literal(f, 0, len(f.text)))
    _CACHE[id(f)] = (f, got)
    return got


def chart_root(path: Path) -> Path | None:
    """The chart folder of a template (the nearest folder above ``templates/`` holding Chart.yaml)."""
    for parent in list(path.parents)[:6]:
        if parent.name == "templates" and is_file(parent.parent / "Chart.yaml"):
            return parent.parent
    return None


def _yaml_root(source: SourceFile):
    roots = k8s.parse_documents(source, None)
    return roots[0] if roots else None


def _outside_a_chart(source: SourceFile, ws: Workspace) -> Extraction:
    """A manifest with ``{{ … }}`` that is not a chart's template (no ``Chart.yaml`` above it): Go-template
    text inside its strings is data of its own (llmaz's ``{{ .ModelPath }}`` placeholders), so it is
    read as the Kubernetes manifest it is when it parses as one; otherwise nothing is read."""
    from linter.extract import kubernetes
    from linter.formats import looks_like_kubernetes

    if not looks_like_kubernetes(source.text):
        return Extraction()
    got = kubernetes.extract(source, ws)
    return Extraction() if got.problems else got


@limits.budgeted
def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of one chart template, rendered over ``values.yaml`` (see the module docstring)."""
    path = Path(source.path)
    root = chart_root(path)
    if root is None and path.suffix.lower() != ".tpl":
        return _outside_a_chart(source, ws)
    if root is None or path.name.startswith("_") or path.suffix.lower() == ".tpl":
        return Extraction()
    result = Extraction()
    values_src = ws.try_read(root / "values.yaml")
    values = _values(values_src)
    chart = _chart(ws.try_read(root / "Chart.yaml"))
    defines, def_files, mine = _templates(root, path, source, ws)
    if mine is None:
        return result
    nodes, errors = mine
    for message, where in errors:
        result.problems.append(Problem(f"template: {message}; the launches it touches are read as far as they can be",
                                       where or Span(source, 0, 0)))
    renderer = Renderer(values, chart, defines)
    try:
        rendered = renderer.render(nodes, renderer.root, {"$": renderer.root})
    except limits.LimitExceeded as exc:  # the file's budget (steps or characters) is spent
        limits.budget().stopped(exc, Span(source, 0, 0), "the template's launches are not read")
        return result
    except RecursionError:
        result.problems.append(Problem("the template nests too deeply; its launches are not read", Span(source, 0, 0)))
        return result
    if not rendered.text.strip():
        return result
    text_file = SourceFile(path=source.path, display=source.display, text=rendered.text, bom=source.bom)
    ex = k8s.extract(text_file, ws)
    origins = rendered.origins
    k8s.remap(ex, text_file, lambda i: origins[i] if i < len(origins) else None, source)
    result.launches = ex.launches
    result.problems.extend(p for p in ex.problems if p.span.source is not text_file)
    related = [values_src] if values_src is not None else []
    related += [def_files[n] for n in sorted(renderer.used) if def_files.get(n) not in (None, source)]
    for f in related + ex.related:
        if f not in result.related and f is not source:
            result.related.append(f)
    return result


def _values(values_src: SourceFile | None):
    """``.Values``: the chart's ``values.yaml`` as a :class:`Node`; None when it is not a mapping, UNK
    when there is none."""
    if values_src is None:
        return UNK
    node = _yaml_root(values_src)
    return Node(node, values_src) if node is not None and k8s._is_map(node) else None


def _chart(chart_src: SourceFile | None) -> dict:
    """``.Chart``: ``Name``, ``Version`` and ``AppVersion`` from ``Chart.yaml`` (None when not written)."""
    chart: dict = {"*": None}
    cnode = _yaml_root(chart_src) if chart_src is not None else None
    for key, name in (("name", "Name"), ("version", "Version"), ("appVersion", "AppVersion")):
        v = k8s._val(cnode, key) if cnode is not None else None
        chart[name] = yamltree.mstr(v, chart_src) if k8s._is_str(v) else None
    return chart


def _templates(root: Path, path: Path, source: SourceFile, ws: Workspace) -> tuple[dict, dict, tuple | None]:
    """The defines of the chart's templates (name -> nodes), the file of each, and the ``(nodes,
    errors)`` of ``source`` itself (None when it is not among the first :data:`MAX_TEMPLATE_FILES`)."""
    defines: dict[str, list] = {}
    def_files: dict[str, SourceFile] = {}
    files = sorted(p for p in (root / "templates" / rel for rel in listing("g", root / "templates"))
                   if p.suffix.lower() in (".tpl", ".yaml", ".yml"))
    mine = None
    for p in files[:MAX_TEMPLATE_FILES]:
        f = source if p == path else ws.try_read(p)
        if f is None:
            continue
        nodes, defs, errors = _parsed(f)
        for name in defs:
            def_files[name] = f
        defines.update(defs)
        if f is source:
            mine = (nodes, errors)
    return defines, def_files, mine


__all__ = ["extract", "parse", "Renderer", "chart_root", "truth", "to_yaml", "UNK", "Node"]
