"""Reading the options of a program that is not SGLang (a wrapper such as ``srun`` or ``docker run``).

Only what is needed to find where the wrapped command starts: which words are options, and which
of those take the next word as their value. GNU/POSIX conventions (getopt_long): ``--opt=value``
carries its value, ``--`` ends the options, ``-abc`` is a cluster of short flags where a flag that
takes a value takes the rest of the cluster (``-N2``) or the next word.
"""

from __future__ import annotations

from linter.launch import Token

TYPE_CHECKING = False  # typing is imported only by type checkers: a compose file's run need not load it (8 ms)
if TYPE_CHECKING:
    from typing import Collection

Option = tuple[str, "Token | None", Token]
"""``(name, value token or None, the token that named it)``."""


def skip_options(words: list[Token], i: int, takes: Collection[str], two: Collection[str] = (),
                 normalise: bool = False) -> tuple[int, list[Option]]:
    """Skip a program's options from ``words[i]``.

    Returns ``(index of the first operand, options)``. ``takes``: options whose value may be the next
    word; ``two``: options followed by two words (``--mca NAME VALUE``); ``normalise``: ``_`` and ``-``
    are the same in long option names (torchrun accepts both). An unknown expansion (a splat) is
    skipped as if it were options.
    """
    opts: list[Option] = []
    n = len(words)
    takes_n = {t.replace("_", "-") for t in takes} if normalise else set(takes)
    while i < n:
        tok = words[i]
        if tok.splat:
            i += 1
            continue
        raw = tok.raw
        if raw == "--":
            return i + 1, opts
        if not raw.startswith("-") or raw == "-":
            return i, opts
        name = raw.split("=", 1)[0]
        key = name.replace("_", "-") if normalise and name.startswith("--") else name
        if "=" in raw and raw.startswith("--"):
            opts.append((name, Token(tok.text[len(name) + 1:]), tok))
            i += 1
            continue
        if key in two:
            opts.append((name, words[i + 1] if i + 1 < n else None, tok))
            i += 3
            continue
        if key in takes_n:
            opts.append((name, words[i + 1] if i + 1 < n else None, tok))
            i += 2
            continue
        if raw.startswith("--") or len(raw) == 2:
            opts.append((name, None, tok))
            i += 1
            continue
        # a cluster of short options: -itd, -oL, -N2, -Gh100:8
        consumed = False
        for k in range(1, len(raw)):
            flag = "-" + raw[k]
            if flag in takes:
                if k == len(raw) - 1:
                    opts.append((flag, words[i + 1] if i + 1 < n else None, tok))
                    i += 2
                else:
                    opts.append((flag, Token(tok.text[k + 1:]), tok))
                    i += 1
                consumed = True
                break
            opts.append((flag, None, tok))
        if not consumed:
            i += 1
    return i, opts
