"""Dockerfiles (``Dockerfile``, ``*.Dockerfile``, ``Dockerfile.*``, ``Containerfile``): the SGLang launch
the image runs when it starts, as Docker runs it.

Parser: ``dockerfile-parse`` (containerbuildsystem/dockerfile-parse, pure Python, used by Red Hat's
OSBS image builds) gives each instruction and its line range, honouring line continuations, comment
lines inside an instruction and the ``# escape=`` directive. It is chosen over tree-sitter-dockerfile
0.2.0 because it reads one instruction at a time: tree-sitter-dockerfile turns everything after a
construct its grammar lacks (``ENV NAME value with blanks``, the legacy form) into one error node,
so one odd line would hide the ``CMD`` below it. The exact text of an instruction is then taken from
the file by those lines, so every character of a token keeps its offset (a fix edits those bytes).

What Docker does, reproduced here (Dockerfile reference, docs.docker.com/reference/dockerfile;
BuildKit ``frontend/dockerfile/instructions``):

* ``CMD``/``ENTRYPOINT`` in exec form (a JSON array of strings) are the argv, with no variable
  expansion at all; in shell form they become ``SHELL`` + [the text] — ``/bin/sh -c`` unless a
  ``SHELL ["…"]`` instruction came before — so the shell expands variables. Text that starts with
  ``[`` but is not a JSON array of strings is run by the shell as it is (reported here, SGL001);
* the container runs ``ENTRYPOINT`` followed by ``CMD``: an exec-form entry point receives ``CMD`` as
  its arguments, a shell-form one ignores them (``sh -c SCRIPT`` takes further words as ``$0``…);
  setting ``ENTRYPOINT`` clears a ``CMD`` inherited from the base image or stage (unless this stage
  sets ``CMD`` too); with no ``ENTRYPOINT`` in the file, the base image's applies: known images from
  :func:`linter.recognize.image_entrypoint`; an image the table does not know is taken to have none
  (so ``CMD`` is the command, as for ``python``/``ubuntu``/``pytorch`` images);
* ``ENV`` values are in the container's environment when it runs; ``ARG`` values exist only while
  building: a ``CMD`` reading ``$X`` set only by ``ARG`` sees it unset, unless ``ENV X=$X`` carries it
  over — then the ``ARG`` default is the value (an ``ARG`` without a default is given at build time:
  unknown). ``ENV`` overrides an ``ARG`` of the same name; ``ARG``s before the first ``FROM`` are
  visible in ``FROM`` lines and, re-declared by ``ARG NAME``, in a stage;
* the last stage is what runs; ``FROM <earlier stage>`` inherits its environment, ``SHELL``,
  ``ENTRYPOINT`` and ``CMD``; the external image at the root of the chain is the launch's image
  (its tag gives the SGLang release);
* ``WORKDIR`` (absolute, or relative to the one before; ``ENV``/``ARG`` values substituted) is where a
  relative ``ENTRYPOINT``/``CMD`` script and a relative ``COPY`` destination are; the base image's
  own is not known, so such a path is then not followed. A wrapper script first in the command that
  ends in ``exec "$@"`` passes the rest through (:mod:`linter.passthrough`);
* ``# lint-configs:`` directives are ``#`` comment lines.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from linter import limits, records
from linter.extract.compose import interpolate
from linter.extract.words import SplitError, split_words
from linter.launch import UNKNOWN_CHAR, Extraction, Launch, MStr, Problem, Token
from linter.passthrough import runs, wrapper_script
from linter.records import dataclass, field
from linter.source import SourceFile, Span
from linter.workspace import Workspace

_ESCAPE_DIRECTIVE = re.compile(r"^\s*#\s*escape\s*=\s*(\\|`)\s*$", re.IGNORECASE)
_DIRECTIVE = re.compile(r"^\s*#\s*[A-Za-z]+\s*=")
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]*)=")
DEFAULT_SHELL = ("/bin/sh", "-c")
"""The shell of shell-form instructions on Linux (Dockerfile reference, "SHELL")."""


@dataclass
class _Stage:
    name: str | None
    image: MStr | None
    """The external image at the root of the stage chain (None: ``scratch`` or unknown)."""
    env: dict[str, MStr] = field(default_factory=dict)
    args: dict[str, MStr | None] = field(default_factory=dict)
    shell: list[Token] | None = None
    entrypoint: list[Token] | None = None  # None: the base image's
    cmd: list[Token] | None = None  # None: the base image's; [] cleared by ENTRYPOINT
    cmd_set_here: bool = False
    copies: list[tuple[str, str]] = field(default_factory=list)
    """``(container path, host path)`` of what ``COPY``/``ADD`` put in the image from the build
    context (taken to be the Dockerfile's folder): where a wrapper entrypoint script comes from."""
    workdir: str | None = None
    """The ``WORKDIR`` (an absolute path), None while it is the base image's (not known)."""
    entry_shell: bool = False
    """The ``ENTRYPOINT`` is in shell form (``sh -c TEXT``): it never sees ``CMD``."""
    entry_where: Span | None = None
    """The ``ENTRYPOINT`` instruction."""
    span: Span | None = None
    where: Span | None = None
    """The CMD/ENTRYPOINT instruction that gives the launch (for its span and key)."""


def escape_char(text: str) -> str:
    """The line-continuation character: ``\\`` unless an ``# escape=`` parser directive at the top says
    otherwise (Dockerfile reference, "Parser directives": they end at the first non-directive line)."""
    for line in text.split("\n"):
        m = _ESCAPE_DIRECTIVE.match(line)
        if m:
            return m.group(1)
        if not _DIRECTIVE.match(line):
            break
    return "\\"


_KEYWORD = re.compile(r"\S+[ \t]*")


def instruction_text(source: SourceFile, startline: int, endline: int, escape: str) -> tuple[MStr, int]:
    """The arguments of the instruction on lines ``startline..endline`` (0-based) as one logical line:
    continuations (escape char, optional blanks, line break) removed, comment and blank lines inside
    dropped, each character keeping its offset; and the offset where the keyword starts."""
    starts = source.line_starts
    text = source.text
    parts: list[MStr] = []
    keyword_at = 0
    for n in range(startline, endline + 1):
        if n >= len(starts):
            break
        a = starts[n]
        b = starts[n + 1] if n + 1 < len(starts) else len(text)
        line = text[a:b].rstrip("\r\n")
        if n == startline:
            lead = len(line) - len(line.lstrip())
            keyword_at = a + lead
            m = _KEYWORD.match(line, lead)
            a = a + (m.end() if m else lead)
            line = text[a:b].rstrip("\r\n")
        elif not line.strip() or line.lstrip().startswith("#"):
            continue
        body = line.rstrip(" \t")
        if body.endswith(escape) and n < endline:
            body = body[:-1]
        elif n == endline:
            body = line
        parts.append(MStr.literal(source, a, a + len(body)))
    if len(parts) == 1:  # one line (most instructions): the literal is the text
        return parts[0], keyword_at
    return MStr.join(parts) if parts else MStr("", []), keyword_at


def json_array(s: MStr) -> tuple[list[Token] | None, int, str]:
    """An exec-form JSON array of strings with origins: (tokens, -, -), or (None, index, message) at
    the first problem. Escapes are decoded (their characters are then not an exact span)."""
    text = s.text
    n = len(text)
    i = 0

    def blank(k: int) -> int:
        while k < n and text[k] in " \t\r\n":
            k += 1
        return k

    i = blank(i)
    if i >= n or text[i] != "[":
        return None, i, "expected '['"
    i = blank(i + 1)
    out: list[Token] = []
    if i < n and text[i] == "]":
        i += 1
    else:
        while True:
            if i >= n or text[i] != '"':
                return None, min(i, n), "expected a string in double quotes"
            start = i
            i += 1
            chars: list[str] = []
            origins: list = []
            while True:
                if i >= n:
                    return None, start, "unterminated string"
                c = text[i]
                if c == '"':
                    i += 1
                    break
                if c == "\\":
                    if i + 1 >= n:
                        return None, i, "unterminated string"
                    e = text[i + 1]
                    simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
                    if e in simple:
                        chars.append(simple[e])
                        origins.append(s.origins[i + 1])
                        i += 2
                        continue
                    if e == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", text[i + 2:i + 6]):
                        chars.append(chr(int(text[i + 2:i + 6], 16)))
                        origins.append(s.origins[i])
                        i += 6
                        continue
                    return None, i, f"invalid escape '\\{e}'"
                chars.append(c)
                origins.append(s.origins[i])
                i += 1
            out.append(Token(MStr("".join(chars), origins, s.location(start, i))))
            i = blank(i)
            if i < n and text[i] == ",":
                i = blank(i + 1)
                continue
            if i < n and text[i] == "]":
                i += 1
                break
            return None, min(i, n), "expected ',' or ']'" if i < n else "unterminated JSON array (no ']')"
    i = blank(i)
    if i < n:
        return None, i, "text after the closing ']'"
    return out, -1, ""


def _problem_at(s: MStr, i: int, fallback: Span) -> Span:
    if 0 <= i < len(s.origins) and s.origins[i] is not None:
        src, off = s.origins[i]
        return Span(src, off, off)
    if s.origins and s.origins[-1] is not None:
        src, off = s.origins[-1]
        return Span(src, off + 1, off + 1)
    return fallback


_ONE_WORD = re.compile("[^ \t\r\n'\"\\\\" + UNKNOWN_CHAR + "]*")
"""A value that :func:`split_words` would leave one word, as it is."""


def _pairs(value: MStr) -> list[tuple[str, MStr | None, MStr]]:
    """``NAME=VALUE`` words of an ``ENV``/``ARG`` line (quotes removed), or the legacy ``ENV NAME value
    with blanks``: (name, value or None when ``=`` is absent, the name's text)."""
    m = _ASSIGN.match(value.text)
    if m and _ONE_WORD.fullmatch(value.text):  # ``NAME=VALUE`` with nothing to split or unquote (most lines)
        return [(m.group(1), value[m.end():], value[:m.end() - 1])]
    try:
        words = split_words(value)
    except SplitError:
        return []
    if words and "=" not in words[0].raw:
        # ENV NAME value… (legacy): the value is the rest of the line; ARG NAME: no value.
        name = words[0].raw
        rest = value.text.find(name) + len(name)
        tail = value[rest:]
        stripped = len(tail.text) - len(tail.text.lstrip())
        body = tail[stripped:]
        if len(words) == 1:
            return [(name, None, words[0].text)]
        return [(name, body if body.text else None, words[0].text)]
    out = []
    for w in words:
        m = _ASSIGN.match(w.raw)
        if m:
            out.append((m.group(1), w.text[m.end():], w.text[:m.end() - 1]))
        elif w.raw:
            out.append((w.raw, None, w.text))
    return out


def _argv(value: MStr, shell: list[Token] | None, where: Span, problems: list[Problem], what: str) \
        -> list[Token] | None:
    """The argv of a ``CMD``/``ENTRYPOINT``: exec form, else ``SHELL`` + [text]; None when unusable."""
    if value.text.lstrip().startswith("["):
        tokens, at, message = json_array(value)
        if tokens is not None:
            return tokens
        problems.append(Problem(f"{what} starts with '[' but is not a JSON array of strings ({message}); Docker "
                                "runs the text with /bin/sh -c as it is", _problem_at(value, at, where)))
        return None
    if not value.text.strip():
        return None
    shell = shell or [Token(MStr.plain(w, where)) for w in DEFAULT_SHELL]
    return list(shell) + [Token(value)]


@limits.budgeted
def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launch of the image's last stage (see the module docstring)."""
    from dockerfile_parse import DockerfileParser

    result = Extraction()
    result.comments = _comments(source)
    escape = escape_char(source.text)
    try:
        structure = DockerfileParser(fileobj=io.BytesIO(source.text.encode("utf-8"))).structure
    except Exception as exc:  # noqa: BLE001 - a parser failure is a diagnostic, never a traceback
        result.problems.append(Problem(f"cannot parse the Dockerfile: {exc}", Span(source, 0, 0)))
        return result
    global_args: dict[str, MStr | None] = {}
    stages: list[_Stage] = []
    for ins in _instructions(structure, source, escape):
        kind = ins["instruction"]
        value, at = instruction_text(source, ins["startline"], ins["endline"], escape)
        span = Span(source, at, _line_end(source, ins["endline"]))
        if kind == "FROM":
            stages.append(_from(value, stages, global_args, span))
        elif kind == "ARG":
            _arg(value, stages[-1] if stages else None, global_args)
        elif stages and kind in _STEPS:
            _STEPS[kind](value, stages[-1], span, kind, source, result)
    if not stages:
        return result
    for way, argv in _final_argv(stages[-1], source, ws, result):
        if argv:
            where = stages[-1].where or Span(source, 0, 0)
            result.launches.extend(_launches(argv, source, stages[-1], where, result, way))
    return result


def _arg(value: MStr, stage: _Stage | None, global_args: dict[str, MStr | None]) -> None:
    """``ARG NAME[=default] …``: before the first ``FROM`` a global, else the stage's (a global's value
    when it has no default)."""
    for name, default, _ in _pairs(value):
        known = _Known(stage.args, stage.env) if stage is not None else _Known(global_args)
        val = interpolate(default, known) if default is not None else None
        if stage is None:
            global_args[name] = val
        else:
            stage.args[name] = val if default is not None else global_args.get(name)


def _env(value: MStr, stage: _Stage, span: Span, kind: str, source: SourceFile, result: Extraction) -> None:
    for name, val, _ in _pairs(value):
        if val is not None:
            stage.env[name] = interpolate(val, _Known(stage.args, stage.env))


def _shell(value: MStr, stage: _Stage, span: Span, kind: str, source: SourceFile, result: Extraction) -> None:
    tokens, at_, message = json_array(value)
    if tokens:
        stage.shell = tokens
    else:
        result.problems.append(Problem(f"SHELL must be a JSON array of strings ({message})",
                                       _problem_at(value, at_, span)))


def _copy(value: MStr, stage: _Stage, span: Span, kind: str, source: SourceFile, result: Extraction) -> None:
    stage.copies.extend(_copies(value, Path(source.path).parent, stage.workdir))


def _workdir(value: MStr, stage: _Stage, span: Span, kind: str, source: SourceFile, result: Extraction) -> None:
    """``WORKDIR PATH``: absolute, or relative to the ``WORKDIR`` before it, with ``ENV``/``ARG``
    values substituted (Dockerfile reference, "WORKDIR"); unknown when a part of it is."""
    import posixpath

    path = interpolate(value, _Known(stage.args, stage.env))
    text = path.text.strip()
    if not path.known or not text or any(c in text for c in "'\"\\"):
        stage.workdir = None
    elif text.startswith("/"):
        stage.workdir = posixpath.normpath(text)
    elif stage.workdir is not None:
        stage.workdir = posixpath.normpath(posixpath.join(stage.workdir, text))


def _run_spec(value: MStr, stage: _Stage, span: Span, kind: str, source: SourceFile, result: Extraction) -> None:
    """``CMD``/``ENTRYPOINT``: setting ``ENTRYPOINT`` clears a ``CMD`` not set in this stage."""
    argv = _argv(value, stage.shell, span, result.problems, kind)
    if kind == "CMD":
        stage.cmd, stage.cmd_set_here = (argv if argv is not None else []), True
    else:
        stage.entrypoint = argv if argv is not None else []
        stage.entry_shell = argv is not None and not value.text.lstrip().startswith("[")
        stage.entry_where = span
        if not stage.cmd_set_here:
            stage.cmd = []
    stage.where = span


_STEPS = {"ENV": _env, "SHELL": _shell, "COPY": _copy, "ADD": _copy, "CMD": _run_spec, "ENTRYPOINT": _run_spec,
          "WORKDIR": _workdir}
"""The instructions of a stage after ``FROM`` that matter here, each a step on the stage."""


def _final_argv(last: _Stage, source: SourceFile, ws: Workspace, result: Extraction) -> list[tuple]:
    """``(wrapper path or None, argv)`` for what the last stage's container runs: ``ENTRYPOINT`` +
    ``CMD``, or the base image's known entry point + ``CMD``; none when the base image's own
    ENTRYPOINT/CMD run (not in this file). A wrapper script of the repository first in it that ends
    in ``exec "$@"`` passes the rest through on each of its paths that does, with their exports (a
    relative path is found from the ``WORKDIR``, through the ``COPY`` destinations). A shell-form
    ``ENTRYPOINT`` never sees ``CMD``: an SGLang launch there is reported as never run."""
    from linter.recognize import image_entrypoint

    cmd = last.cmd
    if last.entrypoint is not None:
        argv = list(last.entrypoint) + list(cmd or [])
        if last.entry_shell and cmd:
            _cmd_not_run(last, source, ws, result)
    elif cmd is None:
        return []
    else:
        known = image_entrypoint(last.image.text if last.image is not None else None)
        if known is not None and not known[1]:
            return [(None, [Token(MStr.plain(w, last.where)) for w in known[0]] + list(cmd))]
        argv = list(cmd)
    search = last.env.get("PATH")  # where a bare ENTRYPOINT name is looked up, when an ENV sets it
    wrapper = wrapper_script([t.value for t in argv], Path(source.path).parent, ws, tuple(last.copies), argv,
                             workdir=last.workdir, search=search.text if search is not None and search.known else None)
    if wrapper is None:
        return [(None, argv)]
    result.related.extend(wrapper.files)
    return runs(wrapper, argv, source, result.problems, argv[wrapper.taken - 1].span_of())


def _cmd_not_run(last: _Stage, source: SourceFile, ws: Workspace, result: Extraction) -> None:
    """SGL001 at a shell-form ``ENTRYPOINT`` when the ``CMD`` it ignores holds an SGLang launch
    (Dockerfile reference, "ENTRYPOINT": the shell form "prevents any CMD command line arguments
    from being used")."""
    from linter.extract.recognized import launches

    if not launches(list(last.cmd or []), source):
        return
    text = last.entrypoint[-1].value if last.entrypoint else None
    words = text.split() if text else []
    wrapper = wrapper_script(words, Path(source.path).parent, ws, tuple(last.copies), workdir=last.workdir) \
        if len(words) == 1 else None
    if wrapper is not None:
        result.related.extend(wrapper.files)
    what = (f"runs the entrypoint wrapper {words[0]} with no arguments: it ends in `exec \"$@\"` and receives no "
            "command, so" if wrapper is not None and wrapper.follows
            else "runs `/bin/sh -c` with its text and ignores CMD:")
    result.problems.append(Problem(
        f"ENTRYPOINT in shell form {what} the SGLang launch in CMD never starts (Docker passes CMD only to "
        "an ENTRYPOINT written as a JSON array)", last.entry_where or Span(source, 0, 0)))


class _Known:
    """The variables an ``ARG``/``ENV`` value is interpolated with: ``env`` (the stage's ``ENV``s)
    over the ``args`` that have a value. A view, not a copy: 20,000 chained ``ARG``s copying the
    ones before each would be quadratic."""

    __slots__ = ("args", "env")

    def __init__(self, args: dict[str, MStr | None], env: dict[str, MStr] | None = None) -> None:
        self.args = args
        self.env = env

    def get(self, name: str, default=None):
        if self.env is not None and name in self.env:
            return self.env[name]
        value = self.args.get(name)
        return default if value is None else value


def _copies(value: MStr, folder: Path, workdir: str | None = None) -> list[tuple[str, str]]:
    """``(container path, host path)`` pairs of a ``COPY``/``ADD`` (shell or JSON form) from the build
    context: a source copied into a folder (``COPY a.sh b/ /app/``, ``COPY a.sh .``) gives both where
    a file of that name lands and where a folder's content lands; a relative destination is in the
    ``WORKDIR`` (none when that is not known); ``--from=`` copies, URLs and globs give none."""
    if value.text.lstrip().startswith("["):
        tokens = json_array(value)[0] or []
    else:
        try:
            tokens = split_words(value)
        except SplitError:
            return []
    words = [t.value for t in tokens]
    if any(w is None for w in words) or any(w.startswith("--from") for w in words):
        return []
    words = [w for w in words if not w.startswith("--")]
    if len(words) < 2:
        return []
    *sources, dst = words
    if not dst.startswith("/"):
        if workdir is None:
            return []
        import posixpath

        folder_like = dst in (".", "./") or dst.endswith(("/", "/."))
        dst = posixpath.normpath(posixpath.join(workdir, dst)) + ("/" if folder_like else "")
    out = []
    for src in sources:
        if any(c in src for c in "*?[") or "://" in src:
            continue
        host = str(folder / src)
        if dst.endswith("/") or len(sources) > 1:
            out.append((dst.rstrip("/") + "/" + src.rstrip("/").rsplit("/", 1)[-1], host))
            out.append((dst.rstrip("/") or "/", host))
        else:
            out.append((dst, host))
    return out


def _launches(argv: list[Token], source: SourceFile, stage: _Stage, where: Span, result: Extraction,
              way=None) -> list[Launch]:
    """The launches of the final argv, through :func:`linter.extract.recognized.launches`; ``way`` the
    path of the entrypoint wrapper that runs it (:class:`linter.passthrough.Wrapper`), None for none."""
    from linter.extract.yamldoc import argv_launches

    key = f"stage {stage.name}" if stage.name else "CMD"
    # A build ARG that no ENV carries over is not in the running container: the CMD's shell sees it
    # empty (Dockerfile reference, "ARG": "not persisted in the final image").
    env = {name: MStr.plain("", where) for name in stage.args if name not in stage.env}
    env.update(stage.env)
    env.update(way.env if way is not None else {})
    out = argv_launches(argv, source, env, result, key, where, image=stage.image)
    # the CMD/ENTRYPOINT instruction (its first line anchors suppressions); a wrapper that passes CMD
    # through on one path only: the launch is that path's
    path = way.path if way is not None else ()
    return [records.replace(launch, span=where, path=path or launch.path) for launch in out]


def _from(value: MStr, stages: list[_Stage], global_args: dict[str, MStr | None], span: Span) -> _Stage:
    """A new stage from ``FROM [--platform=…] IMAGE [AS NAME]``."""
    try:
        words = [w for w in split_words(value) if not w.raw.startswith("--")]
    except SplitError:
        words = []
    name = words[2].raw.lower() if len(words) >= 3 and words[1].raw.lower() == "as" else None
    if not words:
        return _Stage(name, None, span=span)
    image = interpolate(words[0].text, {k: v for k, v in global_args.items() if v is not None})
    for parent in reversed(stages):
        if parent.name is not None and parent.name == image.text.lower():
            return _Stage(name, parent.image, env=dict(parent.env), shell=parent.shell,
                          entrypoint=parent.entrypoint, cmd=parent.cmd, copies=list(parent.copies), span=span,
                          where=parent.where, workdir=parent.workdir, entry_shell=parent.entry_shell,
                          entry_where=parent.entry_where)
    if image.text.lower() == "scratch":
        return _Stage(name, None, span=span)
    return _Stage(name, image, span=span)


def _instructions(structure: list[dict], source: SourceFile, escape: str) -> list[dict]:
    """The instructions of dockerfile-parse's ``structure`` (comments left out), with an instruction
    that dockerfile-parse ends at a blank line inside a continuation joined with what follows: Docker
    skips such blank lines (BuildKit warns "Empty continuation line") and goes on."""
    lines = source.text.split("\n")
    out: list[dict] = []
    for ins in structure:
        if ins["instruction"] == "COMMENT":
            continue
        if out and ins["startline"] > out[-1]["endline"] and _continues(lines, out[-1], ins["startline"], escape):
            out[-1] = {**out[-1], "endline": ins["endline"]}
            continue
        out.append(ins)
    return out


def _continues(lines: list[str], ins: dict, before: int, escape: str) -> bool:
    """True when the last line of ``ins`` that is not blank or a comment ends with the escape
    character, and only blank and comment lines come between it and line ``before``."""
    for n in range(min(before, len(lines)) - 1, ins["startline"] - 1, -1):
        line = lines[n].strip()
        if not line or (n > ins["startline"] and line.startswith("#")):
            continue
        return line.endswith(escape)
    return False


def _line_end(source: SourceFile, line: int) -> int:
    """The offset of the end of 0-based ``line`` (before its line break)."""
    starts = source.line_starts
    end = starts[line + 1] - 1 if line + 1 < len(starts) else len(source.text)
    return end - 1 if end > 0 and source.text[end - 1:end] == "\r" else end


def _comments(source: SourceFile) -> list[Span]:
    """Lines whose first non-blank character is ``#`` (Dockerfile comments; there are no others)."""
    out = []
    for m in re.finditer(r"^[ \t]*(#[^\r\n]*)", source.text, re.MULTILINE):
        out.append(Span(source, m.start(1), m.end(1)))
    return out
