"""Shell and Slurm scripts: the SGLang launches in ``*.sh``/``*.bash``/``*.slurm``/``*.sbatch`` files
and sh/bash/zsh-shebang scripts, read with tree-sitter-bash (error-tolerant, byte spans).

What this module reproduces of bash, for straight-line code and without running anything:

* **Launches** are simple commands whose program, after prefixes (``VAR=value``, ``env [-i] [VAR=value…]``,
  ``exec``, ``nohup``, ``time``, ``command``, ``timeout DURATION``, ``numactl …``, ``taskset …``,
  ``stdbuf …``, ``nice``, ``sudo``), is an SGLang entry point — wherever the command stands (lists,
  pipelines, ``&``, subshells, ``$(…)``, function bodies, loops, each branch of ``if``/``case``). Wrapped
  commands are unwrapped: ``docker``/``podman run [options] IMAGE …`` and ``docker exec [options]
  CONTAINER …``; ``apptainer``/``singularity exec``; ``srun``/``salloc``/``mpirun``/``torchrun``/
  ``deepspeed``/``accelerate launch`` with their options; ``ray job submit … --``, ``kubectl exec … --``;
  ``bash -c STRING``, ``sh -c STRING``, ``sbatch --wrap=STRING`` and ``ssh [options] HOST STRING…``,
  whose string is parsed again as shell with every character mapped back to the outer file.
  Comments, heredoc bodies, ``echo``/``printf`` text and other programs' flags are not launches.
* **Values**: variables assigned earlier in the file (``X=…``, ``X+=…``, ``export``/``readonly``/
  ``declare``/``local``/``typeset``, ``${X:=d}``), arrays ``A=(…)``/``A+=(…)`` with ``"${A[@]}"`` (one
  word per element) and ``${A[*]}``, ``'…'``, ``"…"``, ``$'…'`` and ``$"…"`` quoting, backslash escapes,
  line continuations, ``${X:-d}``/``${X-d}``/``${X:+x}``/``${X+x}``/``${X:?}``, and field splitting of
  unquoted expansions (an unknown unquoted expansion standing alone is a *splat*: any number of
  words). After ``if``/``case``/``&&``/``||`` a variable assigned differently on the paths is unknown;
  a variable assigned in a loop is unknown after it (and in it, when a later iteration can see another
  value), except that a ``for`` over known words runs its body once per word (nested ones too, while
  the product stays within ``limits.MAX_PATH_VARIANTS``). Brace expansion of unquoted words
  (``{a,b}``, ``{1..3}``; :mod:`.braces`) makes their words. Functions are analysed with the
  variables at their call sites (merged), or at their definition when never called. ``$1``, ``$@``, ``$(…)``, arithmetic and anything the file does not assign
  are unknown — except that a default written in the file (``${X:-d}``, ``${X:=d}`` for a variable the
  file never assigns) is taken as the value, as DESIGN.md says; ``${X:+x}`` of such a variable stays
  unknown. A ``bash -c``/``ssh`` string sees only exported variables (``docker run`` only its ``-e``
  ones). An unknown value is never guessed, and a value written in several places is known but not
  editable.
* **Target GPUs**: ``#SBATCH`` directives before the first command, and ``sbatch``/``srun``/``salloc``
  options anywhere: ``--gres=gpu:TYPE[:N]``, ``--gpus``/``-G``/``--gpus-per-node``/``--gpus-per-task``/
  ``--gpus-per-socket`` ``TYPE:N``, ``--tres-per-task``/``--tres-per-node`` ``gres/gpu:TYPE:N``, and
  ``--constraint``/``-C`` features that name a GPU (``h100|h200`` gives two candidates). A bare count
  (``--gres=gpu:8``, ``docker run --gpus all``) declares nothing.

Every token keeps, for each character, its origin in the file, also through variables, defaults and
``bash -c`` strings, so a fix edits the literal where the value was written.

A script tree-sitter cannot parse cleanly still yields the launches in its well-formed parts, and a
:class:`~linter.launch.Problem` (SGL001) at the first ``ERROR``/``MISSING`` node (past the complete
statements an ``ERROR`` node holds); the command that holds the error is not a launch (bash runs no
command its parser stops in), so SGL001 is never reported on a launch the linter analysed. The
syntax check agrees with ``bash -n`` on every ``$`` form (``$:``, ``$$``, ``$'…'``, ``$"…"``, ``${#x}``
…; :func:`~linter.extract.shell.document.parse_script`) and on what bash parses only when it runs
it (heredoc bodies, backquotes, ``${…}`` words; :func:`~linter.extract.shell.errors.first_error`). Not followed: ``source``d files, ``eval``, heredocs fed to a
shell, and what a called function assigns (those variables become unknown after the call).

The package, by job: :mod:`.document` (the text a parse works on), :mod:`.expand` (quoting and word
expansion), :mod:`.env` (variables and their merge), :mod:`.walker` and :mod:`.commands` (the walk in
execution order), :mod:`.errors` (syntax errors, comments, ``#SBATCH``).
"""

from __future__ import annotations

from linter import limits
from linter.extract.shell.document import Doc, named_kids, parse_script
from linter.extract.shell.env import Env
from linter.extract.shell.errors import comments_of, error_message, first_error, sbatch_counts, sbatch_directives
from linter.extract.shell.walker import Shared, walk_all
from linter.launch import Extraction, Launch, MStr, Problem, Token, hull
from linter.source import SourceFile, Span

__all__ = ["extract", "launches_in_script", "parse_script", "script_launches"]


@limits.budgeted
def extract(source: SourceFile, ws=None) -> Extraction:
    """The launches, GPU declarations, comments and syntax problems of a shell script."""
    doc = Doc(source, source.text, None, Span(source, 0, 0))
    tree = parse_script(doc.data)
    root = tree.root_node
    shared = Shared(source)
    walk_all(shared, doc, root, Env())
    result = Extraction(launches=sorted(shared.launches, key=lambda launch: launch.span.start))
    comments = comments_of(root, doc)
    result.comments = comments
    first_command = next((doc.c(c.start_byte) for c in named_kids(root) if c.type != "comment"),
                         len(source.text))
    result.gpu_decls = sbatch_directives(source, comments, first_command)
    result.gpu_counts = sbatch_counts(source, comments, first_command)
    keys = {(d.name, d.span.key() if d.span else None) for d in result.gpu_decls}
    for d in shared.decls:
        if (d.name, d.span.key() if d.span else None) not in keys:
            result.gpu_decls.append(d)
    result.problems.extend(shared.problems)
    bad = first_error(root, doc.data)
    if bad is not None:
        message, i = error_message(bad, doc)
        result.problems.insert(0, Problem(message, Span(source, i, i)))
        # bash runs no command its parser stops in: a launch holding the error is not a launch
        result.launches = [launch for launch in result.launches if not _holds(launch.span, source, i)]
    return result


def _holds(span: Span, source: SourceFile, i: int) -> bool:
    # to the end of the launch's last line: tree-sitter's recovery may leave the erroneous words
    # (`--port $((1+2)`) out of the command node, and bash stops on that line all the same
    if span.source is not source or i < span.start:
        return False
    eol = source.text.find("\n", span.end)
    return i <= (len(source.text) if eol < 0 else eol)


def launches_in_script(script: MStr, source: SourceFile, env: dict[str, MStr] | None = None,
                       problems: list[Problem] | None = None) -> list[tuple[str, list[Token], MStr | None]]:
    """(program, server-argument tokens, image) of each SGLang launch in a shell script given as an
    :class:`MStr` (a compose ``sh -c`` string), with every character mapped back to ``source``.
    ``env`` holds the variables the script's process starts with (a compose service's
    ``environment``/``env_file``); shell syntax errors of a fully known script are appended to
    ``problems`` (located through the script's origins)."""
    return [(launch.program, launch.args, launch.image) for launch in script_launches(script, source, env, problems)]


def script_launches(script: MStr, source: SourceFile, env: dict[str, MStr] | None = None,
                    problems: list[Problem] | None = None) -> list[Launch]:
    """The launches of a shell script as :func:`launches_in_script` finds them, each a
    :class:`~linter.launch.Launch` with what the script gives it besides its arguments: its image,
    its GPU counts (``CUDA_VISIBLE_DEVICES``, ``docker run --gpus``, ``srun`` options) and whether it
    runs in the background."""
    fallback = script.where or hull([Span(src, off, off + n) for n, src, off, _ in script.runs if src is not None]) \
        or Span(source, 0, 0)
    doc = Doc(source, script.text, script, fallback)
    tree = parse_script(doc.data)
    shared = Shared(source)
    start = Env({k: v for k, v in (env or {}).items()}, exported=set(env or ()))
    walk_all(shared, doc, tree.root_node, start, launch_span=fallback)
    if problems is not None:
        problems.extend(p for p in shared.problems if p.span.source is source)
        bad = first_error(tree.root_node, doc.data) if script.known else None
        if bad is not None:
            message, i = error_message(bad, doc)
            origin = doc.origin(i) if i < len(doc.text) else None
            at = Span(source, origin[1], origin[1]) if origin is not None and origin[0] is source else fallback
            problems.append(Problem(f"{message} (in the shell command string)", at))
            if at is not fallback:
                shared.launches = [launch for launch in shared.launches if not _holds(launch.span, source, at.start)]
    return list(shared.launches)
