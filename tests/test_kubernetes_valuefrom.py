"""``env[].valueFrom.configMapKeyRef`` (fresh review rev39 D8): the ConfigMap key's value when the
repository holds it — in the manifest, a YAML file of its folder, what its kustomization names or
generates (its ``files`` and ``literals``), an overlay's generator — found and fixed where it is
written, as ``envFrom`` values are. Every other ``valueFrom`` (``secretKeyRef``, ``fieldRef``, ``resourceFieldRef``) and a key not found
stay unknown. Each case launches DeepSeek-V3 with deterministic inference on an H100 (GKE selector),
so an ``fa4`` that reaches ``--attention-backend`` is SGL101."""

from __future__ import annotations

import pytest

from linter.engine import extract_text
from linter.launch import UNKNOWN_CHAR
from tests.helpers import lint_json, run, write_tree

CM = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: sgl-cfg
data:
  BACKEND: {value}
"""

DEPLOY = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: sgl
spec:
  template:
    spec:
      nodeSelector:
        cloud.google.com/gke-accelerator: nvidia-h100-80gb
      containers:
        - name: sglang
          image: lmsysorg/sglang:v0.5.23-cu129
          env:
            - name: BACKEND
              valueFrom:
{source}
          command: ["/bin/bash", "-c"]
          args:
            - |
              exec python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 \\
                --attention-backend "$BACKEND" --enable-deterministic-inference --tp 8
"""

REF = "                configMapKeyRef:\n                  name: {name}\n                  key: {key}"


def deploy(name: str = "sgl-cfg", key: str = "BACKEND", source: str | None = None) -> str:
    return DEPLOY.format(source=source if source is not None else REF.format(name=name, key=key))


def same_file(value: str = "fa4", **kw) -> str:
    return CM.format(value=value) + "---\n" + deploy(**kw)


EXEC = deploy().replace('          command: ["/bin/bash", "-c"]\n          args:\n            - |\n'
                        '              exec python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 \\\n'
                        '                --attention-backend "$BACKEND" --enable-deterministic-inference --tp 8\n',
                        "          command: [python3, -m, sglang.launch_server, --model-path, deepseek-ai/DeepSeek-V3,\n"
                        "                    --attention-backend, $(BACKEND), --enable-deterministic-inference, --tp, '8']\n")

# (name, files, the (path, line, code) of the findings)
MUST_FLAG = [
    # the ConfigMap in the manifest: at its value, through a shell and through $(VAR)
    ("same-file-shell", {"deploy.yaml": same_file()}, [("deploy.yaml", 6, "SGL101")]),
    ("same-file-exec", {"deploy.yaml": CM.format(value="fa4") + "---\n" + EXEC}, [("deploy.yaml", 6, "SGL101")]),
    ("optional-true", {"deploy.yaml": CM.format(value="fa4") + "---\n" + deploy(source=REF.format(
        name="sgl-cfg", key="BACKEND") + "\n                  optional: true")}, [("deploy.yaml", 6, "SGL101")]),
    ("quoted-value", {"deploy.yaml": same_file('"fa4"')}, [("deploy.yaml", 6, "SGL101")]),
    # a YAML file of the same folder
    ("folder-file", {"deploy.yaml": deploy(), "cm.yaml": CM.format(value="fa4")}, [("cm.yaml", 6, "SGL101")]),
    # what the folder's kustomization names
    ("kustomize-resources", {"app/deploy.yaml": deploy(), "app/kustomization.yaml": "resources: [deploy.yaml, ../common]\n",
                             "common/kustomization.yaml": "resources: [cm.yaml]\n",
                             "common/cm.yaml": CM.format(value="fa4")}, [("common/cm.yaml", 6, "SGL101")]),
    # a configMapGenerator's file (the key's value is the file's text; the shell word splitting drops its newline)
    ("kustomize-generator", {"deploy.yaml": deploy().replace('"$BACKEND"', "$BACKEND"),
                             "kustomization.yaml": "resources: [deploy.yaml]\nconfigMapGenerator:\n"
                                                   "- name: sgl-cfg\n  files: [BACKEND=backend.txt]\n",
                             "backend.txt": "fa4\n"}, [("backend.txt", 1, "SGL101")]),
    # a configMapGenerator's literal, at its value in the kustomization
    ("kustomize-literal", {"deploy.yaml": deploy(),
                           "kustomization.yaml": "resources: [deploy.yaml]\nconfigMapGenerator:\n"
                                                 "- name: sgl-cfg\n  literals:\n  - TP=8\n  - BACKEND=fa4\n"},
     [("kustomization.yaml", 6, "SGL101")]),
    # an overlay that names the folder generates it
    ("kustomize-overlay", {"base/deploy.yaml": deploy().replace('"$BACKEND"', "$BACKEND"),
                           "base/kustomization.yaml": "resources: [deploy.yaml]\n",
                           "overlays/h100/kustomization.yaml": "resources: [../../base]\nconfigMapGenerator:\n"
                                                               "- name: sgl-cfg\n  files: [BACKEND]\n",
                           "overlays/h100/BACKEND": "fa4"}, [("overlays/h100/BACKEND", 1, "SGL101")]),
]

MUST_NOT_FLAG = [
    # other sources: not in the repository
    ("secret", {"deploy.yaml": same_file(source="                secretKeyRef:\n                  name: sgl-cfg\n"
                                                "                  key: BACKEND")}),
    ("field", {"deploy.yaml": same_file(source="                fieldRef:\n                  fieldPath: metadata.name")}),
    ("resource", {"deploy.yaml": same_file(source="                resourceFieldRef:\n"
                                                  "                  resource: limits.cpu")}),
    # a ConfigMap or key the repository does not hold
    ("other-configmap", {"deploy.yaml": same_file(name="elsewhere")}),
    ("other-key", {"deploy.yaml": same_file(key="ATTN")}),
    # a ConfigMap in a folder the manifest's kustomization does not name
    ("unrelated-folder", {"app/deploy.yaml": deploy(), "other/cm.yaml": CM.format(value="fa4")}),
    # two sources in one valueFrom: the API refuses it; unknown
    ("two-sources", {"deploy.yaml": same_file(source=REF.format(name="sgl-cfg", key="BACKEND") +
                                              "\n                fieldRef:\n                  fieldPath: metadata.name")}),
    # a Helm template's text in another file: not rendered with this one
    ("template-text", {"deploy.yaml": deploy(), "cm.yaml": CM.format(value="'{{ .Values.backend }}'")}),
    # a quoted literal: kustomize releases strip its quotes differently, so unknown
    ("kustomize-literal-quoted", {"deploy.yaml": deploy(),
                                  "kustomization.yaml": "resources: [deploy.yaml]\nconfigMapGenerator:\n"
                                                        "- name: sgl-cfg\n  literals: ['BACKEND=\"fa4\"']\n"}),
    # a value the launch does not fail with
    ("fine-value", {"deploy.yaml": same_file("triton")}),
]


def codes_at(diags: list[dict]) -> list[tuple[str, int, str]]:
    return [(d["path"], d["line"], d["code"]) for d in diags]


@pytest.mark.parametrize("name, files, expected", MUST_FLAG, ids=[c[0] for c in MUST_FLAG])
def test_must_flag(tmp_path, capsys, name, files, expected):
    write_tree(tmp_path, files)
    _, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == expected
    code, out, _ = run(tmp_path, capsys, "--no-cache", "--explain", next(p for p in files if p.endswith("deploy.yaml")))
    assert "attention_backend: 'fa4'" in out


@pytest.mark.parametrize("name, files", MUST_NOT_FLAG, ids=[c[0] for c in MUST_NOT_FLAG])
def test_must_not_flag(tmp_path, capsys, name, files):
    write_tree(tmp_path, files)
    _, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == []


@pytest.mark.parametrize("name, where, column, old, new", [
    ("same-file-shell", "deploy.yaml", 12, "BACKEND: fa4", "BACKEND: fa3"),
    ("kustomize-literal", "kustomization.yaml", 13, "BACKEND=fa4", "BACKEND=fa3"),
])
def test_a_fix_lands_at_the_configmap_value_byte_for_byte(tmp_path, capsys, name, where, column, old, new):
    files = next(c[1] for c in MUST_FLAG if c[0] == name)
    write_tree(tmp_path, files)
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["column"], d["fix"]["applicability"]) for d in diags] == [(where, column, "safe")]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / where).read_text() == files[where].replace(old, new)
    assert all((tmp_path / p).read_text() == t for p, t in files.items() if p != where)


@pytest.mark.parametrize("source, value", [
    (REF.format(name="sgl-cfg", key="BACKEND"), "fa4"),
    (REF.format(name="sgl-cfg", key="OTHER"), UNKNOWN_CHAR),
    ("                secretKeyRef:\n                  name: sgl-cfg\n                  key: BACKEND", UNKNOWN_CHAR),
])
def test_a_later_env_value_reads_it_and_a_configmap_value_is_not_expanded(source, value):
    """``$(BACKEND)`` in a later ``value`` is the key's value; the ConfigMap's own ``$(X)`` stays as
    written (the kubelet expands only ``value``)."""
    text = (CM.format(value="fa4") + "  RAW: $(BACKEND)\n---\n" + EXEC.replace(
        "              valueFrom:\n{source}\n".format(source=REF.format(name="sgl-cfg", key="BACKEND")),
        "              valueFrom:\n" + source + "\n"
        "            - name: FLAGS\n              value: --attention-backend=$(BACKEND)\n"
        "            - name: RAW\n              valueFrom:\n" + REF.format(name="sgl-cfg", key="RAW") + "\n")
        .replace("--attention-backend, $(BACKEND),", "$(FLAGS), --served-model-name, $(RAW),"))
    (launch,) = extract_text(text, "kubernetes").launches
    values = [t.text.text for t in launch.args]
    assert values[2] == f"--attention-backend={value}"
    assert values[values.index("--served-model-name") + 1] == "$(BACKEND)"
