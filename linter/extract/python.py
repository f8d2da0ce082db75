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

Values are resolved within the module only: literals (with implicit concatenation, f-strings,
``"...".format(...)`` and ``"..." % (...)`` whose parts are known), names bound at module level or
in the enclosing function before the call, class attributes (``cls.X``, ``self.X``, ``Class.X``),
``+`` of lists, tuples and strings, ``+=``, ``.append``, ``.extend``, ``.insert``, ``.pop``,
``x[i] = …``, ``del x[i]``, ``**`` of a dict literal or ``dict(...)``. Anything else — calls,
attributes of other modules, loop variables, a module list that some function mutates in place — is
unknown, never guessed.

Compound statements (``if``, ``for``, ``while``, ``try``, ``with``, ``match``) are followed along
each of their paths, and the paths are joined where they meet again: what every path agrees on stays
known, with its origin. A list keeps the words known before the branch; what a branch (or a round of
a loop) may add becomes an unknown tail of any length; a word replaced or removed on some path makes
the list unknown from there, and a change that cannot be placed (``.remove(x)``, a whole new list)
makes it unknown as a whole. A dict key set on some path has an unknown value; a name bound to
different values on different paths is unknown. A path that ends in ``return`` or ``raise`` does not
reach what follows; a ``try`` handler (and a ``with contextlib.suppress(...)`` body) may start after
any statement of the body. Loops are run until the join settles (loops nested more than three deep
are not followed: what they change is unknown).

Calls inside ``with pytest.raises(...)`` / ``with self.assertRaises(...)`` are tests that expect
SGLang to refuse the configuration: they are not launches.

Every resolved character keeps the offset of the source character it came from, so a diagnostic
points at — and a fix edits — the word inside the string literal where it was written (an escape
sequence such as ``\\n`` is not exact, so no fix edits it).

Target GPUs: Modal's ``gpu=`` on ``@app.function(...)``, ``@app.cls(...)`` or ``@app.server(...)``
(``app`` bound to ``modal.App(...)``/``modal.Stub(...)``) applies to the launches inside that
function or class and in the module functions it calls; ``"H100:8"`` names ``H100``, ``"H100!"``
and ``"B200+"`` are kept as written, a list of fallbacks gives several candidates. The ``image=``
there (or of the ``modal.App``), a ``modal.Image`` chain whose calls name ``lmsysorg/sglang:TAG``,
becomes the launch's image, from which the release and torch's CUDA build are read.

A file that holds none of the call names above as a word cannot start a launch and is not parsed.

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

from linter.extract.words import SplitError, split_words
from linter.launch import UNKNOWN, UNKNOWN_CHAR, Extraction, GpuDecl, KwArg, Launch, MStr, Problem, Token
from linter.sglang.entrypoints import SERVE
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
_MODAL_IMAGE = "modal.Image"
_SGLANG_IMAGE = re.compile(r"(?:^|[\s/\"'=:])(?P<ref>lmsysorg/sglang:[A-Za-z0-9_.\-\ue000]+)")

_SHELLS = re.compile(r"^(?:.*/)?(?:sh|bash|dash|zsh|ash)$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PREFIX_COMMANDS = {"exec", "nohup", "time", "command", "env"}
_BUILTINS = {"str", "list", "tuple", "dict", "int", "float", "bool", "len", "print", "sorted", "repr"}
_MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update",
             "setdefault", "popitem", "__setitem__", "__delitem__", "__iadd__"}
_CALL_NAMES = {q.rsplit(".", 1)[1] for q in (_POPEN | _SHELL_CALLS | set(_EXEC) | {_CREATE_EXEC} | _ENGINE
                                         | _SERVER_ARGS | _RUNTIME | _LAUNCH_SERVER_CMD | _POPEN_LAUNCH_SERVER)}
"""Last names of the callables above: a call named otherwise is a launch only through an alias."""
_CALL_NAME_RE = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, _CALL_NAMES), key=len, reverse=True)) + r")\b")
"""Any of the names above as a whole word: a file without one holds no launch (the early exit)."""
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
    """An object made by a known call (``modal.App(...)``, ``modal.Image.from_registry(...)``) or a
    method of one (``qual`` ends in ``#method``). ``image`` is the ``lmsysorg/sglang:TAG`` reference a
    Modal image is built from, when its source names one."""

    qual: str
    image: MStr | None = None


@dataclass(eq=False)
class FuncV(_V):
    node: object


@dataclass(eq=False)
class ClassV(_V):
    scope: Scope


_NOTFOUND = object()


# ------------------------------------------------------------------------------------------------
# joining the values that different paths of the code leave in a name


def _same(a, b) -> bool:
    """``a`` and ``b`` are the same value with the same origins (so either may stand for both)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, (Unk, Splat)):
        return True
    if isinstance(a, Str):
        return a.joinable == b.joinable and a.m.text == b.m.text and a.m.origins == b.m.origins
    if isinstance(a, Const):
        return type(a.value) is type(b.value) and a.value == b.value and a.span == b.span
    if isinstance(a, Ref):
        return a.qual == b.qual
    if isinstance(a, Instance):
        return a.qual == b.qual and (a.image is b.image or (a.image is not None and b.image is not None and
                                                            a.image.origins == b.image.origins))
    if isinstance(a, FuncV):
        return a.node is b.node
    if isinstance(a, ClassV):
        return a.scope is b.scope
    if isinstance(a, Seq):
        return a.kind == b.kind and len(a.items) == len(b.items) and all(map(_same, a.items, b.items))
    if isinstance(a, DictV):
        return a.open == b.open and [e.key for e in a.entries] == [e.key for e in b.entries] and \
            all(_same(x.value, y.value) for x, y in zip(a.entries, b.entries))
    return False


def _join(a, b, where: Span | None, memo: dict):
    """A value that stands for both ``a`` (one path) and ``b`` (another path); ``a`` itself when they
    are the same.

    A list keeps the words both paths agree on: position by position when both have the same number
    of words, else the common first words followed by a :class:`Splat` (any number of unknown words),
    so a list that only one path grew keeps what it had and gets an unknown tail. A dict keeps each key
    whose value both paths agree on; a key only one path set, or set differently, has an unknown value.
    A module reference (an import in a ``try`` or an ``if``) counts on the path where it is bound.
    Anything else that differs is unknown.
    """
    if _same(a, b):
        return a
    key = (id(a), id(b))
    got = memo.get(key)
    if got is not None:
        return got[0]
    if isinstance(b, (Ref, Instance)):
        out = b  # the later binding of a module or a known object
    elif isinstance(a, (Ref, Instance, Unk)):
        out = a
    elif isinstance(a, Seq) and isinstance(b, Seq) and a.kind == b.kind:
        out = Seq(_join_items(a.items, b.items, where, memo), a.kind)
    elif isinstance(a, DictV) and isinstance(b, DictV):
        out = _join_dicts(a, b, where, memo)
    else:
        out = Unk(None)
    memo[key] = (out, a, b)  # a and b kept alive: their ids stay theirs
    return out


def _join_items(a: list, b: list, where: Span | None, memo: dict) -> list:
    if len(a) == len(b) and all(isinstance(x, Splat) == isinstance(y, Splat) for x, y in zip(a, b)):
        return [x if isinstance(x, Splat) else _join(x, y, where, memo) for x, y in zip(a, b)]
    k = 0
    while k < len(a) and k < len(b) and _same(a[k], b[k]):
        k += 1
    items = list(a[:k])
    if not (items and isinstance(items[-1], Splat)):
        items.append(Splat(where))
    return items


def _join_dicts(a: DictV, b: DictV, where: Span | None, memo: dict) -> DictV:
    out = DictV([], a.open or b.open)
    theirs = {e.key: e for e in b.entries}
    for e in a.entries:
        other = theirs.pop(e.key, None)
        if other is not None and _same(e.value, other.value):
            out.entries.append(e)
            continue
        value = _join(e.value, other.value, where, memo) if other is not None else Unk(None)
        if isinstance(value, Unk):
            value = Unk(e.value_span or e.where)
        out.entries.append(Entry(e.key, value, e.where, e.name_span, e.value_span))
    for e in theirs.values():
        out.entries.append(Entry(e.key, Unk(e.value_span or e.where), e.where, e.name_span, e.value_span))
    return out


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
    image: MStr | None = None  # Modal ``image=`` of its decorator (or of its app)
    decorated: bool = False  # a Modal function or class
    callees: set[str] = field(default_factory=set)  # module functions / methods called by name


# ------------------------------------------------------------------------------------------------
# entry


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of a Python file. A syntax error is reported at the parser's problem position."""
    # The early exit. No call the extractor recognises can be written without one of the names of
    # _CALL_NAMES in the code (an alias is bound from the real name), so a file without one (as a
    # word, then as a name token: not in a string or a comment) holds no launch and libcst, most of the
    # cost, is not needed. Its comments are listed only when a directive may be there.
    if not _CALL_NAME_RE.search(source.text):
        return Extraction(comments=_scan(source)[0] if "lint-configs" in source.text else None)
    comments, named = _scan(source)
    if not named:
        return Extraction(comments=comments)
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    result = Extraction()
    # Python's own parser first: it refuses what libcst's native parser may crash on (nesting deeper
    # than the interpreter allows) and only builds a tree; nothing is run.
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(source.text)
    except SyntaxError:
        result.problems.append(_syntax_problem(source, None))
        return result
    except (RecursionError, MemoryError, ValueError) as exc:
        what = "nested too deeply" if isinstance(exc, RecursionError) else str(exc) or type(exc).__name__
        result.problems.append(Problem(f"cannot parse the Python file: {what}", Span(source, 0, 0)))
        return result
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
    result.comments = comments
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
    if exc is None:
        return Problem("Python syntax error", Span(source, 0, 0))
    line = max(1, int(getattr(exc, "raw_line", 1) or 1))
    col = max(0, int(getattr(exc, "raw_column", 0) or 0))
    offset = source.offset(line, col + 1)
    message = " ".join(str(getattr(exc, "message", exc)).split()).removeprefix("parser error: ")
    return Problem(f"Python syntax error: {message}", Span(source, offset, offset))


def _scan(source: SourceFile) -> tuple[list[Span] | None, bool]:
    """(spans of every ``#`` comment, exactly, from the tokenizer; whether a name of
    :data:`_CALL_NAMES` is written as code). When the tokenizer fails: (None, True)."""
    out = []
    named = False
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source.text).readline):
            if tok.type == tokenize.COMMENT:
                start = source.offset(tok.start[0], tok.start[1] + 1)
                end = source.offset(tok.end[0], tok.end[1] + 1)
                out.append(Span(source, start, end))
            elif named:
                continue
            elif tok.type == tokenize.NAME:
                named = tok.string in _CALL_NAMES
            elif tok.type == tokenize.STRING:
                if "f" in tok.string[:len(tok.string) - len(tok.string.lstrip("rRbBuUfF"))].lower():
                    named = bool(_CALL_NAME_RE.search(tok.string))  # code inside an f-string (Python < 3.12)
            elif tok.type not in (tokenize.OP, tokenize.NUMBER, tokenize.STRING, tokenize.NEWLINE, tokenize.NL,
                                  tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
                named = bool(_CALL_NAME_RE.search(tok.string))  # f-string parts (3.12+), anything new
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None, True
    return out, named


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
        # statement id -> (call or walrus, name) that its own expressions change in place or bind
        self.effects: dict[int, list] = {}
        self._loop_memo: dict[int, list] = {}  # loop id -> [(frame before it, frame at a round's start)]
        self._loop_nesting = 0

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
                if launch.image is None:
                    launch.image = self._image_for(scope)
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
                self.statements: list = []  # the small or compound statements around the node
                self.expect_raises = 0  # inside the body of ``with pytest.raises(...)`` and the like

            def on_visit(self, node) -> bool:
                if isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                    self.statements.append(node)
                return super().on_visit(node)

            def on_leave(self, node) -> None:
                super().on_leave(node)
                if isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                    self.statements.pop()

            def effect(self, node, name: str) -> None:
                if self.statements:
                    analysis.effects.setdefault(id(self.statements[-1]), []).append((node, name))

            def visit_NamedExpr(self, node) -> None:
                super().visit_NamedExpr(node)
                for name in _target_names(cst, node.target):
                    self.effect(node, name)

            def visit_With_body(self, node) -> None:
                if any(_expects_raise(cst, item.item) for item in node.items):
                    self.expect_raises += 1

            def leave_With_body(self, node) -> None:
                if any(_expects_raise(cst, item.item) for item in node.items):
                    self.expect_raises -= 1

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
                if not self.expect_raises:  # a test expecting SGLang to refuse: not a launch
                    analysis.calls.append((node, scope))
                func = node.func
                if isinstance(func, cst.Attribute) and func.attr.value in _MUTATORS and \
                        isinstance(func.value, cst.Name):
                    self.effect(node, func.value.value)
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

    # -- simulation: straight-line code, and the paths of compound statements joined ----------------

    def run_block(self, stmts, frame: Frame, stop: int | None) -> bool:
        for st in stmts:
            if stop is not None and self.contains(st, stop):
                self.enter(st, frame, stop)
                return True
            self.exec_stmt(st, frame)
        return False

    def enter(self, st, frame: Frame, stop: int) -> None:
        """Run ``st`` up to the code at ``stop`` (which it contains), on the path that leads there."""
        cst = self.cst
        if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in st.body:
                if self.contains(small, stop):
                    return
                self.exec_small(small, frame)
            return
        if isinstance(st, cst.If):
            if self.contains(st.test, stop):
                return
            self.header_effects(st, frame)
            if self.contains(st.body, stop):
                self.run_block(_block_stmts(st.body), frame, stop)
            elif st.orelse is not None and self.contains(st.orelse, stop):
                if isinstance(st.orelse, cst.If):
                    self.enter(st.orelse, frame, stop)
                else:
                    self.run_block(_block_stmts(st.orelse.body), frame, stop)
            return
        if isinstance(st, (cst.For, cst.While)):
            if not (self.contains(st.body, stop) or (st.orelse is not None and self.contains(st.orelse, stop))):
                return  # in the header: before the loop
            start = self.loop_start(st, frame)
            if start is None:
                self.forget(st, frame)
            else:
                frame.absorb(start)
            if self.contains(st.body, stop):
                self._loop_target(st, frame)
                self.header_effects(st, frame)
                self.run_block(_block_stmts(st.body), frame, stop)
            else:
                self.run_block(_block_stmts(st.orelse.body), frame, stop)
            return
        if isinstance(st, _try_types(cst)):
            body = _block_stmts(st.body)
            if self.contains(st.body, stop):
                self.run_block(body, frame, stop)
                return
            for handler in st.handlers:
                if self.contains(handler, stop):
                    frame.absorb(self.partial_states(body, frame, self.header(st))[0])
                    if handler.name is not None:
                        for name in _target_names(cst, handler.name.name):
                            frame.bind(name, Unk(self.span(handler.name.name)))
                    self.run_block(_block_stmts(handler.body), frame, stop)
                    return
            if st.orelse is not None and self.contains(st.orelse, stop):
                self.run_block(body, frame, None)
                self.run_block(_block_stmts(st.orelse.body), frame, stop)
                return
            if st.finalbody is not None and self.contains(st.finalbody, stop):
                self.exec_try(st, frame, with_finally=False)
                self.run_block(_block_stmts(st.finalbody.body), frame, stop)
            return
        if isinstance(st, cst.With):
            if not self.contains(st.body, stop):
                return
            self.header_effects(st, frame)
            self._with_names(st, frame)
            self.run_block(_block_stmts(st.body), frame, stop)
            return
        if _is_match(cst, st):
            self.header_effects(st, frame)
            for case in st.cases:
                if self.contains(case.body, stop):
                    self._pattern_names(case.pattern, frame)
                    self.run_block(_block_stmts(case.body), frame, stop)
            return
        # FunctionDef / ClassDef: a call in a decorator or a default value; nothing to do.

    def _with_names(self, st, frame: Frame) -> None:
        for item in st.items:
            if item.asname is not None:
                for name in _target_names(self.cst, item.asname.name):
                    frame.bind(name, Unk(self.span(item.asname.name)))

    def _loop_target(self, st, frame: Frame) -> None:
        if isinstance(st, self.cst.For):
            for name in _target_names(self.cst, st.target):
                frame.bind(name, Unk(self.span(st.target)))

    def _pattern_names(self, pattern, frame: Frame) -> None:
        for name in _pattern_captures(self.cst, pattern):
            frame.bind(name, Unk(self.span(pattern)))

    def forget(self, node, frame: Frame) -> None:
        """Every name bound or mutated inside ``node`` becomes unknown (imports there still count)."""
        self.forget_stmts([node], frame)

    def forget_stmts(self, stmts, frame: Frame) -> None:
        info = self._binds(stmts)
        for name in info.bound | info.mutated:
            frame.bind(name, Unk(None))
        for imp in info.imports:
            self.exec_small(imp, frame)

    def header_effects(self, node, frame: Frame, skip=None) -> None:
        """Names that calls in ``node``'s own expressions change in place (``x.pop()``) or bind
        (``:=``) become unknown; ``skip`` is a call whose effect is modelled exactly."""
        for call, name in self.effects.get(id(node), ()):
            if call is not skip:
                frame.rebind_mutated(name, Unk(self.span(call)))

    def header(self, st) -> Span:
        """The first line of a compound statement (where the unknown tail it may add is reported)."""
        s, e = self.offsets(st)
        nl = self.source.text.find("\n", s, e)
        end = e if nl < 0 else nl
        while end > s and self.source.text[end - 1] in " \t\r:":
            end -= 1
        return Span(self.source, s, end)

    def exec_stmt(self, st, frame: Frame) -> None:
        cst = self.cst
        if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in st.body:
                self.exec_small(small, frame)
        elif isinstance(st, cst.FunctionDef):
            frame.bind(st.name.value, FuncV(st))
        elif isinstance(st, cst.ClassDef):
            frame.bind(st.name.value, ClassV(self.scope_of_node[id(st)]))
        elif isinstance(st, cst.If):
            self.header_effects(st, frame)
            outs = self._if_paths(st, frame)
            if outs:
                frame.absorb(self.join_frames(outs, self.header(st)))
        elif isinstance(st, (cst.For, cst.While)):
            start = self.loop_start(st, frame)
            if start is None:
                self.forget(st, frame)
                return
            if st.orelse is not None:
                done = start.copy()
                self.run_block(_block_stmts(st.orelse.body), done, None)
                start = self.join_frames([start, done], self.header(st))
            frame.absorb(start)
        elif isinstance(st, _try_types(cst)):
            self.exec_try(st, frame)
        elif isinstance(st, cst.With):
            self.header_effects(st, frame)
            self._with_names(st, frame)
            body = _block_stmts(st.body)
            if self._may_swallow(st):  # contextlib.suppress, pytest.raises …: the body may stop anywhere
                frame.absorb(self.partial_states(body, frame, self.header(st))[0])
            else:
                self.run_block(body, frame, None)
        elif _is_match(cst, st):
            self.header_effects(st, frame)
            outs = []
            for case in st.cases:
                branch = frame.fork()
                self._pattern_names(case.pattern, branch)
                self.run_block(_block_stmts(case.body), branch, None)
                if not _ends(cst, case.body):
                    outs.append(branch)
            if not (st.cases and _irrefutable(cst, st.cases[-1])):
                outs.append(frame.fork())
            if outs:
                frame.absorb(self.join_frames(outs, self.header(st)))
        else:
            self.forget(st, frame)

    def _if_paths(self, st, frame: Frame) -> list[Frame]:
        """The frames after each branch of ``if``/``elif``/``else`` that reaches the next statement."""
        cst = self.cst
        outs = []
        branch = frame.fork()
        self.run_block(_block_stmts(st.body), branch, None)
        if not _ends(cst, st.body):
            outs.append(branch)
        orelse = st.orelse
        if orelse is None:
            outs.append(frame.fork())
        elif isinstance(orelse, cst.If):
            other = frame.fork()
            self.header_effects(orelse, other)
            for f in self._if_paths(orelse, other):
                f.changed |= other.changed
                outs.append(f)
        else:
            other = frame.fork()
            self.run_block(_block_stmts(orelse.body), other, None)
            if not _ends(cst, orelse.body):
                outs.append(other)
        return outs

    _LOOP_ROUNDS = 4
    _LOOP_NESTING = 3  # loops simulated inside one another (each inner one runs once per outer round)

    def loop_start(self, st, frame: Frame) -> Frame | None:
        """The frame at the start of any round of a ``for``/``while`` loop (and after it, before its
        ``else``): the join of the frames after 0, 1, 2 … rounds, or None when that does not settle
        (or the loop is nested too deep to simulate: its names are then forgotten)."""
        is_for = isinstance(st, self.cst.For)
        if is_for:
            self.header_effects(st, frame)  # the iterable is evaluated once, before the loop
        memo = self._loop_memo.setdefault(id(st), [])
        for entry, result in memo:
            if entry.same_as(frame):
                return None if result is None else result.copy()
        if self._loop_nesting >= self._LOOP_NESTING:
            return None
        entry = frame.snapshot()
        self._loop_nesting += 1
        try:
            result = self._loop_fixpoint(st, is_for, frame)
        finally:
            self._loop_nesting -= 1
        if len(memo) < 4:
            memo.append((entry, result))
        return None if result is None else result.copy()

    def _loop_fixpoint(self, st, is_for: bool, frame: Frame) -> Frame | None:
        where = self.header(st)
        cur = frame.fork()
        body = _block_stmts(st.body)
        for _ in range(self._LOOP_ROUNDS):
            step = cur.copy()
            self._loop_target(st, step)
            if not is_for:
                self.header_effects(st, step)  # the test runs before every round
            self.run_block(body, step, None)
            new = self.join_frames([cur, step], where)
            if new.same_as(cur, step.changed):
                if not is_for:
                    self.header_effects(st, cur)  # and once more to end the loop
                return cur
            cur = new
        return None

    def partial_states(self, stmts, frame: Frame, where: Span | None) -> tuple[Frame, Frame]:
        """(the join of the frames before and after each statement of ``stmts`` run from ``frame`` —
        where an exception may leave the block —, the frame at its end)."""
        caught = frame.fork()
        cur = frame.fork()
        total: set[str] = set()
        for st in stmts:
            cur.changed = set()
            self.exec_stmt(st, cur)
            total |= cur.changed
            # only what this statement changed can differ from what the join holds already
            snap = cur.snapshot()
            caught = self.join_frames([caught, snap], where, names=snap.changed)
        cur.changed = total
        return caught, cur

    def exec_try(self, st, frame: Frame, with_finally: bool = True) -> None:
        cst = self.cst
        where = self.header(st)
        body = _block_stmts(st.body)
        caught, cur = self.partial_states(body, frame, where)
        outs = []
        if not _ends(cst, st.body):
            if st.orelse is not None:
                self.run_block(_block_stmts(st.orelse.body), cur, None)
            if st.orelse is None or not _ends(cst, st.orelse.body):
                outs.append(cur)
        if st.handlers:
            for handler in st.handlers:
                branch = caught.copy()
                if handler.name is not None:
                    for name in _target_names(cst, handler.name.name):
                        branch.bind(name, Unk(self.span(handler.name.name)))
                self.run_block(_block_stmts(handler.body), branch, None)
                if not _ends(cst, handler.body):
                    outs.append(branch)
        if not outs:  # no path reaches the next statement; what follows is not run
            outs = [caught]
        after = self.join_frames(outs, where)
        if with_finally and st.finalbody is not None:
            self.run_block(_block_stmts(st.finalbody.body), after, None)
        frame.absorb(after)

    def _may_swallow(self, st) -> bool:
        return any(_swallows(self.cst, item.item) for item in st.items)

    def join_frames(self, frames: list[Frame], where: Span | None, names: set[str] | None = None) -> Frame:
        """One frame that stands for all of ``frames`` (forks of one frame run along different paths).
        Only the names they changed since (or ``names``, when only those may need a join) are looked at."""
        first = frames[0]
        out = first.copy()
        if len(frames) == 1:
            return out
        memo: dict = {}
        changed: set[str] = set()
        for f in frames:  # they are forks of one frame: no other name differs between them
            changed |= f.changed
        out.changed = changed
        for table in ("vars", "overrides"):
            tables = [getattr(f, table) for f in frames]
            result = getattr(out, table)
            for name in sorted(changed if names is None else names):
                vals = [t.get(name, _NOTFOUND) for t in tables]
                v = vals[0]
                if all(x is v for x in vals):
                    continue
                vals = [f.lookup(name, None) if x is _NOTFOUND else x for f, x in zip(frames, vals)]
                acc = vals[0]
                for x in vals[1:]:
                    acc = _join(acc, x, where, memo)
                if acc is _NOTFOUND:
                    result.pop(name, None)
                else:
                    result[name] = acc
        return out

    def exec_small(self, small, frame: Frame) -> None:
        cst = self.cst
        if isinstance(small, cst.Assign):
            value = self.ev(small.value, frame)
            v = small.value
            if isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and v.func.attr.value == "pop" and \
                    isinstance(v.func.value, cst.Name):  # x = cmd.pop() / kwargs.pop("k", None)
                self.header_effects(small, frame, skip=v)
                self.call_effects(v, frame)
            else:
                self.header_effects(small, frame)
            for t in small.targets:
                self.assign(t.target, value, frame)
        elif isinstance(small, cst.AnnAssign):
            if small.value is not None:
                value = self.ev(small.value, frame)
                self.header_effects(small, frame)
                self.assign(small.target, value, frame)
        elif isinstance(small, cst.AugAssign):
            self.header_effects(small, frame)
            self.aug_assign(small, frame)
        elif isinstance(small, cst.Expr):
            value = small.value
            if isinstance(value, cst.Await):
                value = value.expression
            if isinstance(value, cst.Call):
                self.header_effects(small, frame, skip=value)
                self.call_effects(value, frame)
            else:
                self.header_effects(small, frame)
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
            for t in (small.target.elements if isinstance(small.target, cst.Tuple) else [small.target]):
                t = t.value if isinstance(t, cst.BaseElement) else t
                if isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name):
                    self.del_item(t, frame)
                for name in _target_names(cst, t):
                    frame.bind(name, Unk(self.span(small)))
        else:
            self.header_effects(small, frame)  # return, assert …

    def _list_index(self, seq: Seq, node, frame: Frame) -> int | None:
        """The position ``seq[node]`` names, when it is known: an int within a list whose words
        up to there (from the start, or from the end for a negative index) are all known words."""
        idx = self.ev(node, frame)
        if not (isinstance(idx, Const) and type(idx.value) is int):
            return None
        k = idx.value + len(seq.items) if idx.value < 0 else idx.value
        if not 0 <= k < len(seq.items):
            return None
        around = seq.items[k:] if idx.value < 0 else seq.items[:k + 1]
        return None if any(isinstance(i, Splat) for i in around) else k

    def _subscript_index(self, target) -> object | None:
        """The index node of ``x[i]`` (one plain index, no slice)."""
        if len(target.slice) == 1 and isinstance(target.slice[0].slice, self.cst.Index):
            return target.slice[0].slice.value
        return None

    def del_item(self, target, frame: Frame) -> None:
        name = target.value.value
        cur = frame.own(frame.lookup(name, None))
        node = self._subscript_index(target)
        if isinstance(cur, Seq) and cur.kind == "list" and node is not None:
            k = self._list_index(cur, node, frame)
            if k is not None:
                del cur.items[k]
                frame.rebind_mutated(name, cur)
                return
        if isinstance(cur, DictV) and node is not None:
            key = self.ev(node, frame)
            if isinstance(key, Str) and key.m.known and not cur.open:
                cur.entries = [e for e in cur.entries if e.key != key.m.text]
                frame.rebind_mutated(name, cur)
                return
        frame.rebind_mutated(name, Unk(self.span(target)))

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
            node = self._subscript_index(target)
            if isinstance(cur, DictV) and node is not None:
                key = self.ev(node, frame)
                if isinstance(key, Str) and key.m.known:
                    cur.set(Entry(key.m.text, value, self.span(target), key.m.span_of(), None))
                else:  # a key not known: it may replace any value
                    cur.merge(None)
                frame.rebind_mutated(name, cur)
                return
            if isinstance(cur, Seq) and cur.kind == "list" and node is not None:
                k = self._list_index(cur, node, frame)
                if k is not None:
                    cur.items[k] = value
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
                    elif method == "pop" and len(args) == len(call.args) <= 1:
                        k = self._list_index(cur, args[0].value, frame) if args else \
                            (len(cur.items) - 1 if cur.items and not isinstance(cur.items[-1], Splat) else None)
                        if k is not None:
                            del cur.items[k]
                            new = cur
                    elif method == "insert" and len(args) == 2 and len(call.args) == 2:
                        idx = self.ev(args[0].value, frame)
                        if isinstance(idx, Const) and type(idx.value) is int and (
                                0 <= idx.value <= len(cur.items) and
                                not any(isinstance(i, Splat) for i in cur.items[:idx.value])
                                or not any(isinstance(i, Splat) for i in cur.items)):
                            cur.items.insert(idx.value, self.ev(args[1].value, frame))
                            new = cur
                elif isinstance(cur, DictV) and method == "pop" and 1 <= len(args) == len(call.args) <= 2:
                    key = self.ev(args[0].value, frame)
                    if isinstance(key, Str) and key.m.known:  # gone, whether it was there or not
                        cur.entries = [e for e in cur.entries if e.key != key.m.text]
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
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
            left = self.ev(node.left, frame)
            if isinstance(left, Str):
                return self.percent_format(left.m, self.ev(node.right, frame), self.span(node))
            return Unk(self.span(node))
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
        if isinstance(base, Instance) and base.qual == _MODAL_IMAGE:
            return Instance(_MODAL_IMAGE + "#method", base.image)
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
            if method in ("join", "split", "strip", "lstrip", "rstrip", "format"):
                base_v = self.ev(func.value, frame)
            if isinstance(base_v, Str):
                if method == "format":
                    return self.str_format(base_v.m, node, frame, where)
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
            if q in _MODAL_APPS:  # modal.App(..., image=IMAGE): the default image of its functions
                image = next((self.ev(a.value, frame) for a in args if a.keyword is not None
                              and a.keyword.value == "image"), None)
                return Instance(q, image.image if isinstance(image, Instance) else None)
            if q.startswith(_MODAL_IMAGE + "."):  # modal.Image.from_registry(...) and the like
                return Instance(_MODAL_IMAGE, self._image_ref(node, frame))
        if isinstance(callee, Instance) and callee.qual == _MODAL_IMAGE + "#method":  # image.pip_install(...)
            return Instance(_MODAL_IMAGE, self._image_ref(node, frame) or callee.image)
        return Unk(where)

    def _image_ref(self, call, frame: Frame) -> MStr | None:
        """The last ``lmsysorg/sglang:TAG`` written in the arguments of a Modal image call."""
        found = None
        for a in call.args:
            v = self.ev(a.value, frame)
            for item in (v.items if isinstance(v, Seq) else [v]):
                if isinstance(item, Str):
                    for m in _SGLANG_IMAGE.finditer(item.m.text):
                        found = item.m[m.start("ref"):m.end("ref")]
        return found

    def str_format(self, fmt: MStr, call, frame: Frame, where: Span) -> _V:
        """``fmt.format(...)``: replacement fields ``{}``, ``{0}``, ``{name}`` (``!s`` allowed) of known
        values become their text, with the origins of the values; any other field (a conversion, a
        format spec, an attribute or an index, a value not known) becomes unknown text. What Python
        would refuse (a missing argument, mixed numbering, an unbalanced brace) is unknown as a whole."""
        positional: list = []
        keywords: dict = {}
        open_args = False  # a *x or **x whose items are not all known
        for a in call.args:
            if a.keyword is not None:
                keywords[a.keyword.value] = self.ev(a.value, frame)
            elif a.star == "*":
                v = self.ev(a.value, frame)
                if isinstance(v, Seq) and not any(isinstance(i, Splat) for i in v.items):
                    positional.extend(v.items)
                else:
                    open_args = True
            elif a.star == "**":
                v = self.ev(a.value, frame)
                if isinstance(v, DictV) and not v.open:
                    keywords.update({e.key: e.value for e in v.entries})
                else:
                    open_args = True
            else:
                positional.append(self.ev(a.value, frame))
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
            m = self.as_text(value) if simple and value is not None and not isinstance(value, Splat) else None
            loc = fmt.location(i, j)
            parts.append(m if m is not None else MStr.unknown(loc))
            i = lit = j
        parts.append(fmt[lit:])
        return Str(MStr.join(parts, where))

    _PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
                          r"(?:\.(?P<prec>\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])")

    def percent_format(self, fmt: MStr, right: _V, where: Span) -> _V:
        """``fmt % right``: ``%s`` of a known value (``%d``/``%i`` of an int) becomes its text with its
        origins, ``%%`` a percent sign; any other conversion, or a value not known, unknown text.
        Python's errors (too few or too many values, a bad conversion) make the whole string unknown."""
        text = fmt.text
        specs = list(self._PERCENT.finditer(text))
        # every % must start a conversion
        if text.count("%") != sum(2 if m.group("conv") == "%" else 1 for m in specs) or \
                any(m.group("conv") == "%" and m.end() - m.start() != 2 for m in specs):
            return Unk(where)
        used = [m for m in specs if m.group("conv") != "%"]
        star = any(m.group("width") == "*" or m.group("prec") == "*" for m in used)
        mapping = any(m.group("key") is not None for m in used)
        values: list | None = None
        if mapping:
            if not all(m.group("key") is not None for m in used) or star:
                return Unk(where)
            if isinstance(right, DictV) and not right.open:
                table = {e.key: e.value for e in right.entries}
                if any(m.group("key") not in table for m in used):
                    return Unk(where)
                values = [table[m.group("key")] for m in used]
            elif isinstance(right, (Str, Const, Seq)):
                return Unk(where)  # TypeError: format requires a mapping
        elif isinstance(right, Seq) and right.kind == "tuple":
            if any(isinstance(i, Splat) for i in right.items):
                values = None
            elif len(right.items) != len(used) or star:
                return Unk(where)
            else:
                values = list(right.items)
        elif isinstance(right, (Str, Const)) or (isinstance(right, Seq) and right.kind == "list") or \
                isinstance(right, DictV):
            if len(used) != 1 or star:
                return Unk(where)
            values = [right]
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
            plain = m.end() - m.start() == 2 + (len(m.group("key")) + 2 if m.group("key") is not None else 0)
            conv = m.group("conv")
            t = None
            if value is not None and plain and (
                    conv == "s" or (conv in "di" and isinstance(value, Const) and type(value.value) is int)):
                t = self.as_text(value)
            parts.append(t if t is not None else MStr.unknown(fmt.location(m.start(), m.end())))
        parts.append(fmt[lit:])
        return Str(MStr.join(parts, where))

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
        """Launches in an argv through the shared recognition step (:mod:`linter.recognize`); a shell
        string it meets (``bash -c``) is read by the shell format unless ``shells`` is False."""
        from linter.recognize import launches, unwrap

        if not shells:
            got = unwrap(words)
            return [(got.program, got.args)] if got.kind == "launch" else []
        return [(f.program, self.fix_splats(f.args) if f.via_shell else f.args)
                for f in launches(words, self.source, problems=self.result.problems)]

    def _launches_in_script(self, script: MStr) -> list[tuple[str, list[Token]]]:
        """Launches in a string a shell runs (``shell=True``, ``os.system``): parsed by the shell
        format (tree-sitter-bash), as compose ``sh -c`` strings are."""
        from linter.extract.shell import launches_in_script

        return [(program, self.fix_splats(args))
                for program, args, _image in launches_in_script(script, self.source, problems=self.result.problems)]

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
                scope.decorated = True
                scope.image = app.image
                for a in d.args:
                    if a.keyword is not None and a.keyword.value == "gpu":
                        scope.decls.extend(self._gpu_decls(a.value, module, scope.qual))
                    if a.keyword is not None and a.keyword.value == "image":
                        image = self.ev(a.value, module)
                        scope.image = image.image if isinstance(image, Instance) else None

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

    def _reachable(self, scope: Scope, stop=lambda s: False):
        """``scope``, the classes and functions around it, and the functions that call it, each once;
        the walk does not go on from a scope (other than ``scope``) for which ``stop`` is true."""
        seen: set[int] = set()
        todo = [scope]
        while todo:
            s = todo.pop()
            if id(s) in seen:
                continue
            seen.add(id(s))
            yield s
            if s is not scope and stop(s):
                continue
            if s.parent is not None and s.parent.kind != "module":
                todo.append(s.parent)
            if s.kind == "function":
                todo.extend(self._callers(s))

    def _decls_for(self, scope: Scope) -> list[GpuDecl]:
        """Modal declarations of the scope, its enclosing scopes and the decorated functions that call it."""
        return [d for s in self._reachable(scope) for d in s.decls]

    def _image_for(self, scope: Scope) -> MStr | None:
        """The SGLang image a launch in ``scope`` runs in: the Modal ``image=`` of the scope or of a
        class or function around it; else the one image of every decorated function that calls it."""
        s: Scope | None = scope
        while s is not None and s.kind != "module":
            if s.image is not None:
                return s.image
            if s.decorated:
                return None  # a Modal function built from an image without an SGLang tag
            s = s.parent
        images: dict[str, MStr] = {}
        for s in self._reachable(scope, stop=lambda s: s.image is not None or s.decorated):
            if s is not scope and (s.image is not None or s.decorated):
                if s.image is None:
                    return None
                images.setdefault(s.image.text, s.image)
        return next(iter(images.values())) if len(images) == 1 else None

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
        self.changed: set[str] = set()  # names bound or changed since the last fork (a superset)

    def copy(self) -> Frame:
        """A frame to run on from here; lists and dicts are copied when it first mutates them."""
        other = Frame(self.a, self.scope)
        other.vars = dict(self.vars)
        other.overrides = dict(self.overrides)
        other.owned = set()
        other.changed = set(self.changed)
        return other

    def fork(self) -> Frame:
        """A copy to run one path on, counting its changes from here (for :meth:`_Analysis.join_frames`)."""
        other = self.copy()
        other.changed = set()
        return other

    def snapshot(self) -> Frame:
        """A copy of this frame as it is now; this frame then copies a list or dict before it next
        changes one in place (so the snapshot keeps what it saw)."""
        other = self.copy()
        self.owned = set()
        return other

    def absorb(self, other: Frame) -> None:
        """Take the names of ``other`` (a copy of this frame run on, or a join of such copies). Its
        lists and dicts may be shared (with a remembered loop start), so each is copied before this
        frame first changes it."""
        self.vars = dict(other.vars)
        self.overrides = dict(other.overrides)
        self.owned = set()
        self.changed |= other.changed

    def same_as(self, other: Frame, names=None) -> bool:
        """Every name (of ``names``, when only those may differ) holds the same value (with the same
        origins) in both frames."""
        for mine, theirs in ((self.vars, other.vars), (self.overrides, other.overrides)):
            if mine == theirs:  # the same objects (values compare by identity)
                continue
            if mine.keys() != theirs.keys():
                return False
            for k in (mine if names is None else names):
                if k in mine and not _same(mine[k], theirs[k]):
                    return False
        return True

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
                    self.changed.add(k)
        self.owned.add(id(clone))
        self._keep.append(clone)
        return clone

    def bind(self, name: str, value: _V) -> None:
        self.changed.add(name)
        scope = self.scope
        if scope.kind == "function" and (name in scope.globals or name not in self.a.locals_of(scope)):
            self.overrides[name] = value
        else:
            self.vars[name] = value

    def rebind_mutated(self, name: str, value: _V) -> None:
        """``name``'s object was changed in place into ``value``: every alias of it sees the change."""
        old = self.vars.get(name, self.overrides.get(name))
        self.changed.add(name)
        if isinstance(old, (Seq, DictV)) and old is not value:
            for table in (self.vars, self.overrides):
                for k, v in table.items():
                    if v is old:
                        table[k] = value
                        self.changed.add(k)
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


def _try_types(cst) -> tuple:
    return (cst.Try, cst.TryStar) if hasattr(cst, "TryStar") else (cst.Try,)


def _is_match(cst, st) -> bool:
    return hasattr(cst, "Match") and isinstance(st, cst.Match)


def _ends(cst, block) -> bool:
    """The block never reaches the statement after it: it ends in ``return`` or ``raise`` (also in
    every branch of a final ``if``/``else``)."""
    stmts = _block_stmts(block)
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return bool(last.body) and isinstance(last.body[-1], (cst.Return, cst.Raise))
    if isinstance(last, cst.If):
        orelse = last.orelse
        if orelse is None or not _ends(cst, last.body):
            return False
        return _ends(cst, orelse) if isinstance(orelse, cst.If) else _ends(cst, orelse.body)
    return False


def _irrefutable(cst, case) -> bool:
    """``case _:`` or ``case name:`` (no guard): the case always matches."""
    p = case.pattern
    return case.guard is None and isinstance(p, cst.MatchAs) and p.pattern is None


def _pattern_captures(cst, pattern) -> list[str]:
    """Names a ``case`` pattern binds."""
    out: list[str] = []

    def walk(node) -> None:
        if isinstance(node, (cst.MatchAs, cst.MatchStar)) and node.name is not None:
            out.append(node.name.value)
        if isinstance(node, cst.MatchMapping) and node.rest is not None:
            out.append(node.rest.value)
        for child in node.children:
            if not isinstance(child, cst.BaseExpression):
                walk(child)

    walk(pattern)
    return out


_EXPECT_RAISES = {"assertRaises", "assertRaisesRegex", "assertRaisesRegexp"}


def _expects_raise(cst, node) -> bool:
    """``pytest.raises(...)``, ``raises(...)`` or ``self.assertRaises[Regex](...)``: a with-item of a
    test that expects its body to fail."""
    if not isinstance(node, cst.Call):
        return False
    f = node.func
    if isinstance(f, cst.Attribute):
        if f.attr.value in _EXPECT_RAISES:
            return True
        return f.attr.value == "raises" and isinstance(f.value, cst.Name) and f.value.value == "pytest"
    return isinstance(f, cst.Name) and f.value == "raises"


def _swallows(cst, node) -> bool:
    """A with-item that may stop its body anywhere and go on after it."""
    if _expects_raise(cst, node):
        return True
    if isinstance(node, cst.Call):
        f = node.func
        name = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else None
        return name == "suppress"
    return False


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
