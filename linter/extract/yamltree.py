"""The one YAML layer every YAML format reads through (compose, Kubernetes, Helm, CI files, cloud
tasks, trainer and framework configs, SGLang's ``--config``): the node tree of a file
(:func:`load_tree`, bounded by the limits of :mod:`linter.limits`), mapping access with ``<<`` merge
keys resolved (:func:`items`, :func:`get`; memoised and counted per file on a :class:`Walk`), a
scalar's value with the origin of each character (:func:`mstr`), and the file's comments
(:func:`comments`, for directives).

The nodes are those of :mod:`linter.extract.yamlload` (libyaml, else ruamel); this module adds the
origins and the limits, and knows nothing of any format.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
import sys

from linter import limits
from linter.launch import MStr
from linter.records import dataclass, field
from linter.source import SourceFile, Span

__all__ = ["Walk", "align", "comments", "get", "is_map", "is_seq", "is_str", "items", "load_tree", "mstr",
           "start_walk", "text", "too_deep", "walk", "is_scalar", "scalar_text", "value_of"]


def align(value: str, source: SourceFile, start: int, end: int) -> list:
    """For each character of a decoded scalar ``value``, the source offset it came from (or None).

    Greedy: each value character is matched with the next source character equal to it; a space or
    line break produced by folding matches the source line break. Exactness is checked later
    (:meth:`MStr.span_of` compares the source text), so an imperfect match only costs precision.
    The next occurrence of each character is remembered until it is passed, so each character's
    occurrences are searched once from left to right (linear, also when a value's characters are
    missing from the source, as with escapes such as ``\\t``).
    """
    text = source.text
    ahead: dict[str, int] = {}  # character -> its next offset at or after the last search (-1: none left)

    def find(c: str, p: int) -> int:
        q = ahead.get(c)
        if q is None or 0 <= q < p:
            q = ahead[c] = text.find(c, p, end)
        return q

    out: list = []
    p = start
    for v in value:
        if p < end and (text[p] == v or (text[p] in "\r\n" and (v == " " or v == "\n"))):
            out.append((source, p))  # the next source character: most of a value's characters
            p += 1
            continue
        if v == " " or v == "\n":
            found = [q for q in (find(v, p), find("\r", p), find("\n", p)) if q >= 0]
            q = min(found) if found else -1
        else:
            q = find(v, p)
        if q >= 0:
            out.append((source, q))
            p = q + 1
        else:
            out.append(None)
    return out


def mstr(node, source: SourceFile) -> MStr:
    """The value of a ScalarNode (:mod:`linter.extract.yamlload`) with per-character origins."""
    value = node.value if isinstance(node.value, str) else str(node.value)
    start, end = node.start_mark.index, node.end_mark.index
    n = len(value)
    if n and start + n <= end and source.text.startswith(value, start):
        # written as it reads (most plain scalars): align() would place character i at start + i, one run
        return MStr.from_runs(value, ((n, source, start, None),), Span(source, start, end))
    return MStr(value, align(value, source, start, end), Span(source, start, end))




_COMMENT_TAIL = re.compile(r"#[^\r\n]*")


def comments(source: SourceFile, root) -> list[Span]:
    """The spans of the file's comments: a ``#`` at a line start or after a blank that is not inside
    a scalar (so ``NOTE: "# lint-configs: ..."`` is text, not a directive). Only the nodes whose span
    holds a ``#`` candidate are visited (a node's children lie inside its span)."""
    import bisect

    text = source.text
    found = []
    i = text.find("#")
    while i >= 0:  # a `#` at a line start or after a blank (str.find: a regex scan costs 0.1 s on 5 MB)
        if i == 0 or text[i - 1] in " \t\n":
            m = _COMMENT_TAIL.match(text, i)
            found.append((i, m.end()))
            i = m.end()
        i = text.find("#", i + 1)
    if not found:
        return []
    starts = [a for a, _ in found]

    def holds_one(a: int, b: int) -> bool:  # a candidate starts in [a, b)
        k = bisect.bisect_left(starts, a)
        return k < len(starts) and starts[k] < b

    inside: set[int] = set()  # candidates inside a scalar
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        value = node.value
        if isinstance(value, list):
            if node.start_mark is None or holds_one(node.start_mark.index, node.end_mark.index + 1):
                for item in value:
                    stack.extend(item if isinstance(item, tuple) else (item,))
            continue
        start, end = node.start_mark.index, node.end_mark.index
        if node.style in ("|", ">"):  # the header line (`command: >  # ...`) may end in a comment
            nl = text.find("\n", start)
            start = len(text) if nl < 0 else nl + 1
        k = bisect.bisect_left(starts, start)
        while k < len(starts) and starts[k] < end:
            inside.add(k)
            k += 1
    return [Span(source, a, b) for k, (a, b) in enumerate(found) if k not in inside]


@dataclass
class Walk:
    """The walk of one YAML file: ``source`` (for SGL004 spans; None before any file), ``merged`` the
    memo of :func:`items` (node id -> [node, pairs, index of the pairs by key or None]; the node is
    kept so its id is not reused while cached) and ``visited`` the merged pairs counted against
    ``MAX_YAML_NODES``."""

    source: SourceFile | None = None
    merged: dict[int, list] = field(default_factory=dict)
    visited: int = 0


_WALK: contextvars.ContextVar[Walk | None] = contextvars.ContextVar("yaml_walk", default=None)


def _walk() -> Walk:
    w = _WALK.get()
    if w is None:  # a node read outside any walk (a test, a helper): a walk of its own
        w = Walk()
        _WALK.set(w)
    return w


def items(node) -> list[tuple[object, object]]:
    """(key node, value node) pairs of a MappingNode with ``<<`` merges resolved (own keys first).

    Memoised per node, and the pairs visited are counted: past ``MAX_YAML_NODES`` merges are not
    followed (SGL004), so nested merges of aliases cannot grow exponentially."""
    walk = _walk()
    hit = walk.merged.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    return _merge(walk, node)[1]


def _merge(walk: Walk, node) -> list:
    """The memo entry of :func:`items` for ``node``, computed: ``[node, pairs, None]`` (the third item
    is :func:`get`'s index of the pairs, made when first asked)."""
    from linter.extract.yamlload import MappingNode, SequenceNode

    own, merged = [], []
    for k, v in node.value:
        if getattr(k, "tag", "") == "tag:yaml.org,2002:merge" or getattr(k, "value", None) == "<<":
            sources = v.value if isinstance(v, SequenceNode) else [v]
            for src in sources:
                if isinstance(src, MappingNode):
                    pairs = items(src)
                    walk.visited += len(pairs)
                    if walk.visited > limits.MAX_YAML_NODES:
                        at = walk.source and Span(walk.source, k.start_mark.index, k.start_mark.index)
                        limits.record("MAX_YAML_NODES", "the expansion of YAML merge keys (<<)", at,
                                      "merges past it are not followed")
                        continue
                    merged.extend(pairs)
        else:
            own.append((k, v))
    seen = set()
    out = []
    for k, v in own + merged:
        key = getattr(k, "value", None)
        if not isinstance(key, (str, int, float, bool, type(None))):
            key = ("complex key", id(k))  # `? [a, b]`: a list or mapping key is never a compose field
        if key in seen:
            continue
        seen.add(key)
        out.append((k, v))
    entry = walk.merged[id(node)] = [node, out, None]
    return entry


_NOT_A_BRACKET = re.compile(r"""(?:
    [^\[\]{}'"\#]+                                 # plain text
  | (?:^|(?<=[ \t\n\[{,:-]))'[^']*(?:'|\Z)           # a quoted string (to its close or the end)
  | (?:^|(?<=[ \t\n\[{,:-]))"[^"]*(?:"|\Z)
  | (?:^|(?<=[ \t\n]))\#[^\n]*(?:\n|\Z)              # a comment with its line break
  | ['"\#]                                          # a quote or # that opens nothing
)*""", re.VERBOSE)
"""The text up to the next bracket that counts for :func:`too_deep` (one C-level match)."""


def too_deep(text: str) -> int | None:
    """The offset where flow collections (``[``/``{``) nest deeper than ``MAX_YAML_DEPTH``, or None.
    Linear and approximate: quoted strings and comments are skipped, brackets in plain scalars count
    (a real file never comes near the limit either way)."""
    depth = 0
    i, n = 0, len(text)
    skip = _NOT_A_BRACKET.match
    while True:
        i = skip(text, i).end()
        if i >= n:
            return None
        if text[i] in "[{":
            depth += 1
            if depth > limits.MAX_YAML_DEPTH:
                return i
        else:
            depth = max(0, depth - 1)
        i += 1


def get(node, key: str):
    """``(key node, value node)`` of ``key`` in a MappingNode (merges resolved), or ``(None, None)``."""
    walk = _walk()
    entry = walk.merged.get(id(node))
    if entry is None or entry[0] is not node:
        entry = _merge(walk, node)
    index = entry[2]
    if index is None:
        # an extractor asks a mapping for key after key: the pairs are indexed once per node (the
        # first pair of each key value, as a scan of the pairs finds it; items() already dropped the
        # later pairs of a key, and a complex key equals no string)
        index = entry[2] = {}
        for k, v in entry[1]:
            value = getattr(k, "value", None)
            if isinstance(value, _PLAIN_KEYS) and value not in index:
                index[value] = (k, v)
    return index.get(key, _NONE) if isinstance(key, _PLAIN_KEYS) else _scan(entry[1], key)


_PLAIN_KEYS = (str, int, float, bool, type(None))
_NONE = (None, None)


def _scan(pairs: list, key) -> tuple:
    for k, v in pairs:
        if getattr(k, "value", None) == key:
            return k, v
    return _NONE


def start_walk(source: SourceFile) -> None:
    """Start the merge memo and budget of :func:`items` afresh for ``source`` (a YAML format that
    cannot wrap its extraction in :func:`walk` calls this before walking its nodes)."""
    _WALK.set(Walk(source))


@contextlib.contextmanager
def walk(source: SourceFile):
    """The merge memo and budget of :func:`items` for one YAML file: wrap a whole extraction of
    ``source`` (compose, AReaL) in it; the memo is dropped at the end."""
    token = _WALK.set(Walk(source))
    try:
        yield
    finally:
        _WALK.reset(token)
        if "linter.extract.yamlload" in sys.modules:  # a tree was read (no 10 ms import otherwise)
            sys.modules["linter.extract.yamlload"].release()


def load_tree(source: SourceFile):
    """The node tree of ``source`` (:func:`linter.extract.yamlload.compose`), or None when its flow
    collections nest past ``MAX_YAML_DEPTH`` or it is past another YAML limit (SGL004 recorded). Raises
    :class:`~linter.extract.yamlload.InvalidYaml` for invalid YAML."""
    from linter.extract import yamlload

    deep = too_deep(source.text)
    if deep is not None:  # ruamel's recursive parser spends seconds failing on 1,500 open `{`
        limits.record("MAX_YAML_DEPTH", "the nesting of YAML flow collections ([ and {)", Span(source, deep, deep),
                      "the file is not checked")
        return None
    try:
        return yamlload.compose(source.text)
    except limits.LimitExceeded as exc:
        limits.record(exc.limit, exc.what, Span(source, 0, 0), "the file is not checked")
        return None


_NODES: list = []
"""(MappingNode, SequenceNode, ScalarNode) once a node was asked about: the extractors ask about every
node, and an import statement per question costs more than the question."""


def _nodes() -> list:
    if not _NODES:
        from linter.extract.yamlload import MappingNode, ScalarNode, SequenceNode

        _NODES[:] = [MappingNode, SequenceNode, ScalarNode]
    return _NODES


def is_map(node) -> bool:
    """True for a MappingNode."""
    return isinstance(node, (_NODES or _nodes())[0])


def is_seq(node) -> bool:
    """True for a SequenceNode."""
    return isinstance(node, (_NODES or _nodes())[1])


def is_str(node) -> bool:
    """A scalar that is not null (numbers count: ``count: 8``)."""
    return isinstance(node, (_NODES or _nodes())[2]) and node.tag != "tag:yaml.org,2002:null" \
        and node.value not in (None, "")


def text(node) -> str | None:
    """The scalar's value, or None for anything else."""
    return str(node.value) if is_str(node) else None


def is_scalar(node) -> bool:
    """A scalar that is not null; unlike :func:`is_str` an empty string counts (``value: ""`` sets a
    variable to nothing)."""
    return isinstance(node, (_NODES or _nodes())[2]) and node.tag != "tag:yaml.org,2002:null"


def scalar_text(node) -> str | None:
    """The value of a scalar :func:`is_scalar` accepts (``""`` included), or None."""
    return str(node.value) if is_scalar(node) else None


def value_of(node, key: str):
    """The value node of ``key`` in a MappingNode (merges resolved); None when absent or not a mapping."""
    return get(node, key)[1] if isinstance(node, (_NODES or _nodes())[0]) else None
