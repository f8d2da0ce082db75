"""Wrapper entrypoint scripts that pass their arguments through (issue 35, bullet 4).

Container images often start with a script of the repository — compose ``entrypoint:
["/app/entrypoint.sh"]``, a Kubernetes ``command: ["./entrypoint.sh"]``, a Dockerfile ``ENTRYPOINT
["/entrypoint.sh"]`` — that prepares the environment and ends in ``exec "$@"``: the container's
command (compose ``command:``, Kubernetes ``args:``, the Dockerfile's ``CMD``) is what runs, with
the variables the script exports. Such a script is found on the host (a path relative to the file
that names it, or through the bind mounts / ``COPY`` instructions that put it in the container; a
Dockerfile's relative path from its ``WORKDIR``) and read as text through the workspace, so a script
outside the run's root is never read (:mod:`linter.boundary`); it is never run. A Kubernetes script
from a ConfigMap volume is read from the ConfigMap's text (:mod:`linter.extract.k8s_volumes`). It is
read with the shell format's parser (:mod:`linter.extract.shell`): only its top-level commands
count — the first that passes the arguments on, ``exec "$@"`` (``exec "${@}"``, ``"$@"``), is the
command; words written after ``"$@"`` are appended to it (``exec "$@" --attention-backend triton``),
and what follows it never changes it (``exec`` replaces the shell; without ``exec`` the lines after
run once the command has ended). A top-level ``if`` (no ``elif``) or ``test && …`` list whose branch
holds that command at its own top level passes the arguments through on that path only, and the
script goes on on the other: a later top-level pass-through is a path of its own (``if [ -n "$FAST" ];
then exec "$@"; fi; exec "$@" --enable-deterministic-inference`` has two). Each path is a
:class:`Wrapper` (:meth:`Wrapper.ways`) whose ``path`` says when, in the shell walker's words; a test
the script decides (``MODE=serve`` then ``[ "$MODE" = det ]``, ``false``) takes one branch and makes
no path (fresh review of issue 35, d3 and d4). No top-level ``exit`` or ``exec COMMAND`` may come before it,
top-level ``shift [N]`` drops the first arguments, and its top-level ``export NAME=VALUE`` commands
(not text in a heredoc) give the environment. A script of the repository read in this way that does
not pass its arguments on like this is a wrapper the linter does not follow (``follows`` False):
when the words after it hold an SGLang launch, :func:`through` says so (SGL001), never silence
(fresh review of issue 35, D19). The one
implementation for compose, Kubernetes and Dockerfiles; it sits in the formats layer because it
reads shell.

**A shift past the arguments.** ``shift N`` with fewer than ``N`` arguments left changes nothing and
fails (bash manual, "Bourne Shell Builtins": "If N is greater than $#, the positional parameters are
not changed"; the return status is non-zero). The script then stops when ``set -e`` is on, or when
it runs as ``sh`` (``shift`` is a POSIX special built-in, whose error makes a non-interactive shell
exit: POSIX.1-2017 XCU 2.8.1 "Consequences of Shell Errors"; dash and bash in POSIX mode do so);
bash without ``set -e`` goes on with the arguments unchanged. A wrapper that shifts all its
arguments away, or stops at such a shift, runs no command (``exec`` with no words does nothing and
the script ends): :func:`through` says so (SGL001) when the words it was given hold an SGLang
launch, as it does when the shift leaves a command that is no longer that launch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from linter import records
from linter.launch import MStr, Problem, Token
from linter.records import dataclass, field
from linter.source import SourceFile, Span

_ARGS = ('"$@"', '"${@}"')
"""The word that passes the script's arguments on, each as one word."""

_SHELLS = {"sh", "bash", "dash", "/bin/sh", "/bin/bash", "/bin/dash", "/usr/bin/sh", "/usr/bin/bash",
           "/usr/bin/dash"}
_ENV = {"env", "/usr/bin/env", "/bin/env"}
HOST = "host"
"""``workdir`` of :func:`wrapper_script`: a relative script path is relative to the naming file's folder."""


@dataclass(frozen=True)
class Wrapper:
    """A wrapper script found at the start of an entrypoint: ``taken`` words (the script and a shell
    before it) to drop, ``env`` the variables it exports (name -> value with its origin in the
    script), ``source`` the file the script is in (a file the launch depends on), ``shifts`` its
    top-level ``shift`` commands in order as ``(count, the script stops when it fails)`` — the
    second None when that depends on a shell that is not known — and ``name`` the script's word."""

    taken: int
    source: SourceFile
    env: dict[str, MStr] = field(default_factory=dict)
    shifts: tuple = ()
    name: str = ""
    sourced: tuple = ()
    """The files of the repository it reads with ``source``/``.`` (files the launch depends on)."""
    extra: tuple = ()
    """The :class:`~linter.launch.Token` words written after ``"$@"`` (appended to the command)."""
    prefix: tuple = ()
    """The words an ``exec PROGRAM … "$@"`` writes before ``"$@"`` (the command starts with them)."""
    path: tuple = ()
    """When the script passes its arguments through only on some paths, the conditions of this path in
    words ("`[ -n "$X" ]` succeeds"), as :attr:`~linter.launch.Launch.path` holds them; empty when it
    always does."""
    follows: bool = True
    """False for a script of the repository that does not pass its arguments on in a way read here."""
    others: tuple = ()
    """The script's other paths that pass its arguments on, each a Wrapper of its own (``exec "$@"``
    in an ``if``, then another after it: fresh review of issue 35, d3)."""

    def ways(self) -> list[Wrapper]:
        """This path and the others (:attr:`others`), in the script's order."""
        return [self, *self.others]

    @property
    def files(self) -> list[SourceFile]:
        """The script and the files it sources."""
        return [self.source, *self.sourced]

    @property
    def shift(self) -> int:
        """How many arguments the script drops when it is given enough."""
        return sum(n for n, _ in self.shifts)

    def passed(self, words: list) -> list:
        """The command the script runs, given ``words`` (the entrypoint's words and the command's);
        ``[]`` when it runs none. See :meth:`outcome`."""
        return self.outcome(words)[0] or []

    def outcome(self, words: list) -> tuple[list | None, str]:
        """(the command the script runs given ``words`` — ``[]`` for none, None when that is not known —,
        why it runs none, in words). The script's arguments are ``words[taken:]``; a word of unknown
        count (a splat) among them makes each shift drop its count as written."""
        args = list(words[self.taken:])
        if any(getattr(w, "splat", False) for w in args):
            return self._appended(args[self.shift:]), ""
        left, off = len(args), 0
        for count, stops in self.shifts:
            if count <= left:
                left, off = left - count, off + count
            elif stops is None:
                return None, ""
            elif stops:
                return [], (f"its `shift {count}` fails with {_count(left)} left and stops the script, "
                            f"so it receives no command")
        if args and off >= len(args):
            return [], f"it shifts away all {_count(len(args))} it is given, so `exec \"$@\"` receives no command"
        return self._appended(args[off:]), ""

    def _appended(self, args: list) -> list:
        """``args`` with the words the script writes before and after ``"$@"`` (none when no argument
        is left)."""
        return list(self.prefix) + args + list(self.extra) if args else args


def _count(n: int) -> str:
    return f"{n} argument" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class Reading:
    """What :func:`read_script` finds: whether the script passes its arguments through, its top-level
    shifts ``(count, set -e on)`` (None: no top-level ``set`` has changed it, as the script starts),
    its exports and the shell its ``#!`` line names (``"sh"``, ``"bash"``, None) with ``set -e`` from
    that line."""

    passes: bool
    shifts: tuple = ()
    env: dict[str, MStr] = field(default_factory=dict)
    shell: str | None = None
    errexit: bool = False
    sourced: tuple = ()
    extra: tuple = ()
    """The words written after ``"$@"`` (:attr:`Wrapper.extra`)."""
    prefix: tuple = ()
    """The words of ``exec PROGRAM … "$@"`` before ``"$@"`` (:attr:`Wrapper.prefix`)."""
    path: tuple = ()
    """When it passes its arguments through on some paths only: that path's conditions."""
    others: tuple = ()
    """The Readings of the script's other paths that pass its arguments on (:attr:`Wrapper.others`)."""

    @property
    def shift(self) -> int:
        return sum(n for n, _ in self.shifts)


def passes_through(text: str) -> bool:
    """The script ``text`` passes its arguments on with a top-level ``exec "$@"`` with no top-level
    ``exit`` or ``exec COMMAND`` before it (see :func:`read_script`)."""
    return read_script(SourceFile(None, "script", text)).passes


def exported(source: SourceFile) -> dict[str, MStr]:
    """The values of the script's top-level ``export NAME=VALUE`` commands (the last one wins)."""
    return read_script(source, need_pass=False).env


Resolve = Callable[[str], "tuple[SourceFile, MStr | None] | None"]
"""What a wrapper's ``source FILE`` reads: the word as written -> (the file, or a text with origins in
it), None when it is not a file of the repository known statically."""

MAX_SOURCED = 4
"""Files sourced inside one another that a wrapper reading follows."""


def read_script(source: SourceFile, need_pass: bool = True, script: MStr | None = None,
                resolve: Resolve | None = None) -> Reading:
    """Read the script ``source`` (or ``script``, a text whose characters have origins in ``source``:
    a ConfigMap's value) with the shell parser (never run): :class:`Reading`. A script with a syntax
    error, one with no top-level command that passes its arguments on (:func:`_passing`), or one
    that exits, runs another command with ``exec``, changes its arguments (``set --``, a ``shift`` not
    at top level) or shifts by an unknown count before it, does not pass through. A top-level
    ``source FILE``/``. FILE`` that ``resolve`` finds in the repository is read the same way, in place
    (its exports count, an ``exit`` there stops the pass-through); one it does not find is taken to
    change nothing. With ``need_pass`` False every top-level command is read (for its exports)."""
    from linter.extract.shell.errors import first_error

    state = _TopLevel(resolve)
    doc, root, top = _parse(source, script)
    ok = first_error(root, doc.data) is None
    state.doc_of(doc)
    shell, errexit = _shebang(doc.text)
    if not need_pass:
        for node in top:
            cmd = _command_of(node)
            state.run(node, cmd, _words(doc, cmd) if cmd.type == "command" else None)
        return Reading(False, tuple(state.shifts), state.exports, shell, errexit, tuple(state.sourced))
    ways: list[tuple] = []
    path: list[str] = []  # the conditions of the path that has not passed its arguments on yet
    for node in top:
        step = _passing(doc, node, state, path)
        if step is None:
            cmd = _command_of(node)
            if not state.run(node, cmd, _words(doc, cmd) if cmd.type == "command" else None):
                break  # ``exit``, ``exec COMMAND``: that path ends here
            continue
        found, goes_on = step
        ways.extend(found)
        if not goes_on or len(ways) >= MAX_WAYS:
            break
    if not ok or not ways or len(ways) > MAX_WAYS:
        return Reading(False, tuple(state.shifts), state.exports, shell, errexit, tuple(state.sourced))
    readings = [Reading(True, shifts, exports, shell, errexit, tuple(state.sourced), tuple(extra), tuple(prefix),
                        tuple(conds)) for prefix, extra, conds, exports, shifts in ways]
    return records.replace(readings[0], others=tuple(readings[1:]))


MAX_WAYS = 16
"""Paths through one wrapper script that pass its arguments on (one ``exec "$@"`` in an ``if`` or a
``case`` item each); past it the script is not followed (SGL001 says so)."""


def _command_of(node):
    """The command of a top-level statement (its redirections taken off)."""
    return node.named_children[0] if node.type == "redirected_statement" and node.named_children else node


def _pass_args(doc, cmd) -> tuple[list, list] | None:
    """(the nodes written before ``"$@"``, those after it) when ``cmd`` is ``exec [PROGRAM …] "$@" …``
    (``exec``'s own ``-c``, ``-l``, ``-a NAME`` aside: ``exec`` replaces the shell with that command)
    or ``"$@" …``; None otherwise (``"$@"`` an argument of another command that returns: ``echo``)."""
    if cmd.type != "command":
        return None
    words = _words(doc, cmd)
    nodes = [cmd.child_by_field_name("name"), *cmd.children_by_field_name("argument")]
    if words and words[0] in _ARGS:
        return [], nodes[1:]
    if not words or words[0] != "exec" or not any(w in _ARGS for w in words[1:]):
        return None
    start = 1
    while start < len(words) and words[start] in ("-c", "-l", "-cl", "-lc", "-a"):
        start += 2 if words[start] == "-a" else 1
    at = words.index(next(w for w in words[1:] if w in _ARGS), 1)
    return (nodes[start:at] if start <= at else []), nodes[at + 1:]


def _passing(doc, node, state: _TopLevel, path: list[str]) -> tuple[list[tuple], bool] | None:
    """The paths on which the top-level statement ``node`` passes the script's arguments on, each
    ``(the words before "$@", those after it, its conditions, its exports, its shifts)``, and whether
    the script goes on past it on another path; None when it passes them on nowhere. ``path`` holds the
    conditions of the path the script is on, and gets those of the path that goes on. ``exec "$@" …``
    itself (first in a list or a pipeline too) ends the script; an ``if`` (no ``elif``), ``test && …``/
    ``test || …`` list or ``case`` (:func:`_branches`) whose branch holds it at its own top level passes
    it on in that branch (the commands of that branch before it are read as top-level ones on that
    path), and the script goes on along the branches that do not (their commands read as top-level
    ones). A test or ``case`` word the script decides (:func:`linter.extract.shell.conditions.decide`:
    ``MODE=serve`` then ``[ "$MODE" = det ]``, ``false``) takes its branch only: no condition (fresh
    review of issue 35, d4)."""
    first = node.named_children[0] if node.type in ("list", "pipeline") and node.named_children else node
    args = _pass_args(doc, _command_of(first))  # also ``"$@" || exit 1``, ``"$@" 2>&1 | tee log``
    if args is not None:
        return [_way(state, args, path)], False
    branches = _branches(doc, state, node)
    if not branches:
        return None
    found, rest = [], []
    for label, body in branches:
        here = path + ([label] if label is not None else [])
        k = next((k for k, st in enumerate(body) if _pass_args(doc, _command_of(st)) is not None), None)
        if k is None:
            rest.append((body, here))
            continue
        fork = state.fork()
        if all([fork.run(st, _command_of(st), _words(doc, _command_of(st)) if _command_of(st).type == "command"
                         else None) for st in body[:k]]):
            found.append(_way(fork, _pass_args(doc, _command_of(body[k])), here))
    if not found:
        return None
    goes_on = bool(rest)
    for body, here in rest:  # the path on which the script goes on: that branch's commands run
        path[:] = here
        goes_on = all([state.run(st, _command_of(st), _words(doc, _command_of(st))
                                 if _command_of(st).type == "command" else None) for st in body]) and goes_on
    return found, goes_on


def _branches(doc, state: _TopLevel, node) -> list[tuple[str | None, list]]:
    """``(the condition in words, the statements)`` of each branch the script may take of an ``if`` (no
    ``elif``; one with no ``else`` has an empty one), a ``test && …``/``test || …`` list or a ``case``
    (no ``;&``/``;;&`` fall-through; one with no ``*`` item has an empty branch for no match: fresh
    review rev38 e6); ``[]`` for another statement. A test or ``case`` word the script decides
    (:mod:`linter.extract.shell.conditions`) gives its one branch, with no condition."""
    from linter.extract.shell.conditions import decide
    from linter.extract.shell.document import named_kids

    if node.type == "case_statement":
        return _case_branches(doc, state, node)
    if node.type == "if_statement":
        test, body, clauses = _split_if(node)
        if any(c.type == "elif_clause" for c in clauses):
            return []
        got = [(body, True)] + [([c for c in named_kids(e) if c.type != "comment"], False)
                                for e in clauses] + ([([], False)] if not clauses else [])
    elif node.type == "list" and len(node.named_children) == 2 and \
            [c.type for c in node.children if not c.is_named] in (["&&"], ["||"]):
        test = [node.named_children[0]]
        on_success = node.children[1].type == "&&"
        got = [([node.named_children[1]], on_success), ([], not on_success)]
    else:
        return []
    decided = decide(state.expand, test, state.env)
    return [(None if decided is not None else _truth(doc, test, holds), body)
            for body, holds in got if decided is None or decided == holds]


def _case_branches(doc, state: _TopLevel, node) -> list[tuple[str | None, list]]:
    """The branches of a ``case`` statement, as :func:`_branches` gives them."""
    from linter.extract.shell.conditions import case_branch, case_items, case_label, no_case_label
    from linter.extract.shell.expand import scalar

    value = node.child_by_field_name("value")
    items = [(patterns, [c for c in body if c.type != "comment"]) for patterns, body in case_items(doc, node)]
    if value is None or any(c.type in (";&", ";;&") for item in node.named_children for c in item.children):
        return []
    word = scalar(state.expand.segs(value, state.env), None)
    k = case_branch(word.text, [patterns for patterns, _ in items]) if word.known else None
    if k is not None:
        return [(None, items[k][1] if k < len(items) else [])]
    subject = " ".join(doc.node_text(value).split())
    out: list[tuple[str | None, list]] = []
    for patterns, body in items:
        out.append((case_label(subject, patterns), body))
        if "*" in patterns:
            return out  # the items after it are never reached
    return out + [(no_case_label(subject), [])]


def _way(state: _TopLevel, args: tuple[list, list], path: list[str]) -> tuple:
    """One path that passes the arguments on: (words before ``"$@"``, after it, conditions, exports, shifts)."""
    return (_expanded(state, args[0]), _expanded(state, args[1]), tuple(path), dict(state.exports),
            tuple(state.shifts))


def _expanded(state: _TopLevel, nodes: list) -> list:
    """The words of argument nodes, each split and expanded as the shell does, with the script's exports."""
    return [t for n in nodes for t in state.expand.words([n], state.env)]


def _split_if(node) -> tuple[list, list, list]:
    """(test nodes, body statements, elif/else clauses) of an ``if`` statement."""
    test, body, clauses, in_body = [], [], [], False
    for child in node.children:
        if not child.is_named:
            in_body = in_body or child.type == "then"
        elif child.type in ("elif_clause", "else_clause"):
            clauses.append(child)
        elif child.type != "comment":
            (body if in_body else test).append(child)
    return test, body, clauses


def _truth(doc, test: list, holds: bool) -> str:
    """A test succeeding or failing, in words ("`[ -n "$X" ]` succeeds"), as the shell walker says it."""
    text = " ".join(doc.text[doc.c(test[0].start_byte):doc.c(test[-1].end_byte)].split()).rstrip(";").rstrip() \
        if test else "the condition"
    if len(text) > 60:
        text = text[:57] + "..."
    return f"`{text}` {'succeeds' if holds else 'fails'}"


def _parse(source: SourceFile, script: MStr | None):
    """(doc, root node, top-level statement nodes) of a script file or text."""
    from linter.extract.shell.document import Doc, named_kids, parse_script

    text = script.text if script is not None else source.text
    doc = Doc(source, text, script, script.where if script is not None and script.where else Span(source, 0, 0))
    root = parse_script(doc.data).root_node
    return doc, root, [n for n in named_kids(root) if n.type != "comment"]


class _TopLevel:
    """The top-level commands of a wrapper script before its last, in order: its exports, its shifts
    and ``set -e`` as they leave it."""

    def __init__(self, resolve: Resolve | None = None) -> None:
        from linter.extract.shell.env import Env

        self.resolve, self.env, self.depth = resolve, Env(), 0
        self.exports: dict[str, MStr] = {}
        self.shifts: list[tuple[int, bool | None]] = []
        self.errexit: bool | None = None  # as top-level ``set`` commands leave it (None: as the script starts)
        self.sourced: list[SourceFile] = []

    def fork(self) -> _TopLevel:
        """A copy to read one branch's commands with, leaving this one as it was."""
        out = _TopLevel.__new__(_TopLevel)
        out.__dict__.update(self.__dict__)
        out.env, out.exports, out.shifts = self.env.copy(), dict(self.exports), list(self.shifts)
        return out

    def doc_of(self, doc) -> None:
        """Read the commands of ``doc`` from now on."""
        from linter.extract.shell.expand import Expander

        self.doc, self.expand = doc, Expander(doc)

    def run(self, node, cmd, words: list[str] | None) -> bool:
        """Take one command; False when the script cannot pass its arguments through after it."""
        doc = self.doc
        if words:
            if words[0] == "exit" or (words[0] == "exec" and len(words) > 1) or words[:2] == ["set", "--"]:
                return False
            if words[0] in ("source", ".") and len(words) > 1:
                return self._source(words[1])
            if words[0] == "shift":
                from linter.extract.shell.env import small_number

                n = small_number(words[1] if len(words) > 1 else "1")
                if n is None:
                    return False
                self.shifts.append((n, self.errexit))
            elif words[0] == "set":
                self.errexit = _errexit(words[1:], self.errexit)
            return True
        if cmd.type == "declaration_command" and doc.node_text(cmd).split(None, 1)[0] == "export":
            self._export(cmd)
            return True
        if cmd.type == "variable_assignment":  # a variable the words after "$@" may read
            self._assign(cmd, export=False)
            return True
        self._forget_assigned(node)
        return not _changes_arguments(doc, node)

    def _forget_assigned(self, node) -> None:
        """A compound command (an ``if``, a loop, a group) whose assignments are not followed here: a
        variable it may assign is unknown after it (``EXTRA=""; if …; then EXTRA=--flag; fi; exec "$@"
        $EXTRA`` must not read as ``EXTRA`` empty)."""
        if node.type in ("command", "variable_assignment", "declaration_command"):
            return
        doc, stack = self.doc, [node]
        while stack:
            n = stack.pop()
            if n.type == "variable_assignment":
                name = n.child_by_field_name("name")
                if name is not None and name.type == "variable_name":
                    text = doc.node_text(name)
                    unknown = MStr.unknown(doc.where(*doc.rng(n)))
                    if text in self.exports:
                        self.exports[text] = unknown
                    self.env.set(text, unknown, export=text in self.exports)
            stack.extend(n.named_children)

    def _source(self, word: str) -> bool:
        """``source FILE``: its top-level commands, in place, when ``resolve`` finds the file."""
        got = self.resolve(word) if self.resolve is not None and self.depth < MAX_SOURCED else None
        if got is None:
            return True
        from linter.extract.shell.errors import first_error

        source, script = got
        doc, root, top = _parse(source, script)
        if first_error(root, doc.data) is not None:
            return False
        if source not in self.sourced:
            self.sourced.append(source)
        outer = (self.doc, self.expand)
        self.doc_of(doc)
        self.depth += 1
        try:
            ok = True
            for node in top:
                cmd = node.named_children[0] if node.type == "redirected_statement" and node.named_children else node
                ok = self.run(node, cmd, _words(doc, cmd) if cmd.type == "command" else None) and ok
            return ok
        finally:
            self.depth -= 1
            self.doc, self.expand = outer

    def _export(self, cmd) -> None:
        for a in cmd.named_children:
            self._assign(a, export=True)

    def _assign(self, a, export: bool) -> None:
        """``NAME=VALUE`` (a ``variable_assignment`` node), exported or not."""
        from linter.extract.shell.expand import scalar

        doc = self.doc
        name, value = a.child_by_field_name("name"), a.child_by_field_name("value")
        if a.type != "variable_assignment" or name is None or name.type != "variable_name":
            return
        if value is None:
            m = MStr.plain("", doc.where(*doc.rng(a)))
        else:
            m = scalar(self.expand.segs(value, self.env), doc.where(*doc.rng(value)))
        if export or doc.node_text(name) in self.exports:
            self.exports[doc.node_text(name)] = m
        self.env.set(doc.node_text(name), m, export=export or doc.node_text(name) in self.exports)


def _shebang(text: str) -> tuple[str | None, bool]:
    """(``"sh"``, ``"bash"`` or None, whether ``-e`` is set) from the script's ``#!`` line."""
    if not text.startswith("#!"):
        return None, False
    words = text[2:].split("\n", 1)[0].split()
    if words and words[0].rsplit("/", 1)[-1] == "env":
        words = [w for w in words[1:] if not w.startswith("-") or w.startswith("-e")][:2] if len(words) > 1 else []
    if not words:
        return None, False
    program = words[0].rsplit("/", 1)[-1]
    shell = "sh" if program in ("sh", "dash") else "bash" if program == "bash" else None
    return shell, bool(_errexit(words[1:], False))


def _errexit(flags: list[str], on: bool | None) -> bool | None:
    """Whether ``set -e`` is on after ``set FLAGS`` (``-e``, ``-eux``, ``-o errexit``; ``+e`` turns it off)."""
    for k, f in enumerate(flags):
        if f in ("-o", "+o") and k + 1 < len(flags) and flags[k + 1] == "errexit":
            on = f == "-o"
        elif len(f) > 1 and f[0] in "-+" and f[1] not in "-o" and "e" in f[1:]:
            on = f[0] == "-"
    return on


def _words(doc, cmd) -> list[str]:
    """The words of a simple command as written."""
    name = cmd.child_by_field_name("name")
    return ([doc.node_text(name)] if name is not None else []) + \
        [doc.node_text(a) for a in cmd.children_by_field_name("argument")]


def _changes_arguments(doc, node) -> bool:
    """A ``shift`` or ``set --`` inside a compound command (not a function's body): the script's
    arguments after it are not known."""
    stack = list(node.named_children)
    while stack:
        n = stack.pop()
        if n.type == "function_definition":
            continue
        if n.type == "command":
            words = _words(doc, n)
            if words and (words[0] == "shift" or words[:2] == ["set", "--"]):
                return True
        stack.extend(n.named_children)
    return False


def script_index(words: list[str | None]) -> int | None:
    """The index of the script word of an entrypoint's ``words`` (after ``env`` and a shell: ``bash
    /app/entrypoint.sh``), None when there is none or it is not known."""
    i = 0
    if words and words[0] in _ENV and len(words) > 1:
        i = 1
    if len(words) > i + 1 and words[i] in _SHELLS:
        i += 1
    if not words or i >= len(words) or words[i] is None:
        return None
    return i


def script_shell(words: list[str | None], i: int, text: str) -> str | None:
    """The shell that runs the script ``words[i]`` whose text is ``text``: the shell word before it
    (``bash /opt/run.sh``), else its ``#!`` line's (``sh``, ``bash``); None for another interpreter
    or none (a container runtime ``execve``s the file: without ``#!`` it fails, "exec format error")."""
    if i > 0 and words[i - 1] in _SHELLS:
        return words[i - 1]
    return _shebang(text)[0]


def wrapper_of(words: list[str | None], i: int, source: SourceFile, script: MStr | None = None,
               resolve: Resolve | None = None, unfollowed: bool = False) -> Wrapper | None:
    """The :class:`Wrapper` the script at ``words[i]`` is (its text ``source``, or ``script`` with
    origins in ``source``; ``resolve`` finds the files it sources). When it does not pass its
    arguments through: None, or with ``unfollowed`` a Wrapper with ``follows`` False (so
    :func:`through` can say that a launch after it is not checked)."""
    reading = read_script(source, script=script, resolve=resolve)
    if not reading.passes:
        return Wrapper(i + 1, source, reading.env, name=words[i] or "", sourced=reading.sourced,
                       follows=False) if unfollowed else None
    shell, errexit = reading.shell, reading.errexit
    if i > 0 and words[i - 1] in _SHELLS:  # ``bash script``: that shell; the script's #! line is a comment
        shell, errexit = ("bash" if words[i - 1].endswith("bash") else "sh"), False

    def wrapper(way: Reading) -> Wrapper:
        shifts = []
        for count, on in way.shifts:
            on = errexit if on is None else on
            shifts.append((count, True if on or shell == "sh" else False if shell == "bash" else None))
        return Wrapper(i + 1, source, way.env, tuple(shifts), words[i] or "", way.sourced, way.extra, way.prefix,
                       way.path)

    return records.replace(wrapper(reading), others=tuple(wrapper(way) for way in reading.others))


_SCRIPT_DIR = re.compile(r'(?:\$\(\s*dirname\s+"?(?:\$0|\$\{?BASH_SOURCE(?:\[0\])?\}?)"?\s*\)'
                         r'|\$\{BASH_SOURCE(?:\[0\])?%/\*\})/(?P<rest>[^"$`\\\s]+)')
_PLAIN_PATH = re.compile(r'[^"$`\\\s\']+')


def sourced_path(word: str, script: str, workdir: str | None = None) -> str | None:
    """The path a ``source WORD`` of the script at container path ``script`` reads, as far as the word
    says: ``$(dirname "$0")/x`` (and ``${BASH_SOURCE%/*}/x``, ``$(dirname "${BASH_SOURCE[0]}")/x``) is
    ``x`` beside the script; an absolute path is itself; a relative one with a ``/`` is in the working
    folder ``workdir`` (bash looks a name without ``/`` up in ``PATH`` first). None otherwise."""
    import posixpath

    text = word[1:-1] if len(word) > 1 and word[0] == word[-1] == '"' else word
    m = _SCRIPT_DIR.fullmatch(text)
    if m:
        return posixpath.normpath(posixpath.join(posixpath.dirname(script), m.group("rest")))
    if not _PLAIN_PATH.fullmatch(text):
        return None
    if text.startswith("/"):
        return posixpath.normpath(text)
    if "/" in text and workdir is not None:
        return posixpath.normpath(posixpath.join(workdir, text))
    return None


DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
"""The ``PATH`` Docker gives a Linux container whose image sets none (moby ``pkg/system/path_deprecated.go``
``defaultUnixPathEnv``, now ``oci.DefaultPathEnv``): where a bare entrypoint name is looked up."""


def _on_path(name: str, mounts: tuple, ws, search: str | None) -> str | None:
    """The container path of a bare command ``name`` (no ``/``: the runtime looks it up in ``PATH``,
    as ``execvp`` does) in the first folder of ``search`` (else :data:`DEFAULT_PATH`) where ``mounts``
    (bind mounts, ``COPY`` destinations) put a file of the repository; None when none does."""
    for folder in (search or DEFAULT_PATH).split(":"):
        if not folder.startswith("/"):
            continue
        inside = folder.rstrip("/") + "/" + name
        host = _on_host(inside, mounts)
        if host is not None and not ws.refuse(host, quiet=True) and ws.is_file(host):
            return inside
    return None


def wrapper_script(words: list[str | None], folder: Path, ws, mounts: tuple = (), tokens: list | None = None,
                   workdir: str | None = HOST, search: str | None = None) -> Wrapper | None:
    """When ``words`` (an entrypoint's words, None where unknown) start with a script of the repository
    that passes its arguments through (``./entrypoint.sh``, ``bash /app/entrypoint.sh`` with ``/app``
    mounted or copied from the repository), that script; None otherwise. ``folder`` is the naming
    file's folder; ``mounts`` its ``(container path, host path)`` pairs; ``workdir`` where a relative
    path starts: :data:`HOST` (``folder``), a container folder (a Dockerfile's ``WORKDIR``: the path
    is then found through ``mounts``) or None (not known: a relative path is not followed); ``ws``
    the run's :class:`~linter.workspace.Workspace` (None: nothing is read), which refuses a script
    outside the root (SGL005 at the word of ``tokens``, the :class:`~linter.launch.Token` of each
    word, that names it). A script of the repository that does not pass its arguments through is a
    Wrapper whose ``follows`` is False. A bare name (``entry.sh``) is looked up in the container's
    ``PATH`` (``search``, else :data:`DEFAULT_PATH`) through ``mounts`` first (``COPY entry.sh
    /usr/local/bin/``; fresh review of issue 35, D18)."""
    i = script_index(words)
    if i is None or ws is None:
        return None
    name = words[i]
    if "/" not in name and mounts:
        name = _on_path(name, mounts, ws, search) or name
    if not name.startswith("/") and workdir is not HOST:
        if workdir is None:
            return None
        import posixpath

        name = posixpath.normpath(posixpath.join(workdir, name))
    path = _on_host(name, mounts) if name.startswith("/") else folder / name
    if path is None:
        return None
    from linter.boundary import referenced_at

    # a script outside the root is never read: SGL005 at the entrypoint word that names it, as for a
    # compose include (a missing file is no finding: the entrypoint may be a program of the image)
    with referenced_at(tokens[i].span_of() if tokens is not None and i < len(tokens) else None):
        if ws.refuse(path):
            return None
    source = ws.try_read(path, quiet=True)
    if source is None:
        return None
    # where the script is in the container: its name, from the working folder when relative
    inside = name if name.startswith("/") else None

    def resolve(word: str):
        if inside is None:  # a script named relative to the naming file: its folder is on the host
            import posixpath

            got = sourced_path(word, "/.script/x")
            if got is None or not got.startswith("/.script/"):
                return None
            target = path.parent / posixpath.relpath(got, "/.script")
        else:
            got = sourced_path(word, inside, workdir if workdir not in (HOST, None) else None)
            target = _on_host(got, mounts) if got is not None else None
        if target is None or ws.refuse(target, quiet=True):
            return None
        found = ws.try_read(target, quiet=True)
        return (found, None) if found is not None else None

    return wrapper_of(words, i, source, resolve=resolve, unfollowed=True)


def _on_host(path: str, mounts: tuple) -> Path | None:
    """The host file of container path ``path`` through ``(container path, host path)`` mounts."""
    for dst, src in sorted(mounts, key=lambda m: -len(m[0])):
        if path == dst or path.startswith(dst.rstrip("/") + "/"):
            return Path(src) / path[len(dst):].lstrip("/")
    return None


def through(wrapper: Wrapper, words: list[Token], source: SourceFile, problems: list[Problem],
            where: Span | None) -> list[Token]:
    """The command ``wrapper`` runs given ``words`` (:meth:`Wrapper.outcome`; ``[]`` for none or when
    that is not known). When the words after the script hold an SGLang launch that it does not run —
    it receives no command, or its shifts leave a command that is no longer that launch — a
    :class:`~linter.launch.Problem` (SGL001) at ``where`` (the script's word) says so, as it does
    when the wrapper is one the linter does not follow (``follows`` False)."""
    given = list(words[wrapper.taken:])
    if not wrapper.follows:
        from linter.extract.recognized import launches

        if given and launches(given, source):
            problems.append(Problem(
                f"the entrypoint wrapper {wrapper.name or 'script'} does not pass its arguments on in a way the "
                "linter follows (a top-level `exec \"$@\"`, alone or in one branch of an `if` or a `case`, with no "
                "`exit` or `exec COMMAND` before it): the SGLang launch written after it is not checked",
                where or Span(source, 0, 0)))
        return []
    got, why = wrapper.outcome(words)
    if got is None:
        return []
    if got == given or not given:
        return got
    from linter.extract.recognized import launches

    if not launches(given, source) or (got and launches(got, source)):
        return got
    name = wrapper.name or "the entrypoint script"
    if got and wrapper.prefix:
        shown = " ".join(t.raw for t in wrapper.prefix)
        problems.append(Problem(
            f"the entrypoint wrapper {name} runs its arguments with `exec {shown} \"$@\"`, which the linter "
            f"does not follow to a launch: the SGLang launch written after it is not checked",
            where or Span(source, 0, 0)))
        return got
    if got:
        k = len(given) - (len(got) - len(wrapper.extra))
        shown = " ".join(t.raw for t in given[:k])
        why = (f"it shifts away its first {'argument' if k == 1 else f'{k} arguments'} (`{shown}`) and runs "
               f"`{' '.join(t.raw for t in got[:3])} …`, which is not that launch")
    problems.append(Problem(f"the entrypoint wrapper {name} ends in `exec \"$@\"`, but {why}: the SGLang launch "
                            "written after it never starts", where or Span(source, 0, 0)))
    return got


def runs(wrapper: Wrapper, words: list[Token], source: SourceFile, problems: list[Problem],
         where: Span | None) -> list[tuple[Wrapper, list[Token]]]:
    """``(path, the command it runs)`` for each path of ``wrapper`` (:meth:`Wrapper.ways`), by
    :func:`through`; a problem two paths have is said once."""
    out = []
    for way in wrapper.ways():
        mine: list[Problem] = []
        out.append((way, through(way, words, source, mine, where)))
        problems.extend(p for p in mine if all((p.message, p.span) != (q.message, q.span) for q in problems))
    return out
