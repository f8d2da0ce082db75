"""GitHub Actions workflows (``.github/workflows/*.yml``): the SGLang launches in ``run:`` steps.

What the runner does (docs.github.com, "Workflow syntax for GitHub Actions"):

* a step's ``run:`` is a script run by ``shell:`` — the step's, else the job's then the workflow's
  ``defaults.run.shell``, else ``bash -e {0}`` on Linux runners; a non-shell interpreter (``python``,
  ``pwsh``, ``cmd``) is not read;
* ``env:`` at workflow, job and step level are the script's variables (the nearer one wins), and a job
  ``container:``'s ``env`` too;
* ``${{ … }}`` expressions are substituted before the script runs, with values the file does not
  hold: unknown;
* a job's ``container:`` (a string or ``{image: …}``) is the image the steps run in, so its tag
  gives the SGLang release;
* ``runs-on`` labels are the runner's names, chosen by whoever set the runners up: never a target GPU
  (a ``# lint-configs: target-gpu=`` comment is).
"""

from __future__ import annotations

from linter.extract import yamldoc as y
from linter.launch import Extraction, MStr
from linter.source import SourceFile
from linter.workspace import Workspace


def _env(node, source: SourceFile, into: dict[str, MStr]) -> dict[str, MStr]:
    out = y.env_section(node, source, into)
    return {k: y.unknown_expressions(v) for k, v in out.items()}


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
    """The launches of a workflow's ``run:`` steps, job by job."""
    result = Extraction()
    root = y.load(source, result)
    if not y.is_map(root):
        return result
    _, wf_env = y.get(root, "env")
    env0 = _env(wf_env, source, {})
    shell0 = _default_shell(root)
    _, jobs = y.get(root, "jobs")
    if not y.is_map(jobs):
        return result
    for job_key, job in y.items(jobs):
        if not y.is_map(job):
            continue
        job_name = y.text(job_key) or "?"
        _, job_env = y.get(job, "env")
        env1 = _env(job_env, source, env0)
        shell1 = _default_shell(job) or shell0
        image = None
        _, container = y.get(job, "container")
        if y.is_str(container):
            image = y.unknown_expressions(y.mstr(container, source))
        elif y.is_map(container):
            _, image_node = y.get(container, "image")
            if y.is_str(image_node):
                image = y.unknown_expressions(y.mstr(image_node, source))
            _, cenv = y.get(container, "env")
            env1 = _env(cenv, source, env1)
        _, steps = y.get(job, "steps")
        if not y.is_seq(steps):
            continue
        for i, step in enumerate(steps.value):
            if not y.is_map(step):
                continue
            _, run = y.get(step, "run")
            if not y.is_str(run):
                continue
            _, step_env = y.get(step, "env")
            env2 = _env(step_env, source, env1)
            _, shell_node = y.get(step, "shell")
            shell = _shell(shell_node) or shell1
            if shell is not None and shell[0].rsplit("/", 1)[-1] not in ("bash", "sh", "dash", "zsh", "ksh"):
                continue
            script = y.unknown_expressions(y.mstr(run, source))
            result.launches.extend(y.script_launches_of(script, run, source, env2, result,
                                                        f"jobs.{job_name}.steps[{i}]", image=image))
    return result
