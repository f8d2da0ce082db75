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
the YAML reader gives is aligned with the scalar's source text by the YAML layer
(:mod:`linter.extract.yamltree`), and a character counts as exact only where the source holds that
very character.
"""

from __future__ import annotations

from pathlib import Path

from linter import limits, records
from linter.boundary import referenced_at
from linter.extract import yamltree
from linter.extract.compose_env import interpolate, parse_dotenv  # noqa: F401 - part of this module's interface
from linter.extract.recognized import launches
from linter.extract.words import SplitError, split_words
from linter.formats import looks_like_compose  # noqa: F401 - part of this module's interface
from linter.gpus.comments import declared_targets
from linter.launch import UNKNOWN_CHAR, Extraction, Launch, MStr, Problem, Token
from linter.source import SourceFile, Span
from linter.workspace import Workspace


def _tokens(node, source: SourceFile, env: dict[str, MStr]) -> list[Token] | None:
    """The argv words of a command/entrypoint node, or None when it is absent or not text."""
    from linter.extract.yamlload import ScalarNode, SequenceNode

    if isinstance(node, ScalarNode):
        if node.tag == "tag:yaml.org,2002:null" or node.value in ("", None):
            return None
        return split_words(interpolate(yamltree.mstr(node, source), env))
    if isinstance(node, SequenceNode):
        words = []
        for item in node.value:
            if not isinstance(item, ScalarNode):
                return None
            words.append(Token(interpolate(yamltree.mstr(item, source), env)))
        return words
    return None


def _container_env(svc, ws: Workspace, related: list[SourceFile]) -> dict[str, MStr]:
    """The variables a service's container starts with, as far as the files say: every layer's
    ``env_file`` entries (read like ``.env``, relative to that layer's file), then every layer's
    ``environment`` (a mapping or ``KEY=VALUE`` list), which wins; later layers win over earlier ones.
    A key given without a value takes the deploying shell's value: unknown, so left out."""
    from linter.extract.yamlload import MappingNode, ScalarNode, SequenceNode

    out: dict[str, MStr] = {}
    for layer in svc.layers:
        _, files = yamltree.get(layer.node, "env_file")
        items = files.value if isinstance(files, SequenceNode) else ([files] if files is not None else [])
        for item in items:
            node = item
            if isinstance(item, MappingNode):
                _, node = yamltree.get(item, "path")
            if isinstance(node, ScalarNode) and isinstance(node.value, str):
                with referenced_at(Span(layer.source, node.start_mark.index, node.end_mark.index)):
                    f = ws.try_read(layer.folder / node.value)  # outside the root: None, and SGL005 here
                if f is not None:
                    out.update(parse_dotenv(f))
                    related.append(f)
    for layer in svc.layers:
        source, env = layer.source, layer.env
        _, environment = yamltree.get(layer.node, "environment")
        if isinstance(environment, MappingNode):
            for k, v in yamltree.items(environment):
                if isinstance(v, ScalarNode) and v.tag != "tag:yaml.org,2002:null":
                    out[str(k.value)] = interpolate(yamltree.mstr(v, source), env)
        elif isinstance(environment, SequenceNode):
            for v in environment.value:
                if isinstance(v, ScalarNode) and "=" in str(v.value):
                    m = interpolate(yamltree.mstr(v, source), env)
                    k = m.text.find("=")
                    if k > 0:  # `- ${UNSET:+A=1}`: the `=` may disappear in interpolation
                        out[m.text[:k]] = m[k + 1:]
    return out





def _mounts(svc) -> tuple:
    """``(container path, host path)`` of a service's bind mounts (``volumes``: ``./src:/dst[:mode]``
    or ``{type: bind, source, target}``), host paths relative to the layer's file; a later layer's
    mount at the same target wins, as compose merges volumes by target. Named volumes are skipped."""
    from linter.extract.yamlload import MappingNode, ScalarNode, SequenceNode

    out: dict[str, str] = {}
    for layer in svc.layers:
        _, volumes = yamltree.get(layer.node, "volumes")
        if not isinstance(volumes, SequenceNode):
            continue
        for item in volumes.value:
            src = dst = None
            if isinstance(item, ScalarNode) and isinstance(item.value, str):
                text = interpolate(yamltree.mstr(item, layer.source), layer.env)
                if not text.known:
                    continue
                parts = text.text.split(":")
                if len(parts) >= 2:
                    src, dst = parts[0], parts[1]
            elif isinstance(item, MappingNode):
                _, t = yamltree.get(item, "type")
                _, sn = yamltree.get(item, "source")
                _, tn = yamltree.get(item, "target")
                if getattr(t, "value", "bind") == "bind" and isinstance(sn, ScalarNode) and isinstance(tn, ScalarNode):
                    src, dst = str(sn.value), str(tn.value)
            if src and dst and dst.startswith("/") and src.startswith((".", "/")):
                out[dst] = str(layer.folder / src) if not src.startswith("/") else src
    return tuple(out.items())


@limits.budgeted
def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of a compose file, each service as the compose stack it belongs to runs it
    (:mod:`linter.extract.compose_stack`). YAML errors are reported at the parser's problem position."""
    with yamltree.walk(source):
        return _extract(source, ws)


def _extract(source: SourceFile, ws: Workspace) -> Extraction:
    from linter.extract.compose_stack import build
    from linter.extract.yamlload import InvalidYaml, MappingNode

    result = Extraction()
    try:
        root = yamltree.load_tree(source)
        if root is None:
            return result
    except InvalidYaml as exc:
        offset = exc.offset or 0
        result.problems.append(Problem(f"invalid YAML: {exc.problem}", Span(source, offset, offset)))
        return result
    result.comments = yamltree.comments(source, root)
    if not isinstance(root, MappingNode):
        return result
    env_path = Path(source.path).parent / ".env"
    if ws.try_read(env_path) is None and ws.may_read(env_path) and ws.is_file(env_path):
        try:
            ws.read(env_path)
            why = "cannot be read"
        except Exception as exc:  # noqa: BLE001 - the reason goes into the diagnostic
            why = str(exc)
        result.problems.append(Problem(f"the .env beside this file is not read ({why}); the variables it sets "
                                       "are unknown", Span(source, 0, 0)))
    stacks = build(source, root, ws, result.problems)
    for stack in stacks:
        for f in stack.related:
            if all(f.path != r.path for r in result.related):
                result.related.append(f)
        _stack_launches(stack, source, ws, result, several=len(stacks) > 1)
    return result


def _stack_launches(stack, source: SourceFile, ws: Workspace, result: Extraction, several: bool) -> None:
    """Add to ``result`` the launches of the services of ``stack`` (one compose stack ``source`` is in)."""
    sharing = _sharing(stack)
    done: set[tuple[int, int]] = set()
    own_targets = declared_targets(source)
    targets_of: dict = {}  # the target GPUs each other file of the stack declares
    for name, svc in stack.services.items():
        ep_key, ep, ep_layer = svc.get("entrypoint")
        cmd_key, cmd, cmd_layer = svc.get("command")
        if ep is None and cmd is None:
            continue
        identity = (id(ep), id(cmd))
        if identity in done:
            continue
        done.add(identity)
        try:
            env = _container_env(svc, ws, result.related)
            found = [(got, when) for argv, when, way_env in _argv(svc, ep, ep_layer, cmd, cmd_layer, ws, env, result)
                     for got in launches(argv, source, env=way_env, problems=result.problems)]
        except SplitError as exc:
            node, layer = (ep, ep_layer) if ep is not None else (cmd, cmd_layer)
            result.problems.append(Problem(f"service {sharing[identity][0]!r}: cannot split the command: {exc}",
                                           Span(layer.source, node.start_mark.index, node.start_mark.index)))
            continue
        if not found:
            continue
        home, start, end = _anchor(((ep_key, ep, ep_layer), (cmd_key, cmd, cmd_layer)), source)
        # target GPUs declared in the service's other files, when the linted file declares none (its
        # own are the engine's, and win: a shared base's directive is a default for what extends it)
        decls = [] if own_targets else _inherited_targets(svc, source, targets_of)
        scope = f"services.{','.join(sharing[identity])}" + (f"@{stack.how}" if several else "")
        if home is not source:  # anchored in a base that other stacks share: which stack this is
            scope += f"@{source.display}"
        if stack.incomplete:
            # an override without its base: the base's values (a --model-path …) are unknown, not absent
            missing = Token(MStr.unknown(Span(source, 0, 0)), splat=True)
            found = [(records.replace(got, args=list(got.args) + [missing]), when) for got, when in found]
        image, workdir, devices = _image(svc), _workdir(svc), _device_counts(svc)
        for k, (got, when) in enumerate(found):
            launch = Launch(source=home, program=got.program, span=Span(home, start, end), args=got.args,
                            key=scope + (f"#{k}" if k else ""),
                            image=got.image if got.image is not None else image, gpu_decls=list(got.gpu_decls) + decls,
                            workdir=workdir, mounts=_mounts(svc), gpu_counts=devices + list(got.gpu_counts),
                            background=got.background, path=when)
            result.launches.append(launch)


def _sharing(stack) -> dict[tuple[int, int], list[str]]:
    """Services that share one command through an alias or merge key are one launch, named by all:
    (id of the entrypoint node, id of the command node) -> the services' names."""
    sharing: dict[tuple[int, int], list[str]] = {}
    for name, svc in stack.services.items():
        _, ep, _ = svc.get("entrypoint")
        _, cmd, _ = svc.get("command")
        if ep is not None or cmd is not None:
            sharing.setdefault((id(ep), id(cmd)), []).append(name)
    return sharing


def _argv(svc, ep, ep_layer, cmd, cmd_layer, ws: Workspace, env: dict,
          result: Extraction) -> list[tuple[list[Token], tuple[str, ...], dict]]:
    """(the service's argv: ``entrypoint`` then ``command``, the conditions it runs under in words —
    empty when always —, the container's environment ``env`` it runs with), one per path. An
    entrypoint script of the repository that passes its arguments through (``exec "$@"``,
    :mod:`linter.passthrough`) passes the command through — on each of its paths that does, with
    that path's conditions —; its exported variables join ``env`` and it joins the files ``result``
    read. Raises SplitError for a string that does not split."""
    ep_words = _tokens(ep, ep_layer.source, ep_layer.env) if ep is not None else None
    cmd_words = _tokens(cmd, cmd_layer.source, cmd_layer.env) if cmd is not None else None
    if ep_words:
        from linter.passthrough import HOST, runs, wrapper_script

        workdir = _workdir(svc)  # where a relative script is: the service's working_dir when written
        wrapper = wrapper_script([w.value for w in ep_words], ep_layer.folder, ws, _mounts(svc), ep_words,
                                 workdir=HOST if workdir is None else (workdir or None))
        if wrapper is not None:
            result.related.extend(wrapper.files)
            return [(argv, way.path, {**env, **way.env})
                    for way, argv in runs(wrapper, ep_words + (cmd_words or []), ep_layer.source, result.problems,
                                          ep_words[wrapper.taken - 1].span_of())]
    return [((ep_words or []) + (cmd_words or []), (), env)]


def _anchor(keys, source: SourceFile) -> tuple[SourceFile, int, int]:
    """The file a launch is anchored in and its span there: the linted one when it writes the command
    or entry point, else the file that does (the command's, when both come from elsewhere). ``keys``
    are the (key node, value node, layer) of the entrypoint and the command."""
    parts = [(k, v, layer) for k, v, layer in keys if k is not None]
    home = next((layer.source for _, _, layer in parts if layer.source.path == source.path), parts[-1][2].source)
    here = [(k, v) for k, v, layer in parts if layer.source is home]
    return home, min(k.start_mark.index for k, _ in here), max(v.end_mark.index for _, v in here)


def _image(svc) -> MStr | None:
    """The service's ``image``, interpolated (None when absent or not a string)."""
    _, image_node, image_layer = svc.get("image")
    if image_node is not None and getattr(image_node, "tag", "").endswith(":str"):
        return interpolate(yamltree.mstr(image_node, image_layer.source), image_layer.env)
    return None


def _workdir(svc) -> str | None:
    """The service's ``working_dir`` when absolute and known, ``""`` when written otherwise, None when absent."""
    _, wd, wd_layer = svc.get("working_dir")
    if wd is not None and getattr(wd, "tag", "").endswith(":str"):
        wd_text = interpolate(yamltree.mstr(wd, wd_layer.source), wd_layer.env)
        return wd_text.text if wd_text.known and wd_text.text.startswith("/") else ""
    return None


def _inherited_targets(svc, source: SourceFile, targets_of: dict) -> list:
    """The target GPUs the service's other files (not ``source``) declare in ``target-gpu=`` comments;
    ``targets_of`` memoises them per file path."""
    decls: list = []
    for f in {layer.source.path: layer.source for layer in svc.layers}.values():
        if f.path != source.path:
            if f.path not in targets_of:
                targets_of[f.path] = declared_targets(f)
            decls += targets_of[f.path]
    return decls


def _device_counts(svc) -> list:
    """The GPUs a service reserves: ``deploy.resources.reservations.devices[]`` entries with the
    ``gpu`` capability (or an ``nvidia``/``amd`` driver) — ``count: N``, ``count: all`` (unknown) or
    ``device_ids: [...]`` — and the service-level ``gpus:`` (``all`` or the same entries); Compose
    Specification, "Deploy Specification" (devices) and "Services" (gpus). Values may use
    ``${VAR:-default}`` interpolation."""
    from linter.extract.yamlload import MappingNode, SequenceNode
    from linter.launch import GpuCount

    out: list = []

    def value_text(node, layer):
        if node is None or not getattr(node, "tag", "").endswith((":str", ":int")):
            return None
        return interpolate(yamltree.mstr(node, layer.source), layer.env)

    def entries(seq, layer, what):
        for item in (seq.value if isinstance(seq, SequenceNode) else []):
            if not isinstance(item, MappingNode):
                continue
            _, caps = yamltree.get(item, "capabilities")
            _, driver = yamltree.get(item, "driver")
            cap_words = {str(c.value) for c in (caps.value if isinstance(caps, SequenceNode) else [])
                         if hasattr(c, "value")}
            if "gpu" not in cap_words and str(getattr(driver, "value", "")) not in ("nvidia", "amd", "cdi") \
                    and what != "gpus":
                continue
            _, count = yamltree.get(item, "count")
            _, ids = yamltree.get(item, "device_ids")
            if isinstance(ids, SequenceNode):
                span = Span(layer.source, ids.start_mark.index, ids.end_mark.index)
                out.append(GpuCount(f"{what} device_ids", len(ids.value), span, f"compose {what} device_ids"))
            elif count is not None:
                text = value_text(count, layer)
                span = (text.span_of() or text.location()) if text is not None else \
                    Span(layer.source, count.start_mark.index, count.end_mark.index)
                n = text.text.strip() if text is not None and text.known else ""
                out.append(GpuCount(f"{what} count", int(n) if n.isdigit() else None, span, f"compose {what} count"))

    _, deploy, layer = svc.get("deploy")
    if isinstance(deploy, MappingNode):
        _, res = yamltree.get(deploy, "resources")
        _, reservations = yamltree.get(res, "reservations") if isinstance(res, MappingNode) else (None, None)
        if isinstance(reservations, MappingNode):
            entries(yamltree.get(reservations, "devices")[1], layer, "deploy.resources.reservations.devices")
    _, gpus, layer = svc.get("gpus")
    if gpus is not None:
        if isinstance(gpus, SequenceNode):
            entries(gpus, layer, "gpus")
        else:
            out.append(GpuCount("gpus", None, Span(layer.source, gpus.start_mark.index, gpus.end_mark.index),
                                "compose gpus: all"))
    return out


__all__ = ["extract", "looks_like_compose", "interpolate", "parse_dotenv", "UNKNOWN_CHAR"]
