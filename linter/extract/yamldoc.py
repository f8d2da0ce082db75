"""Pieces shared by the YAML formats that carry shell scripts (SkyPilot, dstack, Truss, GitHub Actions,
GitLab CI): load the node tree, read variables sections, hand scripts to the shell format and turn
what it finds into :class:`~linter.launch.Launch` values.

Nodes, merge keys and exact spans come from the YAML layer (:mod:`linter.extract.yamltree`), so a fix
edits the very characters of a block scalar.
"""

from __future__ import annotations

from linter.extract.yamltree import get, is_map, is_seq, is_str, items, load_tree, mstr, start_walk, text
from linter.launch import Extraction, GpuDecl, Launch, MStr, Problem, Token, hull
from linter.source import SourceFile, Span

__all__ = [
    "argv_launches",
    "env_section",
    "get",
    "is_map",
    "is_seq",
    "is_str",
    "items",
    "load",
    "mstr",
    "script_launches",
    "script_launches_of",
    "script_of",
    "text",
    "unknown_expressions",
]


def load(source: SourceFile, result: Extraction):
    """The root node of the file, or None (a YAML error goes into ``result.problems`` at its position;
    nesting past ``MAX_YAML_DEPTH`` is SGL004). Merges are memoised and counted per file (:class:`~linter.extract.yamltree.Walk`)."""
    from linter.extract.yamlload import InvalidYaml

    start_walk(source)
    try:
        return load_tree(source)
    except InvalidYaml as exc:
        offset = exc.offset or 0
        result.problems.append(Problem(f"invalid YAML: {exc.problem}", Span(source, offset, offset)))
    return None












def env_section(node, source: SourceFile, into: dict[str, MStr] | None = None) -> dict[str, MStr]:
    """Variables of an ``env:``/``envs:``/``variables:`` section: a mapping (a null value — "set when
    launching" — is unknown, so left out) or a list of ``NAME=VALUE`` strings (dstack). GitLab's
    ``{value: …, description: …}`` form is read too. Later sections override ``into``."""
    out = dict(into or {})
    if is_map(node):
        for k, v in items(node):
            name = text(k)
            if name is None:
                continue
            if is_map(v):
                _, v = get(v, "value")
            if is_str(v):
                out[name] = mstr(v, source)
            else:
                out.pop(name, None)
    elif is_seq(node):
        for v in node.value:
            if is_str(v) and "=" in str(v.value):
                m = mstr(v, source)
                k = m.text.index("=")
                out[m.text[:k].strip()] = m[k + 1:]
    return out


def span_of_args(args: list[Token], fallback: Span) -> Span:
    """The launch's span: the hull of its arguments written inside ``fallback`` (the script or
    instruction that holds the command; a value that came from a variable is written elsewhere and
    does not move the launch), else ``fallback``."""
    spans = [t.location() for t in args]
    spans = [s for s in spans if s is not None and s.source is fallback.source
             and fallback.start <= s.start and s.end <= fallback.end]
    return hull(spans) or fallback


def script_of(node, source: SourceFile) -> MStr | None:
    """The shell script a scalar holds, or the lines of a list joined with line breaks (dstack
    ``commands:`` and GitLab ``script:`` run their lines in one shell, so a variable set by one line
    reaches the next); each character keeps its place in the file. None for anything else."""
    if is_seq(node):
        parts: list[MStr] = []
        for item in node.value:
            if is_str(item):
                if parts:
                    parts.append(MStr.plain("\n", Span(source, item.start_mark.index, item.start_mark.index)))
                parts.append(mstr(item, source))
        if not parts:
            return None
        return MStr.join(parts, Span(source, node.start_mark.index, node.end_mark.index))
    if is_str(node):
        return mstr(node, source)
    return None


def script_launches(node, source: SourceFile, env: dict[str, MStr] | None, result: Extraction, key: str, *,
                    image: MStr | None = None, gpu_decls: list[GpuDecl] | None = None,
                    gpu_counts: list | None = None) -> list[Launch]:
    """The launches of the script :func:`script_of` reads from ``node``."""
    script = script_of(node, source)
    if script is None:
        return []
    return script_launches_of(script, node, source, env, result, key, image=image, gpu_decls=gpu_decls,
                              gpu_counts=gpu_counts)


def script_launches_of(script: MStr, node, source: SourceFile, env: dict[str, MStr] | None, result: Extraction,
                       key: str, *, image: MStr | None = None,
                       gpu_decls: list[GpuDecl] | None = None, gpu_counts: list | None = None) -> list[Launch]:
    """The launches of a shell ``script`` written at ``node``, through the shell format (its syntax
    errors go into ``result.problems``); ``key`` names the scope, ``image`` the image it runs in,
    ``gpu_decls``/``gpu_counts`` the target GPUs and GPU counts its section declares. Each launch keeps
    the conditions of the script's path it is on (:attr:`~linter.launch.Launch.path`)."""
    from linter.extract.shell import script_launches

    fallback = Span(source, node.start_mark.index, node.end_mark.index)
    found = script_launches(script, source, env, result.problems)
    spans = [span_of_args(f.args, fallback) for f in found]
    # the launches the script builds along its paths share one place (as those of a Kubernetes or
    # compose ``sh -c`` script do), so a finding on some of them is reported as on some paths
    along = hull([s for f, s in zip(found, spans) if f.path])
    out = []
    for k, f in enumerate(found):
        out.append(Launch(source=source, program=f.program, span=along if f.path else spans[k], args=f.args,
                          key=key + (f"#{k}" if k else ""), image=f.image if f.image is not None else image,
                          gpu_decls=list(gpu_decls or []), gpu_counts=list(gpu_counts or ()) + list(f.gpu_counts),
                          background=f.background, path=f.path))
    return out


def argv_launches(words: list[Token], source: SourceFile, env: dict[str, MStr] | None, result: Extraction,
                  key: str, fallback: Span, *, image: MStr | None = None,
                  gpu_decls: list[GpuDecl] | None = None, gpu_counts: list | None = None) -> list[Launch]:
    """The launches of an argv (exec form), through :func:`linter.extract.recognized.launches`."""
    from linter.extract.recognized import launches

    out = []
    for k, got in enumerate(launches(words, source, env=env, image=image, span=fallback, problems=result.problems)):
        out.append(Launch(source=source, program=got.program, span=span_of_args(got.args, fallback), args=got.args,
                          key=key + (f"#{k}" if k else ""), image=got.image if got.image is not None else image,
                          gpu_decls=list(gpu_decls or []) + list(got.gpu_decls),
                          gpu_counts=list(gpu_counts or ()) + list(got.gpu_counts), background=got.background))
    return out


def unknown_expressions(m: MStr, opener: str = "${{", closer: str = "}}") -> MStr:
    """``m`` with each CI expression (GitHub Actions ``${{ … }}``) replaced by an unknown value: the
    runner substitutes it before the shell runs, with a value the file does not hold."""
    if opener not in m.text:
        return m
    parts: list[MStr] = []
    pos = 0
    while True:
        i = m.text.find(opener, pos)
        if i < 0:
            break
        j = m.text.find(closer, i + len(opener))
        j = len(m.text) if j < 0 else j + len(closer)
        parts.append(m[pos:i])
        parts.append(MStr.unknown(m.location(i, j)))
        pos = j
    parts.append(m[pos:])
    return MStr.join(parts, m.where)


def gpu_count(node, source: SourceFile, resource: str, how: str, parse=None, per: str = "node"):
    """The :class:`~linter.launch.GpuCount` a YAML scalar states (``parse(text) -> int | None``; by
    default a plain integer), located at its characters; the count is None when the value is not
    known statically."""
    from linter.launch import GpuCount

    m = mstr(node, source)
    text = m.text.strip()
    if parse is None:
        value = int(text) if text.isdigit() else None
    else:
        value = parse(text) if m.known else None
    return GpuCount(resource, value, m.span_of() or m.location(), how, per)
