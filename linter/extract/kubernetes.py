"""Kubernetes manifests and the LLM-serving CRDs: the SGLang launches in their containers.

A file is a stream of YAML documents; each document with ``apiVersion`` and ``kind`` is an object. A
document that does not parse is SGL001 at the parser's position and the others are still read.
Committed merge-conflict markers are SGL001 at each ``<<<<<<<`` line; the file is then read as its
first side (``HEAD``) with the markers and the other side blanked, and no fix is ever written into it.

**Where containers are.** Any mapping that holds a pod spec's ``containers:`` list (Pod, the
``template.spec`` of Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob's
``jobTemplate``, LeaderWorkerSet's ``leaderTemplate``/``workerTemplate``, KServe ``ServingRuntime`` and
``InferenceService`` predictors, and CRDs nobody listed), OME's ``runner:`` (``engineConfig``,
``decoderConfig``, their ``leader``/``worker``, ``InferenceService`` ``engine``) and Dynamo's
``extraPodSpec.mainContainer``; ``initContainers`` too. RoleBasedGroup roles merge their
``template`` with ``leaderWorkerSet.patchLeaderTemplate``/``patchWorkerTemplate`` (v1alpha1) or
``leaderWorkerPattern.leaderTemplatePatch``/``workerTemplatePatch`` (v1alpha2) the way a strategic
merge patch does: containers by ``name``, a patch field replacing the template's, ``env`` by name.

**The command** is what the kubelet runs (Kubernetes API, Container ``command``/``args``): ``command``
replaces the image's ENTRYPOINT and ``args`` its CMD; ``args`` alone run under the image's entry point
(:func:`linter.recognize.image_entrypoint`; for an image that table does not know, ``args`` count only
when they start with an SGLang entry point). The argv goes to :mod:`linter.recognize` like every
format's (``sh -c`` strings to the shell format). A whole command line folded into one item (``- >``
holding ``python3 -m sglang.launch_server --tp 16 …``) is exec'd as one program name and fails: it is
reported, and the launch is still read word by word so the other rules see it.

**Variables.** ``$(VAR)`` in ``command``, ``args`` and ``env`` values is expanded as the kubelet does
(kubernetes/kubernetes ``third_party/forked/golang/expansion/expand.go``; design proposal "Variable
expansion in pod command, args, and env"): ``$$`` is a literal ``$`` (so ``$$(VAR)`` is the text
``$(VAR)``), a reference to a variable the container does not define stays literal text, ``$(`` without
``)`` is literal. The container's variables are its ``envFrom`` sources in order (each key with the
source's ``prefix``; a ConfigMap defined in the same file or a YAML file of the same folder is read,
any other source — a Secret, a ConfigMap elsewhere — makes every otherwise undefined name unknown),
then ``env`` in order, which wins; an ``env`` value may reference the variables defined before it.
An ``env`` item's ``valueFrom.configMapKeyRef`` (``{name, key}``) is that key's value when the
repository holds it — the ConfigMap found as a volume's script is (this file, the YAML files of its
folder, their kustomization's generators and what it names, the overlays that name the folder) — and
is not expanded; any other ``valueFrom`` (``secretKeyRef``, ``fieldRef``, ``resourceFieldRef``), or a
key not found, is unknown. Variables a workload controller adds (LeaderWorkerSet's ``LWS_*``,
RoleBasedGroup's ``RBG_*``, OME's ``MODEL_PATH`` …; ``linter/data/operator-env.json``) are defined
with unknown values. Every character keeps its origin, so a finding and its fix land at the value's
text — in the ConfigMap when it came from one (shared by every launch that reads it).

**Entrypoint scripts.** A ``command`` that starts with a script of the repository ending in ``exec
"$@"`` passes ``args`` through (:mod:`linter.passthrough`); a script on one of the pod's volumes
(:mod:`linter.extract.k8s_volumes`) is read from its ConfigMap (this file, the YAML files of its
folder, their ``kustomization.yaml`` generators, the files and folders of the root that
kustomization's ``resources``/``bases``/``components`` name, and the overlays that name the folder:
:mod:`linter.extract.kustomize`) — a wrapper, or a shell script that is the launch itself. A script
on a volume the repository does not hold is never guessed: the launch after it is judged as written
and is not fully verified, and ``--explain`` says why.

**Targets** come from each pod spec's own ``nodeSelector`` and required node affinity
(:mod:`linter.gpus.kubernetes`); a nested runner without its own (OME ``leader`` under
``engineConfig``) uses the enclosing one's. GPU counts (``resources.limits``) are kept on the launch.
OME's ``supportedModelFormats[].modelArchitecture`` is the model's architecture when the model path
names nothing known (``$(MODEL_PATH)``).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from linter import datafiles, limits, records
from linter.extract import yamltree
from linter.extract.kustomize import ConfigMaps, collect_configmaps, folder_configmaps, overlay_configmaps
from linter.extract.recognized import launches
from linter.extract.words import SplitError, split_words
from linter.extract.yamlstream import MAX_DOCUMENTS, parse_documents  # noqa: F401 - part of this module's interface
from linter.formats import looks_like_kubernetes
from linter.gpus import kubernetes as k8s_gpus
from linter.launch import UNKNOWN_CHAR, Extraction, GpuDecl, Launch, ModelHint, MStr, Problem, Token, hull
from linter.passthrough import runs, wrapper_script
from linter.recognize import image_entrypoint
from linter.records import dataclass, field
from linter.sglang.entrypoints import match_entry_point
from linter.source import SourceFile, Span
from linter.workspace import Workspace

_CONFLICT = re.compile(r"^(<<<<<<<|\|\|\|\|\|\|\||=======|>>>>>>>)(?:[ \t][^\r\n]*)?\r?$", re.MULTILINE)
_BLANKS = re.compile(r"[ \t\r\n]")
_SKIP_KEYS = {"containers", "initContainers", "runner", "mainContainer", "ephemeralContainers"}
_UNKNOWN = object()  # a variable that is defined with a value the files do not hold

@functools.cache
def _operator_env() -> list[dict]:
    raw = datafiles.load_json("linter.data", "operator-env.json")
    return raw["groups"]


def _injected(api_group: str):
    """A test ``name -> bool``: the variable is added by the controller of ``api_group``."""
    names: set[str] = set()
    prefixes: list[str] = []
    for row in _operator_env():
        if api_group in row["api_groups"]:
            names.update(row.get("names", ()))
            prefixes.extend(row.get("prefixes", ()))
    return lambda name: name in names or any(name.startswith(p) for p in prefixes)


# ------------------------------------------------------------------------------------------------
# the document stream


def _conflicts(source: SourceFile, problems: list[Problem]) -> tuple[SourceFile, list[int] | None]:
    """Report committed merge-conflict markers; return the text to read — the first side of each
    conflict, markers and other sides taken out — and, for each of its characters, the offset in
    ``source`` it came from (None when there is no conflict: the file is read as it is)."""
    text = source.text
    if "<<<<<<<" not in text or not any(m.group(1) == "<<<<<<<" for m in _CONFLICT.finditer(text)):
        return source, None
    kept: list[str] = []
    offsets: list[int] = []
    state = None  # None | "ours" | "base" | "theirs"
    pos = 0
    for line in text.splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        m = _CONFLICT.match(line)
        tag = m.group(1) if m else None
        drop = state in ("base", "theirs")
        if tag == "<<<<<<<" and state is None:
            problems.append(Problem("merge conflict marker: the file holds an unresolved merge conflict (Kubernetes "
                                    "rejects it); it is read as its first side and no fix is written into it",
                                    Span(source, start, start + len(line.rstrip("\r\n")))))
            state, drop = "ours", True
        elif tag == "|||||||" and state == "ours":
            state, drop = "base", True
        elif tag == "=======" and state in ("ours", "base"):
            state, drop = "theirs", True
        elif tag == ">>>>>>>" and state == "theirs":
            state, drop = None, True
        if not drop:
            kept.append(line)
            offsets.extend(range(start, pos))
    offsets.append(len(text))
    reduced = SourceFile(path=source.path, display=source.display, text="".join(kept), bom=source.bom)
    return reduced, offsets


def remap(ex: Extraction, reduced: SourceFile, origin, fallback: SourceFile) -> None:
    """Move every position of ``ex`` from the text it was read from (``reduced``: a conflict-free or
    rendered text) back to where each character was written: ``origin(offset)`` gives
    ``(SourceFile, offset)`` or None (text the reader made up); ``fallback`` takes spans with no origin."""

    def span(s: Span | None) -> Span | None:
        if s is None or s.source is not reduced:
            return s
        a = origin(s.start) if s.start < len(reduced.text) else None
        b = origin(s.end - 1) if s.end > s.start else a
        if a is None:
            a = next((origin(i) for i in range(s.start, min(s.end, len(reduced.text))) if origin(i) is not None),
                     None)
            b = b if b is not None and a is not None and b[0] is a[0] else a
        if a is None:
            return Span(fallback, 0, 0)
        if b is None or b[0] is not a[0] or b[1] < a[1]:
            b = a
        return Span(a[0], a[1], b[1] + 1 if s.end > s.start else a[1])

    def mstr(x: MStr | None) -> MStr | None:
        if x is None:
            return None
        return MStr(x.text, [origin(o[1]) if o is not None and o[0] is reduced else o for o in x.origins],
                    span(x.where))

    ex.launches = [records.replace(
        launch, source=fallback if launch.source is reduced else launch.source, span=span(launch.span),
        args=[Token(mstr(t.text), t.splat, t.joinable) for t in launch.args], image=mstr(launch.image),
        gpu_decls=[GpuDecl(d.name, span(d.span), d.how) for d in launch.gpu_decls],
        gpu_counts=[records.replace(c, span=span(c.span)) for c in launch.gpu_counts],
        model_hint=None if launch.model_hint is None else ModelHint(
            launch.model_hint.architecture, span(launch.model_hint.span), launch.model_hint.how))
        for launch in ex.launches]
    ex.problems = [Problem(p.message, span(p.span)) for p in ex.problems]
    ex.gpu_decls = [GpuDecl(d.name, span(d.span), d.how) for d in ex.gpu_decls]
    ex.comments = None  # the line scan of the original text finds them


# ------------------------------------------------------------------------------------------------
# small YAML helpers


_is_map = yamltree.is_map
_is_seq = yamltree.is_seq


_is_str = yamltree.is_scalar
_val = yamltree.value_of


_text = yamltree.scalar_text


# ------------------------------------------------------------------------------------------------
# pod specs and containers (after RoleBasedGroup patches)


@dataclass
class _Container:
    fields: dict  # key -> value node (the patch's over the template's)
    name: str
    path: str
    env: list = field(default_factory=list)  # env item nodes, by name
    keys: dict = field(default_factory=dict)  # key -> key node


@dataclass
class _PodSpec:
    containers: list[_Container]
    node_selector: list  # (key node, value node)
    affinity: object
    path: str
    resources: object = None  # Dynamo's service-level resources (limits.gpu)
    volumes: list = field(default_factory=list)  # the pod's ``volumes`` items


def _container(node, path: str) -> _Container:
    items = yamltree.items(node)
    fields = {str(getattr(k, "value", "")): v for k, v in items}
    name = _text(fields.get("name")) or ""
    env = list(fields["env"].value) if _is_seq(fields.get("env")) else []
    return _Container(fields, name, path, env, {str(getattr(k, "value", "")): k for k, _ in items})


def _merge_container(base: _Container, patch: _Container) -> _Container:
    fields = dict(base.fields)
    fields.update({k: v for k, v in patch.fields.items() if k != "env"})
    keys = dict(base.keys)
    keys.update(patch.keys)
    env = list(base.env)
    for item in patch.env:
        name = _text(_val(item, "name"))
        k = next((i for i, e in enumerate(env) if name is not None and _text(_val(e, "name")) == name), None)
        if k is None:
            env.append(item)
        else:
            env[k] = item
    return _Container(fields, base.name or patch.name, patch.path, env, keys)


def _containers_of(spec, path: str) -> list[_Container]:
    out = []
    for key in ("initContainers", "containers"):
        seq = _val(spec, key)
        if _is_seq(seq):
            for i, item in enumerate(seq.value):
                if _is_map(item):
                    c = _container(item, "")
                    c.path = f"{path}.{key}[{c.name or i}]"
                    out.append(c)
    for key in ("runner", "mainContainer"):
        node = _val(spec, key)
        if _is_map(node):
            c = _container(node, f"{path}.{key}")
            out.append(c)
    return out


def _pod_spec(spec, path: str) -> _PodSpec:
    ns = _val(spec, "nodeSelector")
    volumes = _val(spec, "volumes")
    return _PodSpec(_containers_of(spec, path), list(yamltree.items(ns)) if _is_map(ns) else [],
                    _val(spec, "affinity"), path, volumes=list(volumes.value) if _is_seq(volumes) else [])


def _merge_spec(base: _PodSpec, patch_spec, path: str) -> _PodSpec:
    patch = _pod_spec(patch_spec, path) if _is_map(patch_spec) else _PodSpec([], [], None, path)
    containers = []
    by_name = {c.name: c for c in patch.containers if c.name}
    used = set()
    for c in base.containers:
        p = by_name.get(c.name)
        if p is not None:
            used.add(id(p))
            containers.append(_merge_container(c, p))
        else:
            containers.append(c)
    for p in patch.containers:
        if id(p) not in used:
            if not p.name and len(base.containers) == 1:
                containers[0] = _merge_container(base.containers[0], p)  # a patch container without a name
            else:
                containers.append(p)
    selector = dict((str(k.value), (k, v)) for k, v in base.node_selector)
    selector.update((str(k.value), (k, v)) for k, v in patch.node_selector)
    affinity = patch.affinity if patch.affinity is not None else base.affinity
    named = {_text(_val(v, "name")): v for v in patch.volumes}
    volumes = [named.pop(_text(_val(v, "name")), v) for v in base.volumes] + list(named.values())
    return _PodSpec(containers, list(selector.values()), affinity, path, volumes=volumes)


def _is_pod_spec(node) -> bool:
    return _is_seq(_val(node, "containers")) or _is_map(_val(node, "runner")) or _is_map(_val(node, "mainContainer"))


_PATCHES = (
    ("leaderWorkerSet", "patchLeaderTemplate", "patchWorkerTemplate"),  # RoleBasedGroup v1alpha1
    ("leaderWorkerPattern", "leaderTemplatePatch", "workerTemplatePatch"),  # RoleBasedGroup v1alpha2
)


MAX_VISITS = 200_000
"""Nodes visited per document at most: YAML aliases can make a small file a huge tree."""


class TooLarge(Exception):
    """A document expands (through aliases) to more nodes than :data:`MAX_VISITS`."""


def pod_specs(root) -> list[tuple[_PodSpec, _PodSpec | None]]:
    """Every pod spec under ``root`` as (spec, enclosing spec or None), RoleBasedGroup patches applied.
    Raises :class:`TooLarge` when the document expands to more than :data:`MAX_VISITS` nodes."""
    out: list[tuple[_PodSpec, _PodSpec | None]] = []
    seen: set[tuple[int, str]] = set()
    uses: dict[int, int] = {}

    def walk(node, path: str, enclosing: _PodSpec | None, depth: int) -> None:
        if depth > 60 or (id(node), path) in seen:
            return
        # a node reached through many aliases is read a few times, not once per path
        uses[id(node)] = uses.get(id(node), 0) + 1
        if uses[id(node)] > 16:
            return
        seen.add((id(node), path))
        if len(seen) > MAX_VISITS:
            raise TooLarge(f"the document expands to more than {MAX_VISITS} YAML nodes (aliases)")
        if _is_seq(node):
            for i, item in enumerate(node.value):
                name = _text(_val(item, "name")) if _is_map(item) else None
                walk(item, f"{path}[{name or i}]", enclosing, depth + 1)
            return
        if not _is_map(node):
            return
        items = yamltree.items(node)
        skip: set[str] = set()
        for holder, leader_key, worker_key in _PATCHES:
            owner = _val(node, holder)
            template = _val(node, "template") if holder == "leaderWorkerSet" else _val(owner, "template")
            if not _is_map(owner) or not _is_map(template):
                continue
            patches = [(k, _val(owner, k)) for k in (leader_key, worker_key)]
            if not any(_is_map(p) for _, p in patches):
                continue
            base = _pod_spec(_val(template, "spec"), f"{path}.template.spec")
            for k, patch in patches:
                role = "leader" if k == leader_key else "worker"
                merged = _merge_spec(base, _val(patch, "spec"), f"{path}.{role}")
                out.append((merged, enclosing))
            skip.update({"template", holder})
        mine = enclosing
        if not _is_pod_spec(node) and (_is_map(_val(node, "nodeSelector")) or _is_map(_val(node, "affinity"))):
            # scheduling for the runners below (OME engineConfig over its leader and worker)
            mine = _pod_spec(node, path)
            mine.containers = []
        if _is_pod_spec(node):
            spec = _pod_spec(node, path)
            if not spec.node_selector and spec.affinity is None and enclosing is not None:
                spec.node_selector, spec.affinity = enclosing.node_selector, enclosing.affinity
            out.append((spec, enclosing))
            mine = spec
        resources = _val(node, "resources") if _is_map(_val(node, "extraPodSpec")) else None
        for k, v in items:
            key = str(getattr(k, "value", ""))
            if key in skip or key in _SKIP_KEYS:
                continue
            before = len(out)
            walk(v, f"{path}.{key}" if path else key, mine, depth + 1)
            if resources is not None and key == "extraPodSpec":
                for spec, _ in out[before:]:
                    spec.resources = spec.resources or resources

    walk(root, "", None, 0)
    return out


# ------------------------------------------------------------------------------------------------
# $(VAR) expansion and the container environment


def expand(s: MStr, variables: dict, open_ended: bool = False, injected=lambda name: False) -> MStr:
    """Kubernetes ``$(VAR)`` expansion of ``s`` (see the module docstring). ``variables`` maps a name
    to its value (:class:`MStr`) or to ``_UNKNOWN``; with ``open_ended`` (an ``envFrom`` source that
    is not read) any other name may be defined too, so its reference is unknown rather than literal;
    ``injected(name)`` says a controller defines it."""
    text = s.text
    if "$" not in text:
        return s
    parts: list[MStr] = []
    checkpoint = 0
    i = 0
    n = len(text)
    while i < n:
        if text[i] != "$" or i + 1 >= n:
            i += 1
            continue
        parts.append(s[checkpoint:i])
        nxt = text[i + 1]
        if nxt == "$":
            parts.append(s[i + 1:i + 2])
            i += 2
        elif nxt == "(":
            close = text.find(")", i + 2)
            if close < 0:
                parts.append(s[i:i + 2])
                i += 2
            else:
                name = text[i + 2:close]
                value = variables.get(name)
                where = s.location(i, close + 1)
                if isinstance(value, MStr) and not limits.budget().charge(len(value), f"the expansion of $({name})",
                                                                          where):
                    parts.append(MStr.unknown(where))  # counted before it is built: past the budget, unknown
                elif isinstance(value, MStr):
                    parts.append(value)
                elif value is _UNKNOWN or injected(name) or open_ended:
                    parts.append(MStr.unknown(where))
                else:
                    parts.append(s[i:close + 1])  # undefined: the reference stays as written
                i = close + 1
        else:
            parts.append(s[i:i + 2])
            i += 2
        checkpoint = i
    parts.append(s[checkpoint:])
    if not limits.budget().fits(sum(len(p) for p in parts), "a value expanded with $(VAR)", s.where):
        return MStr.unknown(s.where)
    return MStr.join(parts, s.where)


def environment(container: _Container, source: SourceFile, cms: ConfigMaps, injected,
                related: list[SourceFile], ws: Workspace | None = None) -> tuple[dict, bool]:
    """(variables, open_ended) of a container as the kubelet builds them: ``envFrom`` in order, then
    ``env`` in order (each ``value`` expanded with the variables before it; a ``valueFrom`` of a
    ConfigMap key the repository holds is that key's value, as written: :func:`_key_ref`)."""
    variables: dict = {}
    open_ended = False
    env_from = container.fields.get("envFrom")
    for src in (env_from.value if _is_seq(env_from) else []):
        prefix = _text(_val(src, "prefix")) or ""
        cm = _val(src, "configMapRef")
        name = _text(_val(cm, "name")) if _is_map(cm) else None
        if name is not None and name in cms.data:
            for key, value in cms.data[name].items():
                variables[prefix + key] = value
            f = cms.files[name]
            if f is not source and f not in related:
                related.append(f)
        else:
            open_ended = True  # a Secret or a ConfigMap defined elsewhere
    for item in container.env:
        name = _text(_val(item, "name"))
        if name is None:
            continue
        value = _val(item, "value")
        if _is_str(value):
            variables[name] = expand(yamltree.mstr(value, source), variables, open_ended, injected)
        elif _val(item, "valueFrom") is not None:
            variables[name] = _key_ref(_val(item, "valueFrom"), source, cms, ws, related)
        else:
            variables[name] = MStr.plain("", Span(source, item.start_mark.index, item.start_mark.index))
    return variables, open_ended


def _key_ref(value_from, source: SourceFile, cms: ConfigMaps, ws: Workspace | None, related: list[SourceFile]):
    """The value an ``env`` item's ``valueFrom`` gives (Kubernetes API ``EnvVarSource``): for a
    ``configMapKeyRef`` ``{name, key}`` the ConfigMap's value (:func:`_configmap_value`), not expanded
    (the kubelet expands only ``value``), its file added to ``related``; ``_UNKNOWN`` for any other
    source (``secretKeyRef``, ``fieldRef``, ``resourceFieldRef``) and for a key the repository does not
    hold (whether the pod gets it, or starts at all, depends on ``optional`` and the cluster)."""
    ref = _val(value_from, "configMapKeyRef")
    name, key = (_text(_val(ref, "name")), _text(_val(ref, "key"))) if _is_map(ref) else (None, None)
    if not name or not key or len(yamltree.items(value_from)) != 1:
        return _UNKNOWN
    value, home = _configmap_value(name, key, source, cms, ws)
    if value is None or home is None:
        return _UNKNOWN
    if home is not source and home not in related:
        related.append(home)
    return value


# ------------------------------------------------------------------------------------------------
# containers -> launches


def _words(node, source: SourceFile, variables: dict, open_ended: bool, injected) -> list[Token] | None:
    """The argv items of a ``command``/``args`` node (None when absent). A string instead of a list
    (which the API rejects) is read as a one-item list."""
    if node is None or (not _is_seq(node) and not _is_str(node)):
        return None
    items = node.value if _is_seq(node) else [node]
    out = []
    for item in items:
        if not _is_str(item):
            return None
        out.append(Token(expand(yamltree.mstr(item, source), variables, open_ended, injected)))
    return out


def _unfold(words: list[Token]) -> list[Token] | None:
    """``words`` with a first item that holds a whole command line split into words, or None when the
    first item is one word."""
    if not words or words[0].splat or not _BLANKS.search(words[0].raw.strip()):
        return None
    try:
        return split_words(words[0].text) + words[1:]
    except SplitError:
        return None


def _scheduling(spec: _PodSpec, source: SourceFile) -> k8s_gpus.Scheduling:
    sched = k8s_gpus.Scheduling()
    for k, v in spec.node_selector:
        if _is_str(v):
            m = yamltree.mstr(v, source)
            sched.node_selector[str(k.value)] = k8s_gpus.Value(m.text, m.span_of() or m.location())
    node_affinity = _val(spec.affinity, "nodeAffinity")
    required = _val(node_affinity, "requiredDuringSchedulingIgnoredDuringExecution")
    terms = _val(required, "nodeSelectorTerms")
    if _is_seq(terms):
        sched.terms = []
        for term in terms.value:
            reqs = []
            exprs = _val(term, "matchExpressions")
            for e in (exprs.value if _is_seq(exprs) else []):
                key, op = _text(_val(e, "key")), _text(_val(e, "operator"))
                if key is None or op is None:
                    continue
                values = _val(e, "values")
                vals = []
                for v in (values.value if _is_seq(values) else []):
                    if _is_str(v):
                        m = yamltree.mstr(v, source)
                        vals.append(k8s_gpus.Value(m.text, m.span_of() or m.location()))
                reqs.append(k8s_gpus.Requirement(key, op, vals))
            sched.terms.append(reqs)
    return sched


def _group_size(root, kind: str, spec: _PodSpec, source: SourceFile) -> list:
    """The number of pods (one per node) of the group a pod belongs to: a LeaderWorkerSet's
    ``spec.leaderWorkerTemplate.size`` (the leader and its workers, LWS API reference), a
    RoleBasedGroup role's ``leaderWorkerSet.size``/``leaderWorkerPattern.size``. Empty when the
    document states none (a missing ``size`` is not guessed)."""
    from linter.launch import GpuCount

    node = None
    what = ""
    if kind == "LeaderWorkerSet" and ".leaderWorkerTemplate." in f".{spec.path}.":
        node = _val(_val(_val(root, "spec"), "leaderWorkerTemplate"), "size")
        what = "LeaderWorkerSet spec.leaderWorkerTemplate.size"
    elif kind == "RoleBasedGroup":
        m = re.match(r"spec\.roles\[([^\]]+)\]\.(leader|worker)$", spec.path)
        roles = _val(_val(root, "spec"), "roles")
        if m and _is_seq(roles):
            for i, role in enumerate(roles.value):
                if _text(_val(role, "name")) in (m.group(1),) or str(i) == m.group(1):
                    for holder in ("leaderWorkerSet", "leaderWorkerPattern"):
                        if _is_map(_val(role, holder)):
                            node = _val(_val(role, holder), "size")
                            what = f"RoleBasedGroup role {m.group(1)} {holder}.size"
    if node is None or not _is_str(node):
        return []
    m = yamltree.mstr(node, source)
    text = m.text.strip()
    return [GpuCount("size", int(text) if text.isdigit() else None, m.span_of() or m.location(),
                     f"the {what} (pods in the group, one per node)", "nodes")]


def _gpu_counts(container: _Container, spec: _PodSpec, source: SourceFile):
    out = []
    for res in (container.fields.get("resources"), spec.resources):
        if not _is_map(res):
            continue
        for section in ("limits", "requests"):
            amounts = _val(res, section)
            if not _is_map(amounts):
                continue
            for k, v in yamltree.items(amounts):
                if _is_str(v):
                    m = yamltree.mstr(v, source)
                    got = k8s_gpus.gpu_count(str(k.value), m.text, m.span_of() or m.location())
                    if got is not None:
                        out.append(got)
            if out:
                return out
    return out


def _model_hint(root, source: SourceFile) -> ModelHint | None:
    """OME ``spec.supportedModelFormats[].modelArchitecture`` when the runtime names exactly one."""
    formats = _val(_val(root, "spec"), "supportedModelFormats")
    found = {}
    for item in (formats.value if _is_seq(formats) else []):
        arch = _val(item, "modelArchitecture")
        if _is_str(arch) and str(arch.value).strip():
            m = yamltree.mstr(arch, source)
            found.setdefault(m.text.strip(), m.span_of() or m.location())
    if len(found) != 1:
        return None
    arch, span = next(iter(found.items()))
    return ModelHint(arch, span, "the runtime's supportedModelFormats[].modelArchitecture")


def _api_group(api_version: str) -> str:
    return api_version.rsplit("/", 1)[0] if "/" in api_version else ""


@limits.budgeted
def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The launches of a Kubernetes manifest file (see the module docstring)."""
    result = Extraction()
    reading, offsets = _conflicts(source, result.problems)
    roots = parse_documents(reading, result.problems)
    from linter.extract.yamlload import SequenceNode

    result.comments = yamltree.comments(reading, SequenceNode("tag:yaml.org,2002:seq", roots)) if roots else None
    cms = ConfigMaps()
    collect_configmaps(roots, reading, cms, overwrite=True)
    seen: dict[tuple, Launch] = {}
    for root in roots:
        if not _is_map(root):
            continue
        api_version, kind = _text(_val(root, "apiVersion")), _text(_val(root, "kind"))
        if not api_version or not kind:
            continue
        name = (_text(_val(_val(root, "metadata"), "name")) or "?").replace(UNKNOWN_CHAR, "*")
        injected = _injected(_api_group(api_version))
        hint = _model_hint(root, reading)
        try:
            specs = pod_specs(root)
        except TooLarge as exc:
            result.problems.append(Problem(f"{exc}; its containers are not read",
                                           Span(reading, root.start_mark.index, root.start_mark.index)))
            continue
        for spec, _ in specs:
            sched = _scheduling(spec, reading)
            decls = k8s_gpus.candidates(sched)
            if not decls and sched.node_selector and ws is not None:
                from linter.extract.karpenter import picked

                decls = picked(ws, Path(source.path), {k: v.text for k, v in sched.node_selector.items()})
            for container in spec.containers:
                if _is_seq(container.fields.get("envFrom")):
                    folder_configmaps(source, ws, cms)
                group = _group_size(root, kind, spec, reading)
                got = _launches(container, spec, reading, cms, injected, result,
                                _group_size_env(group, injected), ws)
                _add_launches(got, container, spec, f"{kind}/{name}", decls, group, hint, reading, seen, result)
    llmaz = [(api, kind, root) for root in roots if _is_map(root)
             for api, kind in [(_text(_val(root, "apiVersion")) or "", _text(_val(root, "kind")) or "")]
             if api.startswith(("inference.llmaz.io/", "llmaz.io/"))]
    if llmaz:
        from linter.extract import llmaz as llmaz_objects  # BackendRuntime and Playground objects

        result.launches.extend(llmaz_objects.launches(llmaz, reading, result))
    if offsets is not None:
        remap(result, reading, lambda i: (source, offsets[i]) if i < len(offsets) else None, source)
    return result


def _add_launches(got: list, container: _Container, spec: _PodSpec, workload: str, decls: list, group: list,
                  hint, reading: SourceFile, seen: dict, result: Extraction) -> None:
    """Append a container's launches (``got``: (found, span, image, not_verified, path) each) to
    ``result``: one container read by two templates (leader and worker of one pattern) is one launch
    that names both (``seen``: identity -> launch so far)."""
    for k, (found, span, image, not_verified, path) in enumerate(got):
        identity = (id(container.fields.get("command")), id(container.fields.get("args")),
                    tuple(id(e) for e in container.env), k,
                    tuple(id(v) for _, v in spec.node_selector), id(spec.affinity))
        key = f"{workload}:{spec.path}.{container.path.rsplit('.', 1)[-1]}".replace(":.", ":")
        if identity in seen:
            # one container read by two templates (leader and worker of one pattern): one
            # launch that names both (a Launch is frozen: the list holds a new one)
            first = seen[identity]
            if key not in first.key.split(","):
                joined = records.replace(first, key=f"{first.key},{key}")
                result.launches[result.launches.index(first)] = joined
                seen[identity] = joined
            continue
        launch = Launch(source=reading, program=found.program, span=span, args=found.args, key=key,
                        image=found.image if found.image is not None else image,
                        gpu_decls=list(found.gpu_decls) + decls,
                        gpu_counts=_gpu_counts(container, spec, reading) + list(found.gpu_counts)
                        + group,
                        model_hint=hint, background=found.background, not_verified=not_verified, path=path)
        seen[identity] = launch
        result.launches.append(launch)


def _group_size_env(group: list, injected) -> dict:
    """``LWS_GROUP_SIZE`` when the group's size is written: the LeaderWorkerSet controller sets it to
    the ``size`` annotation it copies from ``spec.leaderWorkerTemplate.size`` (kubernetes-sigs/lws
    ``pkg/utils/pod/pod_utils.go:148-157`` and ``pkg/controllers/leaderworkerset_controller.go:799``
    @060ab4da), unless the container sets it itself (``addEnvVarsIfNotExists``)."""
    if not group or group[0].count is None or group[0].span is None or not injected("LWS_GROUP_SIZE"):
        return {}
    span = group[0].span
    return {"LWS_GROUP_SIZE": MStr.literal(span.source, span.start, span.end)}


def _argv(command: list[Token] | None, args: list[Token] | None, image: MStr | None) -> list[Token] | None:
    """The argv a container runs from its ``command`` and ``args`` (``args`` alone run under the
    image's entry point: read only when that entry point is known to pass them on, or they are a
    command we recognise); None when there is nothing to read."""
    if command:
        return command + (args or [])
    if not args:
        return None
    known = image_entrypoint(image.text) if image is not None and image.known else None
    if known is not None:
        return args if known[1] else None  # else the image's entry point runs its own program with them
    unfolded = _unfold(args)
    if match_entry_point(args) is None and (unfolded is None or match_entry_point(unfolded) is None):
        return None  # an unknown image's entry point: its arguments are not a command we can read
    return args


def _folded_launches(argv: list[Token], source: SourceFile, shell_env: dict, image: MStr | None,
                     result: Extraction) -> list:
    """The launches of a command line folded into one argv item, with the finding that says the
    container fails to start so; [] when unfolding finds none."""
    unfolded = _unfold(argv)
    found = launches(unfolded, source, env=shell_env, image=image, problems=result.problems) if unfolded else []
    if found:
        first = argv[0]
        shown = " ".join(first.raw.split()[:3])
        result.problems.append(Problem(
            f"the whole command line is one argv item: Kubernetes runs it without a shell, as a program "
            f"named {shown + ' …'!r}, and the container fails to start; write one list item per word "
            "(or run it with sh -c)", first.location() or Span(source, 0, 0)))
    return found


def _volume_script(command: list[Token], args: list[Token] | None, container: _Container, spec: _PodSpec,
                   source: SourceFile, cms: ConfigMaps, ws: Workspace | None, result: Extraction) -> tuple | None:
    """``(argv or None, wrapper or None, why not fully verified or None)`` when the script ``command``
    — for a wrapper, ``(path, argv)`` per path (:func:`linter.passthrough.runs`) in place of the argv —
    starts with (``/scripts/entry.sh``, ``bash /opt/run.sh``) lies on one of the pod's volumes
    (:mod:`linter.extract.k8s_volumes`); None when it does not (a file of the image, or a relative
    path). A ConfigMap's script (this file, the YAML files beside it, their kustomization's
    generators, an overlay's: :mod:`linter.extract.kustomize`) is read: a wrapper that ends in ``exec
    "$@"`` passes the rest through (:mod:`linter.passthrough`), else a shell script is the command
    itself (its launches found as in ``sh -c``). A script the repository does not hold (an
    ``emptyDir``, a ``hostPath``, a ConfigMap defined elsewhere) is not guessed: when the words after it
    hold an SGLang launch, that launch is judged as written and is not fully verified, which says why
    (:func:`_unread_script`)."""
    from linter.extract.k8s_volumes import on_volume
    from linter.passthrough import script_index, script_shell, sourced_path, wrapper_of

    values = [w.value for w in command]
    i = script_index(values)
    if i is None:
        return None
    script = _in_container(values[i], _workdir(container))
    if script is None:
        return None
    where = on_volume(script, container.fields.get("volumeMounts"), spec.volumes)
    words = command + (args or [])
    if where is None or launches(words, source):
        return None  # (a program on a volume that starts SGLang itself: /models/venv/bin/python3 -m …)
    at = command[i].span_of() or Span(source, 0, 0)
    text, home = _configmap_script(where, source, cms, ws)
    if text is None or home is None:
        after = words[i + 1:]
        if not after or not launches(after, source):
            return None, None, None
        return after, None, _unread_script(where, script, cms)
    if home is not source and home not in result.related:
        result.related.append(home)
    def resolve(word: str):  # a file the script sources: another key of a ConfigMap volume
        got = sourced_path(word, script, _text(container.fields.get("workingDir")))
        beside = on_volume(got, container.fields.get("volumeMounts"), spec.volumes) if got else None
        found = _configmap_script(beside, source, cms, ws) if beside is not None else (None, None)
        return (found[1], found[0]) if found[0] is not None else None

    wrapper = wrapper_of(values, i, home, script=text, resolve=resolve)
    if wrapper is not None:
        result.related.extend(f for f in wrapper.sourced if f is not source and f not in result.related)
        return runs(wrapper, words, source, result.problems, at), wrapper, None
    shell = script_shell(values, i, text.text)
    if shell is None:
        return None, None, None  # a Python or other script: not read here
    made = [Token(MStr.plain(w, at)) for w in (shell, "-c")] + [Token(text), command[i]] + words[i + 1:]
    return made, None, None


def _script_folder(workdir: str | None):
    """``workdir`` of :func:`linter.passthrough.wrapper_script` for a container working folder
    (:func:`_workdir`): the manifest's folder when none is written (as before), else that folder in the
    container, or None (a relative script is not followed) when it is not known."""
    from linter.passthrough import HOST

    return HOST if workdir is None else (workdir or None)


def _workdir(container: _Container) -> str | None:
    """The container's ``workingDir`` when absolute and known, ``""`` when written otherwise (a
    ``$(VAR)``, a relative path), None when absent (the image's own, not known here)."""
    node = container.fields.get("workingDir")
    if node is None:
        return None
    text = _text(node)
    return text if text and text.startswith("/") and "$(" not in text else ""


def _in_container(path: str, workdir: str | None) -> str | None:
    """The absolute container path of a script named ``path``: itself when absolute, else in the
    working folder ``workdir`` when that is known (:func:`_workdir`); None otherwise."""
    import posixpath

    if path.startswith("/"):
        return path
    return posixpath.normpath(posixpath.join(workdir, path)) if workdir else None


def _configmap_script(where, source: SourceFile, cms: ConfigMaps, ws: Workspace | None) \
        -> tuple[MStr | None, SourceFile | None]:
    """(the text, the file it is in) of the ConfigMap key ``where`` names; (None, None) when not known."""
    if where.kind != "configMap" or not where.configmap or not where.key:
        return None, None
    return _configmap_value(where.configmap, where.key, source, cms, ws)


def _configmap_value(name: str, key: str, source: SourceFile, cms: ConfigMaps, ws: Workspace | None) \
        -> tuple[MStr | None, SourceFile | None]:
    """(the value, the file it is written in) of key ``key`` of ConfigMap ``name`` as a pod of
    ``source`` gets it: a ConfigMap of this file, of the YAML files beside it or what their
    kustomization names, else one a kustomization's ``configMapGenerator`` makes (the folder's, else
    an overlay's that names this folder: :mod:`linter.extract.kustomize`); (None, None) when not known
    (no such ConfigMap or key in the repository, overlays that disagree on it, or a Helm template's
    text in another file, not rendered with this one)."""
    if name not in cms.data and name not in cms.generated and ws is not None:
        folder_configmaps(source, ws, cms)
    if name not in cms.data and name not in cms.generated and ws is not None:
        overlay_configmaps(source, ws, cms)  # an overlay that names this folder generates it
    if name in cms.data:
        home = cms.files[name]
        value = cms.data[name].get(key)
        if value is None or (home is not source and "{{" in value.text):
            return None, None  # no such key; a Helm template's text, not rendered with this file
        return value, home
    got = cms.generated.get(name, {}).get(key)
    if isinstance(got, MStr):  # a generator's literal, in its kustomization
        return (got, got.where.source) if got.where is not None else (None, None)
    return (MStr.literal(got, 0, len(got.text)), got) if got is not None else (None, None)


def _unread_script(where, path: str, cms: ConfigMaps) -> str:
    """Why the launch after a script on a volume (the words after it) is not fully verified: the
    script is not in the repository, so whether it runs them as written is not known."""
    vol = f"volume `{where.volume}`"
    generated = cms.generated.get(where.configmap or "", {})
    if where.kind == "configMap" and where.key and where.key in generated and generated[where.key] is None:
        what = (f"ConfigMap `{where.configmap}` ({vol}), whose key `{where.key}` the overlays that name this "
                "folder generate from different files")
    elif where.kind == "configMap" and where.configmap and where.configmap in cms.data and where.key:
        what = f"ConfigMap `{where.configmap}` ({vol}), whose key `{where.key}` is not there or is a template"
    elif where.kind == "configMap" and where.configmap and where.key:
        what = (f"ConfigMap `{where.configmap}` ({vol}), which is not defined in this file, the YAML files beside it, "
                "their kustomization.yaml or what it names, nor generated by a kustomization that names this folder")
    elif where.kind == "configMap":
        what = f"the ConfigMap {vol}, where it is {where.detail or 'no key of the ConfigMap'}"
    elif where.kind == "emptyDir":
        what = f"the emptyDir {vol}, filled only when the pod runs"
    elif where.kind == "hostPath":
        what = f"the hostPath {vol} (the node's {where.detail or 'files'})"
    elif where.kind == "persistentVolumeClaim":
        what = f"the persistent volume claim {where.detail or ''} ({vol})".replace("  ", " ")
    elif where.kind:
        what = f"the {where.kind} {vol}"
    else:
        what = f"{vol}, which the pod does not define"
    return (f"the entrypoint {path} comes from {what}: whether it runs the SGLang launch after it as written is "
            "not known")


def _launches(container: _Container, spec: _PodSpec, source: SourceFile, cms: ConfigMaps, injected,
              result: Extraction, controller_env: dict | None = None, ws: Workspace | None = None):
    """(Found, span, image, path) of each launch a container runs (``path``: the condition in words, as
    :attr:`~linter.launch.Launch.path` holds it, under which a wrapper script passes ``args`` through;
    empty when always); ``controller_env`` holds values the
    workload's controller gives its variables (``LWS_GROUP_SIZE``) when the container sets none. A
    ``command`` that is a wrapper script of the repository ending in ``exec "$@"``
    (:mod:`linter.passthrough`) passes ``args`` through, with the variables it exports."""
    fields = container.fields
    cmd_node, args_node = fields.get("command"), fields.get("args")
    if cmd_node is None and args_node is None:
        return []
    variables, open_ended = environment(container, source, cms, injected, result.related, ws)
    for name, value in (controller_env or {}).items():
        variables.setdefault(name, value)
    command = _words(cmd_node, source, variables, open_ended, injected)
    args = _words(args_node, source, variables, open_ended, injected)
    image_node = fields.get("image")
    image = yamltree.mstr(image_node, source) if _is_str(image_node) else None
    on_volume = _volume_script(command, args, container, spec, source, cms, ws, result) if command else None
    wrapper = on_volume[1] if on_volume is not None else \
        wrapper_script([w.value for w in command], Path(source.path).parent, ws, tokens=command,
                       workdir=_script_folder(_workdir(container))) if command else None
    if on_volume is not None:
        ways = on_volume[0] if wrapper is not None else [(None, on_volume[0])]
    elif wrapper is not None:  # the script's own arguments, then ``args``: the command it runs
        result.related.extend(wrapper.files)
        ways = runs(wrapper, command + (args or []), source, result.problems, command[wrapper.taken - 1].span_of())
    else:
        ways = [(None, _argv(command, args, image))]
    spans = [Span(source, n.start_mark.index, n.end_mark.index) for n in (cmd_node, args_node) if n is not None]
    spans += [Span(source, k.start_mark.index, k.end_mark.index) for name, k in container.keys.items()
              if name in ("command", "args") and k.start_mark is not None]
    span = hull(spans)
    not_verified = (on_volume[2],) if on_volume is not None and on_volume[2] else ()
    out = []
    for way, argv in ways:
        if argv is None:
            continue
        shell_env = {k: (v if isinstance(v, MStr) else MStr.unknown(None)) for k, v in variables.items()}
        shell_env.update(way.env if way is not None else {})
        found = launches(argv, source, env=shell_env, image=image, problems=result.problems) or \
            _folded_launches(argv, source, shell_env, image, result)
        out += [(f, span, image, not_verified, way.path if way is not None else ()) for f in found]
    return out


__all__ = ["environment", "expand", "extract", "looks_like_kubernetes", "parse_documents", "pod_specs", "remap"]
