"""Shell-like word splitting over :class:`~linter.launch.MStr`, keeping each character's origin.

This is the splitting docker compose applies to a string ``command``/``entrypoint`` (compose-go
parses it with shell quoting rules: blanks separate words, ``'…'`` is literal, ``"…"`` honours
``\\`` before ``"``, ``\\``, ``$`` and a line break, and a backslash outside quotes escapes the next
character — also a line break, which then stays in the word as a newline, as ``shlex.split`` does).
Strings a shell runs (compose ``sh -c``, Python ``shell=True``) go through the shell parser instead.

No expansion is performed: ``$`` is an ordinary character here. Expansions were done before (compose
interpolation) or are done by the caller.
"""

from __future__ import annotations

import re

from linter.launch import UNKNOWN_CHAR, MStr, Token


class SplitError(ValueError):
    """Unbalanced quotes. ``index`` is the position (in the input string) of the opening quote."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


_BLANK = " \t\r\n"
_PLAIN = re.compile("[^ \t\r\n'\"\\\\" + UNKNOWN_CHAR + "]+")
"""A run of characters that only extend the current word (matched at once, not one by one)."""


def split_words(s: MStr) -> list[Token]:
    """Split ``s`` into words as compose does. Raises :class:`SplitError`."""
    text = s.text
    n = len(text)
    words: list[Token] = []
    chars: list[int] = []  # indices into s of the current word's characters
    quoted = False  # the current word had a quote (so an empty word still counts)
    escaped = False  # a backslash escape in the word (its source text is not its value)
    in_word = False
    unquoted_unknown = False

    def end_word() -> None:
        nonlocal chars, quoted, in_word, unquoted_unknown, escaped
        if in_word:
            if chars and chars[-1] - chars[0] == len(chars) - 1:  # one stretch of s (most words): slices
                text_, origins = text[chars[0]:chars[-1] + 1], s.origins[chars[0]:chars[-1] + 1]
            else:
                text_ = "".join(text[k] for k in chars)
                origins = [s.origins[k] for k in chars]
            m = MStr(text_, origins, s.where)
            lone = text_ == UNKNOWN_CHAR and unquoted_unknown and not quoted
            words.append(Token(m, splat=lone, joinable=not quoted and not escaped))
        chars, quoted, in_word, unquoted_unknown, escaped = [], False, False, False, False

    i = 0
    while i < n:
        c = text[i]
        if c in _BLANK:
            end_word()
            i += 1
        elif c == "'":
            in_word = quoted = True
            j = text.find("'", i + 1)
            if j < 0:
                raise SplitError("unterminated single quote", i)
            chars.extend(range(i + 1, j))
            i = j + 1
        elif c == '"':
            in_word = quoted = True
            j = i + 1
            while True:
                if j >= n:
                    raise SplitError("unterminated double quote", i)
                d = text[j]
                if d == '"':
                    break
                if d == "\\" and j + 1 < n and text[j + 1] in '"\\$`\n':
                    if text[j + 1] != "\n":
                        chars.append(j + 1)
                    j += 2
                    continue
                chars.append(j)
                j += 1
            i = j + 1
        elif c == "\\":
            nxt = text[i + 1] if i + 1 < n else ""
            crlf = nxt == "\r" and text[i + 2:i + 3] == "\n"
            if nxt == "\n" or crlf:
                step = 3 if crlf else 2
                # compose (go-shellwords) and shlex.split keep an escaped line break as a literal
                # newline: `\` at a line end becomes an argument of its own, not a continuation.
                in_word = escaped = True
                chars.append(i + step - 1)
                i += step
                continue
            in_word = True
            if nxt:
                escaped = True
                chars.append(i + 1)
            i += 2
        elif c == UNKNOWN_CHAR:
            in_word = unquoted_unknown = True
            chars.append(i)
            i += 1
        else:
            in_word = True
            j = _PLAIN.match(text, i).end()
            chars.extend(range(i, j))
            i = j
    end_word()
    return words
