"""Messages and fixes that name an old option's successor (:mod:`linter.sglang.successors`), shared by the
parser rules (SGL201–SGL203, SGL210, SGL211).

A fix lands where the old option is written, in the file it is written in (a compose file, a shell
script, a ``--config`` YAML key, a Python literal, a ``.env`` value), and changes only the characters it
means to:

* a rename keeps the value where it is and rewrites the option's name (``--cuda-graph-max-bs 256`` →
  ``--cuda-graph-max-bs-decode 256``; in a ``--config`` YAML the key, in a Python call the keyword);
* a flag that becomes an option with a value (``--enable-deepep-moe`` → ``--moe-a2a-backend deepep``)
  writes two words where the text is split on blanks (a command string, a shell line), one
  ``--opt=value`` word where each word is an item of its own (a YAML or Python list), the key and its
  value in a ``--config`` YAML, ``moe_a2a_backend="deepep"`` in ``Engine(...)``;
* dropping an option deletes it (and its value) where the text is split on blanks; elsewhere there is
  no fix (a list item cannot be deleted without re-serialising the list).
"""

from __future__ import annotations

import json

from linter import records
from linter.launch import UNKNOWN, KwArg, Token
from linter.rules.base import SAFE, UNSAFE, Fix
from linter.sglang.successors import Entry, Plan, plan, removal_text
from linter.source import Edit, Span


def said(entry: Entry, limit: int = 140) -> str:
    """SGLang's own words on the option, quoted with where they are (``""`` when it said nothing)."""
    w = entry.said()
    if w is None:
        return ""
    text = w["text"] if len(w["text"]) <= limit else w["text"][:limit - 1] + "…"
    return f" (SGLang {w['release']}: {text!r})"


def clause(p: Plan) -> str:
    """``write --moe-a2a-backend deepep`` with why there is no fix when there is none."""
    advice = p.advice()
    if p.words is not None and p.applicability is None and p.why:
        return f"{advice} ({p.why}; no fix)"
    if p.words is None and p.why:
        return f"{advice} ({p.why}{'; no fix' if advice.startswith('write ') else ''})"
    return advice


def _synthetic_dashes(tok: Token) -> bool:
    """A ``--config`` YAML key: the merger put ``--`` before the key, so the dashes have no origin."""
    return tok.text.runs[:1] != () and tok.text.runs[0][1] is None and len(tok.raw) > 2 and tok.span_of(2) is not None


def _delete_span(tok: Token, end_tok: Token | None = None) -> Span | None:
    """The span to delete for the word ``tok`` (through ``end_tok``, its value) with the blanks before it:
    only for words of a text split on blanks, written contiguously in one file."""
    first = tok.span_of()
    if first is None or not tok.joinable:
        return None
    last = first
    if end_tok is not None:
        last = end_tok.span_of()
        if last is None or not end_tok.joinable or last.source is not first.source:
            return None
        between = first.source.text[first.end:last.start]
        if between.strip() or "\n" in between:
            return None
    text = first.source.text
    start = first.start
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    end = last.end
    if start == first.start:  # nothing before it on the line: take the blanks after it
        while end < len(text) and text[end] in " \t":
            end += 1
    return Span(first.source, start, end)


def _applicability(p: Plan):
    return SAFE if p.applicability == "safe" else UNSAFE


def word_fix(p: Plan, tok: Token, spelled: str, value: object, value_tok: Token | None,
             value_range: tuple[int, int] | None, next_words=()) -> Fix | None:
    """The fix that writes ``p``'s successor in place of the option word ``tok`` (written ``spelled``, its
    value ``value`` in ``value_tok[value_range]``: after ``=`` or the next word)."""
    if p.applicability is None or p.words is None:
        return None
    words = p.words
    message = f"Write {p.text}" if words else f"Drop {spelled}"
    explicit = value_tok is tok
    yaml_key = _synthetic_dashes(tok)
    name_span = tok.span_of(2, len(spelled)) if spelled.startswith("--") else None
    old_takes = p.entry.takes_value
    if not words:
        edits = None if yaml_key else _drop(tok, None if explicit or value_tok is None else value_tok)
    elif words[0].startswith("--") and len(words) - 1 == (1 if old_takes else 0) and name_span is not None:
        # the same shape: one option and (for an option with a value) the value kept or rewritten in place
        edits = _renamed(words, name_span, value, value_tok, value_range)
    elif old_takes:
        # the option and its value become other words: only as one word (--x=v) or where words are split
        edits = _option_rewritten(words, tok, explicit, value_tok)
    elif yaml_key:
        edits = _yaml_flag_rewritten(words, name_span, next_words)
    else:
        edits = _flag_rewritten(words, tok, spelled)
    return Fix(_applicability(p), message, edits) if edits is not None else None


def _drop(tok: Token, end_tok: Token | None) -> list[Edit] | None:
    """Delete the option (through its value ``end_tok``) with the blanks before it."""
    span = _delete_span(tok, end_tok)
    return [Edit(span, "")] if span is not None else None


def _renamed(words: list[str], name_span: Span, value: object, value_tok: Token | None,
             value_range: tuple[int, int] | None) -> list[Edit] | None:
    """The option's name rewritten, and its value where the successor writes another."""
    new_opt, rest = words[0], words[1:]
    edits = [Edit(name_span, new_opt[2:])]
    if rest and rest[0] != value:
        vspan = value_tok.span_of(*value_range) if value_tok is not None and value_range else None
        if vspan is None:
            return None
        edits.append(Edit(vspan, rest[0]))
    return edits


def _option_rewritten(words: list[str], tok: Token, explicit: bool, value_tok: Token | None) -> list[Edit] | None:
    """An option with a value that becomes other words: as one word (``--x=v``) or where words are split."""
    if explicit:
        whole = tok.span_of(0, len(tok.raw))
        if whole is None:
            return None
        if tok.joinable:
            return [Edit(whole, " ".join(words))]
        if len(words) == 1 or (len(words) == 2 and words[0].startswith("--")):
            return [Edit(whole, "=".join(words))]
        return None
    span = _delete_span(tok, value_tok)
    first = tok.span_of()
    if span is None or first is None:
        return None
    return [Edit(Span(first.source, first.start, span.end if value_tok else first.end), " ".join(words))]


def _yaml_flag_rewritten(words: list[str], name_span: Span | None, next_words) -> list[Edit] | None:
    """A flag written as a ``--config`` YAML key (``key: true``) that becomes an option with a value:
    the key renamed and ``true`` replaced by the value."""
    value_word = next_words[0] if next_words else None
    if len(words) != 2 or name_span is None or value_word is None or value_word.value not in ("true", "True"):
        return None
    vspan = value_word.span_of()
    if vspan is None:
        return None
    return [Edit(name_span, words[0][2:]), Edit(vspan, words[1])]


def _flag_rewritten(words: list[str], tok: Token, spelled: str) -> list[Edit] | None:
    """A flag that becomes other words: two words where words are split, else ``--x=v`` as one."""
    whole = tok.span_of(0, len(spelled))
    if whole is None or len(tok.raw) != len(spelled):
        return None
    if tok.joinable:
        return [Edit(whole, " ".join(words))]
    if len(words) == 2 and words[0].startswith("--") and not words[1].startswith("-"):
        return [Edit(whole, "=".join(words))]
    return None


def absorbing_fix(p: Plan, ctx, tok: Token, spelled: str) -> Fix | None:
    """``--dp-size N --enable-dp-attention`` → ``--attn-dp-size N``: the absorbed option is renamed where
    it is written and the old flag deleted (0.5.22+'s own resolution does exactly this)."""
    from linter.sglang.successors import option_dest, written

    dest = option_dest(ctx.table, p.entry.successor.get("absorbs"))
    s = written(ctx.parsed, dest)
    opt = ctx.table.by_dest.get(dest)
    if p.applicability is None or s is None or s.flag is None or s.via or opt is None:
        return None
    name = s.flag.span_of(2, len(s.spelled)) if s.spelled.startswith("--") else None
    gone = _delete_span(tok)
    if name is None or gone is None:
        return None
    return Fix(_applicability(p), f"Write {p.text}", [Edit(name, p.words[0][2:]), Edit(gone, "")])


def kwarg_fix(p: Plan, kw: KwArg, table) -> Fix | None:
    """``Engine(enable_deepep_moe=True)`` → ``Engine(moe_a2a_backend="deepep")``: the keyword renamed and,
    when the old one was a flag, its value written as a Python literal."""
    if p.applicability is None or not p.words or kw.name_span is None:
        return None
    words = p.words
    new = table.by_string.get(words[0])
    if new is None or len(words) > 2 or (len(words) == 2) != new.takes_value:
        return None
    edits = [Edit(kw.name_span, new.dest)]
    if p.entry.takes_value:
        if len(words) == 2 and words[1] != (kw.value if isinstance(kw.value, str) else str(kw.value)):
            return None  # a value rewritten by a map: leave a Python value to the author
    else:
        if kw.value is not True or kw.value_span is None:
            return None
        literal = "True" if len(words) == 1 else _py_literal(words[1], new)
        edits.append(Edit(kw.value_span, literal))
    return Fix(_applicability(p), f"Write {new.dest}=" + ("True" if len(words) == 1 else words[1]), edits)


def _py_literal(text: str, opt) -> str:
    if opt.type in ("int", "float"):
        return text
    return json.dumps(text)


def choice_fix(p: Plan, ctx, value_tok: Token | None, value_range: tuple[int, int] | None, opt) -> Fix | None:
    """The fix for an old choice of ``opt`` written in ``value_tok[value_range]``: the value rewritten in
    place (``--attention-backend compressed`` → ``dsv4``), or the option and its value dropped."""
    if p.applicability is None or p.words is None or value_tok is None or value_range is None:
        return None
    words = p.words
    if len(words) == 2 and words[0] in opt.option_strings:
        span = value_tok.span_of(*value_range)
        return Fix(_applicability(p), f"Write {words[1]}", [Edit(span, words[1])]) if span is not None else None
    if not words:
        s = next((s for s in ctx.parsed.settings if s.value_token is value_tok and s.flag is not None), None)
        if s is None:
            return None
        span = _delete_span(s.flag, None if s.flag is value_tok else value_tok)
        return Fix(_applicability(p), f"Drop {s.spelled}", [Edit(span, "")]) if span is not None else None
    return None


def value_of_word(ctx, tok: Token, spelled: str, takes_value: bool):
    """(value, value token, range, words after) of an old option word: the text after ``=``, else the next
    word when the old option took a value and the next word is not an option."""
    words = ctx.parsed.words or list(ctx.launch.args)
    idx = next((i for i, t in enumerate(words) if t is tok), -1)
    after = words[idx + 1:] if idx >= 0 else []
    raw = tok.raw
    if len(raw) > len(spelled) and raw[len(spelled)] == "=":
        v = raw[len(spelled) + 1:]
        return (v if tok.value is not None else UNKNOWN), tok, (len(spelled) + 1, len(raw)), after
    if takes_value and after and not (after[0].value or "").startswith("-"):
        nxt = after[0]
        return (nxt.value if nxt.value is not None else UNKNOWN), nxt, (0, len(nxt.raw)), after[1:]
    return None, None, None, after


def for_word(ctx, entry: Entry, tok: Token, spelled: str) -> tuple[str, Fix | None, Plan]:
    """(message clause, fix, plan) for the old option ``entry`` written as ``tok`` in a launch."""
    value, vtok, vrange, after = value_of_word(ctx, tok, spelled, entry.takes_value)
    p = plan(entry, ctx.table, ctx.parsed, value)
    if entry.successor.get("absorbs") and p.words:
        fix = absorbing_fix(p, ctx, tok, spelled)
    else:
        fix = word_fix(p, tok, spelled, value, vtok, vrange, after)
    p = _with_more_values(p, ctx, vtok is not tok and vtok is not None, after)
    return f"{removal_text(entry)}{said(entry)}; {clause(p)}", fix, p


def _with_more_values(p: Plan, ctx, next_word: bool, after) -> Plan:
    """For the message: a rename whose successor takes several values (``--cuda-graph-bs 1 2 4`` →
    ``--cuda-graph-bs-decode 1 2 4``) names them all (the fix renames the option and keeps the values)."""
    words = p.words or []
    new = ctx.table.by_string.get(words[0]) if len(words) == 2 else None
    if not next_word or new is None or new.nargs not in ("+", "*"):
        return p
    more = []
    for w in after:
        if w.value is None or w.value.startswith("-"):
            break
        more.append(w.value)
    return records.replace(p, words=words + more) if more else p


__all__ = ["said", "clause", "word_fix", "kwarg_fix", "choice_fix", "for_word", "value_of_word", "absorbing_fix"]
