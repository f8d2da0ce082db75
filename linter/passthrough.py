"""Wrapper entrypoint scripts that pass their arguments through (issue 35, bullet 4).

Container images often start with a script of the repository — compose ``entrypoint:
["/app/entrypoint.sh"]``, a Kubernetes ``command: ["./entrypoint.sh"]``, a Dockerfile ``ENTRYPOINT
["/entrypoint.sh"]`` — that prepares the environment and ends in ``exec "$@"``: the container's
command (compose ``command:``, Kubernetes ``args:``, the Dockerfile's ``CMD``) is what runs, with
the variables the script exports. Such a script is found on the host (a path relative to the file
that names it, or through the bind mounts / ``COPY`` instructions that put it in the container) and
read as text through the workspace, so a script outside the run's root is never read
(:mod:`linter.boundary`); it is never run. It is read with the shell format's parser
(:mod:`linter.extract.shell`): only its top-level commands count — the last one must be ``exec
"$@"`` (``exec "${@}"``, ``"$@"``), no top-level ``exit`` or ``exec COMMAND`` may come before it,
top-level ``shift [N]`` drops the first arguments, and its top-level ``export NAME=VALUE`` commands
(not text in a heredoc) give the environment. The one implementation for compose, Kubernetes and
Dockerfiles; it sits in the formats layer because it reads shell.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from linter.launch import MStr
from linter.records import dataclass
from linter.source import SourceFile, Span

_PASS = (("exec", '"$@"'), ("exec", '"${@}"'), ('"$@"',), ('"${@}"',))
"""The words of a last command that passes the script's arguments through."""

_SHELLS = {"sh", "bash", "dash", "/bin/sh", "/bin/bash", "/usr/bin/sh", "/usr/bin/bash"}
_ENV = {"env", "/usr/bin/env", "/bin/env"}


@dataclass(frozen=True)
class Wrapper:
    """A wrapper script found at the start of an entrypoint: ``taken`` words (the script and a shell
    before it) to drop, ``env`` the variables it exports (name -> value with its origin in the
    script), ``source`` the script (a file the launch depends on), ``shift`` how many of its
    arguments it drops (top-level ``shift``) before passing the rest through."""

    taken: int
    source: SourceFile
    env: dict[str, MStr] = field(default_factory=dict)
    shift: int = 0

    def passed(self, words: list) -> list:
        """The command the script runs, given ``words`` (the entrypoint's words and the command's)."""
        return words[self.taken + self.shift:]


@dataclass(frozen=True)
class Reading:
    """What :func:`read_script` finds: whether the script passes its arguments through, how many it
    shifts away first, and its exports."""

    passes: bool
    shift: int = 0
    env: dict[str, MStr] = field(default_factory=dict)


def passes_through(text: str) -> bool:
    """The script ``text`` ends in ``exec "$@"`` with no top-level ``exit`` or ``exec COMMAND``
    before it (see :func:`read_script`)."""
    return read_script(SourceFile(None, "script", text)).passes


def exported(source: SourceFile) -> dict[str, MStr]:
    """The values of the script's top-level ``export NAME=VALUE`` commands (the last one wins)."""
    return read_script(source, need_pass=False).env


def read_script(source: SourceFile, need_pass: bool = True) -> Reading:
    """Read the script ``source`` with the shell parser (never run): :class:`Reading`. A script with a
    syntax error, one whose last top-level command is not ``exec "$@"``, or one that exits, runs
    another command with ``exec``, changes its arguments (``set --``, a ``shift`` not at top level)
    or shifts by an unknown count before it, does not pass through."""
    from linter.extract.shell.document import Doc, named_kids, parse_script
    from linter.extract.shell.env import Env
    from linter.extract.shell.errors import first_error
    from linter.extract.shell.expand import Expander, scalar

    doc = Doc(source, source.text, None, Span(source, 0, 0))
    root = parse_script(doc.data).root_node
    top = [n for n in named_kids(root) if n.type != "comment"]
    expand, env, out = Expander(doc), Env(), {}
    shift, passes = 0, bool(top) and first_error(root, doc.data) is None
    for k, node in enumerate(top):
        last = k == len(top) - 1
        cmd = node.named_children[0] if node.type == "redirected_statement" and node.named_children else node
        words = _words(doc, cmd) if cmd.type == "command" else None
        if last and need_pass:
            passes = passes and words is not None and tuple(words) in _PASS
            break
        if words:
            if words[0] == "exit" or (words[0] == "exec" and len(words) > 1) or words[:2] == ["set", "--"]:
                passes = False
            elif words[0] == "shift":
                n = words[1] if len(words) > 1 else "1"
                passes, shift = passes and n.isdigit(), shift + (int(n) if n.isdigit() else 0)
        elif cmd.type == "declaration_command" and doc.node_text(cmd).split(None, 1)[0] == "export":
            for a in cmd.named_children:
                name, value = a.child_by_field_name("name"), a.child_by_field_name("value")
                if a.type != "variable_assignment" or name is None or name.type != "variable_name":
                    continue
                if value is None:
                    m = MStr.plain("", doc.where(*doc.rng(a)))
                else:
                    m = scalar(expand.segs(value, env), doc.where(*doc.rng(value)))
                out[doc.node_text(name)] = m
                env.set(doc.node_text(name), m, export=True)
        elif _changes_arguments(doc, node):
            passes = False
    return Reading(passes, shift, out)


def _words(doc, cmd) -> list[str]:
    """The words of a simple command as written."""
    name = cmd.child_by_field_name("name")
    return ([doc.node_text(name)] if name is not None else []) + \
        [doc.node_text(a) for a in cmd.children_by_field_name("argument")]


def _changes_arguments(doc, node) -> bool:
    """A ``shift`` or ``set --`` inside a compound command (not a function's body): the script's
    arguments after it are not known."""
    stack = list(node.named_children)
    while stack:
        n = stack.pop()
        if n.type == "function_definition":
            continue
        if n.type == "command":
            words = _words(doc, n)
            if words and (words[0] == "shift" or words[:2] == ["set", "--"]):
                return True
        stack.extend(n.named_children)
    return False


def wrapper_script(words: list[str | None], folder: Path, ws, mounts: tuple = (), tokens: list | None = None) \
        -> Wrapper | None:
    """When ``words`` (an entrypoint's words, None where unknown) start with a script of the repository
    that passes its arguments through (``./entrypoint.sh``, ``bash /app/entrypoint.sh`` with ``/app``
    mounted or copied from the repository), that script; None otherwise. ``folder`` is the naming
    file's folder; ``mounts`` its ``(container path, host path)`` pairs; ``ws`` the run's
    :class:`~linter.workspace.Workspace` (None: nothing is read), which refuses a script outside the
    root (SGL005 at the word of ``tokens``, the :class:`~linter.launch.Token` of each word, that
    names it)."""
    i = 0
    if words and words[0] in _ENV and len(words) > 1:
        i = 1
    if len(words) > i + 1 and words[i] in _SHELLS:
        i += 1
    if not words or i >= len(words) or words[i] is None or ws is None:
        return None
    name = words[i]
    path = None
    if name.startswith("/"):
        for dst, src in sorted(mounts, key=lambda m: -len(m[0])):
            if name == dst or name.startswith(dst.rstrip("/") + "/"):
                path = Path(src) / name[len(dst):].lstrip("/")
                break
    else:
        path = folder / name
    if path is None:
        return None
    from linter.boundary import referenced_at

    # a script outside the root is never read: SGL005 at the entrypoint word that names it, as for a
    # compose include (a missing file is no finding: the entrypoint may be a program of the image)
    with referenced_at(tokens[i].span_of() if tokens is not None and i < len(tokens) else None):
        if ws.refuse(path):
            return None
    source = ws.try_read(path, quiet=True)
    if source is None:
        return None
    reading = read_script(source)
    return Wrapper(i + 1, source, reading.env, reading.shift) if reading.passes else None
