"""YAML text to a node tree with character positions: the one YAML reader of every YAML format
(compose, Kubernetes and Helm values, AReaL/verl configs, SkyPilot, dstack, Truss, CI workflows).

The extractors need the node tree only (mappings, sequences, scalars with their tags, values and
styles) and where each node starts and ends: fixes are text edits, nothing is re-serialized. So:

* the fast road is libyaml's composer as bundled with PyYAML (``yaml._yaml.CParser``), with the
  YAML 1.2 core-schema resolution ruamel.yaml applies (:data:`_RESOLVERS`: ``yes``/``on`` stay
  strings, ``0755`` is an int as in 1.2, ``<<`` is a merge key), so every ``node.tag`` means what it
  meant when ruamel's round-trip composer read these files;
* the reference road is ruamel.yaml's pure-Python round-trip composer, whose tree is copied into the
  same node classes (:func:`_copy`). It reads a file libyaml refuses (so an invalid file gets
  ruamel's message at ruamel's position, and what libyaml refuses but ruamel reads, such as a
  redefined anchor or a ``%YAML 1.1`` document, reads as before), the files whose positions or
  resolution libyaml would give differently (:func:`_reference_only`), and everything when PyYAML
  was built without libyaml.

Marks are character offsets into the text (``node.start_mark.index``/``end_mark.index``, 0-based
``line``/``column``), equal on both roads (tests compare the two trees on a table of inputs). Known
differences, none in a real deployment file: a node written with its tag before its anchor
(``!t &a x``) starts at the tag on the fast road (at the anchor in ruamel); the line and column of an
end mark at the end of a text without a final line break (only ``index`` is used); an empty value
before an explicit ``?`` key.
"""

from __future__ import annotations

import gc
import re

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from linter import limits

__all__ = ["InvalidYaml", "MappingNode", "Node", "ScalarNode", "SequenceNode", "compose", "reference_compose",
           "release"]


class InvalidYaml(Exception):
    """``text`` is not YAML. ``problem`` is the parser's description (ruamel's wording),
    ``offset`` the character offset of the problem in the text given to :func:`compose` (0 for a
    parser error without a position), or None for an error that is not about a place in the text;
    ``str()`` is ruamel's whole message (context and marks)."""

    def __init__(self, problem: str, offset: int | None, message: str | None = None) -> None:
        super().__init__(problem if message is None else message)
        self.problem = problem
        self.offset = offset


# YAML 1.2 implicit resolution exactly as ruamel.yaml's VersionedResolver for 1.2 (ruamel/yaml/resolver.py):
# (tag, regexp, first characters), tried in this order.
_RESOLVERS = [
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:float", r"""^(?:
         [-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""", "-+0123456789."),
    ("tag:yaml.org,2002:int", r"""^(?:[-+]?0b[0-1_]+
        |[-+]?0o?[0-7_]+
        |[-+]?[0-9_]+
        |[-+]?0x[0-9a-fA-F_]+)$""", "-+0123456789"),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", "<"),
    ("tag:yaml.org,2002:null", r"^(?: ~ |null|Null|NULL | )$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:timestamp", r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
        |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
        (?:[Tt]|[ \t]+)[0-9][0-9]?
        :[0-9][0-9] :[0-9][0-9] (?:\.[0-9]*)?
        (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""", "0123456789"),
    ("tag:yaml.org,2002:value", r"^(?:=)$", "="),
    ("tag:yaml.org,2002:yaml", r"^(?:!|&|\*)$", "!&*"),
]


_BY_FIRST: dict[str, list] = {}
"""The resolvers to try for a plain scalar, by its first character ('' for the empty scalar), as
``(tag, pattern)``; compiled by :func:`_compiled_for` when a scalar first starts with that character."""
for _tag, _pattern, _first in _RESOLVERS:
    for _c in _first:
        _BY_FIRST.setdefault(_c, []).append((_tag, _pattern))
_COMPILED: dict[str, list] = {}


def _compiled_for(first: str) -> list:
    """``(tag, compiled pattern)`` of the resolvers for a plain scalar starting with ``first`` (compiled
    once, on first use: a file has few of these kinds, and start-up is part of every run)."""
    got = _COMPILED[first] = [(tag, re.compile(pattern, re.VERBOSE)) for tag, pattern in _BY_FIRST.get(first, ())]
    return got


class _Resolver12:
    """The resolver libyaml's composer calls: ruamel's YAML 1.2 implicit tags (instead of PyYAML's
    1.1 ones), no path resolvers, and a count of nodes (past ``MAX_YAML_TREE_NODES`` it stops the
    parse: each node costs about 400 bytes)."""

    def __init__(self) -> None:
        self.nodes = 0
        self.empty = False

    def resolve(self, kind, value: str, implicit) -> str:
        if kind is ScalarNode:
            if implicit[0]:
                if not value:
                    self.empty = True  # a plain empty scalar: its marks need moving (_empty_scalar_marks)
                first = value[:1]
                resolvers = _COMPILED.get(first)
                if resolvers is None:
                    resolvers = _compiled_for(first)
                for tag, regexp in resolvers:
                    if regexp.match(value):
                        return tag
            return "tag:yaml.org,2002:str"
        return "tag:yaml.org,2002:seq" if kind is SequenceNode else "tag:yaml.org,2002:map"

    def descend_resolver(self, parent, index) -> None:
        self.nodes += 1
        if self.nodes > limits.MAX_YAML_TREE_NODES:
            raise limits.LimitExceeded("MAX_YAML_TREE_NODES", "the number of nodes of a YAML document")

    def ascend_resolver(self) -> None:
        pass


# Text libyaml reads, but not as ruamel does: a `%YAML` directive (ruamel resolves a 1.1 document
# with 1.1 rules), a byte-order mark inside the text (libyaml does not count it), line breaks that
# only YAML 1.1 has (NEL, LS, PS: libyaml counts lines and columns differently), tabs (ruamel refuses
# some that libyaml accepts, such as one after a plain value), a `#` right after a block scalar's
# header. Rare, so read by the reference road.
_YAML_DIRECTIVE = "(?m)^%YAML"


def _reference_only(text: str) -> bool:
    """True for text that only the reference road reads as ruamel did (``in`` first: a regex scan of
    5 MB costs 0.1 s)."""
    if any(c in text for c in "\t\ufeff\x85\u2028\u2029"):
        return True
    i = text.find("#")
    while i >= 0:  # `>#c`: libyaml takes a comment right after a block scalar's header, ruamel refuses it
        if i > 0 and text[i - 1] in "|>-+123456789":
            return True
        i = text.find("#", i + 1)
    return "%YAML" in text and re.search(_YAML_DIRECTIVE, text) is not None


_FREEZE_NODES = 50_000
"""A tree of more nodes is kept out of the cyclic garbage collector's scans (:func:`gc.freeze`)."""
_frozen = [False]


def release() -> None:
    """Give the garbage collector back what :func:`compose` froze with a large tree (a cycle among
    frozen objects, such as a recursive alias, is collected only then). Called when a file's walk
    ends (``linter.extract.yamltree.walk``) and by the next :func:`compose`."""
    if _frozen[0]:
        _frozen[0] = False
        gc.unfreeze()

_loader_class: list = []


def _c_loader():
    """libyaml's composer class with the 1.2 resolver, or None when PyYAML was built without it."""
    if not _loader_class:
        try:
            from yaml._yaml import CParser
        except ImportError:  # PyYAML without libyaml: the reference road reads every file
            _loader_class.append(None)
        else:
            class _Loader(CParser, _Resolver12):
                def __init__(self, text: str) -> None:
                    CParser.__init__(self, text)
                    _Resolver12.__init__(self)

            _loader_class.append(_Loader)
    return _loader_class[0]


def compose(text: str) -> Node | None:
    """The node tree of the single YAML document in ``text`` (None when it holds none).

    Raises :class:`InvalidYaml` for invalid YAML (and for more than one document), with ruamel's
    message and position, and :class:`linter.limits.LimitExceeded` past ``MAX_YAML_TREE_NODES``
    nodes, or for a text of more than ``MAX_PARSED_CHARS`` characters that only ruamel's reader would
    read. A document nesting past libyaml's 1,000 levels is read by ruamel, as before (flow nesting
    is bounded by the caller first: ``linter.extract.yamltree.load_tree``)."""
    from yaml.error import YAMLError

    release()
    loader = _c_loader()
    if loader is not None and not _reference_only(text):
        parser = loader(text)
        # The cyclic garbage collector would scan the growing tree again and again (60% of the time on
        # a 5 MB file); the composer makes no cycles but recursive aliases, which stay reachable.
        collecting = gc.isenabled()
        gc.disable()
        try:
            root = parser.get_single_node()
        except YAMLError:
            pass  # ruamel reads it, or says why not in its own words
        else:
            if root is not None and parser.empty:
                _empty_scalar_marks(text, root)
            if parser.nodes > _FREEZE_NODES:
                # The extractors' garbage would make the collector rescan the tree (a second on 280,000
                # nodes): it moves to the generation never scanned (refcounts still free it) until
                # :func:`release` or the next call.
                gc.freeze()
                _frozen[0] = True
            return root
        finally:
            parser.dispose()
            if collecting:
                gc.enable()
    if len(text) > limits.MAX_PARSED_CHARS:  # ruamel's pure-Python reader: 2 µs and 1 KB a character
        raise limits.LimitExceeded("MAX_PARSED_CHARS", f"a YAML file of {len(text):,} characters that libyaml "
                                   "cannot read")
    return reference_compose(text)


def reference_compose(text: str) -> Node | None:
    """The node tree of ``text`` as ruamel.yaml's round-trip composer reads it, in this module's node
    classes (the reference road of :func:`compose`; the tests compare the two). Raises
    :class:`InvalidYaml`; ruamel's warnings (a redefined anchor, which YAML 1.2 and compose accept)
    never reach stderr."""
    import warnings

    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            root = YAML(typ="rt").compose(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        offset = min(mark.index, len(text)) if mark is not None else 0
        raise InvalidYaml((exc.problem or exc.context or "invalid YAML").strip(), offset, str(exc)) from None
    except YAMLError as exc:
        raise InvalidYaml(str(exc), None) from None
    return None if root is None else _copy(root)


def _mark(mark) -> Mark:
    return Mark(None, mark.index, mark.line, mark.column, None, None)


def _copy(root) -> Node:
    """``root`` (a ruamel node tree) in PyYAML's node classes, aliases still shared (and cycles
    kept); a folded scalar loses the BEL characters ruamel puts at its fold points."""
    from ruamel.yaml.nodes import MappingNode as RMap
    from ruamel.yaml.nodes import SequenceNode as RSeq

    done: dict[int, Node] = {}

    def copy(node) -> Node:
        got = done.get(id(node))
        if got is not None:
            return got
        start, end = _mark(node.start_mark), _mark(node.end_mark)
        if isinstance(node, (RMap, RSeq)):
            cls = MappingNode if isinstance(node, RMap) else SequenceNode
            out = done[id(node)] = cls(str(node.tag), [], start, end, flow_style=node.flow_style)
            for item in node.value:
                out.value.append(tuple(copy(x) for x in item) if isinstance(item, tuple) else copy(item))
            return out
        value = node.value
        if node.style == ">":
            value = value.replace("\a", "")
        out = done[id(node)] = ScalarNode(str(node.tag), value, start, end, style=node.style or "")
        return out

    return copy(root)



def _empty_scalar_marks(text: str, root: Node) -> None:
    """Give libyaml's empty plain scalars (``key:`` with no value) ruamel's marks: in a block mapping
    ruamel puts them at the next token (after blanks and comment lines; right after the ``:`` when a
    comment follows it on its line), in a flow mapping right after the ``:``; libyaml does the other
    way round. Each is an empty span, so only its place matters."""
    stack = [(root, False)]
    seen: set[int] = set()
    while stack:
        node, flow = stack.pop()
        value = node.value
        if value.__class__ is str:
            if not value and node.style == "" and node.start_mark.index == node.end_mark.index:
                at = node.start_mark.index
                moved = _after_blanks(text, at) if not flow and text[at - 1:at] == ":" else \
                    _after_colon(text, at) if flow else at
                if moved != at:
                    node.start_mark = node.end_mark = _mark_at(text, moved, at, node.start_mark)
                elif at == len(text) and text[-1:] not in ("\n", "\r"):  # libyaml counts a line break there
                    node.start_mark = node.end_mark = _mark_at(text, at, 0, Mark(None, 0, 0, 0, None, None))
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        inner = bool(node.flow_style)
        for item in value:
            if item.__class__ is tuple:
                stack.append((item[0], inner))
                stack.append((item[1], inner))
            else:
                stack.append((item, inner))


# compiled on first use (by re's cache): most files have no empty value
_BLANKS = r"(?m)(?:[ \t\r\n]|(?:(?<=[ \t\r\n])|^)#[^\r\n]*)*"
_COMMENT_TAIL = r"(?:^|[ \t])#[^\r\n]*$"


def _after_blanks(text: str, at: int) -> int:
    """The offset of the first character at or after ``at`` that is not a blank, line break or comment,
    or ``at`` when a comment follows on the same line and a line break after it (ruamel keeps the
    place then)."""
    p = at
    while p < len(text) and text[p] in " \t":
        p += 1
    if text[p:p + 1] != "#":
        return re.compile(_BLANKS).match(text, at).end()
    last_line = text.find("\n", p) < 0 and text.find("\r", p) < 0
    return len(text) if last_line else at  # ruamel's quirk: a comment that ends the text is skipped


def _after_colon(text: str, at: int) -> int:
    """Just after the ``:`` that blanks, line breaks and comments before ``at`` separate from it, or
    ``at`` when the character there is something else (``{a}``: a key without a value)."""
    p = at
    while True:
        while p > 0 and text[p - 1] in " \t\r\n":
            p -= 1
        line = max(text.rfind("\n", 0, p), text.rfind("\r", 0, p)) + 1
        tail = re.compile(_COMMENT_TAIL).search(text, line, p)
        if tail is None or tail.end() != p:
            break
        p = tail.start()
    return p if text[p - 1:p] == ":" else at


def _mark_at(text: str, index: int, known: int, mark) -> Mark:
    """The mark of ``index``, from the ``mark`` of offset ``known`` (lines counted in between)."""
    lo, hi = min(index, known), max(index, known)
    between = text[lo:hi]
    breaks = between.count("\n") + between.count("\r") - between.count("\r\n")
    line = mark.line + (breaks if index > known else -breaks)
    if breaks == 0 and index > known:
        column = mark.column + (index - known)
    else:
        start = max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1
        column = index - start
    return Mark(None, index, line, column, None, None)
