"""Which of a pod's volumes an entrypoint script comes from (issue 35): a container whose ``command``
starts with ``/scripts/entry.sh`` (or ``bash /opt/run.sh``) where a ``volumeMounts`` entry puts a
volume at ``/scripts`` runs the file that volume holds, not one of the image.

Kubernetes API (Pod ``spec.volumes``, Container ``volumeMounts``; "ConfigMap" and "Volumes"
concepts): the mount with the longest ``mountPath`` that holds the path wins; with ``subPath`` the
mount is that one entry of the volume. A ``configMap`` volume holds one file per ``data`` key, or,
with ``items``, the listed keys at their ``path`` (keys not listed are absent); a ``projected``
volume merges its ``configMap`` sources the same way. Every other kind — ``emptyDir`` (filled when the
pod runs), ``hostPath`` (the node's files), a persistent volume claim, a ``secret`` … — holds files
the repository does not show: such a script is not known, and never guessed.

The ConfigMap itself is looked up by :mod:`linter.extract.kubernetes` (the same file, the YAML files
of its folder, a ``kustomization.yaml`` there whose ``configMapGenerator`` names the script's file,
and what that kustomization's ``resources``/``bases``/``components`` name in other folders of the root).
"""

from __future__ import annotations

from linter.extract import yamltree
from linter.records import dataclass


@dataclass(frozen=True)
class OnVolume:
    """Where a container path lies: volume ``volume`` of kind ``kind`` (its key in the volume source:
    ``configMap``, ``emptyDir``, ``hostPath`` …; ``""`` when the pod defines no such volume), and for a
    ConfigMap its name and the data key that is the file (None when the path is not one of its
    files). ``detail`` says more for a message (a hostPath's path)."""

    volume: str
    kind: str
    configmap: str | None = None
    key: str | None = None
    detail: str = ""


def on_volume(path: str, mounts, volumes: list) -> OnVolume | None:
    """The volume the absolute container path ``path`` lies on, given a container's ``volumeMounts``
    node and the pod's ``volumes`` item nodes; None when no mount holds it (a file of the image)."""
    got = _mount_of(path, mounts)
    if got is None:
        return None
    name, rel = got
    volume = next((v for v in volumes if yamltree.scalar_text(yamltree.value_of(v, "name")) == name), None)
    if volume is None:
        return OnVolume(name, "")
    kinds = [str(getattr(k, "value", "")) for k, _ in yamltree.items(volume) if str(getattr(k, "value", "")) != "name"]
    kind = kinds[0] if kinds else ""
    source = yamltree.value_of(volume, kind)
    if kind == "configMap":
        return _in_configmap(name, source, rel)
    if kind == "projected":
        sources = yamltree.value_of(source, "sources")
        for item in (sources.value if yamltree.is_seq(sources) else []):
            cm = yamltree.value_of(item, "configMap")
            if yamltree.is_map(cm):
                found = _in_configmap(name, cm, rel)
                if found.key is not None:
                    return found
        return OnVolume(name, kind)
    field = {"hostPath": "path", "persistentVolumeClaim": "claimName"}.get(kind)
    detail = (yamltree.scalar_text(yamltree.value_of(source, field)) or "") if field else ""
    return OnVolume(name, kind, detail=detail)


def _mount_of(path: str, mounts) -> tuple[str, str | None] | None:
    """(volume name, the path inside the volume — None when it depends on ``subPathExpr`` —) of the
    mount with the longest ``mountPath`` holding ``path``; None when none does."""
    best = None
    for m in (mounts.value if yamltree.is_seq(mounts) else []):
        mount_path = yamltree.scalar_text(yamltree.value_of(m, "mountPath"))
        name = yamltree.scalar_text(yamltree.value_of(m, "name"))
        if not mount_path or not name or not mount_path.startswith("/"):
            continue
        base = mount_path.rstrip("/") or "/"
        if (path == base or path.startswith(base.rstrip("/") + "/")) and (best is None or len(base) > len(best[0])):
            best = (base, name, m)
    if best is None:
        return None
    base, name, mount = best
    rel: str | None = path[len(base):].lstrip("/")
    sub = yamltree.value_of(mount, "subPath")
    if yamltree.value_of(mount, "subPathExpr") is not None:
        rel = None  # the entry depends on the pod's variables
    elif sub is not None:
        rel = "/".join(p for p in ((yamltree.scalar_text(sub) or "").strip("/"), rel) if p)
    return name, rel


def _in_configmap(volume: str, source, rel: str | None) -> OnVolume:
    """The key of ConfigMap volume source ``source`` that is the file ``rel`` of the volume."""
    cm = yamltree.scalar_text(yamltree.value_of(source, "name"))
    if rel is None or not rel:
        return OnVolume(volume, "configMap", cm)
    items = yamltree.value_of(source, "items")
    if yamltree.is_seq(items):
        for item in items.value:
            if (yamltree.scalar_text(yamltree.value_of(item, "path")) or "").strip("/") == rel:
                return OnVolume(volume, "configMap", cm, yamltree.scalar_text(yamltree.value_of(item, "key")))
        return OnVolume(volume, "configMap", cm, None, detail="not among the volume's items")
    return OnVolume(volume, "configMap", cm, rel if "/" not in rel else None)
