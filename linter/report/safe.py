"""What the linted files hold never acts on the reader's terminal or CI runner.

A pull request controls the text of the files lint-configs reports on — values, file names, YAML
strings with newlines in them — and that text reaches the report. Two things it must never do:

- **act on a terminal**: a control character (an ANSI escape that rewrites the screen or hides a
  line, a carriage return that overwrites one, a newline that starts a line of its own) or a
  bidirectional override (Trojan Source, CVE-2021-42574) in a message or a path. :func:`visible`
  shows them as escapes (``\\n``, ``\\x1b``, ``\\u202e``) in every human-readable format;
- **act on a CI runner**: the GitHub Actions runner reads every line a step prints for workflow
  commands — ``::error file=…::`` at the start of a line, and the older ``##[error]`` form anywhere in
  a line (actions/runner ``src/Runner.Worker/ActionCommandManager.cs``: ``TryParseV2`` then
  ``TryParse``) — so a file name or value could forge an annotation, mask a secret, or stop the
  runner's command processing. Under GitHub Actions (``GITHUB_ACTIONS=true``), :func:`guard_log`
  prints such text between ``::stop-commands::TOKEN`` and ``::TOKEN::`` with a random token the file
  cannot know (docs.github.com, "Workflow commands for GitHub Actions", "Stopping and starting
  workflow commands"); lint-configs' own annotations are printed outside it. JSON formats escape
  ``#`` in ``##[`` as ``\\u0023`` (:func:`json_text`), the same string to any JSON reader.
"""

from __future__ import annotations

import os
import re

_BIDI_AND_INVISIBLE = "\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2066\u2067\u2068\u2069\ufeff"
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f" + _BIDI_AND_INVISIBLE + "]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match) -> str:
    ch = m.group()
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control character (C0, DEL, C1), bidirectional override and invisible
    format character shown as an escape (``\\n``, ``\\x1b``, ``\\u202e``): one line, as written."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


_DIFF_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f" + _BIDI_AND_INVISIBLE + "]|\r(?!\n)")


def inert_diff(text: str) -> tuple[str, int]:
    """A unified diff as it may be printed: ``(text, how many characters were escaped)``. Control
    characters, bidirectional overrides and invisible format characters in it (a file's name or a
    line's text) are shown as escapes, as :func:`visible` shows them, except what a diff of a text file
    holds as it is — a tab, and the ``\r`` of a CRLF line end — so the diff still applies with ``git
    apply`` or ``patch`` unless a line it shows held such a character (the count says so)."""
    if not _DIFF_UNSAFE.search(text):
        return text, 0
    count = [0]

    def escape(m: re.Match) -> str:
        count[0] += 1
        return _escape(m)

    return _DIFF_UNSAFE.sub(escape, text), count[0]


_token: list[str] = []


def stop_token() -> str:
    """The random token of this process's ``::stop-commands::`` blocks (128 bits, never printed by a file)."""
    if not _token:
        import secrets

        _token.append(secrets.token_hex(16))
    return _token[0]


def on_github() -> bool:
    """True when the run's output is read by a GitHub Actions runner (``GITHUB_ACTIONS=true``)."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def could_be_command(text: str) -> bool:
    """True when a line of ``text`` could be read as a workflow command (``::`` or ``##[`` in it)."""
    return "::" in text or "##[" in text


def stop_commands(text: str) -> str:
    """``text`` (whole lines) between ``::stop-commands::TOKEN`` and ``::TOKEN::``: the runner reads
    no workflow command in between."""
    if not text:
        return text
    token = stop_token()
    end = "" if text.endswith("\n") else "\n"
    return f"::stop-commands::{token}\n{text}{end}::{token}::\n"


def guard_log(text: str) -> str:
    """``text`` as it may be printed to a log: under GitHub Actions, inside a stop-commands block when
    any of it could be read as a command; otherwise unchanged."""
    if on_github() and could_be_command(text):
        return stop_commands(text)
    return text


_JSON_RAW = re.compile("[\x7f-\x9f" + _BIDI_AND_INVISIBLE + "]")


def json_text(text: str) -> str:
    """JSON text from :func:`json.dumps` (which escapes C0 controls itself) with DEL, C1 controls and
    bidirectional or invisible characters written as ``\\uXXXX`` and ``##[`` as ``\\u0023#[``: the same
    value to every JSON reader, nothing that acts on a terminal or a CI runner reading it. These only
    occur inside JSON strings, where the escapes mean the same characters."""
    if _JSON_RAW.search(text):
        text = _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text.replace("##[", "\\u0023#[") if "##[" in text else text


def sanitized(d):
    """A copy of the diagnostic ``d`` whose message, notes, labels and fix message are :func:`visible`
    (its span, and so its path and the edits, unchanged: renderers show ``visible(d.path)``)."""
    from linter.records import replace

    fix = d.fix
    if fix is not None and _UNSAFE.search(fix.message):
        fix = replace(fix, message=visible(fix.message))
    return replace(d, message=visible(d.message), notes=[visible(n) for n in d.notes],
                   labels=[(s, visible(label)) for s, label in d.labels], fix=fix)
