"""Simple commands: their words, the builtins that assign variables, and the launches and wrappers in
them (through :func:`linter.recognize.unwrap`; a ``bash -c``/``ssh`` string is parsed again).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from linter import limits
from linter.extract.shell.document import Doc, parse_script
from linter.extract.shell.env import ABSENT, ARGV, NAME, UNKNOWN_V, UNSET, Env, small_number
from linter.extract.shell.errors import error_message, first_error
from linter.extract.shell.printed import capture
from linter.launch import GpuDecl, Launch, MStr, Problem, Token
from linter.source import Span

MAX_NESTING = 8
"""``bash -c`` strings parsed inside one another."""
ASSIGN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_.+/-]+\Z")
"""A word that is its own value (no quote, escape, expansion nor glob)."""
_EFFECTS = frozenset({"eval", "read", "mapfile", "readarray", "getopts", "printf", "set", "shift", "cd", "pushd", "export", "readonly",
                      "declare", "typeset", "local"})
"""Builtins that change the walker's variables (:meth:`Commands._builtin_effects`)."""
_ASSIGNING_EXPANSION = re.compile(r"\$\{[^}]*=")
"""Text that may hold ``${X:=d}``/``${X=d}`` (an expansion that assigns)."""
_INERT: dict[str, bool] = {}
"""Program word -> whether no command starting with it can matter (a function aside); memoised."""


def mark_joinable(token: Token) -> Token:
    """An unquoted shell word written between blanks: text inserted after it makes new words."""
    span = token.span_of()
    if span is not None and not token.joinable:
        text = span.source.text
        after = text[span.end:span.end + 1]
        before = text[span.start - 1:span.start] if span.start else ""
        if after in ("", " ", "\t", "\n", "\r", ";", "&", "|", ")") and before in (" ", "\t", "\n"):
            token.joinable = True
    return token


CWD = "\x00cwd"

"""The pseudo-variable holding the folder a ``cd`` moved to: an MStr path (absolute, or relative to
the script's folder when it starts with ``.``), or UNKNOWN_V."""
_SCRIPT_DIR = re.compile(r'"?\$\((?P<inner>.*)\)"?(?P<rest>(?:/[^\s"$]*)?)"?', re.S)


def cd_target(arg: Token | None, previous) -> object:
    """Where ``cd ARG`` goes, as far as the file says: an absolute path; ``$(dirname "$0")``-style
    words (also with ``BASH_SOURCE`` and a ``/..`` after them) are the script's folder; a relative
    path is relative to the previous ``cd`` (the folder the script was started in is unknown)."""
    import posixpath

    if arg is None:
        return UNKNOWN_V  # cd with no argument: $HOME
    value = arg.value
    if value is not None:
        if value.startswith("/"):
            return MStr.plain(posixpath.normpath(value))
        if value in ("-",) or value.startswith("~") or not isinstance(previous, MStr):
            return UNKNOWN_V
        return MStr.plain(posixpath.normpath(posixpath.join(previous.text, value)) if previous.text.startswith("/")
                          else "./" + posixpath.normpath(posixpath.join(previous.text, value)))
    where = arg.text.where
    raw = where.source.text[where.start:where.end] if where is not None else ""
    m = _SCRIPT_DIR.fullmatch(raw.strip())
    if m and "dirname" in m.group("inner") and ("$0" in m.group("inner") or "BASH_SOURCE" in m.group("inner")):
        return MStr.plain("./" + posixpath.normpath("." + m.group("rest")))
    return UNKNOWN_V


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


def _argument_nodes(node, name_node) -> list:
    """The argument nodes of a command after its program word (redirections and the prefix aside)."""
    return [child for k, child in enumerate(node.children)
            if child.start_byte >= name_node.end_byte and node.field_name_for_child(k) == "argument"]


class Commands:
    """A simple command run by a walker. A mixin of :class:`~linter.extract.shell.walker.Walker`
    (it shares the walker's document, scope and results)."""

    def _command(self, node, env: Env) -> None:
        """Run one simple command: its assignments, its words (expanded), the builtins that assign,
        ``eval``, a call of a function of the file, and the launch or wrapper in it."""
        name_node = node.child_by_field_name("name")
        if self.capture and not self.elsewhere and name_node is not None:
            capture(self.expand, node, env)  # a function's body walked for what it prints
        if name_node is not None and self._inert(node, name_node, env):
            return
        doc = self.doc
        if name_node is None:
            for child in node.children:
                if child.type == "variable_assignment":
                    self._assign(child, env)
                elif child.is_named:
                    self._visit_subs(child, env)
            return
        start_node, extra = self._prefix(node, name_node, env)
        words_nodes = [name_node] + _argument_nodes(node, name_node)
        for w in words_nodes:
            self._visit_subs(w, env)
        tokens = self._words(words_nodes, env)
        span = self.launch_span or doc.where(doc.c(start_node.start_byte), doc.rng(node)[1])
        self._builtin_effects(tokens, env)
        head = tokens[0].value if tokens else None
        if head == "eval":
            self._eval(tokens, span, env)
            return
        if head is not None:
            self._call_function(head, env, tokens[1:], span)

        def child_env(inherit: bool = True, more: dict | None = None) -> Env:
            # the environment of the program run: exported variables and this command's assignments,
            # or only what a wrapper sets (env -i, docker run -e …)
            return env.child({**(extra if inherit else {}), **(more or {})}, inherit)

        if self.silent:
            return  # a launch, a declaration or a shell string found now would not be recorded
        self._cwd = env.get(CWD)
        self._background = runs_in_background(node)
        self._dispatch(tokens, span, child_env, self.image)

    def _prefix(self, node, name_node, env: Env) -> tuple:
        """The words before the program: ``(first node of the command, {name: value} of the
        assignments that apply to this command only)``. Assignments on lines of their own before it
        are run as statements; command substitutions in the prefix run."""
        doc = self.doc
        # tree-sitter-bash joins a line of several assignments to the command on the next line;
        # assignments before an unescaped line break are statements of their own.
        pre = [c for c in node.children if c.end_byte <= name_node.start_byte and c.is_named]
        cut = 0
        for k, child in enumerate(pre):
            nxt = pre[k + 1] if k + 1 < len(pre) else name_node
            if child.type == "comment" or _has_line_break(doc.text, doc.c(child.end_byte), doc.c(nxt.start_byte)):
                cut = k + 1
        for child in pre[:cut]:
            if child.type == "variable_assignment":
                self._assign(child, env)
        prefix = pre[cut:]
        extra: dict = {}
        for child in prefix:
            if child.type == "variable_assignment":
                got = self._value_of(child, env)
                if got is not None and got[1] is None:
                    extra[got[0]] = got[3] if not isinstance(got[3], list) else UNKNOWN_V
            else:
                self._visit_subs(child, env)
        return (prefix[0] if prefix else name_node), extra

    def _words(self, words_nodes: list, env: Env) -> list[Token]:
        """The words the program and argument nodes make, expanded and field-split."""
        doc = self.doc
        tokens: list[Token] = []
        word: list = []
        for k, w in enumerate(words_nodes):
            # ``fa\⏎4`` is one word to bash (a line continuation inside it); tree-sitter-bash splits it
            gap = doc.text[doc.c(words_nodes[k - 1].end_byte):doc.c(w.start_byte)] if k else ""
            if k and gap not in ("", "\\\n", "\\\r\n"):
                tokens.extend(self.expand.words(word, env))
                word = []
            # pieces with nothing between them are one word (tree-sitter splits ``$"…"`` in two)
            if w.type == "$" and k + 1 < len(words_nodes) and words_nodes[k + 1].start_byte == w.end_byte \
                    and words_nodes[k + 1].type == "string":
                continue
            word.append(w)
        tokens.extend(self.expand.words(word, env))
        return tokens

    def _call_function(self, head: str, env: Env, args: list | None = None, at: Span | None = None) -> None:
        """A command whose program is a function of this document: the call is recorded with its
        arguments as the function's positional parameters (``args``: the words after its name; None
        when they were not built: unknown) and its span ``at``, and what the function assigns is not
        followed into the caller (unknown after the call)."""
        fn = self.shared.functions.get(head)
        if fn is not None and fn.doc is self.doc:
            if not self.silent:
                call = env.copy()
                call.set(ARGV, list(args) if args is not None else UNKNOWN_V)
                self.shared.add_call(fn, call, tuple(self.conds) + self.run_labels, at)
            for name in fn.assigned:
                env.set(name, UNKNOWN_V)

    def _inert(self, node, name_node, env: Env) -> bool:
        """Run a command whose words cannot matter without building them, and say so (True): its
        program is a plain word that is no builtin that assigns and nothing
        :func:`~linter.recognize.unwrap` looks at (``echo``, ``mkdir``, a function …), nothing stands
        before it, and no expansion in it assigns. Its command substitutions run, and a function it
        calls gets the call. False: the caller does the full work."""
        start = name_node.start_byte
        if node.start_byte != start:
            return False  # assignments or a redirection before the program
        doc = self.doc
        text = doc.text
        end = node.end_byte
        j = name_node.end_byte
        if doc.b2c is not None:
            start, j, end = doc.b2c[start], doc.b2c[j], doc.b2c[end]
        head = text[start:j]
        inert = _INERT.get(head)
        if inert is None:
            from linter.recognize import inert_program

            inert = _INERT[head] = bool(_PLAIN_WORD.match(head)) and head not in _EFFECTS and inert_program(head)
            if len(_INERT) > 10_000:
                _INERT.clear()
        if not inert:
            return False
        if j < end and head in self.shared.functions:
            return False  # a function's arguments are its positional parameters: built
        args = [] if head in self.shared.functions else None  # (called with none)
        if j < end and text[j] not in " \t":
            return False  # the next word may continue the program's name (``ech\\⏎o``)
        rest = text[j:end]
        if "${" in rest and _ASSIGNING_EXPANSION.search(rest):
            return False
        if "$(" in rest or "`" in rest or "<(" in rest or ">(" in rest:
            for child in _argument_nodes(node, name_node):
                self._visit_subs(child, env)
        self._call_function(head, env, args)
        return True

    def _builtin_effects(self, tokens: list[Token], env: Env) -> None:
        """Builtins that assign variables from outside the file (read, mapfile, getopts …) or set
        allexport: the step for the builtin in :data:`_BUILTIN_EFFECTS`."""
        if not tokens:
            return
        effect = _BUILTIN_EFFECTS.get(tokens[0].value)
        if effect is not None:
            effect(tokens, [t.value for t in tokens[1:]], env)

    def _record(self, program: str, args: list[Token], span: Span, image: MStr | None,
                counts: list | None = None) -> None:
        if self.silent:
            return
        # The scope only: the engine adds the model and numbers launches that share both.
        cwd = getattr(self, "_cwd", ABSENT)
        workdir = None if cwd is ABSENT else (cwd.text if isinstance(cwd, MStr) else "")
        self.shared.launches.append(Launch(source=self.shared.source, program=program, span=span,
                                           args=[mark_joinable(t) for t in args], key=self.scope, image=image,
                                           workdir=workdir, gpu_counts=list(counts or ()),
                                           background=getattr(self, "_background", False)))

    def _decl(self, decl: GpuDecl) -> None:
        if not self.silent:
            self.shared.add_decl(decl)

    def _dispatch(self, words: list[Token], span: Span, child_env: Callable[..., Env], image: MStr | None) -> None:
        """Find the launch in a command's words through its wrappers (:func:`linter.recognize.unwrap`)."""
        from linter.recognize import Passthrough, UnwrapKind, unwrap

        got = unwrap(words, span, image)
        for decl in got.gpu_decls:
            self._decl(decl)
        if got.kind is UnwrapKind.LAUNCH:
            self._record(got.program, got.args, span, got.image,
                         list(got.gpu_counts) + _visible_counts(child_env, got))
        elif got.kind is UnwrapKind.SCRIPT and got.script is not None:
            outer = child_env()
            more = {}
            for name, value in got.env.items():
                if isinstance(value, Passthrough):
                    more[name] = outer.get(value.name)
                elif isinstance(value, MStr):
                    more[name] = value
                else:
                    more[name] = UNKNOWN_V
            env = Env() if got.how == "ssh" else child_env(got.inherit, more)
            self._nested(got.script, span, env, got.image, got.how)

    def _eval(self, tokens: list[Token], span: Span, env: Env) -> None:
        """``eval WORDS``: the words joined by blanks, read as shell in this shell (its variables),
        when every word is known (``eval "$(build)"`` of a function that prints a command line)."""
        if len(tokens) < 2 or any(t.value is None for t in tokens[1:]):
            return
        parts: list[MStr] = []
        for t in tokens[1:]:
            if parts:
                parts.append(MStr.plain(" "))
            parts.append(t.text)
        self._nested(Token(MStr.join(parts)), span, env, self.image, "eval")

    def _nested(self, script: Token, span: Span, env: Env, image: MStr | None, how: str) -> None:
        """Parse a ``bash -c`` / ``ssh`` string as shell, spans mapped back through its origins."""
        if script.splat or self.depth >= MAX_NESTING:
            return
        m = script.text
        try:
            # a string walked at each run (`bash -c "$S"` a thousand times): parsing and walking it
            # spend the file's steps, a step every 20 characters parsed (tree-sitter reads about
            # 7 MB/s: about the cost of a step of the walk)
            self.budget.step(f"a {how} command string", 1 + len(m.text) // 20)
            doc = Doc(self.shared.source, m.text, m, span)
            tree = parse_script(doc.data)
            inner = type(self)(self.shared, doc, self.scope, span, image, self.depth + 1)
            inner.silent = self.silent
            inner.visit(tree.root_node, env)
        except limits.LimitExceeded as exc:
            self.budget.stopped(exc, span, "the command strings past it are not checked")
            return
        if not self.silent and m.known:
            bad = first_error(tree.root_node, doc.data)
            if bad is not None:
                message, i = error_message(bad, doc)
                origin = doc.origin(i) if i < len(doc.text) else None
                at = Span(origin[0], origin[1], origin[1]) if origin is not None and origin[0] is self.shared.source \
                    else Span(span.source, span.start, span.start)
                self.shared.problems.append(Problem(f"{message} (in the {how} command string)", at))


_CONDITIONAL = frozenset({"if_statement", "elif_clause", "else_clause", "case_item", "case_statement", "while_statement",
                          "for_statement", "c_style_for_statement", "list", "pipeline", "negated_command",
                          "test_command", "command_substitution", "process_substitution"})
"""Nodes under which a command runs on some paths only, or in a loop (never summed with its neighbours)."""


def runs_in_background(node) -> bool:
    """Whether a simple command is run in the background as a statement of its own: ``cmd &`` (also
    with redirections) directly in the script, a function body, ``{ … }`` or a subshell — not in a
    branch, a loop, a pipeline or a ``&&``/``||`` list (bash(1), Lists: "If a command is terminated
    by the control operator &, the shell executes the command in the background")."""
    stmt = node
    if stmt.parent is not None and stmt.parent.type == "redirected_statement":
        stmt = stmt.parent
    nxt = stmt.next_sibling
    if nxt is None or nxt.type != "&":
        return False
    up = stmt.parent
    while up is not None:
        if up.type in _CONDITIONAL:
            return False
        up = up.parent
    return True


def _visible_counts(child_env, got) -> list:
    """The GPU counts ``CUDA_VISIBLE_DEVICES``/``NVIDIA_VISIBLE_DEVICES`` give the launched program: what
    a wrapper sets (``env``, ``docker run -e``), else what the shell exports to it."""
    from linter.gpus.counts import VISIBLE_DEVICE_VARIABLES, visible_devices
    from linter.recognize import Passthrough

    # srun gives each task the GPUs of its step (Slurm sets CUDA_VISIBLE_DEVICES for it): what the
    # script exported before does not reach the launch
    outer = child_env() if got.inherit and "srun" not in got.chain else None
    out = []
    for name in VISIBLE_DEVICE_VARIABLES:
        if name in got.env:
            value = got.env[name]
            if isinstance(value, Passthrough):
                value = outer.get(value.name) if outer is not None else child_env().get(value.name)
        elif outer is not None:
            value = outer.get(name)
        else:
            continue
        if value is ABSENT or value is UNSET:
            continue
        got_count = visible_devices(name, value if isinstance(value, MStr) else None)
        if got_count is not None:
            out.append(got_count)
    return out


# The builtins that change the walker's variables, one function each: ``(tokens, args, env)``, ``args``
# the values of the words after the builtin's name (None for a word the file does not decide).

def _read_effects(tokens: list[Token], args: list, env: Env) -> None:
    """``read [-a NAME] [-d/-i/-n/-N/-p/-t/-u ARG] [NAME …]``: the names (else ``REPLY``) unknown."""
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
        if NAME.match(a):
            env.set(a, UNKNOWN_V)
        k += 1
    if not any(a and NAME.match(a) for a in args):
        env.set("REPLY", UNKNOWN_V)


def _mapfile_effects(tokens: list[Token], args: list, env: Env) -> None:
    """``mapfile``/``readarray [NAME]``: the array (else ``MAPFILE``) unknown."""
    names = [a for a in args if a and NAME.match(a)]
    env.set(names[-1] if names else "MAPFILE", UNKNOWN_V)


def _getopts_effects(tokens: list[Token], args: list, env: Env) -> None:
    """``getopts OPTSTRING NAME``: NAME and ``OPTARG`` unknown."""
    if len(args) >= 2 and args[1] and NAME.match(args[1]):
        env.set(args[1], UNKNOWN_V)
        env.set("OPTARG", UNKNOWN_V)


def _printf_effects(tokens: list[Token], args: list, env: Env) -> None:
    """``printf -v NAME …``: NAME unknown."""
    if len(args) >= 2 and args[0] == "-v" and args[1] and NAME.match(args[1]):
        env.set(args[1], UNKNOWN_V)


def _set_effects(tokens: list[Token], args: list, env: Env) -> None:
    """``set -a``/``+a``/``-o allexport``/``+o allexport``: allexport on or off."""
    for k, a in enumerate(args):
        if a is None or a == "--":
            break
        if a.startswith("-") and not a.startswith("--") and "a" in a[1:] and a != "-o":
            env.allexport = True
        elif a.startswith("+") and "a" in a[1:] and a != "+o":
            env.allexport = False
        elif a in ("-o", "+o") and k + 1 < len(args) and args[k + 1] == "allexport":
            env.allexport = a == "-o"
    if "--" in args or any(a is None for a in args):
        # ``set -- a b`` gives the positional parameters (words not known: unknown ones)
        env.set(ARGV, list(tokens[1 + args.index("--") + 1:]) if "--" in args else UNKNOWN_V)


def _shift_effects(tokens: list[Token], args: list, env: Env) -> None:
    """``shift [N]`` inside a call of a function of the file: its positional parameters lose their
    first N (1 by default; past their number bash shifts nothing). An N not known: unknown."""
    argv = env.get(ARGV)
    if not isinstance(argv, list):
        return
    n = small_number(args[0] if args else "1")
    if n is None or any(t.splat for t in argv[:n]):
        env.set(ARGV, UNKNOWN_V)
    elif n <= len(argv):
        env.set(ARGV, argv[n:])


def _cd_effects(tokens: list[Token], args: list, env: Env) -> None:
    """``cd``/``pushd DIR``: the folder the script is in (:func:`cd_target`)."""
    env.set(CWD, cd_target(tokens[1] if len(tokens) > 1 else None, env.get(CWD)))


def _declare_effects(tokens: list[Token], args: list, env: Env) -> None:
    """``export``/``readonly``/``declare``/``typeset``/``local NAME=…`` that tree-sitter did not
    recognise as a declaration (e.g. a quoted assignment word): the names unknown."""
    for t in tokens[1:]:
        v = t.value
        if v and ASSIGN_WORD.match(v):
            env.set(v.split("=", 1)[0].rstrip("+"), UNKNOWN_V)


_BUILTIN_EFFECTS: dict[str | None, Callable[[list[Token], list, Env], None]] = {
    "read": _read_effects,
    "mapfile": _mapfile_effects, "readarray": _mapfile_effects,
    "getopts": _getopts_effects,
    "printf": _printf_effects,
    "set": _set_effects, "shift": _shift_effects,
    "cd": _cd_effects, "pushd": _cd_effects,
    "export": _declare_effects, "readonly": _declare_effects, "declare": _declare_effects,
    "typeset": _declare_effects, "local": _declare_effects,
}
"""Builtin name → its effect on the walker's variables (:meth:`Commands._builtin_effects`)."""
