"""The option a misspelled one most likely meant ("did you mean"), as ``difflib.get_close_matches``
picks it, computed once per release and spelling.

``difflib.get_close_matches(word, options, n=1, cutoff=0.75)`` (CPython 3.11 ``Lib/difflib.py``
``get_close_matches``) tries every option string of the release with three filters of increasing
cost — ``real_quick_ratio`` (lengths), ``quick_ratio`` (shared characters, a Python loop per
character) and ``ratio`` (the matching blocks) — and keeps the best score, ties to the greatest
string. That costs 10–15 ms a word over SGLang's ~600 option strings, so a ``--config`` file of
500 unknown keys took seconds per launch that reads it. Here the first two filters use the option
strings' lengths and character counts computed once per release, ``ratio`` is difflib's own, and
each answer is kept (per release and word): the same answer, in about a tenth of the time, once.
"""

from __future__ import annotations

from difflib import SequenceMatcher

CUTOFF = 0.75

_INDEX: dict[str, tuple[object, dict[int, tuple[list[str], list[frozenset]]]]] = {}
"""release -> (its table, {length: ([option strings], [their :func:`_bag`])})."""
_ANSWERS: dict[tuple[str, str], str | None] = {}
"""(release, word) -> the closest option string or None."""


def close_option(table, word: str) -> str | None:
    """The option string of ``table`` (an :class:`~linter.sglang.options.OptionTable`) closest to
    ``word`` with a difflib ratio of at least 0.75, or None: ``get_close_matches(word,
    list(table.by_string), n=1, cutoff=0.75)``, remembered per release."""
    key = (table.version, word)
    if key in _ANSWERS:
        return _ANSWERS[key]
    index = _INDEX.get(table.version)
    if index is None or index[0] is not table:
        by_length: dict[int, tuple[list[str], list[frozenset]]] = {}
        for option in table.by_string:
            group = by_length.setdefault(len(option), ([], []))
            group[0].append(option)
            group[1].append(_bag(option))
        index = _INDEX[table.version] = (table, by_length)
    lb = len(word)
    bag = _bag(word)
    best: tuple[float, str] | None = None
    matcher = SequenceMatcher()
    matcher.set_seq2(word)
    for la, options in index[1].items():
        total = la + lb
        if 2.0 * min(la, lb) / total < CUTOFF:  # real_quick_ratio, the same for every option of this length
            continue
        shared = list(map(len, map(bag.__and__, options[1])))  # quick_ratio's matches, in C for the group
        if 2.0 * max(shared) / total < CUTOFF:
            continue
        for option, common in zip(options[0], shared):
            if 2.0 * common / total < CUTOFF:  # quick_ratio
                continue
            matcher.set_seq1(option)
            score = matcher.ratio()
            if score >= CUTOFF and (best is None or (score, option) > best):
                best = (score, option)
    answer = best[1] if best is not None else None
    if len(_ANSWERS) > 20_000:
        _ANSWERS.clear()
    _ANSWERS[key] = answer
    return answer


def _bag(s: str) -> frozenset:
    """The characters of ``s`` as a set of (character, occurrence) pairs, each packed in one int
    (``occurrence << 21 | code point``: an int hashes to itself, a tuple is hashed again at every
    intersection): the size of the intersection of two bags is the number of characters the strings
    share counted with multiplicity (``quick_ratio``'s ``matches``), computed by the set type in C."""
    seen: dict[str, int] = {}
    out = []
    for ch in s:
        k = seen.get(ch, 0)
        seen[ch] = k + 1
        out.append(k << 21 | ord(ch))
    return frozenset(out)


__all__ = ["close_option"]
