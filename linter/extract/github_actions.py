"""GitHub Actions workflows (``.github/workflows/*.yml``): the SGLang launches in ``run:`` steps.

What the runner does (docs.github.com, "Workflow syntax for GitHub Actions"):

* a step's ``run:`` is a script run by ``shell:`` — the step's, else the job's then the workflow's
  ``defaults.run.shell``, else ``bash -e {0}`` on Linux runners; a non-shell interpreter (``python``,
  ``pwsh``, ``cmd``) is not read;
* ``env:`` at workflow, job and step level are the script's variables (the nearer one wins), and a job
  ``container:``'s ``env`` too; a name an earlier step of the job may write to ``$GITHUB_ENV`` (``NAME=``
  in a ``run:`` that mentions it) is unknown in the steps after it, unless the step sets it;
* ``${{ … }}`` expressions are substituted before the script runs: ``${{ env.X }}`` and ``${{ matrix.x }}``
  as :mod:`linter.extract.gha_context` reads them from the file, every other one unknown. A step whose
  text reads matrix values that differ between the job's legs is one launch per distinct set of them
  (at most :data:`~linter.limits.MAX_PATH_VARIANTS`; past it those values are unknown), each with the
  leg's conditions as its path ("`matrix.backend` is `fa4`"), so a finding on some legs only is a
  warning that names them (a step whose ``if:`` reads the matrix runs on some legs only: its matrix
  values are unknown);
* a job's ``container:`` (a string or ``{image: …}``) is the image the steps run in, so its tag
  gives the SGLang release;
* ``runs-on`` labels are the runner's names, chosen by whoever set the runners up: never a target GPU
  (a ``# lint-configs: target-gpu=`` comment is).
"""

from __future__ import annotations

import re

from linter import limits
from linter.extract import gha_context as gha
from linter.extract import yamldoc as y
from linter.launch import Extraction, MStr
from linter.records import replace
from linter.source import SourceFile, Span
from linter.workspace import Workspace

_ASSIGNED = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)=")


def _env(node, source: SourceFile, into: dict[str, MStr], matrix: gha.Leg | None = None,
         env: dict[str, MStr] | None = None) -> dict[str, MStr]:
    """``into`` with the variables of an ``env:`` section over it, each value's expressions
    substituted (:func:`linter.extract.gha_context.substitute`) with the contexts available there."""
    out = y.env_section(node, source, into)
    mine = y.env_section(node, source, {})
    return {k: gha.substitute(v, matrix, env) if k in mine else v for k, v in out.items()}


def _shell(node) -> list[str] | None:
    """The shell a ``defaults.run`` or step names, as words (``bash -l {0}`` → ``["bash", "-l", "{0}"]``)."""
    words = (y.text(node) or "").split()
    return words or None


def _default_shell(owner) -> list[str] | None:
    _, defaults = y.get(owner, "defaults")
    if y.is_map(defaults):
        _, run = y.get(defaults, "run")
        if y.is_map(run):
            _, shell = y.get(run, "shell")
            return _shell(shell)
    return None


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of a workflow's ``run:`` steps, job by job (per matrix leg where the step's values
    differ between legs)."""
    result = Extraction()
    root = y.load(source, result)
    if not y.is_map(root):
        return result
    _, wf_env = y.get(root, "env")
    env0 = _env(wf_env, source, {})  # (no matrix nor env context at workflow level)
    shell0 = _default_shell(root)
    _, jobs = y.get(root, "jobs")
    if not y.is_map(jobs):
        return result
    for job_key, job in y.items(jobs):
        if y.is_map(job):
            _job(y.text(job_key) or "?", job, source, env0, _default_shell(job) or shell0, result)
    return result


def _job(job_name: str, job, source: SourceFile, env0: dict[str, MStr], shell1, result: Extraction) -> None:
    """The launches of one job's ``run:`` steps into ``result``."""
    _, steps = y.get(job, "steps")
    if not y.is_seq(steps):
        return
    legs = gha.legs(job, source)
    written: dict[str, Span] = {}  # names earlier steps may write to $GITHUB_ENV -> where
    for i, step in enumerate(steps.value):
        if not y.is_map(step):
            continue
        _, run = y.get(step, "run")
        if not y.is_str(run):
            continue
        _, shell_node = y.get(step, "shell")
        shell = _shell(shell_node) or shell1
        if shell is None or shell[0].rsplit("/", 1)[-1] in ("bash", "sh", "dash", "zsh", "ksh"):
            key = f"jobs.{job_name}.steps[{i}]"
            for path, leg in _variants(job, step, run, legs):
                found = _step_launches(job, step, run, source, env0, leg, written, result, key)
                # (the leg's conditions before those of the script's own paths)
                result.launches.extend(replace(launch, path=path + launch.path) if path else launch
                                       for launch in found)
        if "GITHUB_ENV" in str(run.value):
            at = Span(source, run.start_mark.index, run.end_mark.index)
            for name in _ASSIGNED.findall(str(run.value)):
                written.setdefault(name, at)


def _step_launches(job, step, run, source: SourceFile, env0: dict[str, MStr], leg: gha.Leg | None,
                   written: dict[str, Span], result: Extraction, key: str):
    """The launches of one ``run:`` step along one matrix leg (``leg``: None when the matrix values it
    reads are not known)."""
    _, job_env = y.get(job, "env")
    ctx1 = _env(job_env, source, env0, leg)  # the env context: workflow and job env (not the container's)
    shell1 = dict(ctx1)
    image = None
    _, container = y.get(job, "container")
    if y.is_str(container):
        image = gha.substitute(y.mstr(container, source), leg)
    elif y.is_map(container):
        _, image_node = y.get(container, "image")
        if y.is_str(image_node):
            image = gha.substitute(y.mstr(image_node, source), leg)
        _, cenv = y.get(container, "env")
        shell1 = _env(cenv, source, shell1, leg)
    _, step_env = y.get(step, "env")
    own = y.env_section(step_env, source, {})
    for name, at in written.items():  # set by an earlier step (or not): not known, unless the step sets it
        if name not in own:
            ctx1[name] = shell1[name] = MStr.unknown(at)
    # in a step's own env values, env.X is the job's X only where the step does not set X itself
    ctx2 = _env(step_env, source, ctx1, leg, {k: v for k, v in ctx1.items() if k not in own})
    shell2 = _env(step_env, source, shell1, leg, {k: v for k, v in ctx1.items() if k not in own})
    script = gha.substitute(y.mstr(run, source), leg, ctx2)
    return y.script_launches_of(script, run, source, shell2, result, key, image=image)


def _variants(job, step, run, legs: list[gha.Leg] | None) -> list[tuple[tuple[str, ...], gha.Leg | None]]:
    """``(path, leg)`` per distinct set of the matrix values a step reads (in its ``run:``, its
    ``env:``, the job's container image, and the job and container ``env:`` values its text names),
    the leg holding just those; one ``((), leg)`` when they are the same on every leg, one ``((),
    None)`` (unknown) when the matrix is not literal, the step's ``if:`` reads the matrix (it runs on
    some legs only), or they make more than :data:`~linter.limits.MAX_PATH_VARIANTS` sets."""
    keys = _read_keys(job, step, run)
    _, when = y.get(step, "if")
    if not keys or legs is None or "matrix" in (y.text(when) or ""):
        return [((), None)]  # (a step run on some legs only, ``if: matrix.x == …``: not known which)
    sets: dict[tuple, gha.Leg] = {}
    for leg in legs:
        got = {k: v for k, v in leg.items() if k.lower() in keys}  # (in the matrix's order)
        sets.setdefault(tuple((k.lower(), v.text) for k, v in got.items()), got)
        if len(sets) > limits.MAX_PATH_VARIANTS:
            return [((), None)]
    if len(sets) == 1:
        return [((), next(iter(sets.values())))]
    return [(tuple(gha.label(k, v) for k, v in leg.items()) +
             tuple(f"`matrix.{k}` is not set" for k in sorted(keys) if k not in {x.lower() for x in leg}), leg)
            for leg in sets.values()]


def _read_keys(job, step, run) -> set[str]:
    """The matrix keys (lower-cased) a step's launch may read (see :func:`_variants`)."""
    texts = [str(run.value)]
    _, step_env = y.get(step, "env")
    texts += [str(v.value) for _, v in y.items(step_env) if y.is_str(v)] if y.is_map(step_env) else []
    _, container = y.get(job, "container")
    sections = [y.get(job, "env")[1]]
    if y.is_str(container):
        texts.append(str(container.value))
    elif y.is_map(container):
        _, image = y.get(container, "image")
        texts += [str(image.value)] if y.is_str(image) else []
        sections.append(y.get(container, "env")[1])
    said = "\n".join(texts)
    for section in sections:
        if y.is_map(section):
            texts += [str(v.value) for k, v in y.items(section)
                      if y.is_str(v) and y.text(k) and re.search(rf"\b{re.escape(y.text(k))}\b", said)]
    return set().union(*(gha.matrix_keys(t) for t in texts))
