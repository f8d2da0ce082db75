{{/* The SGLang server command, one argv item per word. */}}
{{- define "sglang-pd.command" -}}
- python3
- -m
- sglang.launch_server
- --model-path
- {{ .Values.model.path | quote }}
- --tp
- {{ .Values.server.tp | quote }}
- --attention-backend
- {{ .Values.server.attentionBackend }}
{{- if .Values.server.deterministic }}
- --enable-deterministic-inference
{{- end }}
- --dist-init-addr
- $(LWS_LEADER_ADDRESS):20000
- --nnodes
- $(LWS_GROUP_SIZE)
- --node-rank
- $(LWS_WORKER_INDEX)
{{- end }}
