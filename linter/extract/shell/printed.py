"""Command lines a shell function prints (issue 35): ``build() { echo python -m sglang.launch_server
…; }`` used as ``$(build) --port 1``, ``CMD=$(build); $CMD`` or ``eval "$(build)"``. The output of
``$(build)`` is known when the function's body ends in one ``echo`` (no ``-e``) or ``printf '%s '``
of words that are all known where it is called (its arguments are its ``$1``, ``"$@"``). A body that
prints in several such commands, in ``if``s too, is walked for what it prints (:func:`_collected`):
the lines joined by their line breaks, per path (fresh review of issue 35, d19). Anything else stays
unknown. The statements before it are walked (silently, on a copy of the caller's variables), so a
local variable set in an ``if`` gives the printed line per path, the caller's command being run once
per path. Nothing is run: the words are expanded as the walker expands any command's.
"""

from __future__ import annotations

import re

from linter import limits
from linter.extract.shell.env import ARGV, Env
from linter.extract.shell.expand import Expander
from linter.launch import MStr

_ECHO_OPTION = re.compile(r"-[neE]+")
"""A word bash's ``echo`` takes as its options (bash manual, "Bash Builtin Commands", echo)."""
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
    if not body:
        return None
    if len(body) > 1 and any(_prints(expand, st) for st in body[:-1]):
        return _collected(body, env, before)
    if body[-1].type != "command" or (len(body) > 1 and before is None):
        return None
    if len(body) > 1:  # the statements before the one that prints set its variables (`before`)
        env = before(body[:-1], env)
    got = line(expand, body[-1], env)
    return got[0] if got is not None and got[0] is not None and got[0].text else None


def line(expand: Expander, cmd, env: Env) -> tuple[MStr | None, str] | None:
    """What the simple command ``cmd`` prints when it is an ``echo`` (no ``-e``) or a ``printf '%s '``
    of known words without a backslash: ``(the words joined by blanks — None when not known —, what
    ends it: "\n" for ``echo``, "" for ``echo -n`` and ``printf``)``; None when it is not one of those."""
    head = cmd.child_by_field_name("name") if cmd.type == "command" else None
    args = cmd.children_by_field_name("argument") if head is not None else []
    program = expand.doc.node_text(head) if head is not None else ""
    end = "\n"
    if program == "echo":
        # bash's echo takes -n, -e, -E (and their combinations) as options, any other word as text
        while args and _ECHO_OPTION.fullmatch(expand.doc.node_text(args[0])):
            if "e" in expand.doc.node_text(args[0]):
                return None, end  # escapes interpreted
            end = "" if "n" in expand.doc.node_text(args[0]) else end
            args = args[1:]
    elif program == "printf":
        fmt = _known_words(expand, args[:1], env)
        if fmt is None or len(fmt) != 1 or fmt[0].text not in _PRINTF_FORMATS:
            return None, ""
        args, end = args[1:], ""
    else:
        return None
    words = _known_words(expand, args, env)
    if words is None or any("\\" in w.text for w in words):
        return None, end
    parts: list[MStr] = []
    for w in words:
        if parts:
            parts.append(MStr.plain(" "))
        parts.append(w)
    return MStr.join(parts) if parts else MStr.plain(""), end


OUTPUT = "\x00stdout"
"""The variable in which a function's body, walked for what it prints (:func:`_collected`), collects
the lines of its ``echo``/``printf`` commands, so that a line printed in an ``if`` is there per path."""


def _prints(expand: Expander, node) -> bool:
    """``node`` holds an ``echo`` or ``printf`` command (not in a function defined there nor a ``$(…)``)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in ("function_definition", "command_substitution"):
            continue
        if n.type == "command":
            head = n.child_by_field_name("name")
            if head is not None and expand.doc.node_text(head) in ("echo", "printf"):
                return True
        stack.extend(n.named_children)
    return False


def _collected(body: list, env: Env, before) -> MStr | None:
    """What a function's body prints in several ``echo``/``printf`` commands (fresh review of issue 35,
    d19: ``echo "python -m sglang.launch_server …"; if [ -n "$V" ]; then echo " --log-level debug";
    fi``): the body walked silently (``before``) collecting each line in :data:`OUTPUT`, on the path of
    the caller's run, the lines joined by their line breaks (bash splits ``$CMD`` on them; trailing ones
    are dropped, as ``$(…)`` drops them); None when a line is not known or there is no walker."""
    from linter.extract.shell.env import ABSENT

    if before is None:
        return None
    env = env.copy()
    env.put(OUTPUT, ABSENT)  # not the output of a body being collected around this call
    out = before(body, env, capture=True).get(OUTPUT)
    if not isinstance(out, MStr):
        return None
    text = out.text.rstrip("\n")
    return out[:len(text)] if text.strip() else None


def capture(expand: Expander, cmd, env: Env) -> None:
    """Add what the command ``cmd`` prints (:func:`line`) to :data:`OUTPUT` in ``env``: unknown from
    then on when it is not known."""
    from linter.extract.shell.env import ABSENT, UNKNOWN_V

    got = line(expand, cmd, env)
    if got is None:
        return
    text, end = got
    before = env.get(OUTPUT)
    if text is None or not (before is ABSENT or isinstance(before, MStr)):
        env.put(OUTPUT, UNKNOWN_V)
        return
    parts = ([before] if before is not ABSENT else []) + [text] + ([MStr.plain(end)] if end else [])
    env.put(OUTPUT, MStr.join(parts))
