"""Launch recognition: which calls of the module start an SGLang server, and with what.

A call is resolved through the module's imports to a qualified name (:mod:`.names`); an argv or a
shell string given to a process starter goes through the shared recognition step
(:mod:`linter.recognize`, :func:`linter.extract.shell.launches_in_script`), SGLang's Python API
calls (:mod:`linter.sglang.entrypoints`) give keyword-argument launches.
"""

from __future__ import annotations

import ast
from collections import Counter
from typing import TYPE_CHECKING

from linter import records
from linter.extract.python.frames import Frame
from linter.extract.python.names import (
    CALL_NAMES,
    COMMAND_METHOD,
    CREATE_EXEC,
    ENGINE,
    EXEC,
    LAUNCH_SERVER_CMD,
    POPEN,
    POPEN_LAUNCH_SERVER,
    RUNTIME,
    SERVER_ARGS,
    SHELL_CALLS,
)
from linter.extract.python.scopes import Scope
from linter.extract.python.strings import split_whitespace
from linter.extract.python.syntax import FUNCTIONS, call_args, conditional_sides, ends, returns_in
from linter.extract.python.values import Const, DictV, FuncV, Ref, Seq, Splat, Str, Unk, Value
from linter.launch import UNKNOWN, UNKNOWN_CHAR, KwArg, Launch, MStr, Token
from linter.sglang.dialects import dialects
from linter.sglang.entrypoints import EXECUTE_TRAIN, SERVE
from linter.sglang.frameworks import by_python_name
from linter.source import Span

if TYPE_CHECKING:
    from linter.extract.python.base import Analysed


def launches_key(found: list[Launch]) -> tuple:
    """What the rules decide the launches of one path by (:func:`linter.sglang.decisive.decisive_key`):
    the paths of a launch past the variant cap are kept apart only where this differs."""
    from linter.sglang.decisive import decisive_key

    return tuple(decisive_key(launch) for launch in found)


def launches_unknowns(found: list[Launch]) -> list:
    """The texts of the values the rules decide the launches of one path by that are not known
    statically (:func:`linter.sglang.decisive.unknown_values`)."""
    from linter.sglang.decisive import unknown_values

    return [m for launch in found for m in unknown_values(launch)]


def _calls_in(stmt) -> list:
    """The calls of a statement in evaluation order (not inside lambdas or nested definitions)."""
    out = []
    todo = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not stmt:
            continue
        if isinstance(node, ast.Call):
            out.append(node)
        todo.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def always_raises(fn) -> bool:
    """Every path of the function ``fn`` (an ``ast.FunctionDef``) ends in ``raise``: it has no
    ``return``, is no generator, and its body ends in ``raise`` (also in each branch of a final
    ``if``/``else``) — ``raise NotImplementedError`` and the like."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or returns_in(fn.body):
        return False
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fn)):
        return False
    return ends(fn.body)



def _param_operand(node, params, depth: int = 0) -> str | None:
    """The parameter that is the command a helper starts, or a whole operand of the ``+`` that makes
    it (``subprocess.run(cmd)``, ``subprocess.run(cmd + ["--x"])``, ``[...] + extra``: issue 35's
    review); None otherwise (a parameter inside a list literal is a value of the helper's own command)."""
    if isinstance(node, ast.Name):
        return node.id if node.id in params else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and depth < 8:
        return _param_operand(node.left, params, depth + 1) or _param_operand(node.right, params, depth + 1)
    return None

class LaunchFinder:
    """The launches of one call (:meth:`launches`), read with the analysis' evaluation."""

    def __init__(self, analysis: Analysed) -> None:
        self.a = analysis
        self._wrappers: dict[str, tuple] | None = None
        self._sides: dict[int, list] | None = None
        self._imported: dict[str, bool] = {}  # imported name -> it may launch (:mod:`.launchers`)
        self._reading: set[int] = set()  # functions of other modules read for a call of them now

    def wrappers(self) -> dict[str, tuple]:
        """Module functions that start the command they are given (``def _run(cmd, **kw):
        subprocess.run(cmd, **kw)``): name -> (their scope, the calls in them that start it — one
        per way, ``subprocess.run`` or ``Popen`` by a flag —, the parameter that holds the command,
        its position). A call of one is read as such a call with the argument it is given (issue 35:
        an argv built in one place and run by a helper)."""
        if self._wrappers is None:
            self._wrappers = {}
            taken: set[int] = set()
            # until nothing is added: a helper that hands its command to one defined after it
            # (``def f0(c): f1(c)`` before ``def f1(c): subprocess.run(c)``) is one too
            while self._find_wrappers(taken):
                pass
            for _, inners, _, _ in self._wrappers.values():
                inners.sort(key=lambda c: self.a.offsets(c)[0])
        return self._wrappers

    def _find_wrappers(self, taken: set[int]) -> bool:
        """One pass of :meth:`wrappers` over the module's calls (``taken``: the calls already read as
        starting a helper's command); whether it found another."""
        found = False
        for call, scope in self.a.index.calls:
            if id(call) in taken or scope.kind != "function" or scope.parent is None or \
                    scope.parent.kind != "module" or not isinstance(scope.node, FUNCTIONS):
                continue
            first = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg in ("args", "cmd", "command")), None)
            param = _param_operand(first, scope.params)
            if param is None or not self.may_launch(call):
                continue
            got = self._wrappers.get(scope.node.name)
            if got is None:
                self._wrappers[scope.node.name] = (scope, [call], param, scope.params.index(param))
            elif got[2] == param:
                got[1].append(call)
            else:
                continue
            taken.add(id(call))
            found = True
        return found

    def sides(self) -> dict[int, list]:
        """The conditional-expression branches each call is in (:func:`~.syntax.conditional_sides`)."""
        if self._sides is None:
            self._sides = conditional_sides(self.a.module)
        return self._sides

    def covered_by_calls(self, call, scope: Scope) -> bool:
        """``call`` is the launch of a module function that starts the command it is given (:meth:`wrappers`)
        and every use of that function is a call of its name: each such call is the launch, with its
        command (:meth:`_through_wrapper`), so ``call`` itself is not another one."""
        got = self.wrappers().get(scope.node.name) if scope.kind == "function" else None
        return got is not None and got[0] is scope and any(c is call for c in got[1]) and \
            bool(self.a._only_calls(scope))

    # -- a method that stops before it launches -------------------------------------------------

    _SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)

    def raises_first(self, call, scope: Scope, self_class: Scope | None) -> bool:
        """The method ``scope``, run for ``self_class``, calls a function or method that always raises
        before it reaches ``call``: in a simple statement of its body (an expression, an assignment, a
        ``return``) before the statement that holds ``call``, or in that statement. A base class whose
        ``server_args()`` is ``raise NotImplementedError`` starts nothing; a call in a branch or a
        loop may not run and is not counted."""
        if scope.kind != "function":
            return False
        start, _ = self.a.offsets(call)
        for stmt in scope.node.body:
            s0, s1 = self.a.offsets(stmt)
            if s0 > start:
                break
            if not isinstance(stmt, self._SIMPLE):
                if s0 <= start < s1:
                    break
                continue
            frame = None
            for node in _calls_in(stmt):
                if node is call:
                    continue
                if frame is None:
                    frame = self.a.frame_before(scope, s0, self_class)
                callee = self.a.ev(node.func, frame)
                if isinstance(callee, FuncV) and always_raises(callee.node):
                    return True
        return False

    # -- tokens -----------------------------------------------------------------------------------

    def token(self, item) -> Token:
        if isinstance(item, Splat):
            return Token(MStr.unknown(item.where), splat=True)
        if isinstance(item, Str):
            return Token(item.m, joinable=item.joinable)
        if isinstance(item, Ref) and item.qual == "sys.executable":
            return Token(MStr.plain("python3"))
        return Token(MStr.unknown(getattr(item, "where", None) or getattr(item, "span", None)))

    def seq_tokens(self, v: Value) -> list[Token] | None:
        if isinstance(v, Seq):
            return [self.token(i) for i in v.items]
        return None

    def fix_splats(self, tokens: list[Token]) -> list[Token]:
        """Shell splitting marks every lone unknown word as a splat; in Python only the ones that
        stand for a list of unknown length are."""
        out = []
        for t in tokens:
            if t.splat and not self.a.is_splat(t):
                t = Token(t.text, joinable=t.joinable)
            out.append(t)
        return out

    def may_launch(self, call) -> bool:
        """The cheap syntactic gate, before any evaluation: the callee's last name is one of the
        callables the format knows, or a name the module binds to something else (an alias)."""
        func = call.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if isinstance(func, ast.Attribute) and not self._may_be_module(func.value):
            return False
        return name is not None and (name in CALL_NAMES or name in self.a.index.alias_names or
                                     (isinstance(func, ast.Name) and (name in self.wrappers() or
                                                                      self.imported_launcher(name))))

    def _may_be_module(self, base) -> bool:
        """Whether the object a method is called on may be a module or a launcher's owner: its first
        name is imported (``subprocess.run``, ``sp.run``, ``cli.eval``), ``self``/``cls``, or not a name.
        ``model.eval()``, ``proc.run()`` of a local object are no process starters — each candidate is
        evaluated along its function's paths (2.7 s for one miles file of ``model.eval()`` calls)."""
        while isinstance(base, (ast.Attribute, ast.Subscript)):
            base = base.value
        if not isinstance(base, ast.Name):
            return True
        return base.id in self.a.index.import_names or base.id in ("self", "cls")

    def imported_launcher(self, name: str) -> bool:
        """True when ``name`` is imported from another module of the repository and names a function
        that may launch (:func:`.launchers.can_launch`: a syntactic walk, shared by every importer,
        so no importer's budget or order changes the answer)."""
        got = self._imported.get(name)
        if got is None:
            got = False
            ws = self.a.ws
            if ws is not None:
                from linter.extract.python import launchers
                from linter.extract.python.modules import cache_for

                cache = cache_for(ws)
                path = self.a.source.path
                facts = launchers.facts_of(cache, path)
                if facts is not None and name in facts.imports and facts.function(name) is None:
                    got = launchers.can_launch(cache, path, name, facts.mentions)
            self._imported[name] = got
        return got

    def launches(self, call, scope: Scope, self_class: Scope | None = None, args: tuple | None = None) -> list[Launch]:
        """The launches ``call`` (an ``ast.Call`` in ``scope``) starts, in a method run for the class
        ``self_class`` when given, in a function run with the parameters ``args`` gives when given
        (:meth:`~.frames.FrameLookups.call_sets`); [] when it is not a launch."""
        if not self.may_launch(call):
            return []
        func = call.func
        start, _ = self.a.offsets(call)
        frame = None
        if self.raises_first(call, scope, self_class or self.a.method_class(scope)):
            return []  # the method stops before it gets here: nothing starts

        def get_frame() -> Frame:
            nonlocal frame
            if frame is None:
                frame = self.a.frame_before(scope, start, self_class, args)
            return frame

        runs = self.a.along_paths(lambda: self._launches_on_path(call, get_frame), (launches_key, launches_unknowns))
        # a command a module function builds for this call (``run(build(True))`` in one branch,
        # ``run(build(False))`` in the other): the call's branch is its path, as for a shell function
        # called in each branch (rev38 e11)
        site = self.a.site_path(call) if args is None and self._built_by_call(call) else ()
        if len(runs) == 1 and not site:
            return runs[0][1]
        out = []
        for conds, found in runs:
            out.extend(records.replace(launch, path=site + tuple(label for _, _, label in conds)) for launch in found)
        return out

    def _built_by_call(self, call) -> bool:
        """An argument of ``call`` calls a function of this module by its name (``build(True)``) that
        the module calls more than once (each call a launch of its own, as a shell function's)."""
        memo = self.a._params_memo
        helpers = memo.get("helpers called more than once")
        if helpers is None:  # (by the syntax alone: the module's final names would run it all again)
            counts = Counter(c.func.id for c, _ in self.a.index.calls if isinstance(c.func, ast.Name))
            helpers = memo["helpers called more than once"] = {
                st.name for st in self.a.module.body if isinstance(st, FUNCTIONS) and counts[st.name] > 1}
        return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers
                   for a in call_args(call) for node in ast.walk(a.value))

    def _launches_on_path(self, call, get_frame) -> list[Launch]:
        """The launches of ``call`` on the path of the run under way (:meth:`Paths.along_paths`)."""
        func = call.func
        if get_frame().unreachable or self.a.impossible_path(get_frame()):
            return []  # in a branch the file decides against, or on a path no run takes: nothing starts
        for test, holds in self.sides().get(id(call), ()):
            if self.a.decide(test, get_frame()) is (not holds):
                return []  # the side of a conditional expression the file decides against
        callee = self.a.ev(func, get_frame())
        if isinstance(callee, FuncV) and isinstance(func, ast.Name):
            return self._function_call(call, func.id, callee, get_frame)
        if not isinstance(callee, Ref):
            return []
        q = callee.qual
        span = self.a.span(call)
        if q in ENGINE or q in SERVER_ARGS or q in RUNTIME:
            return self._kwargs_launch(call, q, get_frame(), span)
        fw = by_python_name(q)
        if fw is not None:
            from linter.extract.python.frameworks import framework_call

            return framework_call(self, call, fw, get_frame(), span)
        argv = self._argv(call, q, get_frame())
        if argv is None:
            return []
        kind, payload = argv
        found: list[tuple[str, list[Token]]] = []
        if kind == "argv":
            found = self._launches_in_argv(payload)
        elif kind == "shell":
            found = self._launches_in_script(payload)
        elif kind == "trainer":
            # (a lone unknown word of the trainer's line stays a splat: the shell may split it into
            # several words, some of them SGLang's)
            # (while the paths that matter are sought, its words split on blanks are enough to tell
            # what the rules decide it by: the shell reads only the paths kept)
            found = self._launches_in_script(payload, splats=True) if not self.a.sketching else []
            if not found:  # a trainer whose options are partly unknown is still a launch of it
                found = [(dialects()["slime"].program, self._trainer_words(payload))]
        elif kind == "sglang-cmd":
            words = [Token(w, splat=self.a.is_splat(Token(w)) if w.text == UNKNOWN_CHAR else False, joinable=True)
                     for w in split_whitespace(payload, backslash=True)]
            while words and words[0].value is not None and "=" in words[0].value and \
                    not words[0].value.startswith("-"):
                words = words[1:]
            found = self._launches_in_argv(words, shells=False)
        elif kind == "serve":
            found = [(SERVE, payload)]
        return [Launch(source=self.a.source, program=p, span=span, args=a) for p, a in found]

    def command_method(self, cls: Scope) -> list[Launch]:
        """The launches of a ``__command__()`` method of the class ``cls`` — a BentoML service whose
        server is the argv (or command string) the method returns, as in the BentoML service of issue
        35 (the BentoML file that runs it is not cited here: not verified) —, one per path of what
        it returns, located at the method's name; [] without one."""
        node = next((n for n in cls.node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and n.name == COMMAND_METHOD), None)
        if node is None:
            return []
        span = self.a.name_span(node)

        def on_path() -> list[Launch]:
            got = self.a.pick(self.a.return_value(FuncV(node, self.a, cls), span))
            if isinstance(got, Seq):
                found = self._launches_in_argv(self.seq_tokens(got))
            elif isinstance(got, Str):
                found = self._launches_in_script(got.m)
            else:
                return []
            return [Launch(source=self.a.source, program=p, span=span, args=a) for p, a in found]

        out = []
        for conds, found in self.a.along_paths(on_path, (launches_key, launches_unknowns)):
            labels = tuple(label for _, _, label in conds)
            out.extend(records.replace(launch, path=labels) if labels else launch for launch in found)
        return out

    def _through_wrapper(self, call, name: str, callee: FuncV, get_frame) -> list[Launch]:
        """A call of a module function that starts the command it is given (:meth:`wrappers`): that
        function's call, with the command this call passes, located here."""
        got = self.wrappers().get(name)
        if got is None or got[0].node is not callee.node:
            return []
        scope, inners, param, index = got
        node = call.args[index] if index < len(call.args) and not isinstance(call.args[index], ast.Starred) \
            else next((k.value for k in call.keywords if k.arg == param), None)
        if node is None:
            return []
        # every parameter bound to what this call gives it (its flags too); else only the command.
        # The first of the helper's calls that starts it on this call's path is the launch.
        args = self.a.bind_args(callee, call, get_frame())
        span = self.a.span(call)
        for inner in inners:
            frame = self.a.frame_before(scope, self.a.offsets(inner)[0], None, args)
            if args is None or isinstance(args[1].get(param), Unk):
                frame.bind(param, self._command_given(scope, param, self.a.ev(node, get_frame())))
            found = self._launches_on_path(inner, lambda f=frame: f)
            if found:
                return [records.replace(launch, span=span) for launch in found]
        return []

    def _command_given(self, scope: Scope, param: str, value: Value) -> Value:
        """The command a call gives the helper ``scope``: ``value``, followed by words not known when
        the helper calls itself with another command (``go(n - 1, cmd + [...])``: the level that
        starts it may have more) — still a launch, not fully verified (issue 35)."""
        if param not in self.a.varied_by_recursion(scope):
            return value
        inner = self.a.self_calls(scope)
        more = Splat(self.a.span(inner[0]) if inner else None)
        return Seq(list(value.items) + [more], value.kind) if isinstance(value, Seq) else value

    def _function_call(self, call, name: str, callee: FuncV, get_frame) -> list[Launch]:
        """A call of a module function by its name: of this module, through it when it is a wrapper;
        of another, that function's launches when it may launch (only then: ``from
        miles.utils.async_utils import run`` is named as subprocess' ``run`` but is not read)."""
        if callee.owner in (None, self.a):
            return self._through_wrapper(call, name, callee, get_frame)
        return self._imported_helper(call, callee, get_frame) if self.imported_launcher(name) else []

    def _imported_helper(self, call, callee: FuncV, get_frame) -> list[Launch]:
        """A call of a function of another module of the repository that may launch (miles' model
        scripts call ``_execute_train(args)`` imported from ``scripts/run_*.py``, issue 35): that
        function's launches, run with the arguments this call gives its parameters (unknown where
        this module does not know them), located here; their values stay where they are written. A
        function already being read for such a call (a cycle of imports) starts nothing again."""
        owner = callee.owner
        scope = owner.index.scope_of_node.get(id(callee.node))
        if scope is None or scope.kind != "function" or owner.method_class(scope) is not None or \
                id(scope) in self._reading:
            return []
        args = self.a.bind_args(callee, call, get_frame())
        self._reading.add(id(scope))
        try:
            found = [launch for inner, s in owner.index.calls if s is scope
                     for launch in owner.finder.launches(inner, scope, None, args)]
        finally:
            self._reading.discard(id(scope))
        span = self.a.span(call)
        return [records.replace(launch, source=self.a.source, span=span) for launch in found]

    def _args(self, call, frame: Frame) -> tuple[list, dict]:
        """Positional values (a ``*x`` of a known sequence spliced in, of an unknown one a
        :class:`Splat`) and keyword argument nodes by name."""
        positional: list = []
        keywords = {}
        for a in call_args(call):
            if a.keyword is not None:
                keywords[a.keyword] = a
            elif a.star == "*":
                v = self.a.ev(a.value, frame)
                if isinstance(v, Seq):
                    positional.extend(v.items)
                else:
                    positional.append(Splat(self.a.span(a.node)))
            elif a.star != "**":
                positional.append(self.a.ev(a.value, frame))
        return positional, keywords

    def _argv(self, call, q: str, frame: Frame):
        """("argv", tokens) | ("shell", MStr) | ("trainer", MStr) | ("sglang-cmd", MStr) | ("serve", tokens)
        | None: the step of the first family of :data:`_ARGV_STEPS` that ``q`` belongs to."""
        positional, kw = self._args(call, frame)
        for family, step in _ARGV_STEPS:
            if q in family:
                return getattr(self, step)(call, q, positional, kw, frame)
        return None

    def _first_arg(self, positional: list, kw: dict, frame: Frame, *names: str):
        """The first positional argument, else the value of the first keyword of ``names`` given,
        else None."""
        if positional:
            return positional[0]
        for name in names:
            if name in kw:
                return self.a.ev(kw[name].value, frame)
        return None

    def _argv_popen(self, call, q: str, positional: list, kw: dict, frame: Frame):
        """``subprocess.Popen``/``run``/…: the argv, or the shell string with ``shell=True``."""
        if positional and not isinstance(positional[0], Splat):
            first = positional[0]
        elif "args" in kw:
            first = self.a.ev(kw["args"].value, frame)
        else:
            return None
        shell = self.a.ev(kw["shell"].value, frame) if "shell" in kw else Const(False, None)
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

    def _argv_shell_call(self, call, q: str, positional: list, kw: dict, frame: Frame):
        """``os.system(cmd)`` and the like: the shell string."""
        arg = self._first_arg(positional, kw, frame, "cmd", "command")
        return ("shell", arg.m) if isinstance(arg, Str) else None

    def _argv_exec(self, call, q: str, positional: list, kw: dict, frame: Frame):
        """``os.execv(path, argv)``, ``os.execl(path, arg0, ...)`` and the like: the program's path,
        then its arguments (``argv[0]`` left out)."""
        path_i, argv_i, style, has_env = EXEC[q]
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

    def _argv_create_exec(self, call, q: str, positional: list, kw: dict, frame: Frame):
        """``asyncio.create_subprocess_exec(*argv)``: its positional arguments."""
        if not positional:
            return None
        return "argv", [self.token(i) for i in positional]

    def _argv_execute_train(self, call, q: str, positional: list, kw: dict, frame: Frame):
        """``execute_train(train_args)``: the trainer's command line."""
        arg = self._first_arg(positional, kw, frame, "train_args")
        if isinstance(arg, Str):
            # the trainer's command line, run by a shell (miles command_utils.execute_train)
            return "trainer", MStr.join([MStr.plain("python3 train.py ", arg.m.where), arg.m])
        # the entry point is known, its arguments are not: still a launch (issue 35)
        return "trainer", MStr.unknown(getattr(arg, "where", None) or self.a.span(call))

    def _argv_launch_server_cmd(self, call, q: str, positional: list, kw: dict, frame: Frame):
        """``launch_server_cmd(command)``: the ``python -m sglang.launch_server …`` string."""
        arg = self._first_arg(positional, kw, frame, "command")
        return ("sglang-cmd", arg.m) if isinstance(arg, Str) else None

    def _argv_popen_launch_server(self, call, q: str, positional: list, kw: dict, frame: Frame):
        """``popen_launch_server(model, base_url, timeout, api_key, other_args)``: ``--model-path``
        and the model, then the other arguments."""
        if positional and not isinstance(positional[0], Splat):
            model_v = positional[0]
            model_node = next(a.value for a in call_args(call) if a.keyword is None)
        elif "model" in kw:
            model_v = self.a.ev(kw["model"].value, frame)
            model_node = kw["model"].value
        else:
            return None
        other = None
        if "other_args" in kw:
            other = self.a.ev(kw["other_args"].value, frame)
        elif len(positional) > 4 and not any(isinstance(p, Splat) for p in positional[:5]):
            other = positional[4]
        tokens = [Token(MStr.plain("--model-path", self.a.span(model_node))), self.token(model_v)]
        if other is None:
            pass
        elif isinstance(other, Seq):
            tokens.extend(self.seq_tokens(other))
        else:
            tokens.append(Token(MStr.unknown(getattr(other, "where", None)), splat=True))
        return "serve", tokens

    def _trainer_words(self, line: MStr) -> list[Token]:
        """The trainer's arguments in ``line`` (``python3 train.py ARGS`` or an unknown whole), split
        on blanks; an unknown word may stand for any number of words."""
        words = split_whitespace(line)
        if len(words) >= 2 and words[0].text == "python3" and words[1].text == "train.py":
            words = words[2:]
        return [Token(w, splat=not w.known, joinable=True) for w in words]

    def _launches_in_argv(self, words: list[Token], shells: bool = True) -> list[tuple[str, list[Token]]]:
        """Launches in an argv through the shared recognition step (:mod:`linter.recognize`); a shell
        string it meets (``bash -c``) is read by the shell format unless ``shells`` is False."""
        from linter.extract.recognized import launches
        from linter.recognize import UnwrapKind, unwrap

        if not shells:
            got = unwrap(words)
            return [(got.program, got.args)] if got.kind is UnwrapKind.LAUNCH else []
        return [(f.program, self.fix_splats(f.args) if f.via_shell else f.args)
                for f in launches(words, self.a.source, problems=self.a.result.problems)]

    def _launches_in_script(self, script: MStr, splats: bool = False) -> list[tuple[str, list[Token]]]:
        """Launches in a string a shell runs (``shell=True``, ``os.system``): parsed by the shell
        format (tree-sitter-bash), as compose ``sh -c`` strings are."""
        from linter.extract.shell import launches_in_script

        return [(program, args if splats else self.fix_splats(args))
                for program, args, _image in launches_in_script(script, self.a.source, problems=self.a.result.problems)]

    def _kwargs_launch(self, call, q: str, frame: Frame, span: Span) -> list[Launch]:
        args = call_args(call)
        if q in ENGINE and any(a.keyword == "server_args" for a in args):
            return []  # the ServerArgs(...) it is given is the launch
        program = "sglang.Engine" if q in ENGINE else "ServerArgs" if q in SERVER_ARGS else "sgl.Runtime"
        spread: list[KwArg] = []
        explicit: list[KwArg] = []
        first_positional = True
        for a in args:
            if a.keyword is not None:
                v = self.a.ev(a.value, frame)
                explicit.append(self._kwarg(a.keyword, v, self.a.span(a.node), self.a.keyword_span(a),
                                            self.a.span(a.value)))
            elif a.star == "**":
                v = self.a.ev(a.value, frame)
                if isinstance(v, DictV):
                    for e in v.entries:
                        spread.append(self._kwarg(e.key, e.value, e.where or self.a.span(a.node), e.name_span,
                                                  e.value_span))
            elif a.star == "*":
                first_positional = False
            elif first_positional and program != "sglang.Engine":
                first_positional = False
                v = self.a.ev(a.value, frame)
                explicit.append(self._kwarg("model_path", v, self.a.span(a.node), None, self.a.span(a.value)))
            else:
                first_positional = False
        names = {k.name for k in explicit}
        kwargs = [k for k in spread if k.name not in names]
        seen: dict[str, KwArg] = {}
        for k in kwargs + explicit:
            seen.pop(k.name, None)
            seen[k.name] = k
        return [Launch(source=self.a.source, program=program, span=span, style="kwargs", kwargs=list(seen.values()))]

    def _kwarg(self, name: str, v: Value, where: Span, name_span: Span | None, value_span: Span | None) -> KwArg:
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


_ARGV_STEPS = ((POPEN, "_argv_popen"), (SHELL_CALLS, "_argv_shell_call"), (EXEC, "_argv_exec"),
               ((CREATE_EXEC,), "_argv_create_exec"), (EXECUTE_TRAIN, "_argv_execute_train"),
               (LAUNCH_SERVER_CMD, "_argv_launch_server_cmd"), (POPEN_LAUNCH_SERVER, "_argv_popen_launch_server"))
"""The step of :meth:`LaunchFinder._argv` per family of launching callables, in the order they are
tried (the first family a name belongs to reads the call)."""
