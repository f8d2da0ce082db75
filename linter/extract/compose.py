"""docker-compose files: the SGLang launches in each service's ``entrypoint`` and ``command``.

What compose does, and so what this module reproduces (Compose Specification, compose-go):

* a service's argv is ``entrypoint`` followed by ``command``; each is a string (split with shell
  quoting rules) or a list (one argument per item);
* YAML anchors, aliases and ``<<`` merge keys are resolved (keys of the mapping itself win, then
  the merged mappings in order); top-level ``x-*`` fields are not services;
* ``${VAR}``, ``${VAR:-default}``, ``${VAR-default}``, ``${VAR:?err}``, ``${VAR:+alt}``, ``$VAR``
  and ``$$`` are interpolated before a string is split, with values from the ``.env`` file beside
  the compose file. The linter never reads its own environment, so a variable that ``.env`` does not
  set takes the default written in the file, and without one it is unknown;
* the argv goes through :mod:`linter.recognize` like every format's commands: wrappers (``numactl``,
  ``env``, ``sh -c "…"`` …) are taken off there, and a shell string is read by the shell format, so
  its variables, quoting, prefixes and wrappers work as in a shell script, with spans mapped back.

Every token keeps, for each character, its position in the compose file (or in ``.env``), also
inside folded ``>`` and literal ``|`` block scalars, quoted scalars and CRLF files: the decoded value
ruamel.yaml gives is aligned with the scalar's source text, and a character counts as exact only
where the source holds that very character.
"""

from __future__ import annotations

import contextlib
import re
import warnings
from pathlib import Path

from linter import limits
from linter.extract.words import SplitError, split_words
from linter.formats import looks_like_compose  # noqa: F401 - part of this module's interface
from linter.launch import UNKNOWN_CHAR, Extraction, Launch, MStr, Problem, Token
from linter.recognize import launches
from linter.source import SourceFile, Span
from linter.workspace import Workspace

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# ------------------------------------------------------------------------------------------------
# scalars with origins


def align(value: str, source: SourceFile, start: int, end: int) -> list:
    """For each character of a decoded scalar ``value``, the source offset it came from (or None).

    Greedy: each value character is matched with the next source character equal to it; a space or
    line break produced by folding matches the source line break. Exactness is checked later
    (:meth:`MStr.span_of` compares the source text), so an imperfect match only costs precision.
    The next match is found by bisection in per-character position lists, so a value whose
    characters are missing from the source (escapes such as ``\\t``) costs O(n log n), not O(n²).
    """
    import bisect

    text = source.text
    where: dict[str, list[int]] = {}

    def positions(v: str) -> list[int]:
        found = where.get(v)
        if found is None:
            wanted = {v, "\r", "\n"} if v in " \n" else {v}
            found = where[v] = [q for q in range(start, end) if text[q] in wanted]
        return found

    out: list = []
    p = start
    for v in value:
        pos = positions(v)
        k = bisect.bisect_left(pos, p)
        if k < len(pos):
            q = pos[k]
            out.append((source, q))
            p = q + 1
        else:
            out.append(None)
    return out


def scalar_mstr(node, source: SourceFile) -> MStr:
    """The value of a ruamel ScalarNode with per-character origins."""
    value = node.value if isinstance(node.value, str) else str(node.value)
    if node.style == ">":
        value = value.replace("\a", "")  # ruamel marks fold points with BEL for round-tripping
    start, end = node.start_mark.index, node.end_mark.index
    return MStr(value, align(value, source, start, end), Span(source, start, end))


# ------------------------------------------------------------------------------------------------
# interpolation


def interpolate(s: MStr, env: dict[str, MStr]) -> MStr:
    """Compose interpolation of ``s`` with variables from ``env`` (the ``.env`` file)."""
    text = s.text
    if "$" not in text:
        return s
    parts: list[MStr] = []
    i = 0
    n = len(text)
    lit = 0
    while i < n:
        if text[i] != "$":
            i += 1
            continue
        parts.append(s[lit:i])
        if i + 1 < n and text[i + 1] == "$":
            parts.append(s[i + 1:i + 2])
            i += 2
        elif i + 1 < n and text[i + 1] == "{":
            j, depth = i + 2, 1
            while j < n and depth:
                if text[j] == "{":
                    depth += 1
                elif text[j] == "}":
                    depth -= 1
                j += 1
            if depth:  # unterminated: compose reports an error; keep the text as unknown
                parts.append(MStr.unknown(s.location(i, n)))
                i = lit = n
                continue
            parts.append(_expand(s, i, j, s[i + 2:j - 1], env))
            i = j
        else:
            m = _NAME.match(text, i + 1)
            if m:
                parts.append(_lookup(m.group(), None, None, s.location(i, m.end()), env))
                i = m.end()
            else:
                parts.append(s[i:i + 1])
                i += 1
        lit = i
    parts.append(s[lit:])
    if sum(len(p) for p in parts) > limits.MAX_EXPANSION_CHARS:
        # `A=$B$B` doubling: the value is unknown rather than built
        limits.record("MAX_EXPANSION_CHARS", "the expansion of a variable", s.where, "its value is unknown")
        return MStr.unknown(s.where)
    return MStr.join(parts, s.where)


def _expand(s: MStr, i: int, j: int, body: MStr, env: dict[str, MStr]) -> MStr:
    m = _NAME.match(body.text)
    where = s.location(i, j)
    if not m:
        return MStr.unknown(where)
    name = m.group()
    rest = body[m.end():]
    for op in (":-", ":?", ":+", "-", "?", "+"):
        if rest.text.startswith(op):
            return _lookup(name, op, interpolate(rest[len(op):], env), where, env)
    if rest.text:
        return MStr.unknown(where)
    return _lookup(name, None, None, where, env)


def _lookup(name: str, op: str | None, word: MStr | None, where: Span | None, env: dict[str, MStr]) -> MStr:
    value = env.get(name)
    empty = value is not None and value.text == ""
    if op in (":-", "-"):
        if value is not None and not (op == ":-" and empty):
            return value
        return word
    if op in (":+", "+"):
        if value is not None and not (op == ":+" and empty):
            return word
        return MStr.plain("", where)
    if value is not None and not (op == ":?" and empty):
        return value
    return MStr.unknown(where)


def parse_dotenv(source: SourceFile) -> dict[str, MStr]:
    """Variables of a compose ``.env`` file: ``KEY=VALUE`` lines, ``export`` allowed, ``#`` comments,
    single quotes literal, double quotes with escapes, unquoted values end at `` #``; double-quoted
    and unquoted values are interpolated with the variables above them."""
    env: dict[str, MStr] = {}
    text = source.text
    pos = 0
    # Every character of a value carries its origin: past the limits, values are unknown, not built.
    too_big = len(text) > limits.MAX_PARSED_CHARS
    if too_big:
        limits.record("MAX_PARSED_CHARS", f"{source.display} of {len(text):,} characters", Span(source, 0, 0),
                      "the values it sets are unknown")
    for raw in text.splitlines(keepends=True):
        line_start = pos
        pos += len(raw)
        line = raw.rstrip("\r\n")
        stripped = line.lstrip()
        off = line_start + len(line) - len(stripped)
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("export "):
            k = len("export ")
            stripped, off = stripped[k:].lstrip(), off + k + (len(stripped[k:]) - len(stripped[k:].lstrip()))
        m = re.match(r"([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*", stripped)
        if not m:
            continue
        key = m.group(1)
        vstart = off + m.end()
        value = stripped[m.end():]
        if too_big or len(value) > limits.MAX_LINE_CHARS:
            if not too_big:
                limits.record("MAX_LINE_CHARS", f"the value of {key} ({len(value):,} characters)",
                              Span(source, vstart, vstart), "it is unknown")
            env[key] = MStr.unknown(Span(source, vstart, vstart + len(value)))
            continue
        if value.startswith("'"):
            close = value.find("'", 1)
            close = len(value) if close < 0 else close
            env[key] = MStr.literal(source, vstart + 1, vstart + close)
        elif value.startswith('"'):
            chars, origins, k = [], [], 1
            escapes = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "$": "$"}
            while k < len(value) and value[k] != '"':
                if value[k] == "\\" and k + 1 < len(value) and value[k + 1] in escapes:
                    chars.append(escapes[value[k + 1]])
                    origins.append((source, vstart + k + 1))
                    k += 2
                    continue
                chars.append(value[k])
                origins.append((source, vstart + k))
                k += 1
            env[key] = interpolate(MStr("".join(chars), origins, Span(source, vstart, vstart + k + 1)), env)
        else:
            cut = re.search(r"[ \t]#", value)
            value = value[:cut.start()] if cut else value
            value = value.rstrip()
            env[key] = interpolate(MStr.literal(source, vstart, vstart + len(value)), env)
    return env


# ------------------------------------------------------------------------------------------------
# YAML structure


_COMMENT = re.compile(r"(?:^|(?<=[ \t]))#[^\r\n]*", re.MULTILINE)


def _comments(source: SourceFile, root) -> list[Span]:
    """The spans of the file's comments: a ``#`` at a line start or after a blank that is not inside
    a scalar (so ``NOTE: "# lint-configs: ..."`` is text, not a directive)."""
    import bisect

    scalars: list[tuple[int, int]] = []
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        value = node.value
        if isinstance(value, list):
            for item in value:
                stack.extend(item if isinstance(item, tuple) else (item,))
        else:
            start = node.start_mark.index
            if node.style in ("|", ">"):  # the header line (`command: >  # ...`) may end in a comment
                nl = source.text.find("\n", start)
                start = len(source.text) if nl < 0 else nl + 1
            scalars.append((start, node.end_mark.index))
    scalars.sort()
    starts = [a for a, _ in scalars]
    out = []
    for m in _COMMENT.finditer(source.text):
        k = bisect.bisect_right(starts, m.start()) - 1
        if k >= 0 and scalars[k][0] <= m.start() < scalars[k][1]:
            continue
        out.append(Span(source, m.start(), m.end()))
    return out


_merged: dict[int, tuple[object, list]] = {}
"""Memo of :func:`_mapping_items` for the file being extracted (node id -> (node, items)); the
node is kept so its id cannot be reused while cached."""
_visited = [0]


def _mapping_items(node) -> list[tuple[object, object]]:
    """(key node, value node) pairs of a MappingNode with ``<<`` merges resolved (own keys first).

    Memoised per node, and the pairs visited are counted: past ``MAX_YAML_NODES`` merges are not
    followed (SGL004), so nested merges of aliases cannot grow exponentially."""
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    hit = _merged.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    own, merged = [], []
    for k, v in node.value:
        if getattr(k, "tag", "") == "tag:yaml.org,2002:merge" or getattr(k, "value", None) == "<<":
            sources = v.value if isinstance(v, SequenceNode) else [v]
            for src in sources:
                if isinstance(src, MappingNode):
                    items = _mapping_items(src)
                    _visited[0] += len(items)
                    if _visited[0] > limits.MAX_YAML_NODES:
                        at = _current[0] and Span(_current[0], k.start_mark.index, k.start_mark.index)
                        limits.record("MAX_YAML_NODES", "the expansion of YAML merge keys (<<)", at,
                                      "merges past it are not followed")
                        continue
                    merged.extend(items)
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
    _merged[id(node)] = (node, out)
    return out


_current: list = [None]  # the file being extracted (for SGL004 spans)


def _too_deep(text: str) -> int | None:
    """The offset where flow collections (``[``/``{``) nest deeper than ``MAX_YAML_DEPTH``, or None.
    Linear and approximate: quoted strings and comments are skipped, brackets in plain scalars count
    (a real file never comes near the limit either way)."""
    depth = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "[{":
            depth += 1
            if depth > limits.MAX_YAML_DEPTH:
                return i
        elif c in "]}":
            depth = max(0, depth - 1)
        elif c in "'\"" and (i == 0 or text[i - 1] in " \t\n[{,:-"):
            close = text.find(c, i + 1)
            i = n if close < 0 else close
        elif c == "#" and (i == 0 or text[i - 1] in " \t\n"):
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
        i += 1
    return None


def _get(node, key: str):
    for k, v in _mapping_items(node):
        if getattr(k, "value", None) == key:
            return k, v
    return None, None


def _tokens(node, source: SourceFile, env: dict[str, MStr]) -> list[Token] | None:
    """The argv words of a command/entrypoint node, or None when it is absent or not text."""
    from ruamel.yaml.nodes import ScalarNode, SequenceNode

    if isinstance(node, ScalarNode):
        if node.tag == "tag:yaml.org,2002:null" or node.value in ("", None):
            return None
        return split_words(interpolate(scalar_mstr(node, source), env))
    if isinstance(node, SequenceNode):
        words = []
        for item in node.value:
            if not isinstance(item, ScalarNode):
                return None
            words.append(Token(interpolate(scalar_mstr(item, source), env)))
        return words
    return None


def _container_env(service, source: SourceFile, env: dict[str, MStr], ws: Workspace,
                   related: list[SourceFile]) -> dict[str, MStr]:
    """The variables a service's container starts with, as far as the files say: ``env_file``
    entries (read like ``.env``), then ``environment`` (a mapping or ``KEY=VALUE`` list), which wins.
    A key given without a value takes the deploying shell's value: unknown, so left out."""
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    out: dict[str, MStr] = {}
    _, files = _get(service, "env_file")
    items = files.value if isinstance(files, SequenceNode) else ([files] if files is not None else [])
    for item in items:
        node = item
        if isinstance(item, MappingNode):
            _, node = _get(item, "path")
        if isinstance(node, ScalarNode) and isinstance(node.value, str):
            f = ws.try_read(Path(source.path).parent / node.value)
            if f is not None:
                out.update(parse_dotenv(f))
                related.append(f)
    _, environment = _get(service, "environment")
    if isinstance(environment, MappingNode):
        for k, v in _mapping_items(environment):
            if isinstance(v, ScalarNode) and v.tag != "tag:yaml.org,2002:null":
                out[str(k.value)] = interpolate(scalar_mstr(v, source), env)
    elif isinstance(environment, SequenceNode):
        for v in environment.value:
            if isinstance(v, ScalarNode) and "=" in str(v.value):
                m = interpolate(scalar_mstr(v, source), env)
                k = m.text.find("=")
                if k > 0:  # `- ${UNSET:+A=1}`: the `=` may disappear in interpolation
                    out[m.text[:k]] = m[k + 1:]
    return out


def start_yaml_walk(source: SourceFile) -> None:
    """Start the merge memo and budget of :func:`_mapping_items` afresh for ``source`` (a YAML format
    that cannot wrap its extraction in :func:`yaml_walk` calls this before walking its nodes)."""
    _merged.clear()
    _visited[0] = 0
    _current[0] = source


@contextlib.contextmanager
def yaml_walk(source: SourceFile):
    """The merge memo and budget of :func:`_mapping_items` for one YAML file: wrap a whole
    extraction of ``source`` (compose, AReaL) in it."""
    start_yaml_walk(source)
    try:
        yield
    finally:
        _merged.clear()
        _current[0] = None


def compose_yaml(source: SourceFile):
    """ruamel's node tree of ``source``, or None when its flow collections nest past
    ``MAX_YAML_DEPTH`` (SGL004 recorded). Raises ruamel's YAMLError for invalid YAML; its warnings
    (a redefined anchor, which YAML 1.2 and compose accept) never reach stderr."""
    from ruamel.yaml import YAML

    deep = _too_deep(source.text)
    if deep is not None:  # ruamel's recursive parser spends seconds failing on 1,500 open `{`
        limits.record("MAX_YAML_DEPTH", "the nesting of YAML flow collections ([ and {)", Span(source, deep, deep),
                      "the file is not checked")
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return YAML(typ="rt").compose(source.text)


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of a compose file. YAML errors are reported at the parser's problem position."""
    with yaml_walk(source):
        return _extract(source, ws)


def _extract(source: SourceFile, ws: Workspace) -> Extraction:
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.nodes import MappingNode

    result = Extraction()
    try:
        root = compose_yaml(source)
        if root is None:
            return result
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        offset = min(mark.index, len(source.text)) if mark is not None else 0
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        result.problems.append(Problem(f"invalid YAML: {problem}", Span(source, offset, offset)))
        return result
    except YAMLError as exc:
        result.problems.append(Problem(f"invalid YAML: {exc}", Span(source, 0, 0)))
        return result
    result.comments = _comments(source, root)
    if not isinstance(root, MappingNode):
        return result
    _, services = _get(root, "services")
    if not isinstance(services, MappingNode):
        return result
    env: dict[str, MStr] = {}
    env_path = Path(source.path).parent / ".env"
    dotenv = ws.try_read(env_path)
    if dotenv is not None:
        env = parse_dotenv(dotenv)
        result.related.append(dotenv)
    elif env_path.is_file():
        try:
            ws.read(env_path)
            why = "cannot be read"
        except Exception as exc:  # noqa: BLE001 - the reason goes into the diagnostic
            why = str(exc)
        result.problems.append(Problem(f"the .env beside this file is not read ({why}); the variables it sets "
                                       "are unknown", Span(source, 0, 0)))
    # Services that share one command through an alias or merge key are one launch, named by all.
    sharing: dict[tuple[int, int], list[str]] = {}
    for name_node, service in _mapping_items(services):
        if isinstance(service, MappingNode):
            _, ep = _get(service, "entrypoint")
            _, cmd = _get(service, "command")
            if ep is not None or cmd is not None:
                sharing.setdefault((id(ep), id(cmd)), []).append(str(name_node.value))
    done: set[tuple[int, int]] = set()
    for name_node, service in _mapping_items(services):
        if not isinstance(service, MappingNode):
            continue
        ep_key, ep = _get(service, "entrypoint")
        cmd_key, cmd = _get(service, "command")
        if ep is None and cmd is None:
            continue
        identity = (id(ep), id(cmd))
        if identity in done:
            continue
        done.add(identity)
        name = ",".join(sharing[identity])
        try:
            ep_words = _tokens(ep, source, env) if ep is not None else None
            cmd_words = _tokens(cmd, source, env) if cmd is not None else None
            argv = (ep_words or []) + (cmd_words or [])
            found = launches(argv, source, env=_container_env(service, source, env, ws, result.related),
                             problems=result.problems)
        except SplitError as exc:
            node = ep if ep is not None else cmd
            result.problems.append(Problem(f"service {sharing[identity][0]!r}: cannot split the command: {exc}",
                                           Span(source, node.start_mark.index, node.start_mark.index)))
            continue
        if not found:
            continue
        keys = [k for k in (ep_key, cmd_key) if k is not None]
        values = [v for v in (ep, cmd) if v is not None]
        start = min(k.start_mark.index for k in keys)
        end = max(v.end_mark.index for v in values)
        _, image_node = _get(service, "image")
        image = None
        if image_node is not None and getattr(image_node, "tag", "").endswith(":str"):
            image = interpolate(scalar_mstr(image_node, source), env)
        for k, got in enumerate(found):
            launch = Launch(source=source, program=got.program, span=Span(source, start, end), args=got.args,
                            key=f"services.{name}" + (f"#{k}" if k else ""),
                            image=got.image if got.image is not None else image, gpu_decls=got.gpu_decls)
            result.launches.append(launch)
    return result


__all__ = ["extract", "looks_like_compose", "interpolate", "parse_dotenv", "align", "UNKNOWN_CHAR"]
