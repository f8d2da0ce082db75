"""MStr keeps origins as runs (linter/launch.py): the same origins, spans and locations as a tuple per
character, compared here with a per-character reference on random strings."""

from __future__ import annotations

import random
from pathlib import Path

from linter.launch import MStr, hull, join_runs, same_origins, slice_runs
from linter.source import SourceFile, Span

A = SourceFile(Path("/virtual/a.sh"), "a.sh", "python3 -m sglang.launch_server --tp 8 \\\n  --x \"fa3\"\n" * 3)
B = SourceFile(Path("/virtual/b.env"), "b.env", "ATTN=fa3\nTP=8\n")


def _random_origins(rng: random.Random, n: int) -> list:
    out: list = []
    while len(out) < n:
        kind = rng.random()
        length = rng.randint(1, 6)
        if kind < 0.2:
            out += [None] * length
        else:
            src = A if kind < 0.8 else B
            start = rng.randrange(0, len(src.text) - length)
            if rng.random() < 0.3:  # not consecutive offsets
                out += [(src, rng.randrange(len(src.text))) for _ in range(length)]
            else:
                out += [(src, k) for k in range(start, start + length)]
    return out[:n]


def _text_of(origins: list) -> str:
    return "".join(o[0].text[o[1]] if o is not None else "~" for o in origins)


def _span_of_reference(text: str, origins: list, i: int, j: int) -> Span | None:
    """The per-character definition of MStr.span_of."""
    j = min(j, len(text))
    if i >= j or origins[i] is None:
        return None
    source, start = origins[i]
    for k in range(i, j):
        o = origins[k]
        if o is None or o[0] is not source or o[1] != start + (k - i):
            return None
    if source.text[start:start + (j - i)] != text[i:j]:
        return None
    return Span(source, start, start + (j - i))


def _location_reference(m: MStr, origins: list, i: int, j: int) -> Span | None:
    exact = _span_of_reference(m.text, origins, i, j)
    if exact is not None:
        return exact
    spans = [Span(o[0], o[1], o[1] + 1) for o in origins[i:j] if o is not None]
    if spans and len(spans) == len(origins[i:j]) and all(s.source is spans[0].source for s in spans):
        return hull(spans)
    return m.where or hull(spans)


def _key(span: Span | None):
    return None if span is None else (span.source.display, span.start, span.end)


def _canonical(runs: tuple) -> bool:
    for (n0, s0, o0, _), (n1, s1, o1, _) in zip(runs, runs[1:]):
        if s0 is s1 and (s0 is None or o0 + n0 == o1):
            return False
    return all(n > 0 for n, _, _, _ in runs)


def test_runs_give_the_same_origins_spans_and_locations_as_a_tuple_per_character():
    rng = random.Random(21)
    for _ in range(400):
        origins = _random_origins(rng, rng.randint(0, 30))
        text = _text_of(origins)
        m = MStr(text, origins, Span(A, 0, 3))
        assert m.origins == tuple(origins)
        assert _canonical(m.runs)
        for _ in range(5):
            i = rng.randint(0, len(text))
            j = rng.randint(i, len(text) + 2)
            assert m[i:j].origins == tuple(origins[i:j])
            assert _canonical(slice_runs(m.runs, i, j))
            assert _key(m.span_of(i, j)) == _key(_span_of_reference(text, origins, i, j))
            assert _key(m.location(i, j)) == _key(_location_reference(m, origins, i, j))
            assert m.origin_at(i) == origins[i] if i < len(text) else True


def test_join_and_equality_of_runs():
    rng = random.Random(26)
    for _ in range(200):
        parts = []
        all_origins: list = []
        for _ in range(rng.randint(1, 5)):
            origins = _random_origins(rng, rng.randint(0, 8))
            parts.append(MStr(_text_of(origins), origins))
            all_origins += origins
        joined = MStr.join(parts)
        assert joined.origins == tuple(all_origins)
        assert _canonical(joined.runs)
        assert join_runs([p.runs for p in parts]) == joined.runs
        same = MStr(joined.text, all_origins)
        assert same_origins(joined, same) and joined.runs == same.runs


def test_a_literal_is_one_run_whatever_its_length():
    m = MStr.literal(A, 0, len(A.text))
    assert len(m.runs) == 1 and m.span_of() == Span(A, 0, len(A.text))
    assert len(MStr.join([m[0:10], m[10:]]).runs) == 1


def test_an_origin_object_of_a_lone_character_keeps_its_identity():
    # the Python format marks a splat by the identity of its character's origin
    marker = (A, 5)
    splat = MStr("\ue000", [marker], Span(A, 5, 10))
    joined = MStr.join([MStr.plain("a "), splat, MStr.literal(B, 0, 4)])
    assert joined.origins[2] is marker
    assert joined[2:3].origins[0] is marker
    assert MStr(joined.text, joined.origins).origins[2] is marker
