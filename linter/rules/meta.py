"""Codes the linter itself reports about files and declarations: SGL000 to SGL005.

They have no ``check``: the engine emits them (a parse problem, a suppression that suppresses
nothing, a target GPU the catalog does not know) through the functions at the end of this module,
which say how each finding is made.
"""

from __future__ import annotations

import re

from linter.rules.base import Diagnostic, Rule, Severity
from linter.source import SourceFile, Span

TYPE_CHECKING = False  # typing is imported only by type checkers (8 ms at start-up)
if TYPE_CHECKING:
    from linter.launch import GpuDecl


class InternalError(Rule):
    """lint-configs itself failed on this file.

    ## What it does
    Reports an unexpected exception raised while reading, extracting, checking or fixing one file,
    at the top of that file. The other files are still linted and fixed; the run exits with 2
    after reporting everything else. ``LINT_CONFIGS_DEBUG=1`` prints the traceback.

    ## Why it fails
    It is a bug in lint-configs: please report it with the file (or a reduced copy). Launches in
    the file went unchecked.

    ## Fix safety
    No fix. It cannot be selected away or suppressed.
    """

    code = "SGL000"
    name = "internal-error"
    summary = "lint-configs failed on this file (a bug: please report it)"


class UnparseableFile(Rule):
    """A file of a linted format cannot be parsed, or only partly.

    ## What it does
    Reports the parser's problem position in a compose, shell or Python file that lint-configs
    cannot read (a YAML syntax error, unbalanced quotes in a command string, a Python syntax error,
    text that is not UTF-8). The run goes on with the other files; launches that could still be
    read in a partly readable file are linted.

    ## Why it fails
    Docker compose, bash and Python would reject the file too, and any launch in it goes unchecked.

    ## Fix safety
    No fix.
    """

    code = "SGL001"
    name = "unparseable-file"
    summary = "a file of a linted format cannot be parsed"


class UnusedSuppression(Rule):
    """A ``# lint-configs: ignore[CODE]`` comment that suppresses nothing, or names an unknown code;
    a ``# lint-configs: target-gpu=`` comment in a file with no SGLang launch.

    ## What it does
    Reports a suppression comment whose codes match no finding on its line, the line below, or the
    launch that starts there, and a suppression naming a code or rule name that does not exist. Also
    reports a target-GPU declaration in a file where the linter finds no SGLang launch: it declares
    the target of nothing.

    ## Why it fails
    A stale suppression hides the next real finding at that place, and a misspelt code suppresses
    nothing while looking as if it did. A target declared where no launch is found gives the
    impression that the launch it was meant for (in another file, or one the linter does not
    recognise) is checked for that GPU.

    ## Fix safety
    No automatic fix: the comment may hold a reason someone wants to keep.

    ## References
    - ruff RUF100 (unused-noqa)
    """

    code = "SGL002"
    name = "unused-suppression"
    severity = Severity.WARNING
    summary = "a suppression or target-gpu comment that applies to nothing, or names an unknown code"


class UnknownGpu(Rule):
    """A target GPU name the catalog does not know.

    ## What it does
    Reports a GPU named in a ``lint-configs: target-gpu=`` directive or another declaration
    (``#SBATCH --gres``, Modal ``gpu=``) that the GPU catalog (``linter/gpus/catalog.json``) does not
    know, or that names a family rather than a GPU ("Blackwell" covers SM100 and SM120 parts). The
    target counts as unknown, so findings that depend on it become SGL901.

    ## Why it fails
    The linter cannot tell which compute capability the launch will meet.

    ## Fix safety
    No fix; name the product (``B200``, ``RTX PRO 6000 Blackwell``, ``NVIDIA-H100-80GB-HBM3`` …).
    """

    code = "SGL003"
    name = "unknown-gpu"
    severity = Severity.WARNING
    summary = "a target GPU name the catalog does not know"


class InputTooLarge(Rule):
    """An input past one of lint-configs' limits (``linter/limits.py``).

    ## What it does
    Reports, at the place it was reached, an input that goes past a budget: a line longer than
    ``MAX_LINE_CHARS``, YAML merges or aliases expanding past ``MAX_YAML_NODES``, a launch with more
    than ``MAX_WORDS_PER_LAUNCH`` words, a model ``config.json`` larger or deeper than its limits,
    nesting deeper than a parser follows — or the budget each file gives its expanders (shell,
    Python, Kubernetes ``$(VAR)``, Helm, Dockerfile ``ARG``/``ENV``, compose, a ``--config`` file): a
    value longer than ``MAX_EXPANSION_CHARS``, expansions together past ``MAX_EXPANDED_CHARS``,
    evaluation past ``MAX_EVAL_STEPS`` (loops, includes, ranges), includes nested past
    ``MAX_INCLUDE_DEPTH`` or ``MAX_TEMPLATE_DEPTH``. Each is checked before the value is built and
    reported once per file, naming the limit and its value. The part past the limit is treated as
    unknown (a value, a loop's variables, the launches past it go unchecked); the rest of the file
    is linted.

    ## Why it fails
    No real deployment file comes near these limits; a file that does is generated, damaged or
    hostile, and following it would cost unbounded time or memory.

    ## Fix safety
    No fix.
    """

    code = "SGL004"
    name = "input-too-large"
    severity = "warning"
    summary = "an input past one of lint-configs' size, depth or expansion limits"


class OutsideRoot(Rule):
    """A file refers to a file outside the repository being linted; it was not read.

    ## What it does
    Reports a reference that points outside the run's root (the repository holding the linted
    paths, as ``git rev-parse --show-toplevel`` finds it; else the current folder; ``--root`` sets
    it): a compose ``include:``, ``extends: file:``, ``env_file:`` or ``COMPOSE_FILE`` entry, a
    launch's ``--config`` file, a model folder named by a relative path, a Python import, a Helm
    chart's files — followed by ``..``, an absolute path or a symbolic link. The file is not read:
    whatever values it would have given the launch are unknown, and ``--fix`` never writes there.

    ## Why it fails
    lint-configs runs on pull requests from people the repository's owners may not trust, in CI logs
    that may be public. Reading a file because a linted file names it would let a pull request make
    the linter read — and quote in its report — any file the CI runner can read, and let ``--fix``
    rewrite it.

    ## Example
    ```yaml
    services:
      sglang:
        env_file: ../../secrets/prod.env   # SGL005: outside the repository, not read
    ```

    ## Fix safety
    No fix. Keep the referenced file in the repository, name it on the command line (a path you
    name is read wherever it is), or run with ``--allow-outside-root`` where the files are trusted
    (never in a job that lints pull requests). An absolute ``--model-path`` or ``--config`` inside a
    launch names the machine the server runs on, not this one: it is not read and not reported.
    """

    code = "SGL005"
    name = "outside-root"
    severity = "warning"
    summary = "a reference to a file outside the repository (not read)"


# -- the findings themselves: what the engine reports about a file, as functions of what it read ----

_CONFLICT = re.compile(r"^(?:<{7}|>{7})(?: |$)", re.MULTILINE)
"""git's conflict markers at the start of a line (git-merge(1), "How conflicts are presented")."""


def finding(rule: type[Rule], message: str, span: Span, key: str = "") -> Diagnostic:
    """A diagnostic of one of these rules at ``span``; ``key`` tells findings of one code apart (a GPU
    name, a directive's target) for suppressions and deduplication."""
    return Diagnostic(rule.code, rule.name, rule.severity, message, span, key=key or rule.code)


def file_problems(source: SourceFile, problems: list, malformed: list[tuple[Span, str]]) -> list[Diagnostic]:
    """SGL001 for git's merge-conflict markers (when the reader did not already say so) and for each
    problem the format's reader found (:class:`linter.launch.Problem`: a message and a span); SGL002
    for each malformed ``lint-configs:`` directive (span, message)."""
    diags: list[Diagnostic] = []
    marker = _CONFLICT.search(source.text)
    if marker is not None and not any("conflict" in p.message for p in problems):
        # git's markers make the file two versions at once: say so first (the parser's own error,
        # if any, follows); --fix never writes into such a file.
        diags.append(finding(UnparseableFile, "unresolved merge conflict markers (from a git merge): resolve "
                             "the conflict; the file is read as written and never fixed",
                             Span(source, marker.start(), marker.start())))
    diags += [finding(UnparseableFile, p.message, p.span) for p in problems]
    diags += [finding(UnusedSuppression, message, span) for span, message in malformed]
    return diags


def unused_targets(targets: list[GpuDecl]) -> list[Diagnostic]:
    """SGL002 for each ``target-gpu=`` directive (a :class:`linter.launch.GpuDecl` with a span) of a
    file in which no launch was found."""
    return [finding(UnusedSuppression, f"unused target-gpu directive: no SGLang launch found in this file, so "
                                       f"{d.name!r} is the target of nothing", d.span, key=f"target:{d.name}")
            for d in targets if d.span is not None]


def unknown_gpus(decls: list[GpuDecl]) -> list[Diagnostic]:
    """SGL003 for each written GPU declaration the catalog (:mod:`linter.gpus.catalog`) does not know."""
    from linter.gpus.catalog import lookup, why_unknown

    return [finding(UnknownGpu, f"unknown target GPU {d.name!r}: {why_unknown(d.name)}; launches here "
                               "are checked as if the GPU were unknown", d.span, key=f"gpu:{d.name}")
            for d in decls if d.span is not None and lookup(d.name) is None]
