"""Shell and Slurm scripts: the SGLang launches in ``*.sh``/``*.bash``/``*.slurm``/``*.sbatch`` files
and sh/bash/zsh-shebang scripts, read with tree-sitter-bash (error-tolerant, byte spans).

What this module reproduces of bash, for straight-line code and without running anything:

* **Launches** are simple commands whose program, after prefixes (``VAR=value``, ``env [-i] [VAR=value…]``,
  ``exec``, ``nohup``, ``time``, ``command``, ``timeout DURATION``, ``numactl …``, ``taskset …``,
  ``stdbuf …``, ``nice``, ``sudo``), is an SGLang entry point — wherever the command stands (lists,
  pipelines, ``&``, subshells, ``$(…)``, function bodies, loops, each branch of ``if``/``case``). Wrapped
  commands are unwrapped: ``docker``/``podman run [options] IMAGE …`` and ``docker exec [options]
  CONTAINER …``; ``apptainer``/``singularity exec``; ``srun``/``salloc``/``mpirun``/``torchrun``/
  ``deepspeed``/``accelerate launch`` with their options; ``ray job submit … --``, ``kubectl exec … --``;
  ``bash -c STRING``, ``sh -c STRING``, ``sbatch --wrap=STRING`` and ``ssh [options] HOST STRING…``,
  whose string is parsed again as shell with every character mapped back to the outer file.
  Comments, heredoc bodies, ``echo``/``printf`` text and other programs' flags are not launches.
* **Values**: variables assigned earlier in the file (``X=…``, ``X+=…``, ``export``/``readonly``/
  ``declare``/``local``/``typeset``, ``${X:=d}``), arrays ``A=(…)``/``A+=(…)`` with ``"${A[@]}"`` (one
  word per element) and ``${A[*]}``, ``'…'``, ``"…"``, ``$'…'`` and ``$"…"`` quoting, backslash escapes,
  line continuations, ``${X:-d}``/``${X-d}``/``${X:+x}``/``${X+x}``/``${X:?}``, and field splitting of
  unquoted expansions (an unknown unquoted expansion standing alone is a *splat*: any number of
  words). After ``if``/``case``/``&&``/``||`` a variable assigned differently on the paths is unknown;
  a variable assigned in a loop is unknown after it (and in it, when a later iteration can see another
  value). Functions are analysed with the variables at their call sites (merged), or at their
  definition when never called. ``$1``, ``$@``, ``$(…)``, arithmetic and anything the file does not assign
  are unknown — except that a default written in the file (``${X:-d}``, ``${X:=d}`` for a variable the
  file never assigns) is taken as the value, as DESIGN.md says; ``${X:+x}`` of such a variable stays
  unknown. A ``bash -c``/``ssh`` string sees only exported variables (``docker run`` only its ``-e``
  ones). An unknown value is never guessed, and a value written in several places is known but not
  editable.
* **Target GPUs**: ``#SBATCH`` directives before the first command, and ``sbatch``/``srun``/``salloc``
  options anywhere: ``--gres=gpu:TYPE[:N]``, ``--gpus``/``-G``/``--gpus-per-node``/``--gpus-per-task``/
  ``--gpus-per-socket`` ``TYPE:N``, ``--tres-per-task``/``--tres-per-node`` ``gres/gpu:TYPE:N``, and
  ``--constraint``/``-C`` features that name a GPU (``h100|h200`` gives two candidates). A bare count
  (``--gres=gpu:8``, ``docker run --gpus all``) declares nothing.

Every token keeps, for each character, its origin in the file, also through variables, defaults and
``bash -c`` strings, so a fix edits the literal where the value was written.

A script tree-sitter cannot parse cleanly still yields the launches in its well-formed parts, and a
:class:`~linter.launch.Problem` (SGL001) at the first ``ERROR``/``MISSING`` node (past the complete
statements an ``ERROR`` node holds). Not followed: ``source``d files, ``eval``, heredocs fed to a
shell, and what a called function assigns (those variables become unknown after the call).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Callable

from linter.argv import skip_options
from linter.launch import UNKNOWN_CHAR, Extraction, GpuDecl, Launch, MStr, Problem, Token, hull
from linter.source import SourceFile, Span

__all__ = ["extract", "launches_in_script", "parse_script"]

_MAX_NESTING = 8
_MAX_LOOP_DEPTH = 6
_IFS = " \t\n"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ASSIGN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")


@functools.cache
def _parser():
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


# The end of a script made only of blanks and line continuations (``\\`` before a newline or the end).
_BLANK_TAIL = re.compile(rb"(?:[ \t\r\n]|\\\r?\n|\\\Z)*\Z")


def _bash_tail(data: bytes) -> bytes:
    """``data`` with the backslashes of a trailing run of line continuations made blanks.

    bash removes ``\\<newline>`` and ignores a ``\\`` at the end of the file (``bash -n`` accepts
    ``cmd \\`` followed by a blank line, GNU bash 5.2), where tree-sitter-bash 0.23 gives an
    ERROR node. Byte offsets are kept, so spans are unaffected.
    """
    m = _BLANK_TAIL.search(data)
    start = m.start()
    if data[start:start + 1] == b"\\":
        run = len(data[:start]) - len(data[:start].rstrip(b"\\"))
        if run % 2:  # this backslash is escaped by the one before it: a literal, not a continuation
            start += 1
    tail = data[start:]
    if b"\\" not in tail:
        return data
    return data[:start] + tail.replace(b"\\", b" ")


def parse_script(data: bytes):
    """The tree-sitter-bash tree of ``data`` (UTF-8 bytes)."""
    return _parser().parse(_bash_tail(data))


# ------------------------------------------------------------------------------------------------
# text with origins


class _Doc:
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
            b2c = [0] * (len(self.data) + 1)
            pos = 0
            for ci, ch in enumerate(text):
                n = len(ch.encode("utf-8"))
                for k in range(n):
                    b2c[pos + k] = ci
                pos += n
            b2c[pos] = len(text)
            self.b2c = b2c

    def c(self, byte: int) -> int:
        return byte if self.b2c is None else self.b2c[byte]

    def rng(self, node) -> tuple[int, int]:
        return self.c(node.start_byte), self.c(node.end_byte)

    def origin(self, i: int):
        if self.base is None:
            return (self.source, i)
        return self.base.origins[i]

    def where(self, i: int, j: int) -> Span:
        """The span in the file for doc characters ``[i, j)`` (exact or the hull of their origins)."""
        if self.base is None:
            return Span(self.source, i, j)
        spans = [o for o in self.base.origins[i:j] if o is not None and o[0] is self.source]
        if not spans:
            return self.fallback
        return Span(self.source, min(o[1] for o in spans), max(o[1] for o in spans) + 1)

    def mstr(self, i: int, j: int, where: Span | None = None) -> MStr:
        if self.base is None:
            return MStr(self.text[i:j], [(self.source, k) for k in range(i, j)], where or Span(self.source, i, j))
        return MStr(self.text[i:j], self.base.origins[i:j], where or self.where(i, j))

    def node_text(self, node) -> str:
        i, j = self.rng(node)
        return self.text[i:j]


# ------------------------------------------------------------------------------------------------
# variables


class _State:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNKNOWN_V = _State("UNKNOWN")
"""A variable the file assigns a value that cannot be known."""
UNSET = _State("UNSET")
"""A variable the file unsets (or declares without a value)."""
ABSENT = _State("ABSENT")
"""A variable the file never assigns (its value would come from outside)."""


class _Env:
    """name -> MStr (scalar) | list[Token] (array) | UNKNOWN_V | UNSET; absent = never assigned."""

    __slots__ = ("vars", "exported", "allexport")

    def __init__(self, vars_: dict | None = None, exported: set | None = None, allexport: bool = False) -> None:
        self.vars = vars_ if vars_ is not None else {}
        self.exported = exported if exported is not None else set()
        self.allexport = allexport

    def copy(self) -> _Env:
        return _Env(dict(self.vars), set(self.exported), self.allexport)

    def replace(self, other: _Env) -> None:
        self.vars, self.exported, self.allexport = other.vars, other.exported, other.allexport

    def get(self, name: str):
        return self.vars.get(name, ABSENT)

    def set(self, name: str, value, export: bool = False) -> None:
        self.vars[name] = value
        if export or self.allexport:
            self.exported.add(name)

    def child(self, extra: dict | None = None, inherit: bool = True) -> _Env:
        """The environment a child process sees: exported variables; others the file assigned are
        unknown there (the name may have come from the environment, exported)."""
        out = _Env()
        if inherit:
            for name, value in self.vars.items():
                if value is ABSENT:
                    continue
                if name in self.exported or self.allexport or value is UNSET:
                    out.vars[name] = value
                else:
                    out.vars[name] = UNKNOWN_V
        for name, value in (extra or {}).items():
            out.vars[name] = value
        out.exported = set(out.vars)
        return out


def _same(a, b) -> bool:
    if a is b:
        return True
    if isinstance(a, MStr) and isinstance(b, MStr):
        return a.text == b.text and a.origins == b.origins
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(x.splat == y.splat and _same(x.text, y.text) for x, y in zip(a, b))
    return False


def _same_text(a, b) -> bool:
    if isinstance(a, MStr) and isinstance(b, MStr):
        return a.text == b.text
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(x.splat == y.splat and x.text.text == y.text.text for x, y in zip(a, b))
    return False


def _unlocated(value):
    """The same value with no editable origin (equal text written in several places)."""
    if isinstance(value, MStr):
        return MStr(value.text, [None] * len(value.text), value.where)
    return [Token(_unlocated(t.text), t.splat) for t in value]


def _merge(envs: list[_Env]) -> _Env:
    """The environment after paths that end in ``envs``: a variable with different values is unknown."""
    if len(envs) == 1:
        return envs[0].copy()
    base = envs[0].vars
    differ: set[str] = set()
    for e in envs[1:]:
        ev = e.vars
        differ.update(n for n, v in ev.items() if base.get(n, ABSENT) is not v)
        differ.update(base.keys() - ev.keys())
    out = _Env(dict(base), allexport=any(e.allexport for e in envs))
    for n in differ:
        values = [e.get(n) for e in envs]
        first = values[0]
        if all(_same(first, v) for v in values[1:]):
            if first is ABSENT:
                out.vars.pop(n, None)
            else:
                out.vars[n] = first
        elif all(_same_text(first, v) for v in values[1:]):
            out.vars[n] = _unlocated(first)
        else:
            out.vars[n] = UNKNOWN_V
    for e in envs:
        out.exported |= e.exported
    return out


# ------------------------------------------------------------------------------------------------
# words: segments and field splitting

# A segment is ("lit", MStr, splittable) — text; splittable for unquoted expansion results, whose
# blanks separate words and whose unknown parts may be any number of words —, ("arr", [Token]) — the
# elements of "${A[@]}", one word each — or ("splat", MStr) — "$@": an unknown number of words.


def _assemble(segs: list) -> list[Token]:
    """Field splitting: the words a list of segments makes."""
    out: list[Token] = []
    chars: list[str] = []
    origins: list = []
    wheres: list = []
    started = fixed = unk = splat = False

    def emit() -> None:
        nonlocal chars, origins, wheres, started, fixed, unk, splat
        if started:
            out.append(Token(MStr("".join(chars), origins, hull(wheres)), splat=splat or (unk and not fixed)))
        chars, origins, wheres = [], [], []
        started = fixed = unk = splat = False

    for seg in segs:
        kind = seg[0]
        if kind == "lit":
            m, split = seg[1], seg[2]
            if not split:
                chars.extend(m.text)
                origins.extend(m.origins)
                wheres.append(m.where)
                started = True
                if m.text:
                    fixed = True
                continue
            for ch, o in zip(m.text, m.origins):
                if ch in _IFS:
                    emit()
                    continue
                if not started:
                    wheres.append(m.where)
                chars.append(ch)
                origins.append(o)
                started = True
                if ch == UNKNOWN_CHAR:
                    unk = True
                else:
                    fixed = True
            if started:
                wheres.append(m.where)
        elif kind == "arr":
            for k, tok in enumerate(seg[1]):
                if k:
                    emit()
                chars.extend(tok.text.text)
                origins.extend(tok.text.origins)
                wheres.append(tok.text.where)
                started = True
                if tok.text.text:
                    fixed = True
                splat = splat or tok.splat
        else:  # splat
            m = seg[1]
            chars.extend(m.text)
            origins.extend(m.origins)
            wheres.append(m.where)
            started = splat = True
    emit()
    return out


def _scalar(segs: list, where: Span | None) -> MStr:
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
    return MStr.join(parts, hull([p.where for p in parts]) or where)


def _join_tokens(tokens: list[Token], where: Span | None) -> MStr:
    parts: list[MStr] = []
    for k, tok in enumerate(tokens):
        if k:
            parts.append(MStr.plain(" ", where))
        parts.append(MStr.unknown(tok.text.where or where) if tok.splat else tok.text)
    return MStr.join(parts, where) if parts else MStr.plain("", where)


_ANSI = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f",
         "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


# ------------------------------------------------------------------------------------------------
# results shared by the walkers of one file


@dataclass
class _Fn:
    name: str
    body: object
    doc: _Doc
    def_env: _Env
    assigned: set[str]
    calls: list[_Env] = field(default_factory=list)
    launch_span: Span | None = None
    image: MStr | None = None


@dataclass
class _Shared:
    source: SourceFile
    launches: list[Launch] = field(default_factory=list)
    decls: list[GpuDecl] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    functions: dict[str, _Fn] = field(default_factory=dict)
    fn_order: list[_Fn] = field(default_factory=list)
    decl_keys: set = field(default_factory=set)

    def add_decl(self, decl: GpuDecl) -> None:
        key = (decl.name, decl.span.key() if decl.span is not None else None, decl.how)
        if key not in self.decl_keys:
            self.decl_keys.add(key)
            self.decls.append(decl)


# ------------------------------------------------------------------------------------------------
# the walker


class _Walker:
    """Walks one parse tree in execution order with a variable environment."""

    def __init__(self, shared: _Shared, doc: _Doc, scope: str = "script", launch_span: Span | None = None,
                 image: MStr | None = None, depth: int = 0) -> None:
        self.shared = shared
        self.doc = doc
        self.scope = scope
        self.launch_span = launch_span
        self.image = image
        self.depth = depth
        self.silent = 0
        self.loop_depth = 0

    # -- statements -------------------------------------------------------------------------------

    def visit(self, node, env: _Env) -> None:
        handler = _HANDLERS.get(node.type)
        if handler is not None:
            handler(self, node, env)
            return
        for child in node.named_children:
            self.visit(child, env)

    def _seq(self, node, env: _Env) -> None:
        for child in node.named_children:
            self.visit(child, env)

    def _skip(self, node, env: _Env) -> None:
        pass

    def _redirected(self, node, env: _Env) -> None:
        for child in node.named_children:
            if child.type not in ("file_redirect", "heredoc_redirect", "herestring_redirect", "heredoc_body"):
                self.visit(child, env)

    def _copy_scope(self, node, env: _Env) -> None:
        inner = env.copy()
        for child in node.named_children:
            self.visit(child, inner)

    def _pipeline(self, node, env: _Env) -> None:
        for child in node.named_children:
            self.visit(child, env.copy())

    def _list(self, node, env: _Env) -> None:
        # a && b, a || b: b runs only on some paths.
        kids = node.named_children
        if not kids:
            return
        self.visit(kids[0], env)
        for child in kids[1:]:
            branch = env.copy()
            self.visit(child, branch)
            env.replace(_merge([env, branch]))

    def _if(self, node, env: _Env) -> None:
        cond, body, clauses = _split_if(node)
        for c in cond:
            self.visit(c, env)
        outcomes = []
        taken = env.copy()
        for c in body:
            self.visit(c, taken)
        outcomes.append(taken)
        rest = env
        has_else = False
        for clause in clauses:
            if clause.type == "elif_clause":
                rest = rest.copy()
                ccond, cbody, _ = _split_if(clause)
                for c in ccond:
                    self.visit(c, rest)
                branch = rest.copy()
                for c in cbody:
                    self.visit(c, branch)
                outcomes.append(branch)
            else:
                has_else = True
                branch = rest.copy()
                for c in clause.named_children:
                    self.visit(c, branch)
                outcomes.append(branch)
        if not has_else:
            outcomes.append(rest)
        env.replace(_merge(outcomes))

    def _case(self, node, env: _Env) -> None:
        value = node.child_by_field_name("value")
        if value is not None:
            self._visit_subs(value, env)
        outcomes = []
        catch_all = False
        for item in node.named_children:
            if item.type != "case_item":
                continue
            branch = env.copy()
            for i, child in enumerate(item.children):
                fname = item.field_name_for_child(i)
                if fname == "value":
                    if self.doc.node_text(child) == "*":
                        catch_all = True
                    continue
                if child.is_named:
                    self.visit(child, branch)
            outcomes.append(branch)
        if not catch_all:
            outcomes.append(env)
        env.replace(_merge(outcomes))

    def _loop(self, node, env: _Env) -> None:
        variable = node.child_by_field_name("variable") if node.type == "for_statement" else None
        values = [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "value"]
        for v in values:
            self._visit_subs(v, env)
        conds = [c for i, c in enumerate(node.children)
                 if node.field_name_for_child(i) == "condition" and c.is_named]
        body = node.child_by_field_name("body")

        def once(e: _Env) -> None:
            if variable is not None:
                e.set(self.doc.node_text(variable), UNKNOWN_V)
            for c in conds:
                self.visit(c, e)
            if body is not None:
                for c in body.named_children:
                    self.visit(c, e)

        before = env.copy()
        if self.loop_depth < _MAX_LOOP_DEPTH:
            first = before.copy()
            self.silent += 1
            self.loop_depth += 1
            try:
                once(first)
            finally:
                self.silent -= 1
                self.loop_depth -= 1
            entry = _merge([before, first])
        else:
            entry = before.copy()
        self.loop_depth += 1
        try:
            second = entry.copy()
            once(second)
        finally:
            self.loop_depth -= 1
        env.replace(_merge([before, second]))

    def _function(self, node, env: _Env) -> None:
        if self.silent:
            return
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None:
            return
        name = self.doc.node_text(name_node)
        fn = _Fn(name, body, self.doc, env.copy(), _assigned_names(body, self.doc),
                 launch_span=self.launch_span, image=self.image)
        self.shared.functions[name] = fn
        self.shared.fn_order.append(fn)

    def _substitution(self, node, env: _Env) -> None:
        inner = env.copy()
        for child in node.named_children:
            self.visit(child, inner)

    def _visit_subs(self, node, env: _Env) -> None:
        """Visit the command substitutions inside a word (they run before the command)."""
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("command_substitution", "process_substitution"):
                self._substitution(n, env)
                continue
            stack.extend(reversed(n.named_children))

    # -- assignments --------------------------------------------------------------------------------

    def _assignment_stmt(self, node, env: _Env) -> None:
        self._assign(node, env)

    def _assignments_stmt(self, node, env: _Env) -> None:
        for child in node.named_children:
            if child.type == "variable_assignment":
                self._assign(child, env)

    def _value_of(self, node, env: _Env):
        """(name, subscript-or-None, '+=' or '=', value) of a variable_assignment; value is an MStr,
        a list of tokens (array) or UNKNOWN_V."""
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return None
        index = None
        if name_node.type == "subscript":
            base = name_node.child_by_field_name("name")
            idx = name_node.child_by_field_name("index")
            name = self.doc.node_text(base) if base is not None else self.doc.node_text(name_node)
            index = self.doc.node_text(idx) if idx is not None else ""
        else:
            name = self.doc.node_text(name_node)
        op = "="
        for child in node.children:
            if not child.is_named and child.type in ("=", "+="):
                op = child.type
                break
        if value_node is None:
            i, j = self.doc.rng(node)
            return name, index, op, MStr.plain("", self.doc.where(j, j))
        self._visit_subs(value_node, env)
        if value_node.type == "array":
            tokens: list[Token] = []
            for child in value_node.named_children:
                if child.type == "comment":
                    continue
                tokens.extend(_assemble(self._segs(child, env)))
            return name, index, op, tokens
        i, j = self.doc.rng(value_node)
        return name, index, op, _scalar(self._segs(value_node, env), self.doc.where(i, j))

    def _assign(self, node, env: _Env, export: bool = False, unknown: bool = False) -> None:
        got = self._value_of(node, env)
        if got is None:
            return
        name, index, op, value = got
        if unknown:
            value = UNKNOWN_V
        old = env.get(name)
        if index is not None:
            if isinstance(old, list) and index.isdigit() and not isinstance(value, list) \
                    and value is not UNKNOWN_V and int(index) < len(old) and op == "=":
                new = list(old)
                new[int(index)] = Token(value)
                env.set(name, new, export)
            else:
                env.set(name, UNKNOWN_V, export)
            return
        if op == "+=":
            if isinstance(value, list):
                if isinstance(old, list):
                    value = old + value
                elif isinstance(old, MStr):
                    value = [Token(old)] + value
                elif old is UNSET:
                    pass
                else:
                    value = UNKNOWN_V
            elif value is not UNKNOWN_V:
                if isinstance(old, MStr):
                    value = MStr.join([old, value])
                elif isinstance(old, list):  # A+=x appends to A[0]
                    value = [Token(MStr.join([old[0].text, value])), *old[1:]] if old else [Token(value)]
                elif old is UNSET:
                    pass
                else:
                    value = UNKNOWN_V
        env.set(name, value, export)

    def _declaration(self, node, env: _Env) -> None:
        kids = node.children
        keyword = kids[0].type if kids else ""
        flags = ""
        unexport = False
        for child in kids[1:]:
            if child.type == "word":
                text = self.doc.node_text(child)
                if text.startswith("-"):
                    flags += text[1:]
                elif text.startswith("+"):
                    if "x" in text:
                        unexport = True
        if "f" in flags or "F" in flags or "p" in flags:
            return
        export = keyword == "export" or "x" in flags
        if keyword == "export" and "n" in flags:
            export, unexport = False, True
        # integer, associative, nameref and case-converting declarations: values not followed
        unknown = any(f in flags for f in ("iAluc" if keyword == "export" else "iAnluc"))
        for child in kids[1:]:
            if child.type == "variable_assignment":
                self._assign(child, env, export=export, unknown=unknown)
                if unexport:
                    env.exported.discard(self.doc.node_text(child.child_by_field_name("name")))
            elif child.type == "variable_name":
                name = self.doc.node_text(child)
                if unexport:
                    env.exported.discard(name)
                elif export:
                    env.exported.add(name)
                if keyword in ("local", "declare", "typeset") and env.get(name) is ABSENT or keyword == "local":
                    env.set(name, UNKNOWN_V if unknown else UNSET, export)
            else:
                self._visit_subs(child, env)

    def _unset(self, node, env: _Env) -> None:
        names = []
        functions = False
        for child in node.named_children:
            text = self.doc.node_text(child)
            if text.startswith("-"):
                functions = functions or "f" in text
                continue
            names.append(text)
        if functions:
            return
        for name in names:
            if _NAME.match(name):
                env.vars[name] = UNSET
                env.exported.discard(name)

    # -- commands -----------------------------------------------------------------------------------

    def _command(self, node, env: _Env) -> None:
        doc = self.doc
        name_node = node.child_by_field_name("name")
        kids = node.children
        if name_node is None:
            for child in kids:
                if child.type == "variable_assignment":
                    self._assign(child, env)
                elif child.is_named:
                    self._visit_subs(child, env)
            return
        # tree-sitter-bash joins a line of several assignments to the command on the next line;
        # assignments before an unescaped line break are statements of their own.
        pre = [c for c in kids if c.end_byte <= name_node.start_byte and c.is_named]
        cut = 0
        for k, child in enumerate(pre):
            nxt = pre[k + 1] if k + 1 < len(pre) else name_node
            if child.type == "comment" or _has_line_break(doc.text, doc.c(child.end_byte), doc.c(nxt.start_byte)):
                cut = k + 1
        for child in pre[:cut]:
            if child.type == "variable_assignment":
                self._assign(child, env)
        prefix = pre[cut:]
        start_node = prefix[0] if prefix else name_node
        extra: dict = {}
        for child in prefix:
            if child.type == "variable_assignment":
                got = self._value_of(child, env)
                if got is not None and got[1] is None:
                    extra[got[0]] = got[3] if not isinstance(got[3], list) else UNKNOWN_V
            else:
                self._visit_subs(child, env)
        words_nodes = [name_node]
        for i, child in enumerate(kids):
            if child.start_byte >= name_node.end_byte and node.field_name_for_child(i) == "argument":
                words_nodes.append(child)
        for w in words_nodes:
            self._visit_subs(w, env)
        tokens: list[Token] = []
        word: list = []
        for k, w in enumerate(words_nodes):
            if k and w.start_byte != words_nodes[k - 1].end_byte:
                tokens.extend(_assemble(word))
                word = []
            # pieces with nothing between them are one word (tree-sitter splits ``$"…"`` in two)
            if w.type == "$" and k + 1 < len(words_nodes) and words_nodes[k + 1].start_byte == w.end_byte \
                    and words_nodes[k + 1].type == "string":
                continue
            word.extend(self._segs(w, env))
        tokens.extend(_assemble(word))
        i, j = doc.rng(node)
        span = self.launch_span or doc.where(doc.c(start_node.start_byte), j)
        self._builtin_effects(tokens, env)
        head = tokens[0].value if tokens else None
        fn = self.shared.functions.get(head) if head is not None else None
        if fn is not None and fn.doc is doc:
            if not self.silent:
                fn.calls.append(env.copy())
            for name in fn.assigned:  # what the function assigns is not followed into the caller
                env.set(name, UNKNOWN_V)
        def child_env(inherit: bool = True, more: dict | None = None) -> _Env:
            # the environment of the program run: exported variables and this command's assignments,
            # or only what a wrapper sets (env -i, docker run -e …)
            return env.child({**(extra if inherit else {}), **(more or {})}, inherit)

        self._dispatch(tokens, span, child_env, self.image)

    def _builtin_effects(self, tokens: list[Token], env: _Env) -> None:
        """Builtins that assign variables from outside the file (read, mapfile, getopts …) or set allexport."""
        if not tokens:
            return
        head = tokens[0].value
        args = [t.value for t in tokens[1:]]
        if head == "read":
            k = 0
            while k < len(args):
                a = args[k]
                if a is None:
                    k += 1
                    continue
                if a.startswith("-"):
                    if a in ("-a",) and k + 1 < len(args) and args[k + 1]:
                        env.set(args[k + 1], UNKNOWN_V)
                        k += 2
                        continue
                    k += 2 if a in ("-d", "-i", "-n", "-N", "-p", "-t", "-u") else 1
                    continue
                if _NAME.match(a):
                    env.set(a, UNKNOWN_V)
                k += 1
            if not any(a and _NAME.match(a) for a in args):
                env.set("REPLY", UNKNOWN_V)
        elif head in ("mapfile", "readarray"):
            names = [a for a in args if a and _NAME.match(a)]
            env.set(names[-1] if names else "MAPFILE", UNKNOWN_V)
        elif head == "getopts" and len(args) >= 2 and args[1] and _NAME.match(args[1]):
            env.set(args[1], UNKNOWN_V)
            env.set("OPTARG", UNKNOWN_V)
        elif head == "printf" and len(args) >= 2 and args[0] == "-v" and args[1] and _NAME.match(args[1]):
            env.set(args[1], UNKNOWN_V)
        elif head == "set":
            for k, a in enumerate(args):
                if a is None or a == "--":
                    break
                if a.startswith("-") and not a.startswith("--") and "a" in a[1:] and a != "-o":
                    env.allexport = True
                elif a.startswith("+") and "a" in a[1:] and a != "+o":
                    env.allexport = False
                elif a in ("-o", "+o") and k + 1 < len(args) and args[k + 1] == "allexport":
                    env.allexport = a == "-o"
        elif head in ("export", "readonly", "declare", "typeset", "local"):
            # when tree-sitter did not recognise the declaration (e.g. a quoted assignment word)
            for t in tokens[1:]:
                v = t.value
                if v and _ASSIGN_WORD.match(v):
                    env.set(v.split("=", 1)[0].rstrip("+"), UNKNOWN_V)

    # -- launches and wrappers ---------------------------------------------------------------------

    def _record(self, program: str, args: list[Token], span: Span, image: MStr | None) -> None:
        if self.silent:
            return
        # The scope only: the engine adds the model and numbers launches that share both.
        self.shared.launches.append(Launch(source=self.shared.source, program=program, span=span,
                                           args=[_mark_joinable(t) for t in args], key=self.scope, image=image))

    def _decl(self, decl: GpuDecl) -> None:
        if not self.silent:
            self.shared.add_decl(decl)

    def _dispatch(self, words: list[Token], span: Span, child_env: Callable[..., _Env], image: MStr | None) -> None:
        """Find the launch in a command's words through its wrappers (:func:`linter.recognize.unwrap`)."""
        from linter.recognize import Passthrough, unwrap

        got = unwrap(words, span, image)
        for decl in got.gpu_decls:
            self._decl(decl)
        if got.kind == "launch":
            self._record(got.program, got.args, span, got.image)
        elif got.kind == "script" and got.script is not None:
            outer = child_env()
            more = {}
            for name, value in got.env.items():
                if isinstance(value, Passthrough):
                    more[name] = outer.get(value.name)
                elif isinstance(value, MStr):
                    more[name] = value
                else:
                    more[name] = UNKNOWN_V
            env = _Env() if got.how == "ssh" else child_env(got.inherit, more)
            self._nested(got.script, span, env, got.image, got.how)

    def _nested(self, script: Token, span: Span, env: _Env, image: MStr | None, how: str) -> None:
        """Parse a ``bash -c`` / ``ssh`` string as shell, spans mapped back through its origins."""
        if script.splat or self.depth >= _MAX_NESTING:
            return
        m = script.text
        doc = _Doc(self.shared.source, m.text, m, span)
        tree = parse_script(doc.data)
        inner = _Walker(self.shared, doc, self.scope, span, image, self.depth + 1)
        inner.silent = self.silent
        inner.visit(tree.root_node, env)
        if not self.silent and m.known:
            bad = _first_error(tree.root_node)
            if bad is not None:
                message, i = _error_message(bad, doc)
                origin = doc.origin(i) if i < len(doc.text) else None
                at = Span(origin[0], origin[1], origin[1]) if origin is not None and origin[0] is self.shared.source \
                    else Span(span.source, span.start, span.start)
                self.shared.problems.append(Problem(f"{message} (in the {how} command string)", at))

    # -- words ----------------------------------------------------------------------------------------

    def _segs(self, node, env: _Env, quoted: bool = False) -> list:
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
                    segs.extend(self._segs(child, env, quoted))
            return segs
        if t in ("simple_expansion", "expansion"):
            return self._param(node, env, quoted)
        if t in ("word", "number", "extglob_pattern", "regex", "$", "special_variable_name", "variable_name",
                 "test_operator", "file_descriptor"):
            return self._lit(i, j, quoted)
        # command substitution, arithmetic, brace expansion, anything else: unknown
        where = doc.where(i, j)
        return [("lit", MStr.unknown(where), not quoted)]

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
        segs = []
        chars: list[str] = []
        origins: list = []
        split = True
        where = doc.where(i, j)

        def flush() -> None:
            nonlocal chars, origins
            if chars:
                segs.append(("lit", MStr("".join(chars), origins, where), split))
            chars, origins = [], []

        k = i
        while k < j:
            ch = text[k]
            if ch == "\\" and k + 1 < j:
                nxt = text[k + 1]
                if nxt == "\n":
                    k += 2
                    continue
                if nxt == "\r" and k + 2 < j and text[k + 2] == "\n":
                    k += 3
                    continue
                if split:
                    flush()
                    split = False
                chars.append(nxt)
                origins.append(doc.origin(k + 1))
                k += 2
                continue
            if not split:
                flush()
                split = True
            chars.append(ch)
            origins.append(doc.origin(k))
            k += 1
        flush()
        return segs

    def _dq_text(self, i: int, j: int) -> MStr:
        doc = self.doc
        text = doc.text
        chars: list[str] = []
        origins: list = []
        k = i
        while k < j:
            ch = text[k]
            if ch == "\\" and k + 1 < j:
                nxt = text[k + 1]
                if nxt in '$`"\\':
                    chars.append(nxt)
                    origins.append(doc.origin(k + 1))
                    k += 2
                    continue
                if nxt == "\n":
                    k += 2
                    continue
                if nxt == "\r" and k + 2 < j and text[k + 2] == "\n":
                    k += 3
                    continue
            chars.append(ch)
            origins.append(doc.origin(k))
            k += 1
        return MStr("".join(chars), origins, doc.where(i, j))

    def _dq(self, node, env: _Env) -> list:
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
                segs.extend(self._segs(child, env, quoted=True))
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

    def _param(self, node, env: _Env, quoted: bool) -> list:
        """``$NAME``, ``${NAME}``, ``${NAME OP WORD}``, ``${A[@]}`` … as segments."""
        doc = self.doc
        i, j = doc.rng(node)
        where = doc.where(i, j)

        def unknown() -> list:
            return [("lit", MStr.unknown(where), not quoted)]

        kids = node.children
        if node.type == "simple_expansion":
            named = [c for c in kids if c.is_named]
            if not named:
                return unknown()
            target, op_node = named[0], None
        else:
            inner = [c for c in kids if c.type not in ("${", "}")]
            if not inner or not inner[0].is_named:
                return unknown()  # ${#X}, ${!X}, ${!A[@]} …
            target = inner[0]
            op_node = inner[1] if len(inner) > 1 else None
            if op_node is not None and op_node.is_named:
                return unknown()
        name_text = doc.node_text(target)
        index = None
        if target.type == "subscript":
            base = target.child_by_field_name("name")
            idx = target.child_by_field_name("index")
            if base is None or idx is None:
                return unknown()
            name_text = doc.node_text(base)
            index = doc.node_text(idx)
        if not _NAME.match(name_text):
            # positional and special parameters: $1 $@ $* $# $? $$ $! $0 $-
            if name_text in ("@", "*") and op_node is None:
                if name_text == "@" and quoted:
                    return [("splat", MStr.unknown(where))]
                return unknown()
            if name_text.isdigit() and name_text != "0" and op_node is not None and op_node.type in (":-", "-"):
                # ``${2:-fa4}``: a default written in the file is taken as the value (DESIGN.md, resolve)
                return self._operand(node, op_node, env, quoted)
            return unknown()
        value = env.get(name_text)
        op = op_node.type if op_node is not None else None

        def operand() -> list:
            return self._operand(node, op_node, env, quoted)

        # the variable's state for the operators: set / null
        if index is not None:
            if index in ("@", "*"):
                if op is not None:
                    return unknown()
                if isinstance(value, MStr):
                    tokens = [Token(value)]
                elif isinstance(value, list):
                    tokens = value
                elif value is UNSET:
                    tokens = []
                else:
                    return [("splat", MStr.unknown(where))] if quoted and index == "@" else unknown()
                if quoted and index == "@":
                    return [("arr", tokens)]
                return [("lit", _join_tokens(tokens, where), not quoted)] if tokens else \
                    ([("lit", MStr.plain("", where), False)] if quoted else [])
            if not index.isdigit():
                return unknown()
            if isinstance(value, list):
                k = int(index)
                value = (UNKNOWN_V if value[k].splat else value[k].text) if k < len(value) else UNSET
            elif isinstance(value, MStr):
                value = value if index == "0" else UNSET
        elif isinstance(value, list):
            value = (UNKNOWN_V if value[0].splat else value[0].text) if value else UNSET

        def result(m: MStr) -> list:
            return [("lit", m, not quoted)]

        if op is None:
            if isinstance(value, MStr):
                return result(value)
            if value is UNSET:
                return [] if not quoted else [("lit", MStr.plain("", where), False)]
            return unknown()
        if op in (":-", "-", ":=", "="):
            colon = op.startswith(":")
            if isinstance(value, MStr):
                if value.text == "" and colon:
                    use_default = True
                elif not value.known and colon and all(c == UNKNOWN_CHAR for c in value.text):
                    return unknown()
                else:
                    return result(value)
            elif value is UNSET or value is ABSENT:
                use_default = True
            else:
                return unknown()
            if use_default:
                segs = operand()
                if op in (":=", "=") and index is None:
                    env.set(name_text, _scalar(segs, where))
                return segs
        if op in (":+", "+"):
            colon = op.startswith(":")
            if isinstance(value, MStr):
                if not value.known and colon and all(c == UNKNOWN_CHAR for c in value.text):
                    return unknown()
                if value.text == "" and colon:
                    return [] if not quoted else [("lit", MStr.plain("", where), False)]
                return operand()
            if value is UNSET:
                return [] if not quoted else [("lit", MStr.plain("", where), False)]
            return unknown()
        if op in (":?", "?"):
            if isinstance(value, MStr) and (value.text or op == "?"):
                return result(value)
            return unknown()
        return unknown()

    def _operand(self, node, op_node, env: _Env, quoted: bool) -> list:
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
                segs.extend(self._segs(child, env, quoted))
        if quoted and not segs:
            i, _ = self.doc.rng(op_node)
            segs.append(("lit", MStr.plain("", self.doc.where(i, i)), False))
        return segs


_HANDLERS: dict[str, Callable] = {
    "program": _Walker._seq,
    "compound_statement": _Walker._seq,
    "do_group": _Walker._seq,
    "negated_command": _Walker._seq,
    "ERROR": _Walker._seq,
    "redirected_statement": _Walker._redirected,
    "subshell": _Walker._copy_scope,
    "pipeline": _Walker._pipeline,
    "list": _Walker._list,
    "if_statement": _Walker._if,
    "case_statement": _Walker._case,
    "for_statement": _Walker._loop,
    "c_style_for_statement": _Walker._loop,
    "while_statement": _Walker._loop,
    "function_definition": _Walker._function,
    "command_substitution": _Walker._substitution,
    "process_substitution": _Walker._substitution,
    "variable_assignment": _Walker._assignment_stmt,
    "variable_assignments": _Walker._assignments_stmt,
    "declaration_command": _Walker._declaration,
    "unset_command": _Walker._unset,
    "command": _Walker._command,
    "comment": _Walker._skip,
    "heredoc_body": _Walker._skip,
    "heredoc_redirect": _Walker._skip,
    "herestring_redirect": _Walker._skip,
    "file_redirect": _Walker._skip,
}


def _split_if(node):
    """(condition nodes, body nodes, elif/else clauses) of an if_statement or elif_clause."""
    cond, body, clauses = [], [], []
    in_body = False
    for child in node.children:
        if not child.is_named:
            if child.type == "then":
                in_body = True
            continue
        if child.type in ("elif_clause", "else_clause"):
            clauses.append(child)
        elif in_body:
            body.append(child)
        else:
            cond.append(child)
    return cond, body, clauses


def _has_line_break(text: str, i: int, j: int) -> bool:
    """Whether ``text[i:j]`` (the blank between two words) holds a line break not escaped by ``\\``."""
    k = text.find("\n", i, j)
    while k >= 0:
        before = k - 1
        if before >= i and text[before] == "\r":
            before -= 1
        if before < i or text[before] != "\\":
            return True
        k = text.find("\n", k + 1, j)
    return False


def _assigned_names(body, doc: _Doc) -> set[str]:
    """Variables a function body assigns (not declared ``local``): unknown after a call."""
    names: set[str] = set()
    local: set[str] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "variable_assignment":
            name = n.child_by_field_name("name")
            if name is not None:
                if name.type == "subscript":
                    name = name.child_by_field_name("name") or name
                target = local if n.parent is not None and n.parent.type == "declaration_command" and \
                    n.parent.children[0].type == "local" else names
                target.add(doc.node_text(name))
        elif n.type == "declaration_command" and n.children and n.children[0].type == "local":
            for c in n.named_children:
                if c.type == "variable_name":
                    local.add(doc.node_text(c))
        stack.extend(n.named_children)
    return names - local


def _sbatch_directives(source: SourceFile, comments: list, first_command: int) -> list[GpuDecl]:
    """GPU declarations of the ``#SBATCH`` lines before the first command (where sbatch reads them)."""
    from linter.extract.words import SplitError, split_words
    from linter.gpus.slurm import GPU_OPTIONS, gpu_decls
    from linter.recognize import wrappers

    decls: list[GpuDecl] = []
    text = source.text
    for span in comments:
        if span.start >= first_command:
            break
        if not text.startswith("#SBATCH", span.start):
            continue
        start = span.start + len("#SBATCH")
        if start < span.end and text[start] not in " \t":
            continue
        try:
            words = split_words(MStr.literal(source, start, span.end))
        except SplitError:
            continue
        cut = next((k for k, w in enumerate(words) if w.raw.startswith("#")), len(words))
        _, opts = skip_options(words[:cut], 0, wrappers()["sbatch"].values)
        for name, value, _ in opts:
            if value is not None and name in GPU_OPTIONS:
                decls.extend(gpu_decls(name, value, "#SBATCH"))
    return decls


# ------------------------------------------------------------------------------------------------
# errors, comments


def _first_error(root):
    """The first ERROR or MISSING node in document order, or None."""
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_missing:
            return n
        if n.is_error:
            # tree-sitter's ERROR node often starts at the beginning of the file: skip the complete
            # statements it holds and point at the first token that does not fit.
            for child in n.children:
                if child.type in _STATEMENTS and not child.has_error:
                    continue
                if child.has_error or child.is_missing:
                    inner = _first_error(child)
                    if inner is not None:
                        return inner
                return child
            return n
        stack.extend(reversed([c for c in n.children if c.has_error or c.is_missing]))
    return None


_STATEMENTS = {"command", "variable_assignment", "variable_assignments", "declaration_command", "unset_command",
               "comment", "pipeline", "list", "redirected_statement", "if_statement", "case_statement",
               "for_statement", "while_statement", "c_style_for_statement", "function_definition", "subshell",
               "compound_statement", "negated_command", "test_command"}


def _error_message(node, doc: _Doc) -> tuple[str, int]:
    i, j = doc.rng(node)
    if node.is_missing:
        return f"shell syntax error: missing {node.type!r}", i
    snippet = doc.text[i:j].split("\n", 1)[0].strip()
    if len(snippet) > 40:
        snippet = snippet[:37] + "..."
    return f"shell syntax error near {snippet!r}" if snippet else "shell syntax error", i


def _comments(root, doc: _Doc) -> list[Span]:
    out = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "comment":
            i, j = doc.rng(n)
            out.append(Span(doc.source, i, j))
            continue
        if n.type in ("heredoc_body", "string", "raw_string", "word"):
            continue
        stack.extend(reversed(n.children))
    return out


# ------------------------------------------------------------------------------------------------
# entry points


def _walk_all(shared: _Shared, doc: _Doc, root, env: _Env, launch_span: Span | None = None,
              image: MStr | None = None) -> None:
    walker = _Walker(shared, doc, "script", launch_span, image)
    walker.visit(root, env)
    done: set[int] = set()
    while True:
        pending = [f for f in shared.fn_order if id(f) not in done]
        if not pending:
            break
        called = [f for f in pending if f.calls]
        fn = called[0] if called else pending[0]
        done.add(id(fn))
        fenv = _merge(fn.calls) if fn.calls else fn.def_env.copy()
        inner = _Walker(shared, fn.doc, f"{fn.name}()", fn.launch_span, fn.image)
        for child in fn.body.named_children:
            inner.visit(child, fenv)


def _mark_joinable(token: Token) -> Token:
    """An unquoted shell word written between blanks: text inserted after it makes new words."""
    span = token.span_of()
    if span is not None and not token.joinable:
        text = span.source.text
        after = text[span.end:span.end + 1]
        before = text[span.start - 1:span.start] if span.start else ""
        if after in ("", " ", "\t", "\n", "\r", ";", "&", "|", ")") and before in (" ", "\t", "\n"):
            token.joinable = True
    return token



def extract(source: SourceFile, ws=None) -> Extraction:
    """The launches, GPU declarations, comments and syntax problems of a shell script."""
    doc = _Doc(source, source.text, None, Span(source, 0, 0))
    tree = parse_script(doc.data)
    root = tree.root_node
    shared = _Shared(source)
    _walk_all(shared, doc, root, _Env())
    result = Extraction(launches=sorted(shared.launches, key=lambda launch: launch.span.start))
    comments = _comments(root, doc)
    result.comments = comments
    first_command = next((doc.c(c.start_byte) for c in root.named_children if c.type != "comment"),
                         len(source.text))
    result.gpu_decls = _sbatch_directives(source, comments, first_command)
    keys = {(d.name, d.span.key() if d.span else None) for d in result.gpu_decls}
    for d in shared.decls:
        if (d.name, d.span.key() if d.span else None) not in keys:
            result.gpu_decls.append(d)
    result.problems.extend(shared.problems)
    bad = _first_error(root)
    if bad is not None:
        message, i = _error_message(bad, doc)
        result.problems.insert(0, Problem(message, Span(source, i, i)))
    return result


def launches_in_script(script: MStr, source: SourceFile, env: dict[str, MStr] | None = None,
                       problems: list[Problem] | None = None) -> list[tuple[str, list[Token], MStr | None]]:
    """(program, server-argument tokens, image) of each SGLang launch in a shell script given as an
    :class:`MStr` (a compose ``sh -c`` string), with every character mapped back to ``source``.
    ``env`` holds the variables the script's process starts with (a compose service's
    ``environment``/``env_file``); shell syntax errors of a fully known script are appended to
    ``problems`` (located through the script's origins)."""
    fallback = script.where or hull([Span(o[0], o[1], o[1] + 1) for o in script.origins if o is not None]) \
        or Span(source, 0, 0)
    doc = _Doc(source, script.text, script, fallback)
    tree = parse_script(doc.data)
    shared = _Shared(source)
    start = _Env({k: v for k, v in (env or {}).items()}, exported=set(env or ()))
    _walk_all(shared, doc, tree.root_node, start, launch_span=fallback)
    if problems is not None:
        problems.extend(p for p in shared.problems if p.span.source is source)
        bad = _first_error(tree.root_node) if script.known else None
        if bad is not None:
            message, i = _error_message(bad, doc)
            origin = doc.origin(i) if i < len(doc.text) else None
            at = Span(source, origin[1], origin[1]) if origin is not None and origin[0] is source else fallback
            problems.append(Problem(f"{message} (in the shell command string)", at))
    return [(launch.program, launch.args, launch.image) for launch in shared.launches]
