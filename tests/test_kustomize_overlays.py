"""Kustomize around a Kubernetes wrapper script (issue 35, review rev36 D4 and the trust boundary): a
ConfigMap an overlay's ``configMapGenerator`` makes for the base it names is read (its ``files``
relative to the overlay's kustomization), and a kustomization reference that leads out of the run's
root is SGL005 at the reference, never read. Each pod runs DeepSeek-V3 with fa4 and deterministic
inference on an H100 through ``/scripts/entry.sh``, so a launch that is found shows as SGL101."""

from __future__ import annotations

import pytest

from tests.helpers import lint_json, run, write_tree
from tests.test_paths_wrappers import ARGV, CM_VOLUME, ENTRY, H100, pod, src

DEPLOY = pod('["/scripts/entry.sh"]', ARGV, CM_VOLUME)
GENERATOR = "configMapGenerator:\n- name: sglang-scripts\n  files: [{files}]\n"


def lint(root, capsys, files: dict[str, str]) -> list[tuple[str, str, int, int]]:
    write_tree(root, {k: src(v) for k, v in files.items()})
    diags = lint_json(root, capsys, *H100)[1]
    return [(d["code"], d["path"], d["line"], d["column"]) for d in diags]


@pytest.mark.parametrize("files", [
    # rev36 D4: the overlay names the base folder and generates the ConfigMap from a file beside neither
    {"overlay/h100/kustomization.yaml": "resources: [../../base]\n"
     + GENERATOR.format(files="entry.sh=../../scripts/entry.sh"),
     "scripts/entry.sh": ENTRY},
    # the file beside the overlay, the key its name; the legacy `bases:`; `components:`
    {"overlays/prod/kustomization.yaml": "resources:\n- ../../base\n" + GENERATOR.format(files="entry.sh"),
     "overlays/prod/entry.sh": ENTRY},
    {"overlays/prod/kustomization.yaml": "bases: [../../base]\n" + GENERATOR.format(files="scripts/entry.sh"),
     "overlays/prod/scripts/entry.sh": ENTRY},
    {"overlays/prod/kustomization.yaml": "components: [../../base/]\n" + GENERATOR.format(files="entry.sh"),
     "overlays/prod/entry.sh": ENTRY},
    # the overlay names the manifest itself; an overlay beside the base's parent folder
    {"overlays/prod/kustomization.yaml": "resources: [../../base/deploy.yaml]\n" + GENERATOR.format(files="entry.sh"),
     "overlays/prod/entry.sh": ENTRY},
    {"base/kustomization.yaml": "resources: [deploy.yaml]\n",
     "../clusters/prod/kustomization.yaml": "resources: [../../app/base]\n" + GENERATOR.format(files="entry.sh"),
     "../clusters/prod/entry.sh": ENTRY},
    # two overlays that agree
    {"overlays/a/kustomization.yaml": "resources: [../../base]\n" + GENERATOR.format(files="entry.sh=../entry.sh"),
     "overlays/b/kustomization.yaml": "resources: [../../base]\n" + GENERATOR.format(files="entry.sh=../entry.sh"),
     "overlays/entry.sh": ENTRY},
])
def test_a_configmap_an_overlay_generates_for_its_base_is_read(tmp_path, capsys, files):
    root = tmp_path / "repo" / "app"
    write_tree(tmp_path / "repo", {".git/HEAD": "ref: refs/heads/main\n"})
    got = lint(root, capsys, {"base/deploy.yaml": DEPLOY, **files})
    assert [(c, p, line) for c, p, line, _ in got] == [("SGL101", "base/deploy.yaml", 12)]


@pytest.mark.parametrize("files, says", [
    # overlays that generate the key from different files: which one the pod gets is not known
    ({"overlays/a/kustomization.yaml": "resources: [../../base]\n" + GENERATOR.format(files="entry.sh"),
      "overlays/a/entry.sh": ENTRY,
      "overlays/b/kustomization.yaml": "resources: [../../base]\n" + GENERATOR.format(files="entry.sh"),
      "overlays/b/entry.sh": ENTRY + "# b\n"},
     "whose key `entry.sh` the overlays that name this folder generate from different files"),
    # a kustomization that does not name the base
    ({"overlays/prod/kustomization.yaml": "resources: [../../other]\n" + GENERATOR.format(files="entry.sh"),
      "overlays/prod/entry.sh": ENTRY},
     "which is not defined in this file"),
])
def test_a_configmap_not_known_to_reach_the_base_is_not_guessed(tmp_path, capsys, files, says):
    lint(tmp_path, capsys, {"base/deploy.yaml": DEPLOY, **files})
    assert not_verified(tmp_path, capsys, "base/deploy.yaml").startswith(
        f"the entrypoint /scripts/entry.sh comes from ConfigMap `sglang-scripts` (volume `scripts`), {says}")


def not_verified(root, capsys, name: str) -> str:
    """The reason --explain gives for the launch's script (it is judged as written, not fully verified)."""
    out = run(root, capsys, *H100, "--explain", name)[1]
    [why] = [line.split(": ", 1)[1] for line in out.splitlines() if "not fully verified: the entrypoint" in line]
    return why


@pytest.mark.parametrize("kustomization, line, column", [
    ("resources: [deploy.yaml, ../../elsewhere]\n", 1, 26),
    ("bases:\n- ../../elsewhere/configmap.yaml\nresources: [deploy.yaml]\n", 2, 3),
    ("resources: [deploy.yaml]\ncomponents: [/etc]\n", 2, 14),
    ("resources: [deploy.yaml]\n" + GENERATOR.format(files="entry.sh=../../elsewhere/entry.sh"), 4, 11),
])
def test_a_kustomization_reference_outside_the_root_is_reported_there_and_not_read(tmp_path, capsys,
                                                                                   kustomization, line, column):
    write_tree(tmp_path, {"elsewhere/configmap.yaml": src("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: sglang-scripts}
        data:
          entry.sh: |
            exec "$@"
        """), "elsewhere/entry.sh": ENTRY, "repo/.git/HEAD": "ref: refs/heads/main\n"})
    got = lint(tmp_path / "repo", capsys, {"deploy/kustomization.yaml": kustomization, "deploy/deploy.yaml": DEPLOY})
    assert ("SGL005", "deploy/kustomization.yaml", line, column) in got
    assert "SGL005" not in [c for c, p, *_ in got if p != "deploy/kustomization.yaml"]
    # nothing of it read: the script stays unknown
    assert "ConfigMap `sglang-scripts`" in not_verified(tmp_path / "repo", capsys, "deploy/deploy.yaml")
