"""Tests of one variable the walker links (fresh review rev38 e4, e7): ``[ -n "$DET" ]``, ``[ -z "$DET" ]``,
``[ "$DET" ]``, ``test -n "$DET"`` and ``${DET:+…}`` ask one thing (``DET`` set and not empty), so they
are one decision, each path taking the same branch of all of them; ``[ "$MODE" = det ]`` and ``[
"$MODE" = fast ]`` are two decisions no path takes both "succeeds" branches of. A guard that ends the
script (``[ -n "$DET" ] && exit 1``) leaves the branch it ends *gone* (:attr:`.env.Env.gone`): a later
test of the same subject is settled (:func:`settled`).

A decision key here is ``("sh-test", doc id, NAME, "set")`` (branch 0: ``NAME`` set and not empty) or
``("sh-test", doc id, NAME, "=", TEXT)`` (branch 0: ``NAME`` equals ``TEXT``). A guard's gone branch is
forgotten when the variable is assigned after it (``DET=$(cat det.txt)``); two tests whose values per
path meet in one command are read as one decision even so, as tests written alike are (the walker's
``_if``): an approximation taken knowingly.
"""

from __future__ import annotations

import re

_SUBJECT = re.compile(r'(")?\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})(?(1)"|)\Z')
"""A word that is one variable and nothing else: ``$X``, ``"$X"``, ``${X}``, ``"${X}"``."""
_CONSTANT = re.compile(r"""[A-Za-z0-9_.,:/@%+-]*\Z|"[A-Za-z0-9_.,:/@%+ -]*"\Z|'[^']*'\Z""")
"""A word whose text is known as written: no expansion, no pattern character, one quoting at most."""

TAG = "sh-test"


def test_key(doc, cond: list) -> tuple[tuple, bool] | None:
    """``(decision key, flipped)`` of the condition ``cond`` (the command nodes of an ``if`` test or of
    the left of ``&&``/``||``) when it is one of the linked forms, ``flipped`` when the test succeeding
    is the key's branch 1 (``-z``, ``!=``); None otherwise."""
    if len(cond) != 1:
        return None
    node = cond[0]
    # ``[ -n $X ]`` with X empty is ``[ -n ]``, which succeeds: in ``[``/``test`` only a quoted variable is
    # the subject (``[[ ]]`` does not split words)
    quoted = node.type == "command" or (node.children and node.children[0].type == "[")
    if node.type == "test_command":
        kids = node.named_children
        if len(kids) != 1:
            return None
        expr = kids[0]
        if expr.type == "unary_expression":
            op = expr.child_by_field_name("operator")
            words = [doc.node_text(op) if op is not None else "", doc.node_text(expr.named_children[-1])]
        elif expr.type == "binary_expression":
            parts = [expr.child_by_field_name(f) for f in ("left", "operator", "right")]
            if any(p is None for p in parts):
                return None
            words = [doc.node_text(p) for p in parts]
        else:
            words = [doc.node_text(expr)]
    elif node.type == "command":
        name = node.child_by_field_name("name")
        if name is None or doc.node_text(name) != "test":
            return None
        words = [doc.node_text(a) for a in node.children_by_field_name("argument")]
    else:
        return None
    return _words_key(id(doc), words, bool(quoted))


def _words_key(doc_id: int, words: list[str], quoted: bool) -> tuple[tuple, bool] | None:
    if len(words) == 1:
        words = ["-n", words[0]]
    if len(words) == 2 and words[0] in ("-n", "-z"):
        name = _subject(words[1], quoted)
        return ((TAG, doc_id, name, "set"), words[0] == "-z") if name else None
    if len(words) != 3 or words[1] not in ("=", "==", "!="):
        return None
    left, op, right = words
    if _subject(left, quoted) is None:
        left, right = right, left
    name = _subject(left, quoted)
    if name is None or not _CONSTANT.match(right):
        return None
    text = right[1:-1] if right[:1] in ("'", '"') else right
    return (TAG, doc_id, name, "=", text), op == "!="


def _subject(word: str, quoted: bool) -> str | None:
    """The variable a word is (``quoted``: only in double quotes), else None."""
    m = _SUBJECT.match(word)
    return (m.group(2) or m.group(3)) if m and (m.group(1) or not quoted) else None


def is_linked(key) -> bool:
    """``key`` is a decision key of a test of a variable (see the module's text)."""
    return type(key) is tuple and len(key) >= 4 and key[0] == TAG


def set_key(doc_id: int, name: str) -> tuple:
    """The key of ``NAME`` set and not empty (``${NAME:+…}``: branch 0 gives the word)."""
    return (TAG, doc_id, name, "set")


def possible(taken) -> bool:
    """Whether one run can take the branches ``taken`` (``(decision key, branch)`` pairs) of the linked
    tests in it: not both branches of one test, not two different values of one variable, not a value
    and its absence, not ``NAME`` empty and unequal to "" (other keys are not looked at). Each of these
    contradictions is between two of the pairs: a set whose every two pairs are possible is possible."""
    subjects: dict = {}  # (doc id, NAME) -> [the value it equals, values it does not, set and not empty]
    branches: dict = {}
    for key, branch in taken:
        if not is_linked(key):
            continue
        if branches.setdefault(key, branch) != branch:
            return False
        got = subjects.get(key[1:3])
        if got is None:
            got = subjects[key[1:3]] = [None, set(), None]
        if key[3] == "set":
            got[2] = branch == 0
        elif branch == 1:
            got[1].add(key[4])
        elif got[0] is None:
            got[0] = key[4]
        elif got[0] != key[4]:
            return False
        equal, unequal, filled = got
        if equal is not None and (equal in unequal or (filled is not None and filled != (equal != ""))):
            return False
        if filled is False and "" in unequal:
            return False
    return True


def extends(conds: tuple) -> bool:
    """Whether a run can go along ``conds`` (``(key, branch, label)`` each) whose conditions before the
    last one it can go along: only the last one's variable is looked at (:func:`possible`)."""
    key = conds[-1][0] if conds else None
    if not is_linked(key):
        return True
    return possible([(k, b) for k, b, _ in conds if type(k) is tuple and k[:3] == key[:3]])


def facts(gone: frozenset) -> list:
    """The ``(key, branch)`` pairs every path takes of the linked tests, given the branches ``gone``."""
    return [(k, 1 - b) for k, b in gone if is_linked(k)]


def settled(gone: frozenset, key) -> int | None:
    """The branch of the two-way decision ``key`` every path going on takes, given the branches
    ``gone`` (``(key, branch)`` pairs a guard ended the script on); None when both are still open."""
    if not is_linked(key):
        return None
    if (key, 0) in gone:
        return 1
    if (key, 1) in gone:
        return 0
    known = [(k, b) for k, b in facts(gone) if k[1:3] == key[1:3]]
    if not known:
        return None
    for branch in (0, 1):
        if not possible(known + [(key, branch)]):
            return 1 - branch
    return None
