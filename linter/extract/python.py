"""Python launch code: the SGLang launches a Python module starts, read with libcst.

The file is parsed, never imported or run. What counts as a launch (each callee is resolved through
the module's imports and aliases — ``import sglang as sgl``, ``from subprocess import Popen as P``,
``P = subprocess.Popen`` — so only these calls count, and a class of the file's own named ``Engine``
does not):

* an argv list or tuple given to ``subprocess.Popen/run/call/check_call/check_output``,
  ``os.execv*``/``os.execl*``, ``os.spawn*``, ``os.posix_spawn[p]`` or
  ``asyncio.create_subprocess_exec``; a command string given with ``shell=True``, to ``os.system``,
  ``os.popen``, ``subprocess.getoutput`` or ``asyncio.create_subprocess_shell`` (cut into simple
  commands with shell quoting), or through ``shlex.split(...)``, ``str.split()`` or
  ``" ".join(argv)``. ``sys.executable`` stands for a Python interpreter;
* ``sglang.Engine(...)``, ``ServerArgs(...)`` (``sglang.srt.server_args``; its first positional
  argument is ``model_path``) and ``sgl.Runtime(...)``: keyword names are ``ServerArgs`` fields,
  values are Python values (so the string ``"false"`` is true, as SGLang's own check sees it);
  ``**BASE`` of a resolvable dict adds its keys (an explicit keyword wins);
* ``sglang.utils.launch_server_cmd(command)``, which splits its string its own way
  (``execute_shell_command``: every backslash becomes a blank, the string is split on whitespace, and
  leading ``KEY=VALUE`` words are environment);
* ``sglang.test.test_utils.popen_launch_server(model, base_url, ..., other_args=[...])``, which
  runs ``sglang serve --model-path MODEL *other_args``.

Values are resolved within the module only: literals (with implicit concatenation and f-strings whose
parts are known), names bound at module level or in the enclosing function (in straight-line code
before the call), class attributes (``cls.X``, ``self.X``, ``Class.X``), ``+`` of lists, tuples and
strings, ``+=``, ``.append``, ``.extend``, ``.insert``, ``**`` of a dict literal or ``dict(...)``.
Anything else — calls, attributes of other modules, loop variables, values that differ by branch,
a module list that some function mutates in place — is unknown, never guessed.

Every resolved character keeps the offset of the source character it came from, so a diagnostic
points at — and a fix edits — the word inside the string literal where it was written (an escape
sequence such as ``\\n`` is not exact, so no fix edits it).

Target GPUs: Modal's ``gpu=`` on ``@app.function(...)``, ``@app.cls(...)`` or ``@app.server(...)``
(``app`` bound to ``modal.App(...)``/``modal.Stub(...)``) applies to the launches inside that
function or class and in the module functions it calls; ``"H100:8"`` names ``H100``, ``"H100!"``
and ``"B200+"`` are kept as written, a list of fallbacks gives several candidates.

libcst is imported only inside :func:`extract`, so linting a tree without Python launch files
never pays for it.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
import unicodedata
from dataclasses import dataclass, field

from linter.extract.words import SplitError, split_commands, split_words
from linter.launch import UNKNOWN, UNKNOWN_CHAR, Extraction, GpuDecl, KwArg, Launch, MStr, Problem, Token
from linter.sglang.entrypoints import SERVE, match_entry_point
from linter.source import SourceFile, Span
from linter.workspace import Workspace

# ------------------------------------------------------------------------------------------------
# what is a launch

_POPEN = {f"subprocess.{n}" for n in ("Popen", "run", "call", "check_call", "check_output")}
_SHELL_CALLS = {"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput",
                "asyncio.create_subprocess_shell"}
# os.exec*/spawn*: (index of the path, index of the argv list or of the first argv word, "v"/"l", has env)
_EXEC: dict[str, tuple[int, int, str, bool]] = {}
for _n in ("execv", "execve", "execvp", "execvpe"):
    _EXEC[f"os.{_n}"] = (0, 1, "v", _n.endswith("e"))
for _n in ("execl", "execle", "execlp", "execlpe"):
    _EXEC[f"os.{_n}"] = (0, 1, "l", _n.endswith("e"))
for _n in ("spawnv", "spawnve", "spawnvp", "spawnvpe"):
    _EXEC[f"os.{_n}"] = (1, 2, "v", _n.endswith("e"))
for _n in ("spawnl", "spawnle", "spawnlp", "spawnlpe"):
    _EXEC[f"os.{_n}"] = (1, 2, "l", _n.endswith("e"))
for _n in ("posix_spawn", "posix_spawnp"):
    _EXEC[f"os.{_n}"] = (0, 1, "v", False)
_CREATE_EXEC = "asyncio.create_subprocess_exec"

_ENGINE = {"sglang.Engine", "sglang.srt.entrypoints.engine.Engine", "sglang.api.Engine"}
_SERVER_ARGS = {"sglang.ServerArgs", "sglang.srt.server_args.ServerArgs"}
_RUNTIME = {"sglang.Runtime", "sglang.api.Runtime", "sglang.lang.backend.runtime_endpoint.Runtime"}
_LAUNCH_SERVER_CMD = {"sglang.utils.launch_server_cmd", "sglang.test.doc_patch.launch_server_cmd",
                      "sglang.utils.execute_shell_command"}
_POPEN_LAUNCH_SERVER = {"sglang.test.test_utils.popen_launch_server"}
_MODAL_APPS = {"modal.App", "modal.Stub"}
_MODAL_DECORATORS = {"function", "cls", "server"}

_SHELLS = re.compile(r"^(?:.*/)?(?:sh|bash|dash|zsh|ash)$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PREFIX_COMMANDS = {"exec", "nohup", "time", "command", "env"}
_BUILTINS = {"str", "list", "tuple", "dict", "int", "float", "bool", "len", "print", "sorted", "repr"}
_MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update",
             "setdefault", "popitem", "__setitem__", "__delitem__", "__iadd__"}
_CALL_NAMES = {q.rsplit(".", 1)[1] for q in (_POPEN | _SHELL_CALLS | set(_EXEC) | {_CREATE_EXEC} | _ENGINE
                                         | _SERVER_ARGS | _RUNTIME | _LAUNCH_SERVER_CMD | _POPEN_LAUNCH_SERVER)}
"""Last names of the callables above: a call named otherwise is a launch only through an alias."""
_HARMLESS = {"info", "debug", "warning", "warn", "error", "exception", "critical", "log", "print", "write",
             "join", "dumps", "format", "echo", "len", "repr", "str", "copy", "deepcopy"}


# ------------------------------------------------------------------------------------------------
# values


class _V:
    """A statically known Python value (or a stand-in for an unknown one)."""


@dataclass(eq=False)
class Str(_V):
    m: MStr
    joinable: bool = False  # a word of a string split on blanks: text added after it makes new words


@dataclass(eq=False)
class Const(_V):
    value: object  # bool, int, float, None
    span: Span | None


@dataclass(eq=False)
class Splat:
    """An unknown number of list items (``*args`` of an unknown list)."""

    where: Span | None


@dataclass(eq=False)
class Seq(_V):
    items: list  # of _V or Splat
    kind: str = "list"

    def copy(self) -> Seq:
        return Seq(list(self.items), self.kind)


@dataclass(eq=False)
class Entry:
    key: str
    value: _V
    where: Span | None
    name_span: Span | None
    value_span: Span | None


@dataclass(eq=False)
class DictV(_V):
    entries: list[Entry]
    open: bool = False  # may hold keys that are not known (an unknown ``**x``)

    def copy(self) -> DictV:
        return DictV(list(self.entries), self.open)

    def set(self, entry: Entry) -> None:
        self.entries = [e for e in self.entries if e.key != entry.key] + [entry]

    def merge(self, other) -> None:
        """``self.update(other)``; ``other`` None or not a known dict: any key may be replaced, so
        every value so far becomes unknown (the keys stay, a merge never removes one)."""
        if not isinstance(other, DictV) or other.open:
            self.entries = [Entry(e.key, Unk(e.value_span or e.where), e.where, e.name_span, e.value_span)
                            for e in self.entries]
            self.open = True
        if isinstance(other, DictV):
            for e in other.entries:
                self.set(e)


@dataclass(eq=False)
class Unk(_V):
    where: Span | None


@dataclass(eq=False)
class Ref(_V):
    """A module or an object imported from one (``subprocess.Popen``)."""

    qual: str


@dataclass(eq=False)
class Instance(_V):
    """An object made by a known call (``modal.App(...)``)."""

    qual: str


@dataclass(eq=False)
class FuncV(_V):
    node: object


@dataclass(eq=False)
class ClassV(_V):
    scope: Scope


_NOTFOUND = object()


# ------------------------------------------------------------------------------------------------
# scopes


@dataclass(eq=False)
class Scope:
    kind: str  # module, class, function
    node: object
    parent: Scope | None
    qual: str
    body: list
    params: list[str] = field(default_factory=list)
    self_name: str | None = None  # first parameter of a method
    _locals: set[str] | None = None
    globals: set[str] = field(default_factory=set)
    decls: list[GpuDecl] = field(default_factory=list)
    callees: set[str] = field(default_factory=set)  # module functions / methods called by name


# ------------------------------------------------------------------------------------------------
# entry


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of a Python file. A syntax error is reported at the parser's problem position."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    result = Extraction()
    try:
        module = cst.parse_module(source.text)
    except cst.ParserSyntaxError as exc:
        result.problems.append(_syntax_problem(source, exc))
        return result
    except RecursionError:
        raise
    except Exception as exc:  # noqa: BLE001 - libcst's native parser may fail in other ways
        result.problems.append(Problem(f"cannot parse the Python file: {exc}", Span(source, 0, 0)))
        return result
    result.comments = _comments(source)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    _Analysis(cst, source, module, positions, result).run()
    return result


def _syntax_problem(source: SourceFile, exc) -> Problem:
    """SGL001 for a file libcst cannot parse: at the position and with the words of Python's own
    parser (``ast.parse`` only builds a tree, nothing runs), else at libcst's position."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(source.text)
    except SyntaxError as err:
        if err.lineno:
            line = max(1, err.lineno)
            col = max(1, err.offset or 1)
            offset = source.offset(line, col)
            if source.line_of(offset) != line:  # past the end of the line: its end
                offset = source.line_starts[line - 1] + len(source.line_text(line)) if line <= len(
                    source.line_starts) else len(source.text)
            return Problem(f"Python syntax error: {err.msg}", Span(source, offset, offset))
    except (ValueError, RecursionError, MemoryError):
        pass
    line = max(1, int(getattr(exc, "raw_line", 1) or 1))
    col = max(0, int(getattr(exc, "raw_column", 0) or 0))
    offset = source.offset(line, col + 1)
    message = " ".join(str(getattr(exc, "message", exc)).split()).removeprefix("parser error: ")
    return Problem(f"Python syntax error: {message}", Span(source, offset, offset))


def _comments(source: SourceFile) -> list[Span] | None:
    """Spans of every ``#`` comment (exactly, from the tokenizer), or None when it fails."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source.text).readline):
            if tok.type == tokenize.COMMENT:
                start = source.offset(tok.start[0], tok.start[1] + 1)
                end = source.offset(tok.end[0], tok.end[1] + 1)
                out.append(Span(source, start, end))
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    return out


# ------------------------------------------------------------------------------------------------
# string literals


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


# ------------------------------------------------------------------------------------------------
# the analysis of one module


class _Analysis:
    def __init__(self, cst, source: SourceFile, module, positions, result: Extraction) -> None:
        self.cst = cst
        self.source = source
        self.module = module
        self.positions = positions
        self.result = result
        self._offset_cache: dict[int, tuple[int, int]] = {}
        self.scopes: list[Scope] = []
        self.scope_of_node: dict[int, Scope] = {}
        self.calls: list[tuple[object, Scope]] = []
        self.final_frames: dict[int, Frame] = {}
        self._cursors: dict[int, list] = {}
        self._scope_binds: dict[int, _BindInfo] = {}
        self._computing: dict[int, Frame] = {}
        self.taint_names: set[str] = set()  # module names some function mutates in place
        self.taint_attrs: set[tuple[int, str]] = set()  # (class scope id, attribute)
        self.splat_ids: set[int] = set()
        self._keep: list = []
        self.star_imports: list[str] = []
        self.classes: list[Scope] = []
        self.alias_names: set[str] = set()  # names bound by ``import … as``, ``from … import`` or ``x = a.b``

    # -- positions --------------------------------------------------------------------------------

    def offsets(self, node) -> tuple[int, int]:
        got = self._offset_cache.get(id(node))
        if got is None:
            r = self.positions[node]
            got = (self.source.offset(r.start.line, r.start.column + 1), self.source.offset(r.end.line, r.end.column + 1))
            self._offset_cache[id(node)] = got
        return got

    def span(self, node) -> Span:
        s, e = self.offsets(node)
        return Span(self.source, s, e)

    def contains(self, node, offset: int) -> bool:
        s, e = self.offsets(node)
        return s <= offset < e

    # -- driver -----------------------------------------------------------------------------------

    def run(self) -> None:
        self._collect()
        self._prescan_taint()
        self._modal()
        counters: dict[str, int] = {}
        for call, scope in self.calls:
            for launch in self._launch(call, scope):
                k = counters.get(scope.qual, 0)
                counters[scope.qual] = k + 1
                launch.key = scope.qual if k == 0 else f"{scope.qual}#{k}"
                launch.gpu_decls = self._decls_for(scope)
                self.result.launches.append(launch)

    def _collect(self) -> None:
        cst = self.cst
        module_scope = Scope("module", self.module, None, "<module>", list(self.module.body))
        self.scopes.append(module_scope)
        self.scope_of_node[id(self.module)] = module_scope
        analysis = self

        Binds = _bind_visitor_class(cst)

        class Collector(Binds):
            """One walk: scopes, calls, names bound and mutated per scope, import aliases."""

            def __init__(self) -> None:
                super().__init__(analysis.binds_of(module_scope))
                self.stack = [module_scope]

            def enter_def(self, node) -> bool:
                parent = self.stack[-1]
                qual = node.name.value if parent.kind == "module" else f"{parent.qual}.{node.name.value}"
                if isinstance(node, cst.FunctionDef):
                    params = _param_names(node.params)
                    scope = Scope("function", node, parent, qual, _block_stmts(node.body), params=params)
                    if parent.kind == "class" and params and not _is_staticmethod(node):
                        scope.self_name = params[0]
                else:
                    scope = Scope("class", node, parent, qual, _block_stmts(node.body))
                    analysis.classes.append(scope)
                analysis.scopes.append(scope)
                analysis.scope_of_node[id(node)] = scope
                self.stack.append(scope)
                self.info = analysis.binds_of(scope)
                return True

            def leave_def(self) -> None:
                self.stack.pop()
                self.info = analysis.binds_of(self.stack[-1])

            def leave_FunctionDef(self, node) -> None:
                self.leave_def()

            def visit_Lambda(self, node) -> bool:
                return True  # calls inside a lambda belong to the enclosing scope

            def leave_ClassDef(self, node) -> None:
                self.leave_def()

            def visit_Call(self, node) -> None:
                super().visit_Call(node)
                scope = self.stack[-1]
                analysis.calls.append((node, scope))
                func = node.func
                if isinstance(func, cst.Name):
                    scope.callees.add(func.value)
                elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
                        scope.self_name and func.value.value == scope.self_name:
                    scope.callees.add(f"{scope.self_name}.{func.attr.value}")

            def visit_ImportFrom(self, node) -> None:
                super().visit_ImportFrom(node)
                if isinstance(node.names, cst.ImportStar):
                    if not node.relative and node.module is not None:
                        analysis.star_imports.append(_dotted(node.module))
                    return
                for alias in node.names:
                    if alias.asname is not None:
                        analysis.alias_names.update(_target_names(cst, alias.asname.name))

            def visit_Import(self, node) -> None:
                super().visit_Import(node)
                for alias in node.names:
                    if alias.asname is not None:
                        analysis.alias_names.update(_target_names(cst, alias.asname.name))

            def visit_Assign(self, node) -> None:
                super().visit_Assign(node)
                if isinstance(node.value, (cst.Name, cst.Attribute)):
                    for t in node.targets:
                        analysis.alias_names.update(_target_names(cst, t.target))

        self.module.visit(Collector())
        for scope in self.scopes:
            if scope.kind == "function":
                binds = self.binds_of(scope)
                scope.globals = binds.declared_global
                scope._locals = (set(scope.params) | binds.bound) - binds.declared_global

    def locals_of(self, scope: Scope) -> set[str]:
        if scope._locals is None:
            scope._locals = self.binds_of(scope).bound
        return scope._locals

    # -- names bound / mutated in a piece of code ---------------------------------------------------

    def binds_of(self, scope: Scope) -> _BindInfo:
        """Names bound and mutated in the scope's own code (filled by the one walk in _collect)."""
        got = self._scope_binds.get(id(scope))
        if got is None:
            got = self._scope_binds[id(scope)] = _BindInfo()
        return got

    def _binds(self, stmts) -> _BindInfo:
        info = _BindInfo()
        visitor = _bind_visitor_class(self.cst)(info)
        for st in stmts:
            st.visit(visitor)
        return info

    # -- taint: module lists that functions mutate in place ----------------------------------------

    def _prescan_taint(self) -> None:
        for scope in self.scopes:
            info = self.binds_of(scope)
            for base, attr in info.attr_mutated:
                cls = self._class_for_base(scope, base)
                if cls is not None:
                    self.taint_attrs.add((id(cls), attr))
            if scope.kind != "function":
                continue
            local = self.locals_of(scope)
            for name in info.mutated:
                if name not in local:
                    self.taint_names.add(name)
                elif name in info.aliases:
                    for target in info.aliases[name]:
                        if isinstance(target, str):
                            if target not in local:
                                self.taint_names.add(target)
                        else:  # ("attr", base name, attribute)
                            _, base, attr = target
                            cls = self._class_for_base(scope, base)
                            if cls is not None:
                                self.taint_attrs.add((id(cls), attr))

    def _class_for_base(self, scope: Scope, base: str) -> Scope | None:
        if scope.self_name and base == scope.self_name and scope.parent and scope.parent.kind == "class":
            return scope.parent
        for cls in self.classes:  # a class of the module, by name (no evaluation needed)
            if cls.parent is not None and cls.parent.kind == "module" and cls.node.name.value == base:
                return cls
        return None

    # -- frames -----------------------------------------------------------------------------------

    def module_final(self) -> Frame:
        return self.final_frame(self.scopes[0])

    def final_frame(self, scope: Scope) -> Frame:
        got = self.final_frames.get(id(scope))
        if got is not None:
            return got
        if id(scope) in self._computing:
            return self._computing[id(scope)]
        frame = Frame(self, scope)
        self._computing[id(scope)] = frame
        try:
            self.run_block(scope.body, frame, None)
        finally:
            del self._computing[id(scope)]
        self.final_frames[id(scope)] = frame
        return frame

    def frame_before(self, scope: Scope, offset: int) -> Frame:
        """The frame of ``scope`` just before the code at ``offset`` runs.

        Calls are looked at in source order, so each scope keeps a cursor: its top-level statements
        before ``offset`` are run once, and only the statement holding ``offset`` is entered, on a copy.
        """
        cursor = self._cursors.get(id(scope))
        if cursor is None or cursor[1] > offset:
            cursor = [Frame(self, scope), -1, 0]  # frame, last offset, next statement index
            self._cursors[id(scope)] = cursor
        frame, _, i = cursor
        body = scope.body
        while i < len(body) and self.offsets(body[i])[1] <= offset:
            self.exec_stmt(body[i], frame)
            i += 1
        cursor[1], cursor[2] = offset, i
        copy = frame.copy()
        if i < len(body) and self.contains(body[i], offset):
            self.enter(body[i], copy, offset)
        return copy

    def outer_lookup(self, scope: Scope | None, name: str, where: Span | None):
        """Look ``name`` up from a function or class into its enclosing scopes (classes skipped)."""
        while scope is not None and scope.kind == "class":
            scope = scope.parent
        while scope is not None:
            if scope.kind == "function":
                if name in self.locals_of(scope):
                    return _copy(self.final_frame(scope).vars.get(name, Unk(where)))
            elif scope.kind == "module":
                v = self.module_final().vars.get(name, _NOTFOUND)
                if v is not _NOTFOUND and name in self.taint_names and isinstance(v, (Seq, DictV)):
                    return Unk(where)
                return _copy(v)
            scope = scope.parent
            while scope is not None and scope.kind == "class":
                scope = scope.parent
        return _NOTFOUND

    def class_attr(self, cls: Scope, name: str, where: Span | None, virtual: bool, depth: int = 0):
        if depth > 20 or (id(cls), name) in self.taint_attrs:
            return Unk(where)
        if virtual:
            for other in self.classes:
                if other is cls or not self._inherits(other, cls):
                    continue
                if name in self.locals_of(other):
                    return Unk(where)  # a subclass overrides it
        frame = self.final_frame(cls)
        if name in frame.vars:
            return _copy(frame.vars[name])
        if name in self.locals_of(cls):
            return Unk(where)
        for base in self._bases(cls):
            return self.class_attr(base, name, where, False, depth + 1)
        return Unk(where)

    def _bases(self, cls: Scope) -> list[Scope]:
        out = []
        for arg in cls.node.bases:
            v = self.ev(arg.value, self.module_final())
            if isinstance(v, ClassV):
                out.append(v.scope)
        return out

    def _inherits(self, cls: Scope, base: Scope, depth: int = 0) -> bool:
        if depth > 20:
            return False
        for b in self._bases(cls):
            if b is base or self._inherits(b, base, depth + 1):
                return True
        return False

    # -- straight-line simulation -------------------------------------------------------------------

    def run_block(self, stmts, frame: Frame, stop: int | None) -> bool:
        for st in stmts:
            if stop is not None and self.contains(st, stop):
                self.enter(st, frame, stop)
                return True
            self.exec_stmt(st, frame)
        return False

    def enter(self, st, frame: Frame, stop: int) -> None:
        cst = self.cst
        if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in st.body:
                if self.contains(small, stop):
                    return
                self.exec_small(small, frame)
            return
        if isinstance(st, cst.If):
            if self.contains(st.body, stop):
                self.run_block(_block_stmts(st.body), frame, stop)
            elif st.orelse is not None and self.contains(st.orelse, stop):
                if isinstance(st.orelse, cst.If):
                    self.enter(st.orelse, frame, stop)
                else:
                    self.run_block(_block_stmts(st.orelse.body), frame, stop)
            return
        if isinstance(st, (cst.For, cst.While)):
            self.forget(st, frame)
            if isinstance(st, cst.For):
                for name in _target_names(cst, st.target):
                    frame.bind(name, Unk(self.span(st.target)))
            if self.contains(st.body, stop):
                self.run_block(_block_stmts(st.body), frame, stop)
            elif st.orelse is not None and self.contains(st.orelse, stop):
                self.run_block(_block_stmts(st.orelse.body), frame, stop)
            return
        if isinstance(st, (cst.Try, getattr(cst, "TryStar", cst.Try))):
            if self.contains(st.body, stop):
                self.run_block(_block_stmts(st.body), frame, stop)
                return
            for handler in st.handlers:
                if self.contains(handler, stop):
                    self.forget_stmts(_block_stmts(st.body), frame)
                    if handler.name is not None:
                        for name in _target_names(cst, handler.name.name):
                            frame.bind(name, Unk(self.span(handler.name.name)))
                    self.run_block(_block_stmts(handler.body), frame, stop)
                    return
            if st.orelse is not None and self.contains(st.orelse, stop):
                self.run_block(_block_stmts(st.body), frame, None)
                self.run_block(_block_stmts(st.orelse.body), frame, stop)
                return
            if st.finalbody is not None and self.contains(st.finalbody, stop):
                self.forget(st, frame)
                self.run_block(_block_stmts(st.finalbody.body), frame, stop)
            return
        if isinstance(st, cst.With):
            self._with_names(st, frame)
            if self.contains(st.body, stop):
                self.run_block(_block_stmts(st.body), frame, stop)
            return
        if hasattr(cst, "Match") and isinstance(st, cst.Match):
            for case in st.cases:
                if self.contains(case, stop):
                    self.forget(case.pattern, frame)
                    self.run_block(_block_stmts(case.body), frame, stop)
            return
        # FunctionDef / ClassDef: a call in a decorator or a default value; nothing to do.

    def _with_names(self, st, frame: Frame) -> None:
        for item in st.items:
            if item.asname is not None:
                for name in _target_names(self.cst, item.asname.name):
                    frame.bind(name, Unk(self.span(item.asname.name)))

    def forget(self, node, frame: Frame) -> None:
        """Every name bound or mutated inside ``node`` becomes unknown (imports there still count)."""
        self.forget_stmts([node], frame)

    def forget_stmts(self, stmts, frame: Frame) -> None:
        info = self._binds(stmts)
        for name in info.bound | info.mutated:
            frame.bind(name, Unk(None))
        for imp in info.imports:
            self.exec_small(imp, frame)

    def exec_stmt(self, st, frame: Frame) -> None:
        cst = self.cst
        if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in st.body:
                self.exec_small(small, frame)
        elif isinstance(st, cst.FunctionDef):
            frame.bind(st.name.value, FuncV(st))
        elif isinstance(st, cst.ClassDef):
            frame.bind(st.name.value, ClassV(self.scope_of_node[id(st)]))
        elif isinstance(st, cst.With):
            self._with_names(st, frame)
            self.run_block(_block_stmts(st.body), frame, None)
        else:
            self.forget(st, frame)

    def exec_small(self, small, frame: Frame) -> None:
        cst = self.cst
        if isinstance(small, cst.Assign):
            value = self.ev(small.value, frame)
            for t in small.targets:
                self.assign(t.target, value, frame)
        elif isinstance(small, cst.AnnAssign):
            if small.value is not None:
                self.assign(small.target, self.ev(small.value, frame), frame)
        elif isinstance(small, cst.AugAssign):
            self.aug_assign(small, frame)
        elif isinstance(small, cst.Expr):
            value = small.value
            if isinstance(value, cst.Await):
                value = value.expression
            if isinstance(value, cst.Call):
                self.call_effects(value, frame)
        elif isinstance(small, cst.Import):
            for alias in small.names:
                full = _dotted(alias.name)
                if alias.asname is not None:
                    frame.bind(alias.asname.name.value, Ref(full))
                else:
                    top = full.split(".")[0]
                    frame.bind(top, Ref(top))
        elif isinstance(small, cst.ImportFrom):
            if small.relative or small.module is None or isinstance(small.names, cst.ImportStar):
                if not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        name = alias.asname.name.value if alias.asname is not None else _dotted(alias.name)
                        frame.bind(name, Unk(self.span(alias)))
                return
            mod = _dotted(small.module)
            for alias in small.names:
                orig = _dotted(alias.name)
                name = alias.asname.name.value if alias.asname is not None else orig
                frame.bind(name, Ref(f"{mod}.{orig}"))
        elif isinstance(small, cst.Del):
            for name in _target_names(cst, small.target):
                frame.bind(name, Unk(self.span(small)))

    def assign(self, target, value: _V, frame: Frame) -> None:
        cst = self.cst
        if isinstance(target, cst.Name):
            frame.bind(target.value, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = list(target.elements)
            if isinstance(value, Seq) and len(value.items) == len(elements) and \
                    not any(isinstance(i, Splat) for i in value.items) and \
                    not any(isinstance(e, cst.StarredElement) for e in elements):
                for e, item in zip(elements, value.items):
                    self.assign(e.value, item, frame)
            else:
                for name in _target_names(cst, target):
                    frame.bind(name, Unk(self.span(target)))
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            name = target.value.value
            cur = frame.own(frame.lookup(name, None))
            if isinstance(cur, DictV) and len(target.slice) == 1 and \
                    isinstance(target.slice[0].slice, cst.Index):
                key = self.ev(target.slice[0].slice.value, frame)
                if isinstance(key, Str) and key.m.known:
                    cur.set(Entry(key.m.text, value, self.span(target), key.m.span_of(), None))
                    frame.rebind_mutated(name, cur)
                    return
            frame.rebind_mutated(name, Unk(self.span(target)))
        elif isinstance(target, cst.StarredElement):
            self.assign(target.value, Unk(self.span(target)), frame)

    def aug_assign(self, node, frame: Frame) -> None:
        cst = self.cst
        if not isinstance(node.target, cst.Name):
            return
        name = node.target.value
        where = self.span(node)
        cur = frame.own(frame.lookup(name, where))
        val = self.ev(node.value, frame)
        if isinstance(node.operator, cst.AddAssign):
            if isinstance(cur, Seq) and cur.kind == "list":
                if isinstance(val, Seq):
                    cur.items.extend(val.items)
                else:
                    cur.items.append(Splat(self.span(node.value)))
                frame.rebind_mutated(name, cur)
                return
            frame.bind(name, self.add(cur, val, where))
            return
        if isinstance(node.operator, cst.BitOrAssign) and isinstance(cur, DictV):
            cur.merge(val)
            frame.rebind_mutated(name, cur)
            return
        frame.rebind_mutated(name, Unk(where))

    def call_effects(self, call, frame: Frame) -> None:
        """Effects of a call statement on the names it mutates (``cmd.append(x)`` …)."""
        cst = self.cst
        func = call.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            name = func.value.value
            method = func.attr.value
            if method in _MUTATORS:
                cur = frame.own(frame.lookup(name, None))
                args = [a for a in call.args if a.keyword is None and not a.star]
                new: _V = Unk(self.span(call))
                if isinstance(cur, Seq) and cur.kind == "list":
                    if method == "append" and len(args) == 1 and len(call.args) == 1:
                        cur.items.append(self.ev(args[0].value, frame))
                        new = cur
                    elif method == "extend" and len(args) == 1 and len(call.args) == 1:
                        v = self.ev(args[0].value, frame)
                        if isinstance(v, Seq):
                            cur.items.extend(v.items)
                        else:
                            cur.items.append(Splat(self.span(args[0].value)))
                        new = cur
                    elif method == "insert" and len(args) == 2 and len(call.args) == 2:
                        idx = self.ev(args[0].value, frame)
                        if isinstance(idx, Const) and isinstance(idx.value, int) and not isinstance(idx.value, bool) \
                                and not any(isinstance(i, Splat) for i in cur.items):
                            cur.items.insert(idx.value, self.ev(args[1].value, frame))
                            new = cur
                elif isinstance(cur, DictV) and method == "update":
                    new = cur
                    for a in call.args:
                        if a.keyword is not None:
                            cur.set(self._kw_entry(a, frame))
                        elif a.star == "*":
                            cur.merge(None)
                        else:
                            cur.merge(self.ev(a.value, frame))
                elif isinstance(cur, Unk) and method in ("append", "extend") and len(call.args) == 1:
                    # an unknown list grown by known items: unknown items first, then these
                    items: list = [Splat(cur.where)]
                    if method == "append":
                        items.append(self.ev(args[0].value, frame) if args else Unk(None))
                    else:
                        v = self.ev(args[0].value, frame) if args else Unk(None)
                        items.extend(v.items if isinstance(v, Seq) else [Splat(self.span(call))])
                    new = Seq(items)
                frame.rebind_mutated(name, new)
                return
        callee = self.ev(func, frame)
        harmless = isinstance(callee, Ref) or (isinstance(func, cst.Attribute) and func.attr.value in _HARMLESS) \
            or (isinstance(func, cst.Name) and func.value in _HARMLESS)
        if not harmless:
            for a in call.args:
                if isinstance(a.value, cst.Name):
                    cur = frame.lookup(a.value.value, None)
                    if isinstance(cur, (DictV,)) or (isinstance(cur, Seq) and cur.kind == "list"):
                        frame.rebind_mutated(a.value.value, Unk(self.span(a.value)))

    # -- expressions ------------------------------------------------------------------------------

    def ev(self, node, frame: Frame) -> _V:
        cst = self.cst
        if isinstance(node, cst.SimpleString):
            return self.simple_string(node)
        if isinstance(node, cst.ConcatenatedString):
            left = self.ev(node.left, frame)
            right = self.ev(node.right, frame)
            if isinstance(left, Str) and isinstance(right, Str):
                return Str(MStr.join([left.m, right.m], self.span(node)))
            return Unk(self.span(node))
        if isinstance(node, cst.FormattedString):
            return self.fstring(node, frame)
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return Const({"True": True, "False": False, "None": None}[node.value], self.span(node))
            v = frame.lookup(node.value, self.span(node))
            if v is _NOTFOUND:
                if node.value in _BUILTINS:
                    return Ref(f"builtins.{node.value}")
                if len(self.star_imports) == 1:
                    return Ref(f"{self.star_imports[0]}.{node.value}")
                return Unk(self.span(node))
            return v
        if isinstance(node, cst.Attribute):
            return self.attribute(node, frame)
        if isinstance(node, (cst.List, cst.Tuple)):
            items: list = []
            for e in node.elements:
                if isinstance(e, cst.StarredElement):
                    v = self.ev(e.value, frame)
                    if isinstance(v, Seq):
                        items.extend(v.items)
                    elif isinstance(v, Str) and v.m.known:
                        items.extend(Str(v.m[k:k + 1]) for k in range(len(v.m)))
                    else:
                        items.append(Splat(self.span(e)))
                else:
                    items.append(self.ev(e.value, frame))
            return Seq(items, "list" if isinstance(node, cst.List) else "tuple")
        if isinstance(node, cst.Dict):
            d = DictV([])
            for el in node.elements:
                if isinstance(el, cst.StarredDictElement):
                    d.merge(self.ev(el.value, frame))
                    continue
                key = self.ev(el.key, frame)
                if isinstance(key, Str) and key.m.known:
                    d.set(Entry(key.m.text, self.ev(el.value, frame), self.span(el), key.m.span_of(),
                                self.span(el.value)))
                else:
                    d.merge(None)
            return d
        if isinstance(node, cst.Integer):
            try:
                return Const(int(node.value.replace("_", ""), 0), self.span(node))
            except ValueError:
                return Unk(self.span(node))
        if isinstance(node, cst.Float):
            try:
                return Const(float(node.value.replace("_", "")), self.span(node))
            except ValueError:
                return Unk(self.span(node))
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            v = self.ev(node.expression, frame)
            if isinstance(v, Const) and isinstance(v.value, (int, float)) and not isinstance(v.value, bool):
                return Const(-v.value, self.span(node))
            return Unk(self.span(node))
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            return self.add(self.ev(node.left, frame), self.ev(node.right, frame), self.span(node))
        if isinstance(node, cst.Call):
            return self.call_value(node, frame)
        if isinstance(node, cst.NamedExpr):
            return self.ev(node.value, frame)
        return Unk(self.span(node))

    def simple_string(self, node) -> _V:
        prefix = node.prefix.lower()
        if "b" in prefix:
            return Unk(self.span(node))
        s, _ = self.offsets(node)
        q = len(node.quote)
        start = s + len(node.prefix) + q
        body = node.value[len(node.prefix) + q:len(node.value) - q]
        return Str(decode_literal(self.source, body, start, raw="r" in prefix))

    def fstring(self, node, frame: Frame) -> _V:
        cst = self.cst
        raw = "r" in node.prefix.lower()
        if "b" in node.prefix.lower():
            return Unk(self.span(node))
        parts: list[MStr] = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                s, _ = self.offsets(part)
                parts.append(decode_literal(self.source, part.value, s, raw, fstring=True))
                continue
            where = self.span(part)
            v = self.ev(part.expression, frame)
            simple = part.format_spec is None and part.conversion in (None, "s") and \
                getattr(part, "equal", None) is None
            m = self.as_text(v) if simple else None
            parts.append(m if m is not None else MStr.unknown(where))
        return Str(MStr.join(parts, self.span(node)))

    def as_text(self, v: _V) -> MStr | None:
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

    def attribute(self, node, frame: Frame) -> _V:
        cst = self.cst
        where = self.span(node)
        attr = node.attr.value
        base_node = node.value
        scope = frame.scope
        if isinstance(base_node, cst.Name) and scope.kind == "function" and scope.self_name == base_node.value \
                and base_node.value not in frame.vars and scope.parent is not None and scope.parent.kind == "class":
            return self.class_attr(scope.parent, attr, where, virtual=True)
        base = self.ev(base_node, frame)
        if isinstance(base, Ref):
            return Ref(f"{base.qual}.{attr}")
        if isinstance(base, ClassV):
            return self.class_attr(base.scope, attr, where, virtual=False)
        return Unk(where)

    def add(self, left: _V, right: _V, where: Span | None) -> _V:
        if isinstance(left, Seq) and isinstance(right, Seq) and left.kind == right.kind:
            return Seq(left.items + right.items, left.kind)
        if isinstance(left, Seq) and isinstance(right, Unk):
            return Seq(left.items + [Splat(right.where)], left.kind)
        if isinstance(left, Unk) and isinstance(right, Seq):
            return Seq([Splat(left.where)] + right.items, right.kind)
        if isinstance(left, Str) and isinstance(right, Str):
            return Str(MStr.join([left.m, right.m], where))
        if isinstance(left, Str) and isinstance(right, Unk):
            return Str(MStr.join([left.m, MStr.unknown(right.where)], where))
        if isinstance(left, Unk) and isinstance(right, Str):
            return Str(MStr.join([MStr.unknown(left.where), right.m], where))
        if isinstance(left, Const) and isinstance(right, Const) and type(left.value) in (int, float) and \
                type(right.value) in (int, float):
            return Const(left.value + right.value, where)
        return Unk(where)

    def call_value(self, node, frame: Frame) -> _V:
        cst = self.cst
        where = self.span(node)
        func = node.func
        args = list(node.args)
        positional = [a for a in args if a.keyword is None and not a.star]
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            base_v = None
            if method in ("join", "split", "strip", "lstrip", "rstrip"):
                base_v = self.ev(func.value, frame)
            if isinstance(base_v, Str):
                if method == "join" and len(args) == 1 and positional:
                    return self.join(base_v.m, self.ev(positional[0].value, frame), where)
                if method == "split" and not args:
                    return Seq([Str(w, joinable=True) for w in split_whitespace(base_v.m)])
                if method in ("strip", "lstrip", "rstrip") and not args:
                    text = base_v.m.text
                    i, j = 0, len(text)
                    if method != "rstrip":
                        while i < j and text[i].isspace():
                            i += 1
                    if method != "lstrip":
                        while j > i and text[j - 1].isspace():
                            j -= 1
                    return Str(base_v.m[i:j])
        callee = self.ev(func, frame)
        if isinstance(callee, Ref):
            q = callee.qual
            if q == "shlex.split" and len(positional) >= 1 and len(args) == len(positional):
                v = self.ev(positional[0].value, frame)
                if isinstance(v, Str):
                    try:
                        return Seq([Splat(t.text.where) if t.splat and self._is_splat(t) else Str(t.text, t.joinable)
                                    for t in split_words(v.m)])
                    except SplitError:
                        return Unk(where)
                return Unk(where)
            if q in ("builtins.str",) and len(args) == 1 and positional:
                m = self.as_text(self.ev(positional[0].value, frame))
                return Str(m) if m is not None else Unk(where)
            if q in ("builtins.list", "builtins.tuple") and len(args) == 1 and positional:
                v = self.ev(positional[0].value, frame)
                if isinstance(v, Seq):
                    return Seq(list(v.items), "list" if q.endswith("list") else "tuple")
                return Unk(where)
            if q in ("builtins.list", "builtins.tuple") and not args:
                return Seq([], "list" if q.endswith("list") else "tuple")
            if q == "builtins.dict":
                d = DictV([])
                for a in args:
                    if a.keyword is not None:
                        d.set(self._kw_entry(a, frame))
                    elif a.star == "**" or (not a.star and len(positional) == 1):
                        d.merge(self.ev(a.value, frame))
                    else:
                        d.merge(None)
                return d
            if q in _MODAL_APPS:
                return Instance(q)
        return Unk(where)

    def _kw_entry(self, arg, frame: Frame) -> Entry:
        return Entry(arg.keyword.value, self.ev(arg.value, frame), self.span(arg), self.span(arg.keyword),
                     self.span(arg.value))

    def join(self, sep: MStr, v: _V, where: Span) -> _V:
        if not isinstance(v, Seq):
            return Unk(where)
        parts: list[MStr] = []
        for k, item in enumerate(v.items):
            if k:
                parts.append(sep)
            if isinstance(item, Splat):
                parts.append(self._splat_mstr(item.where))
            else:
                m = self.as_text(item) if isinstance(item, Str) else None
                parts.append(m if m is not None else MStr.unknown(getattr(item, "where", None)))
        return Str(MStr.join(parts, where)) if parts else Str(MStr.plain("", where))

    def _splat_mstr(self, where: Span | None) -> MStr:
        """An unknown character that stands for any number of words (remembered by identity)."""
        origin = (where.source, where.start) if where is not None else (self.source, 0)
        self._keep.append(origin)
        self.splat_ids.add(id(origin))
        return MStr(UNKNOWN_CHAR, [origin], where)

    def _is_splat(self, token: Token) -> bool:
        o = token.text.origins[0] if token.text.origins else None
        return o is not None and id(o) in self.splat_ids

    # -- tokens -----------------------------------------------------------------------------------

    def token(self, item) -> Token:
        if isinstance(item, Splat):
            return Token(MStr.unknown(item.where), splat=True)
        if isinstance(item, Str):
            return Token(item.m, joinable=item.joinable)
        if isinstance(item, Ref) and item.qual == "sys.executable":
            return Token(MStr.plain("python3"))
        return Token(MStr.unknown(getattr(item, "where", None) or getattr(item, "span", None)))

    def seq_tokens(self, v: _V) -> list[Token] | None:
        if isinstance(v, Seq):
            return [self.token(i) for i in v.items]
        return None

    def fix_splats(self, tokens: list[Token]) -> list[Token]:
        """Shell splitting marks every lone unknown word as a splat; in Python only the ones that
        stand for a list of unknown length are."""
        out = []
        for t in tokens:
            if t.splat and not self._is_splat(t):
                t = Token(t.text, joinable=t.joinable)
            out.append(t)
        return out

    # -- launches ---------------------------------------------------------------------------------

    def _launch(self, call, scope: Scope) -> list[Launch]:
        cst = self.cst
        func = call.func
        # cheap syntactic gate before any evaluation
        name = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None
        if name is None or (name not in _CALL_NAMES and name not in self.alias_names):
            return []
        start, _ = self.offsets(call)
        frame = None

        def get_frame() -> Frame:
            nonlocal frame
            if frame is None:
                frame = self.frame_before(scope, start)
            return frame

        callee = self.ev(func, get_frame())
        if not isinstance(callee, Ref):
            return []
        q = callee.qual
        span = self.span(call)
        if q in _ENGINE or q in _SERVER_ARGS or q in _RUNTIME:
            return self._kwargs_launch(call, q, get_frame(), span)
        argv = self._argv(call, q, get_frame())
        if argv is None:
            return []
        kind, payload = argv
        found: list[tuple[str, list[Token]]] = []
        if kind == "argv":
            found = self._launches_in_argv(payload)
        elif kind == "shell":
            found = self._launches_in_script(payload)
        elif kind == "sglang-cmd":
            words = [Token(w, splat=self._is_splat(Token(w)) if w.text == UNKNOWN_CHAR else False, joinable=True)
                     for w in split_whitespace(payload, backslash=True)]
            while words and words[0].value is not None and "=" in words[0].value and \
                    not words[0].value.startswith("-"):
                words = words[1:]
            found = self._launches_in_argv(words, shells=False)
        elif kind == "serve":
            found = [(SERVE, payload)]
        return [Launch(source=self.source, program=p, span=span, args=a) for p, a in found]

    def _args(self, call, frame: Frame) -> tuple[list, dict]:
        """Positional values (a ``*x`` of a known sequence spliced in, of an unknown one a
        :class:`Splat`) and keyword argument nodes by name."""
        positional: list = []
        keywords = {}
        for a in call.args:
            if a.keyword is not None:
                keywords[a.keyword.value] = a
            elif a.star == "*":
                v = self.ev(a.value, frame)
                if isinstance(v, Seq):
                    positional.extend(v.items)
                else:
                    positional.append(Splat(self.span(a)))
            elif a.star != "**":
                positional.append(self.ev(a.value, frame))
        return positional, keywords

    def _argv(self, call, q: str, frame: Frame):
        """("argv", tokens) | ("shell", MStr) | ("sglang-cmd", MStr) | ("serve", tokens) | None."""
        positional, kw = self._args(call, frame)
        if q in _POPEN:
            if positional and not isinstance(positional[0], Splat):
                first = positional[0]
            elif "args" in kw:
                first = self.ev(kw["args"].value, frame)
            else:
                return None
            shell = self.ev(kw["shell"].value, frame) if "shell" in kw else Const(False, None)
            shell_on = not isinstance(shell, Const) or bool(shell.value)
            if isinstance(first, Str):
                if shell_on:
                    return "shell", first.m
                return "argv", [Token(first.m)]
            if isinstance(first, Seq):
                if isinstance(shell, Const) and shell.value and first.items and isinstance(first.items[0], Str):
                    return "shell", first.items[0].m
                return "argv", self.seq_tokens(first)
            return None
        if q in _SHELL_CALLS:
            arg = positional[0] if positional else (self.ev(kw["cmd"].value, frame) if "cmd" in kw else
                                                    self.ev(kw["command"].value, frame) if "command" in kw else None)
            if isinstance(arg, Str):
                return "shell", arg.m
            return None
        if q in _EXEC:
            path_i, argv_i, style, has_env = _EXEC[q]
            if len(positional) <= argv_i or any(isinstance(p, Splat) for p in positional[:argv_i + 1]):
                return None
            path = self.token(positional[path_i])
            if style == "v":
                seq = positional[argv_i]
                if not isinstance(seq, Seq):
                    return None
                rest = seq.items[1:] if seq.items and not isinstance(seq.items[0], Splat) else seq.items
            else:
                rest = positional[argv_i + 1:len(positional) - (1 if has_env else 0)]
            return "argv", [path] + [self.token(i) for i in rest]
        if q == _CREATE_EXEC:
            if not positional:
                return None
            return "argv", [self.token(i) for i in positional]
        if q in _LAUNCH_SERVER_CMD:
            arg = positional[0] if positional else (self.ev(kw["command"].value, frame) if "command" in kw else None)
            if isinstance(arg, Str):
                return "sglang-cmd", arg.m
            return None
        if q in _POPEN_LAUNCH_SERVER:
            if positional and not isinstance(positional[0], Splat):
                model_v = positional[0]
                model_node = next(a.value for a in call.args if a.keyword is None)
            elif "model" in kw:
                model_v = self.ev(kw["model"].value, frame)
                model_node = kw["model"].value
            else:
                return None
            other = None
            if "other_args" in kw:
                other = self.ev(kw["other_args"].value, frame)
            elif len(positional) > 4 and not any(isinstance(p, Splat) for p in positional[:5]):
                other = positional[4]
            tokens = [Token(MStr.plain("--model-path", self.span(model_node))), self.token(model_v)]
            if other is None:
                pass
            elif isinstance(other, Seq):
                tokens.extend(self.seq_tokens(other))
            else:
                tokens.append(Token(MStr.unknown(getattr(other, "where", None)), splat=True))
            return "serve", tokens
        return None

    def _launches_in_argv(self, words: list[Token], shells: bool = True) -> list[tuple[str, list[Token]]]:
        words = self._strip_prefix(words)
        entry = match_entry_point(words)
        if entry:
            return [(entry.program, words[entry.args_start:])]
        if shells and words and words[0].value and _SHELLS.match(words[0].value):
            for k in range(1, len(words)):
                flag = words[k].value or ""
                if re.fullmatch(r"-[a-zA-Z]*c[a-zA-Z]*", flag) and k + 1 < len(words):
                    return self._launches_in_script(words[k + 1].text)
                if not flag.startswith("-"):
                    break
        return []

    def _launches_in_script(self, script: MStr) -> list[tuple[str, list[Token]]]:
        try:
            commands = split_commands(script)
        except SplitError as exc:
            loc = script.location(exc.index, exc.index + 1) or script.where
            if loc is not None:
                self.result.problems.append(Problem(f"cannot split the command string: {exc}", loc))
            return []
        out = []
        for command in commands:
            command = self._strip_prefix(self.fix_splats(command))
            entry = match_entry_point(command)
            if entry:
                out.append((entry.program, command[entry.args_start:]))
        return out

    @staticmethod
    def _strip_prefix(words: list[Token]) -> list[Token]:
        while words and words[0].value is not None and (
                _ASSIGNMENT.match(words[0].value) or words[0].value in _PREFIX_COMMANDS):
            words = words[1:]
        return words

    def _kwargs_launch(self, call, q: str, frame: Frame, span: Span) -> list[Launch]:
        if q in _ENGINE and any(a.keyword is not None and a.keyword.value == "server_args" for a in call.args):
            return []  # the ServerArgs(...) it is given is the launch
        program = "sglang.Engine" if q in _ENGINE else "ServerArgs" if q in _SERVER_ARGS else "sgl.Runtime"
        spread: list[KwArg] = []
        explicit: list[KwArg] = []
        first_positional = True
        for a in call.args:
            if a.keyword is not None:
                v = self.ev(a.value, frame)
                explicit.append(self._kwarg(a.keyword.value, v, self.span(a), self.span(a.keyword),
                                            self.span(a.value)))
            elif a.star == "**":
                v = self.ev(a.value, frame)
                if isinstance(v, DictV):
                    for e in v.entries:
                        spread.append(self._kwarg(e.key, e.value, e.where or self.span(a), e.name_span,
                                                  e.value_span))
            elif a.star == "*":
                first_positional = False
            elif first_positional and program != "sglang.Engine":
                first_positional = False
                v = self.ev(a.value, frame)
                explicit.append(self._kwarg("model_path", v, self.span(a), None, self.span(a.value)))
            else:
                first_positional = False
        names = {k.name for k in explicit}
        kwargs = [k for k in spread if k.name not in names]
        seen: dict[str, KwArg] = {}
        for k in kwargs + explicit:
            seen.pop(k.name, None)
            seen[k.name] = k
        return [Launch(source=self.source, program=program, span=span, style="kwargs", kwargs=list(seen.values()))]

    def _kwarg(self, name: str, v: _V, where: Span, name_span: Span | None, value_span: Span | None) -> KwArg:
        value_text = None
        if isinstance(v, Str):
            value = v.m.text if v.m.known else UNKNOWN
            value_text = v.m
        elif isinstance(v, Const):
            value = v.value
        elif isinstance(v, Seq) and all(isinstance(i, (Str, Const)) for i in v.items) and \
                all(i.m.known for i in v.items if isinstance(i, Str)):
            value = [i.m.text if isinstance(i, Str) else i.value for i in v.items]
            if v.kind == "tuple":
                value = tuple(value)
        else:
            value = UNKNOWN
        return KwArg(name, value, where, name_span=name_span, value_text=value_text, value_span=value_span)

    # -- Modal ------------------------------------------------------------------------------------

    def _modal(self) -> None:
        cst = self.cst
        if "modal" not in self.source.text:
            return
        module = self.module_final()
        for scope in self.scopes:
            if scope.kind == "module":
                continue
            for dec in scope.node.decorators:
                d = dec.decorator
                if not (isinstance(d, cst.Call) and isinstance(d.func, cst.Attribute)):
                    continue
                if d.func.attr.value not in _MODAL_DECORATORS:
                    continue
                app = self.ev(d.func.value, module)
                if not (isinstance(app, Instance) and app.qual in _MODAL_APPS):
                    continue
                for a in d.args:
                    if a.keyword is not None and a.keyword.value == "gpu":
                        scope.decls.extend(self._gpu_decls(a.value, module, scope.qual))

    def _gpu_decls(self, node, frame: Frame, owner: str) -> list[GpuDecl]:
        how = f"Modal gpu= on {owner}"
        v = self.ev(node, frame)
        items = v.items if isinstance(v, Seq) else [v]
        out = []
        for item in items:
            if isinstance(item, Str):
                text = item.m.text
                name_len = text.find(":")
                name_len = len(text) if name_len < 0 else name_len
                name = text[:name_len].strip()
                if not name or UNKNOWN_CHAR in name:
                    continue
                lead = len(text[:name_len]) - len(text[:name_len].lstrip())
                loc = item.m.location(lead, lead + len(name))
                out.append(GpuDecl(name, loc, how))
        if not out and isinstance(node, self.cst.Call):  # legacy modal.gpu.H100(count=8)
            callee = self.ev(node.func, frame)
            if isinstance(callee, Ref) and callee.qual.startswith("modal.gpu."):
                attr = node.func.attr if isinstance(node.func, self.cst.Attribute) else node.func
                out.append(GpuDecl(callee.qual.rsplit(".", 1)[1], self.span(attr), how))
        return out

    def _decls_for(self, scope: Scope) -> list[GpuDecl]:
        """Modal declarations of the scope, its enclosing scopes and the decorated functions that call it."""
        out: list[GpuDecl] = []
        seen: set[int] = set()
        todo = [scope]
        while todo:
            s = todo.pop()
            if id(s) in seen:
                continue
            seen.add(id(s))
            out.extend(s.decls)
            if s.parent is not None and s.parent.kind != "module":
                todo.append(s.parent)
            if s.kind == "function":
                for caller in self._callers(s):
                    todo.append(caller)
        return out

    def _callers(self, scope: Scope) -> list[Scope]:
        name = scope.node.name.value
        out = []
        for other in self.scopes:
            if other.kind != "function" or other is scope:
                continue
            if scope.parent.kind == "module" and name in other.callees and name not in self.locals_of(other):
                out.append(other)
            elif scope.parent.kind == "class" and other.parent is scope.parent and other.self_name and \
                    f"{other.self_name}.{name}" in other.callees:
                out.append(other)
        return out


# ------------------------------------------------------------------------------------------------
# frames


class Frame:
    """The names of one scope at one point of its straight-line execution."""

    def __init__(self, analysis: _Analysis, scope: Scope) -> None:
        self.a = analysis
        self.scope = scope
        self.vars: dict[str, _V] = {}
        self.overrides: dict[str, _V] = {}
        self.owned: set[int] | None = None  # None: every value is this frame's own
        self._keep: list = []

    def copy(self) -> Frame:
        """A frame to run on from here; lists and dicts are copied when it first mutates them."""
        other = Frame(self.a, self.scope)
        other.vars = dict(self.vars)
        other.overrides = dict(self.overrides)
        other.owned = set()
        return other

    def own(self, value):
        """``value`` made private to this frame before an in-place change (every name bound to the
        same object is rebound to the copy, so aliases stay aliases)."""
        if self.owned is None or not isinstance(value, (Seq, DictV)) or id(value) in self.owned:
            return value
        clone = value.copy()
        for table in (self.vars, self.overrides):
            for k, v in table.items():
                if v is value:
                    table[k] = clone
        self.owned.add(id(clone))
        self._keep.append(clone)
        return clone

    def bind(self, name: str, value: _V) -> None:
        scope = self.scope
        if scope.kind == "function" and (name in scope.globals or name not in self.a.locals_of(scope)):
            self.overrides[name] = value
        else:
            self.vars[name] = value

    def rebind_mutated(self, name: str, value: _V) -> None:
        """``name``'s object was changed in place into ``value``: every alias of it sees the change."""
        old = self.vars.get(name, self.overrides.get(name))
        if isinstance(old, (Seq, DictV)) and old is not value:
            for table in (self.vars, self.overrides):
                for k, v in table.items():
                    if v is old:
                        table[k] = value
        if name in self.vars or self.scope.kind == "module" or name in self.a.locals_of(self.scope):
            self.vars[name] = value
        else:
            self.overrides[name] = value

    def lookup(self, name: str, where: Span | None):
        if name in self.overrides:
            return self.overrides[name]
        scope = self.scope
        if scope.kind == "module":
            return self.vars.get(name, _NOTFOUND)
        if scope.kind == "class":
            if name in self.vars:
                return self.vars[name]
            if name in self.a.locals_of(scope):
                return Unk(where)
            return self.a.outer_lookup(scope.parent, name, where)
        if name in scope.globals:
            v = self.a.module_final().vars.get(name, _NOTFOUND)
            return _copy(v)
        if name in self.a.locals_of(scope):
            return self.vars.get(name, Unk(where))
        return self.a.outer_lookup(scope.parent, name, where)


def _copy(v):
    if isinstance(v, (Seq, DictV)):
        return v.copy()
    return v


# ------------------------------------------------------------------------------------------------
# syntax helpers


def _dotted(node) -> str:
    """``a.b.c`` of a Name/Attribute node."""
    parts = []
    while hasattr(node, "attr"):
        parts.append(node.attr.value)
        node = node.value
    parts.append(node.value)
    return ".".join(reversed(parts))


def _block_stmts(block) -> list:
    """The statements of an IndentedBlock, or ``[suite]`` for a one-line ``SimpleStatementSuite``."""
    body = getattr(block, "body", None)
    if isinstance(body, (list, tuple)) and body and not hasattr(block, "header"):
        return [block]
    return list(body) if isinstance(body, (list, tuple)) else [block]


def _param_names(params) -> list[str]:
    out = [p.name.value for p in list(params.posonly_params) + list(params.params)]
    for p in (params.star_arg, *params.kwonly_params, params.star_kwarg):
        name = getattr(p, "name", None)
        if name is not None and hasattr(name, "value"):
            out.append(name.value)
    return out


def _is_staticmethod(node) -> bool:
    for d in node.decorators:
        dec = d.decorator
        if getattr(dec, "value", None) == "staticmethod":
            return True
    return False


def _target_names(cst, target) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out = []
        for e in target.elements:
            out.extend(_target_names(cst, e.value))
        return out
    if isinstance(target, cst.StarredElement):
        return _target_names(cst, target.value)
    return []


@dataclass
class _BindInfo:
    bound: set[str] = field(default_factory=set)
    mutated: set[str] = field(default_factory=set)
    declared_global: set[str] = field(default_factory=set)
    imports: list = field(default_factory=list)
    aliases: dict[str, list] = field(default_factory=dict)  # local name -> names/attrs it was bound to
    attr_mutated: set[tuple[str, str]] = field(default_factory=set)  # (base name, attribute)


@functools.lru_cache(maxsize=None)
def _bind_visitor_class(cst):
    """The visitor class that records names bound and mutated in code (not inside nested scopes)."""
    def names(target) -> list[str]:
        return _target_names(cst, target)

    class Binds(cst.CSTVisitor):
        def __init__(self, info: _BindInfo) -> None:
            super().__init__()
            self.info = info

        def enter_def(self, node) -> bool:
            return False

        def visit_FunctionDef(self, node) -> bool:
            self.info.bound.add(node.name.value)
            return self.enter_def(node)

        def visit_ClassDef(self, node) -> bool:
            self.info.bound.add(node.name.value)
            return self.enter_def(node)

        def visit_Lambda(self, node) -> bool:
            return False

        def visit_Assign(self, node) -> None:
            for t in node.targets:
                self._target(t.target)
                if isinstance(t.target, cst.Name):
                    v = node.value
                    if isinstance(v, cst.Name):
                        self.info.aliases.setdefault(t.target.value, []).append(v.value)
                    elif isinstance(v, cst.Attribute) and isinstance(v.value, cst.Name):
                        self.info.aliases.setdefault(t.target.value, []).append(("attr", v.value.value, v.attr.value))

        def _target(self, target) -> None:
            self.info.bound.update(names(target))
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                self.info.attr_mutated.add((target.value.value, target.attr.value))  # self.x = … / Cls.x = …
            elif isinstance(target, (cst.Tuple, cst.List)):
                for e in target.elements:
                    self._target(e.value)
            elif isinstance(target, cst.Subscript):
                base = target.value
                if isinstance(base, cst.Name):
                    self.info.mutated.add(base.value)
                elif isinstance(base, cst.Attribute) and isinstance(base.value, cst.Name):
                    self.info.attr_mutated.add((base.value.value, base.attr.value))

        def visit_AnnAssign(self, node) -> None:
            self._target(node.target)

        def visit_AugAssign(self, node) -> None:
            t = node.target
            if isinstance(t, cst.Name):
                self.info.bound.add(t.value)
                self.info.mutated.add(t.value)
            elif isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name):
                self.info.attr_mutated.add((t.value.value, t.attr.value))
            else:
                self._target(t)

        def visit_For(self, node) -> None:
            self.info.bound.update(names(node.target))

        def visit_CompFor(self, node) -> None:
            return None

        def visit_WithItem(self, node) -> None:
            if node.asname is not None:
                self.info.bound.update(names(node.asname.name))

        def visit_ExceptHandler(self, node) -> None:
            if node.name is not None:
                self.info.bound.update(names(node.name.name))

        def visit_NamedExpr(self, node) -> None:
            self.info.bound.update(names(node.target))

        def visit_Del(self, node) -> None:
            self.info.bound.update(names(node.target))

        def visit_Import(self, node) -> None:
            self.info.imports.append(node)
            for alias in node.names:
                if alias.asname is not None:
                    self.info.bound.update(names(alias.asname.name))
                else:
                    self.info.bound.add(_dotted(alias.name).split(".")[0])

        def visit_ImportFrom(self, node) -> None:
            self.info.imports.append(node)
            if isinstance(node.names, cst.ImportStar):
                return
            for alias in node.names:
                if alias.asname is not None:
                    self.info.bound.update(names(alias.asname.name))
                else:
                    self.info.bound.add(_dotted(alias.name))

        def visit_Global(self, node) -> None:
            self.info.declared_global.update(n.name.value for n in node.names)

        def visit_Nonlocal(self, node) -> None:
            self.info.declared_global.update(n.name.value for n in node.names)

        def visit_Call(self, node) -> None:
            f = node.func
            if isinstance(f, cst.Attribute) and f.attr.value in _MUTATORS:
                base = f.value
                if isinstance(base, cst.Name):
                    self.info.mutated.add(base.value)
                elif isinstance(base, cst.Attribute) and isinstance(base.value, cst.Name):
                    self.info.attr_mutated.add((base.value.value, base.attr.value))

    return Binds


__all__ = ["extract", "decode_literal", "split_whitespace"]
