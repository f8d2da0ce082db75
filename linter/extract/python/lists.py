"""What a known list becomes through the list operations the analysis reads: ``cmd.remove(x)``,
``cmd.index(x)``, a slice assignment, the items a filter keeps (``[c for c in cmd if c]``,
``filter(None, cmd)``), and a change it does not follow (``cmd.sort()``, ``cmd[i] = x`` with ``i``
not known): the words up to its SGLang entry point, then words not known — still a launch, not
fully verified, never no launch at all.
"""

from __future__ import annotations

from linter.extract.python.values import Const, Seq, Splat, Str, Unk, Value
from linter.launch import MStr, Token
from linter.source import Span

_HEAD_WORDS = 8
"""How many leading words (wrappers such as ``env X=1``, ``numactl …``) are passed over while the
entry point of a list whose change is not followed is sought."""


def _word(item) -> str | None:
    """The text of a list item that is a known string, else None."""
    return item.m.text if isinstance(item, Str) and item.m.known else None


def lost_list(items: list, where: Span | None) -> Seq:
    """A list of ``items`` after a change written at ``where`` that is not followed: its words up to
    and including its SGLang entry point (:func:`linter.sglang.entrypoints.match_entry_point`, after
    at most :data:`_HEAD_WORDS` known words), then any number of words not known; only words not
    known when it holds no entry point."""
    from linter.sglang.entrypoints import match_entry_point

    tokens = [Token(item.m) if isinstance(item, Str) else Token(MStr.unknown(None)) for item in items]
    for start in range(min(len(tokens), _HEAD_WORDS + 1)):
        entry = match_entry_point(tokens[start:])
        if entry is not None:
            return Seq(list(items[:start + entry.args_start]) + [Splat(where)])
        if _word(items[start]) is None:
            break
    return Seq([Splat(where)])


def index_of(items: list, wanted: Value) -> int | None:
    """``list.index(wanted)`` of a known string: the first position of an equal known word when
    every item before it is a known word (an unknown one might be equal); None otherwise (also when
    it is not there: Python raises ``ValueError``)."""
    text = _word(wanted)
    if text is None:
        return None
    for k, item in enumerate(items):
        got = _word(item)
        if got is None:
            return None
        if got == text:
            return k
    return None


def removed(items: list, wanted: Value) -> list | None:
    """``items`` after ``list.remove(wanted)`` (:func:`index_of`), or None when it is not known."""
    k = index_of(items, wanted)
    return None if k is None else items[:k] + items[k + 1:]


def slice_bounds(items: list, lower: Value | None, upper: Value | None) -> tuple[int, int] | None:
    """The positions ``items[lower:upper]`` covers (no step), when both bounds are known ints of at
    least 0 (or left out) and no run of unknown length stands before the end; else None."""
    bounds = []
    for v, default in ((lower, 0), (upper, len(items))):
        if v is None:
            bounds.append(default)
        elif isinstance(v, Const) and type(v.value) is int and v.value >= 0:
            bounds.append(min(v.value, len(items)))
        else:
            return None
    lo, hi = bounds[0], max(bounds)
    if upper is None and any(isinstance(i, Splat) for i in items[lo:]):
        return None
    if any(isinstance(i, Splat) for i in items[:hi]):
        return None
    return lo, hi


def truthy_item(item) -> bool | None:
    """Whether a list item is true (``if c``): a known string is when it is not empty, a constant by
    its value; None when it is not known."""
    if isinstance(item, Str):
        return bool(item.m.text) if item.m.known else None
    if isinstance(item, Const):
        return bool(item.value)
    return None


def kept_true(items: list) -> list:
    """The items ``[c for c in items if c]`` / ``filter(None, items)`` keeps: every item but the
    ones known to be false (an empty string, ``None``); an item not known is kept as it is."""
    return [i for i in items if isinstance(i, (Splat, Unk)) or truthy_item(i) is not False]
