"""Helm charts: templates rendered over values.yaml as far as they are plain, read as Kubernetes,
with findings and fixes where the value is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.engine import Engine, RunOptions
from linter.config import ConfigResolver
from linter.launch import UNKNOWN_CHAR, MStr
from linter.extract.helm import Renderer, parse
from linter.workspace import Workspace
from tests.helpers import codes_at, lint_json, run, write_tree

CHART = "apiVersion: v2\nname: mini\nversion: 0.1.0\nappVersion: v0.5.18-cu129\n"

VALUES = """\
image:
  repository: lmsysorg/sglang
model: deepseek-ai/DeepSeek-R1
server:
  attentionBackend: fa4
  deterministic: true
  metrics: false
  tp: 16
global:
  distInit:
    port: "20102"
  nodeSelector:
    nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3
env:
  NCCL_DEBUG: INFO
extraArgs:
  - --log-level
  - debug
"""

HELPERS = """\
{{/* the server command, as SGLang's own chart writes it */}}
{{- define "mini.command" -}}
- python3
- -m
- sglang.launch_server
- --model-path
- {{ .Values.model | quote }}
- --tp
- {{ .Values.server.tp | toString | quote }}
- --attention-backend
- {{ .Values.server.attentionBackend | default "fa3" }}
{{- if .Values.server.deterministic }}
- --enable-deterministic-inference
{{- end }}
{{- if .Values.server.metrics }}
- --enable-metrics
{{- end }}
- --dist-init-addr
- $(LWS_LEADER_ADDRESS):{{ .Values.global.distInit.port }}
{{- range .Values.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end }}
"""

TEMPLATE = """\
{{- if .Values.image.repository }}
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: {{ .Chart.Name }}-{{ .Release.Name }}
spec:
  leaderWorkerTemplate:
    workerTemplate:
      spec:
        {{- with .Values.global.nodeSelector }}
        nodeSelector:
          {{- toYaml . | nindent 10 }}
        {{- end }}
        containers:
          - name: sglang
            image: "{{ .Values.image.repository }}:{{ .Chart.AppVersion }}"
            command:
              {{- include "mini.command" . | nindent 14 }}
            env:
            {{- range $key, $value := .Values.env }}
              - name: {{ $key }}
                value: {{ $value | quote }}
            {{- end }}
{{- end }}
"""


def chart(tmp_path: Path, values: str = VALUES, template: str = TEMPLATE, helpers: str = HELPERS) -> Path:
    files = {"mini/Chart.yaml": CHART, "mini/templates/_helpers.tpl": helpers, "mini/templates/lws.yaml": template}
    if values is not None:
        files["mini/values.yaml"] = values
    write_tree(tmp_path, files)
    return tmp_path


def contexts(root: Path, rel: str = "mini/templates/lws.yaml"):
    ws = Workspace(root)
    engine = Engine(ws, RunOptions(), ConfigResolver(isolated=True))
    return engine.lint(root / rel)


def test_a_chart_is_rendered_and_the_fix_lands_in_values_yaml_byte_for_byte(tmp_path, capsys):
    chart(tmp_path)
    _, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == [("mini/values.yaml", 5, "SGL101")]
    d = diags[0]
    assert (d["column"], d["end_column"], d["fix"]["applicability"]) == (21, 24, "safe")
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "mini/values.yaml").read_text() == VALUES.replace("attentionBackend: fa4",
                                                                        "attentionBackend: fa3")
    assert (tmp_path / "mini/templates/lws.yaml").read_text() == TEMPLATE
    assert lint_json(tmp_path, capsys) == (0, [])


def test_define_nindent_with_range_toyaml_and_conditional_flags(tmp_path):
    res = contexts(chart(tmp_path))
    (ctx,) = res.contexts
    words = [t.raw for t in ctx.launch.args]
    assert words == ["--model-path", "deepseek-ai/DeepSeek-R1", "--tp", "16", "--attention-backend", "fa4",
                     "--enable-deterministic-inference",  # if true: present; metrics false: absent
                     "--dist-init-addr", UNKNOWN_CHAR + ":20102", "--log-level", "debug"]
    # the values keep their origin in values.yaml, the template text in the helper
    assert ctx.launch.args[5].span_of().source.display == "mini/values.yaml"
    assert ctx.launch.args[0].location().source.display == "mini/templates/_helpers.tpl"
    # the nodeSelector comes from values.yaml through with/toYaml/nindent
    assert [(t.name, t.decl.span.source.display, t.decl.span.line) for t in ctx.targets] == [
        ("NVIDIA-H100-80GB-HBM3", "mini/values.yaml", 13)]
    # .Chart.AppVersion gives the image tag, so the release
    assert ctx.table.version == "0.5.18"
    assert [p.display for p in res.related] == ["mini/values.yaml", "mini/templates/_helpers.tpl"]


def test_default_applies_to_a_missing_value(tmp_path):
    res = contexts(chart(tmp_path, values=VALUES.replace("  attentionBackend: fa4\n", "")))
    words = [t.raw for t in res.contexts[0].launch.args]
    assert words[4:6] == ["--attention-backend", "fa3"]


def test_a_false_top_level_if_renders_nothing(tmp_path):
    res = contexts(chart(tmp_path, values=VALUES.replace("  repository: lmsysorg/sglang\n", "  repository: ''\n")))
    assert res.contexts == [] and res.diagnostics == []


def test_an_undecidable_condition_leaves_an_unknown_item(tmp_path):
    helpers = HELPERS.replace("{{- if .Values.server.metrics }}", "{{- if .Capabilities.APIVersions }}")
    res = contexts(chart(tmp_path, helpers=helpers))
    words = [t.raw for t in res.contexts[0].launch.args]
    assert words[7] == UNKNOWN_CHAR


def test_without_values_yaml_the_values_are_unknown_and_nothing_breaks(tmp_path, capsys):
    chart(tmp_path, values=None)
    code, diags = lint_json(tmp_path, capsys)
    assert code in (0, 1)
    res = contexts(tmp_path)
    assert [ctx.model.path for ctx in res.contexts] in ([], [None])


def test_an_unbalanced_end_is_reported_without_a_traceback(tmp_path, capsys):
    chart(tmp_path, template=TEMPLATE + "{{- end }}\n")
    _, diags = lint_json(tmp_path, capsys)
    assert ("mini/templates/lws.yaml", 25, "SGL001") in codes_at(diags)  # at the stray end
    assert any("unbalanced" in d["message"] for d in diags)


def test_a_template_outside_a_chart_and_a_chart_without_launches_are_quiet(tmp_path, capsys):
    write_tree(tmp_path, {"loose/templates/x.yaml": TEMPLATE, "other/Chart.yaml": CHART,
                          "other/templates/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n"
                                                       "  name: {{ .Release.Name }}-sglang\n"})
    assert lint_json(tmp_path, capsys) == (0, [])


@pytest.mark.parametrize("template,values,expected", [
    ("a{{ .Values.x }}b", "x: 1", "a1b"),
    ("a  {{- .Values.x -}}  \n b", "x: 1", "a1b"),
    ("{{ .Values.x | quote }}", "x: v", '"v"'),
    ("{{ .Values.x | squote }}", "x: v", "'v'"),
    ("{{ .Values.missing | default \"d\" }}", "x: 1", "d"),
    ("{{ default \"d\" .Values.x }}", "x: v", "v"),
    ("{{ .Values.x | int }}", "x: 8", "8"),
    ("{{ .Values.x | trunc 3 }}", "x: abcdef", "abc"),
    ("{{ .Values.x | trimSuffix \"-\" }}", "x: ab-", "ab"),
    ("{{ printf \"%s-%s\" .Values.x .Values.y }}", "x: a\ny: b", "a-b"),
    ("{{ with .Values.m }}{{ .k }}{{ end }}", "m:\n  k: v", "v"),
    ("{{ with .Values.none }}yes{{ else }}no{{ end }}", "x: 1", "no"),
    ("{{ range .Values.l }}[{{ . }}]{{ end }}", "l: [a, b]", "[a][b]"),
    ("{{ range $k, $v := .Values.m }}{{ $k }}={{ $v }};{{ end }}", "m:\n  b: 2\n  a: 1", "a=1;b=2;"),
    ("{{ if and .Values.a (not .Values.b) }}y{{ else }}n{{ end }}", "a: true\nb: false", "y"),
    ("{{ if eq .Values.t \"NodePort\" }}y{{ else if .Values.a }}a{{ end }}", "t: x\na: 1", "a"),
    ("{{ $n := .Values.x }}{{ $n }}{{ $.Values.x }}", "x: q", "qq"),
    ("x:{{ toYaml .Values.m | nindent 2 }}", "m:\n  k: v\n  l:\n    - 1", "x:\n  k: v\n  l:\n    - 1"),
    ("{{ .Values.x | indent 2 }}", "x: v", "  v"),
    ("{{/* comment */}}{{ .Release.Service }}", "x: 1", "Helm"),
    ("{{ .Release.Name }}", "x: 1", UNKNOWN_CHAR),
    ("{{ .Values.x | sha256sum }}", "x: 1", UNKNOWN_CHAR),
])
def test_template_constructs(tmp_path, template, values, expected):
    from linter.extract.helm import Node, _yaml_root

    ws = Workspace(tmp_path)
    vsrc = ws.add(tmp_path / "values.yaml", values + "\n")
    src = ws.add(tmp_path / "t.yaml", template)
    nodes, defines, errors = parse(MStr.literal(src, 0, len(src.text)))
    assert errors == []
    r = Renderer(Node(_yaml_root(vsrc), vsrc), {"Name": MStr.plain("mini")}, defines)
    assert r.render(nodes, r.root, {"$": r.root}).text == expected


def test_a_values_character_keeps_its_origin(tmp_path):
    from linter.extract.helm import Node, _yaml_root

    ws = Workspace(tmp_path)
    vsrc = ws.add(tmp_path / "values.yaml", "server:\n  backend: fa4\n")
    src = ws.add(tmp_path / "t.yaml", "- {{ .Values.server.backend | quote }}\n")
    nodes, defines, _ = parse(MStr.literal(src, 0, len(src.text)))
    r = Renderer(Node(_yaml_root(vsrc), vsrc), {}, defines)
    out = r.render(nodes, r.root, {"$": r.root})
    assert out.text == '- "fa4"\n'
    assert out.span_of(3, 6).text == "fa4" and out.span_of(3, 6).source is vsrc
    assert out.span_of(0, 2).source is src
