"""Conditions the script decides (issue 35): ``DET=1`` then ``if [ "$DET" = 1 ]`` takes one branch,
not two paths. Only a test whose operands are known where it stands is decided: ``[ A = B ]``,
``[[ A == B ]]`` (a pattern on the right with ``*``, ``?`` or ``[`` is not decided), ``!=``, the
integer comparisons ``-eq`` … ``-ge``, ``-n A`` and ``-z A``, as ``[``, ``[[`` or ``test``. Nothing
is run: the words are expanded with the walker's variables, as for any command. In an ``if … elif …``
chain a branch whose test is decided false is dropped, and one decided true ends the chain (the
walker's ``_if``); only the undecided tests make paths.
"""

from __future__ import annotations

import fnmatch
import operator

from linter.extract.shell.env import Env
from linter.extract.shell.expand import Expander, scalar

_INTEGER = {"-eq": operator.eq, "-ne": operator.ne, "-lt": operator.lt, "-gt": operator.gt,
            "-le": operator.le, "-ge": operator.ge}
_GLOB = frozenset("*?[")


def decide(expand: Expander, cond: list, env: Env) -> bool | None:
    """Whether the condition ``cond`` (the command nodes of an ``if``/``elif`` test) succeeds, when
    its words are known in ``env``; None when it is not decided here."""
    if len(cond) != 1:
        return None
    node = cond[0]
    if node.type == "test_command" and len(node.named_children) == 1:
        return _expression(expand, node.named_children[0], env)
    if node.type == "command":
        name = node.child_by_field_name("name")
        program = expand.doc.node_text(name) if name is not None else None
        if program in ("true", ":", "false") and not node.children_by_field_name("argument"):
            return program != "false"  # bash's builtins: always succeed, always fail
        if program != "test":
            return None
        words = [_word(expand, a, env) for a in node.children_by_field_name("argument")]
        if any(w is None for w in words):
            return None
        return _words(words)
    return None


def case_items(doc, node) -> list[tuple[list[str], list]]:
    """``(patterns, statements)`` of each item of the ``case`` statement ``node``: the patterns' text as
    written, the item's named nodes after them (comments too)."""
    out = []
    for item in node.named_children:
        if item.type == "case_item":
            fields = [(item.field_name_for_child(i), c) for i, c in enumerate(item.children)]
            out.append(([doc.node_text(c) for f, c in fields if f == "value"],
                        [c for f, c in fields if c.is_named and f != "value"]))
    return out


def case_label(subject: str, patterns: list[str]) -> str:
    """The condition of a ``case`` item in words: "`"$MODE"` matches `det|x`" (``subject``: the word
    of ``case``, blanks folded)."""
    return f"`{subject}` matches `{'|'.join(patterns)}`"


def no_case_label(subject: str) -> str:
    """The condition of the path on which no item of a ``case`` with no ``*`` item matches."""
    return f"no pattern of `case {subject}` matches"


def case_branch(subject: str, patterns: list[list[str]]) -> int | None:
    """The first ``case`` item whose patterns (their text, quotes removed) match the known
    ``subject``; ``len(patterns)`` when none does; None when a pattern is not plain enough to say."""
    for k, pats in enumerate(patterns):
        for p in pats:
            if any(c in p for c in "\\$`'\"(){}"):
                return None
            if fnmatch.fnmatchcase(subject, p):
                return k
    return len(patterns)


def _word(expand: Expander, node, env: Env) -> str | None:
    """The text of a word, when every character of it is known."""
    m = scalar(expand.segs(node, env), None)
    return m.text if m.known else None


def _expression(expand: Expander, node, env: Env) -> bool | None:
    if node.type == "unary_expression":
        op = node.child_by_field_name("operator")
        operand = node.named_children[-1] if node.named_children else None
        if op is None or operand is None or operand == op:
            return None
        return _words([expand.doc.node_text(op), _word(expand, operand, env)])
    if node.type != "binary_expression":
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        return None
    op = node.child_by_field_name("operator")
    if op is None:
        return None
    op_text = expand.doc.node_text(op)
    if any(n.type not in ("string", "raw_string") and _GLOB & set(expand.doc.node_text(n)) for n in (left, right)):
        return None  # a pattern of ``[[ ]]``, a file name glob of ``[ ]``
    return _words([_word(expand, left, env), op_text, _word(expand, right, env)])


def _words(words: list) -> bool | None:
    """``test``'s verdict on its words (None where a word is not known or the form is not one of
    the plain ones)."""
    if any(w is None for w in words):
        return None
    if len(words) == 2 and words[0] in ("-n", "-z"):
        return bool(words[1]) == (words[0] == "-n")
    if len(words) != 3:
        return None
    a, op, b = words
    if op in ("=", "=="):
        return a == b
    if op == "!=":
        return a != b
    if op in _INTEGER:
        try:
            return _INTEGER[op](int(a), int(b))
        except ValueError:
            return None
    return None
