"""GitLab CI/CD pipelines (``.gitlab-ci.yml``): the SGLang launches in jobs' scripts.

What GitLab does (docs.gitlab.com, "CI/CD YAML syntax reference"):

* every top-level key that is not a global keyword is a job; a key starting with ``.`` is a hidden
  job (a template for ``extends:``), not run by itself;
* a job runs ``before_script`` and ``script`` in one shell (variables flow from one to the other) and
  ``after_script`` in a fresh one; each is a string or a list of lines. ``default:`` gives
  ``image``/``before_script``/``after_script`` to jobs that have none, and ``extends:`` takes the
  keys a job lacks from the named jobs (mappings such as ``variables`` merged, the job's own winning);
* ``variables:`` at the top level and in a job (the job's win) are the scripts' variables, as
  ``NAME: value`` or ``NAME: {value: …, description: …}``;
* ``image:`` (a string or ``{name: …}``) is the image the job runs in, so its tag gives the release;
* runner ``tags:`` name runners, never a target GPU (a ``# lint-configs: target-gpu=`` comment does).
"""

from __future__ import annotations

from linter.extract import yamldoc as y
from linter.launch import Extraction, MStr
from linter.source import SourceFile
from linter.workspace import Workspace

GLOBAL_KEYWORDS = frozenset({"default", "include", "stages", "variables", "workflow", "image", "services", "cache",
                             "before_script", "after_script", "spec"})
"""Top-level keys that are not jobs (GitLab "Global keywords"; ``image`` … are deprecated globals)."""


def _job_keys(job, jobs: dict, depth: int = 0) -> tuple[dict, list]:
    """A job's keys with ``extends:`` applied (the extended jobs' keys in order, then the job's own,
    which win) and its ``variables`` sections in the order they apply (GitLab merges them)."""
    keys: dict = {}
    variables: list = []
    _, ext = y.get(job, "extends")
    names = [y.text(n) for n in (ext.value if y.is_seq(ext) else [ext])] if ext is not None else []
    for name in names:
        parent = jobs.get(name)
        if parent is not None and parent is not job and depth < 10:
            pkeys, pvars = _job_keys(parent, jobs, depth + 1)
            keys.update(pkeys)
            variables.extend(pvars)
    own = {y.text(k): v for k, v in y.items(job) if y.text(k) is not None}
    keys.update(own)
    if "variables" in own:
        variables.append(own["variables"])
    return keys, variables


def _image(node, source: SourceFile) -> MStr | None:
    if y.is_map(node):
        _, node = y.get(node, "name")
    return y.mstr(node, source) if y.is_str(node) else None


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of a pipeline's jobs (see the module docstring)."""
    result = Extraction()
    root = y.load(source, result)
    if not y.is_map(root):
        return result
    top = {y.text(k): v for k, v in y.items(root) if y.text(k) is not None}
    env0 = y.env_section(top.get("variables"), source)
    default = top.get("default")
    defaults = {y.text(k): v for k, v in y.items(default) if y.text(k) is not None} if y.is_map(default) else {}
    for key in ("image", "before_script", "after_script"):
        if key not in defaults and key in top:
            defaults[key] = top[key]
    jobs = {name: node for name, node in top.items() if name not in GLOBAL_KEYWORDS and y.is_map(node)}
    for name, job in jobs.items():
        if name.startswith("."):
            continue
        keys, sections = _job_keys(job, jobs)
        env = env0
        for section in sections:
            env = y.env_section(section, source, env)
        image = _image(keys.get("image", defaults.get("image")), source)
        before = keys.get("before_script", defaults.get("before_script"))
        parts = [s for s in (y.script_of(before, source) if before is not None else None,
                             y.script_of(keys.get("script"), source)) if s is not None]
        if parts:
            main = parts[0] if len(parts) == 1 else MStr.join([parts[0], MStr.plain("\n", parts[1].where), parts[1]],
                                                              parts[1].where)
            node = keys.get("script") if keys.get("script") is not None else before
            result.launches.extend(y.script_launches_of(main, node, source, env, result, f"{name}.script",
                                                        image=image))
        after = keys.get("after_script", defaults.get("after_script"))
        if after is not None:
            result.launches.extend(y.script_launches(after, source, env, result, f"{name}.after_script",
                                                     image=image))
    return result
