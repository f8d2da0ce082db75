"""Whether a ``for`` loop's body carries anything from one pass to the next (issue 35).

A body that carries nothing — every variable it reads that it also sets is set, unconditionally and
from values that are not its own, before the read — does the same on two passes with the same loop
word: a loop over ``fa3 fa3 … fa4`` is a loop over ``fa3 fa4`` (:func:`distinct_words`). Anything the
walker cannot follow as plainly (``shift``, ``cd``, ``source``, ``eval``, ``let``, ``((i++))``, a
``+=``, an indexed element, a variable set by a builtin or a function and read before it is set
again) counts as carrying: the loop's passes stay as they are.
"""

from __future__ import annotations

from linter.extract.shell.document import Doc
from linter.extract.shell.env import NAME

_CARRYING_COMMANDS = frozenset({"shift", "set", "cd", "pushd", "popd", "source", ".", "eval", "let"})
"""Builtins whose effect depends on what the passes before did (positional parameters, the folder,
a sourced file's assignments, text run as code, arithmetic on a variable)."""
_NAMING_BUILTINS = frozenset({"read", "mapfile", "readarray", "getopts", "printf", "unset", "export",
                              "readonly", "declare", "typeset", "local"})
"""Builtins whose plain NAME arguments they set (or unset)."""
_ARITH_ASSIGN = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "++", "--"})
_EXPANSION_ASSIGN = frozenset({"=", ":="})


def carries_state(body, loop_variable: str, doc: Doc, functions: dict) -> bool:
    """Whether a pass of the loop ``body`` (a ``do_group`` node) may depend on the passes before it.

    ``functions`` maps the file's function names to objects with an ``assigned`` set (the variables a
    call sets, :class:`~linter.extract.shell.walker.Fn`). Conservative: True whenever unsure."""
    assigned: set[str] = set()
    reads_of: list[tuple[set[str], set[str]]] = []  # per top-level statement: (reads, set before later ones)
    for statement in body.named_children:
        if statement.type == "comment":
            continue
        reads: set[str] = set()
        if _scan(statement, doc, functions, assigned, reads):
            return True
        reads_of.append((reads, _plainly_set(statement, doc)))
    defined = {loop_variable}
    for reads, sets in reads_of:
        if (reads & assigned) - defined:
            return True
        defined |= sets
    return False


def _scan(node, doc: Doc, functions: dict, assigned: set[str], reads: set[str]) -> bool:
    """Add what ``node`` sets to ``assigned`` and what it reads to ``reads``; True when it holds
    something that carries state on its own."""
    scan = _Scan(doc, functions, assigned)
    stack = [node]
    while stack:
        n = stack.pop()
        handler = _HANDLERS.get(n.type)
        more = handler(scan, n, reads) if handler is not None else n.named_children
        if more is None:
            return True
        stack.extend(more)
    return False


class _Scan:
    """One scan of :func:`_scan`: its handlers return the children still to scan, or None when the
    node carries state on its own."""

    def __init__(self, doc: Doc, functions: dict, assigned: set[str]) -> None:
        self.doc = doc
        self.functions = functions
        self.assigned = assigned

    def assignment(self, n, reads: set[str]) -> list | None:
        name = n.child_by_field_name("name")
        op = next((c.type for c in n.children if not c.is_named), "=")
        if name is None or name.type != "variable_name" or op != "=":
            return None  # X+=…, A[i]=… (each reads the old value)
        self.assigned.add(self.doc.node_text(name))
        return [c for c in n.named_children if c != name]

    def declaration(self, n, reads: set[str]) -> list:
        """``local X``, ``export X``, ``unset X``: names, not reads."""
        self.assigned.update(self.doc.node_text(c) for c in n.named_children if c.type == "variable_name")
        return [c for c in n.named_children if c.type != "variable_name"]

    def loop(self, n, reads: set[str]) -> list | None:
        variable = n.child_by_field_name("variable")
        if variable is not None:
            self.assigned.add(self.doc.node_text(variable))
        inner: set[str] = set()  # the loop sets its variable before each pass reads it
        for c in n.named_children:
            if c != variable and _scan(c, self.doc, self.functions, self.assigned, inner):
                return None
        reads |= inner - {self.doc.node_text(variable)} if variable is not None else inner
        return []

    def carries(self, n, reads: set[str]) -> None:
        """``for ((…))``, a function defined in the body: not followed."""
        return None

    def arithmetic(self, n, reads: set[str]) -> list | None:
        """``((i++))``, ``$((i = i + 1))``: assigns a variable from itself."""
        if n.type == "compound_statement" and not (n.children and n.children[0].type == "(("):
            return n.named_children
        if n.type != "compound_statement" and not any(not c.is_named and c.type in _ARITH_ASSIGN
                                                      for c in n.children):
            return n.named_children
        return None

    def expansion(self, n, reads: set[str]) -> list | None:
        """``${X:=d}`` sets X when empty: only on the first pass."""
        if any(not c.is_named and c.type in _EXPANSION_ASSIGN for c in n.children):
            return None
        return n.named_children

    def command(self, n, reads: set[str]) -> list | None:
        name = n.child_by_field_name("name")
        head = self.doc.node_text(name) if name is not None else ""
        if head in _CARRYING_COMMANDS:
            return None
        if head in _NAMING_BUILTINS:
            for arg in n.named_children[1:]:
                word = self.doc.node_text(arg).split("=", 1)[0]
                if NAME.fullmatch(word):
                    self.assigned.add(word)
        fn = self.functions.get(head)
        if fn is not None:
            self.assigned |= fn.assigned
        return n.named_children

    def variable(self, n, reads: set[str]) -> list:
        reads.add(self.doc.node_text(n))
        return n.named_children


_HANDLERS = {
    "variable_assignment": _Scan.assignment, "declaration_command": _Scan.declaration,
    "unset_command": _Scan.declaration, "for_statement": _Scan.loop, "select_statement": _Scan.loop,
    "c_style_for_statement": _Scan.carries, "function_definition": _Scan.carries,
    "compound_statement": _Scan.arithmetic, "postfix_expression": _Scan.arithmetic,
    "unary_expression": _Scan.arithmetic, "binary_expression": _Scan.arithmetic,
    "expansion": _Scan.expansion, "command": _Scan.command, "variable_name": _Scan.variable,
}
"""Node type → what :func:`_scan` does with it (any other: its children are scanned)."""


def _plainly_set(statement, doc: Doc) -> set[str]:
    """Variables a top-level statement sets whatever came before: ``X=…`` (alone or after
    ``export``/``declare``; not ``local X`` alone, which keeps the value it had)."""
    nodes = [statement] if statement.type == "variable_assignment" else \
        statement.named_children if statement.type in ("variable_assignments", "declaration_command") else []
    names = set()
    for n in nodes:
        if n.type == "variable_assignment":
            name = n.child_by_field_name("name")
            if name is not None and name.type == "variable_name":
                names.add(doc.node_text(name))
    return names


def distinct_words(words: list) -> list:
    """The loop words with repeated values dropped, in the order of their last pass (so the variable
    holds the last word's value after the loop), each the token of its first occurrence (where a
    finding on it is reported)."""
    first: dict = {}
    last: dict = {}
    for k, w in enumerate(words):
        first.setdefault(w.value, w)
        last[w.value] = k
    return [first[v] for v in sorted(last, key=last.__getitem__)]
