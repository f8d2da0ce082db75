"""Command lines a shell function prints (issue 35): ``build() { echo python -m sglang.launch_server
…; }`` used as ``$(build) --port 1``, ``CMD=$(build); $CMD`` or ``eval "$(build)"``. The output of
``$(build)`` is known when the function's body ends in one ``echo`` (no ``-e``) or ``printf '%s '``
of words that are all known where it is called (its arguments are its ``$1``, ``"$@"``); anything
else stays unknown. The statements before it are walked (silently, on a copy of the caller's variables), so a
local variable set in an ``if`` gives the printed line per path, the caller's command being run once
per path. Nothing is run: the words are expanded as the walker expands any command's.
"""

from __future__ import annotations

from linter import limits
from linter.extract.shell.env import ARGV, Env
from linter.extract.shell.expand import Expander
from linter.launch import MStr

_PRINTF_FORMATS = frozenset({"%s ", "%s\\n", "%s\n"})
"""``printf`` formats that print each word followed by a blank or a line break."""


def _statements(node) -> list:
    return [c for c in node.named_children if c.type != "comment"]


def _known_words(expand: Expander, nodes: list, env: Env) -> list[MStr] | None:
    """The words of ``nodes`` (argument nodes), each fully known; None otherwise."""
    out: list[MStr] = []
    for n in nodes:
        for token in expand.words([n], env):
            if token.value is None:
                return None
            out.append(token.text)
    return out


def printed(expand: Expander, functions: dict, node, env: Env, before=None) -> MStr | None:
    """What the command substitution ``node`` prints, when it is a call of a function
    of ``functions`` (name -> :class:`~.walker.Fn`) of the same document whose body prints a plain
    command line: the words joined by blanks, each with its origin in the function's body (so a fix
    edits the ``echo`` line); None otherwise, and past ``limits.MAX_PRINTED_DEPTH`` functions read
    inside one another (a function printing ``$(itself)``)."""
    if expand.printing >= limits.MAX_PRINTED_DEPTH:
        return None
    expand.printing += 1
    try:
        return _printed(expand, functions, node, env, before)
    finally:
        expand.printing -= 1


def _printed(expand: Expander, functions: dict, node, env: Env, before) -> MStr | None:
    inner = _statements(node)
    if len(inner) != 1 or inner[0].type != "command":
        return None
    name = inner[0].child_by_field_name("name")
    fn = functions.get(expand.doc.node_text(name)) if name is not None else None
    if fn is None or fn.doc is not expand.doc:
        return None
    given = []  # the call's words: the function's positional parameters ($1, "$@")
    for arg in inner[0].children_by_field_name("argument"):
        given.extend(expand.words([arg], env))
    env = env.copy()
    env.set(ARGV, given)
    body = _statements(fn.body)
    if not body or body[-1].type != "command" or (len(body) > 1 and before is None):
        return None
    if len(body) > 1:  # the statements before the one that prints set its variables (`before`)
        env = before(body[:-1], env)
    cmd = body[-1]
    head = cmd.child_by_field_name("name")
    args = cmd.children_by_field_name("argument")
    program = expand.doc.node_text(head) if head is not None else ""
    if program == "echo":
        while args and expand.doc.node_text(args[0]) in ("-n", "-E"):
            args = args[1:]
        if args and expand.doc.node_text(args[0]).startswith("-"):
            return None  # -e and the like: escapes interpreted
    elif program == "printf":
        fmt = _known_words(expand, args[:1], env)
        if fmt is None or len(fmt) != 1 or fmt[0].text not in _PRINTF_FORMATS:
            return None
        args = args[1:]
    else:
        return None
    words = _known_words(expand, args, env)
    if not words or any("\\" in w.text for w in words):
        return None
    parts: list[MStr] = []
    for w in words:
        if parts:
            parts.append(MStr.plain(" "))
        parts.append(w)
    return MStr.join(parts)
