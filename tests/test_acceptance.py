"""The acceptance scenarios, restated as small repositories: what is reported (path, line, code),
what --fix writes, and that a second --fix changes nothing."""

from __future__ import annotations

import pytest

from tests.helpers import codes_at, lint_json, run, write_tree

SCENARIOS = {
    "folded command, directive H100 -> fa3": dict(
        files={"docker-compose.yml": (
            "# lint-configs: target-gpu=H100\nservices:\n  infer:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
            "    command: >\n      python3 -m sglang.launch_server\n      --model-path deepseek-ai/DeepSeek-V3\n"
            "      --tp 8\n      --attention-backend fa4\n      --enable-deterministic-inference\n"
            "      --host 0.0.0.0 --port 30000\n")},
        expect=[("docker-compose.yml", 9, "SGL101")],
        fixed={"docker-compose.yml": ("--attention-backend fa4", "--attention-backend fa3")}),
    "flow list on B200 is accepted": dict(
        files={"compose.yaml": (
            "services:\n  llm:\n    image: lmsysorg/sglang:latest\n    # lint-configs: target-gpu=B200\n"
            '    command: ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-R1-0528", '
            '"--attention-backend", "fa4", "--enable-deterministic-inference"]\n')},
        expect=[]),
    "entrypoint + block list, --opt=value, rl target, Kimi-K2 on H200": dict(
        files={"docker-compose.yaml": (
            "services:\n  rollout:\n    entrypoint: python3 -m sglang.launch_server\n    command:\n"
            "      - --model-path\n      - moonshotai/Kimi-K2-Instruct\n      - --attention-backend=fa4\n"
            "      - --rl-on-policy-target\n      - fsdp\n")},
        args=["--target-gpu", "H200"],
        expect=[("docker-compose.yaml", 7, "SGL101")],
        fixed={"docker-compose.yaml": ("--attention-backend=fa4", "--attention-backend=fa3")}),
    "R1-Distill is not MLA; a non-deterministic launch is fine": dict(
        files={"docker-compose.yml": (
            "services:\n  distill:\n    command: python3 -m sglang.launch_server --model-path "
            "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B --attention-backend fa4 --enable-deterministic-inference\n"
            "  plain:\n    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
            "--attention-backend fa4\n")},
        args=["--target-gpu", "H100"], expect=[]),
    "interpolation default is the value and is fixed where written": dict(
        files={"docker-compose.yml": (
            "# lint-configs: target-gpu=NVIDIA-H100-80GB-HBM3\nservices:\n  s:\n    command: >\n"
            "      python3 -m sglang.launch_server --model-path ${MODEL:-deepseek-ai/DeepSeek-V3-0324}\n"
            "      --attention-backend ${BACKEND:-fa4}\n      --enable-deterministic-inference\n")},
        expect=[("docker-compose.yml", 6, "SGL101")],
        fixed={"docker-compose.yml": ("${BACKEND:-fa4}", "${BACKEND:-fa3}")}),
    "broken file is SGL001 and the rest is still fixed": dict(
        files={"broken/compose.yml": "services:\n  s:\n    command: [\"python3\", \"sglang\"\n    ports:\n      - 1\n",
               "ok/compose.yml": ("# lint-configs: target-gpu=H100\nservices:\n  s:\n    command: python3 -m "
                                  "sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
                                  "--enable-deterministic-inference\n")},
        expect=[("broken/compose.yml", 4, "SGL001"), ("ok/compose.yml", 4, "SGL101")],
        fixed={"ok/compose.yml": ("backend fa4", "backend fa3")}),
    "no target declared: SGL901 at the fa4 value, no fix": dict(
        files={"docker-compose.yml": (
            "services:\n  s:\n    command: >\n      python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3\n"
            "      --attention-backend fa4\n      --enable-deterministic-inference\n")},
        expect=[("docker-compose.yml", 5, "SGL901")]),
    "alias and abbreviations on H800": dict(
        files={"docker-compose.yml": (
            "# lint-configs: target-gpu=H800\nservices:\n  s:\n    command:\n      - python3\n      - -m\n"
            "      - sglang.launch_server\n      - --model\n      - deepseek-ai/DeepSeek-R1\n      - --attention-b\n"
            "      - fa4\n      - --enable-deterministic\n")},
        expect=[("docker-compose.yml", 11, "SGL101")],
        fixed={"docker-compose.yml": ("      - fa4\n", "      - fa3\n")}),
    "underscore option spelling": dict(
        files={"docker-compose.yml": ("services:\n  q:\n    command: python3 -m sglang.launch_server --model-path "
                                      "Qwen/Qwen3-8B --attention_backend fa3 --port 30000\n")},
        expect=[("docker-compose.yml", 3, "SGL201")],
        fixed={"docker-compose.yml": ("--attention_backend", "--attention-backend")}),
    "implicit trtllm_mla on B200: SGL103 at the deterministic option, unsafe fix only": dict(
        files={"docker-compose.yml": (
            "services:\n  s:\n    command: >\n      python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3\n"
            "      --enable-deterministic-inference\n")},
        args=["--target-gpu", "B200"],
        expect=[("docker-compose.yml", 5, "SGL103")]),
    "B300 is SM103 and accepted": dict(
        files={"docker-compose.yml": (
            "# lint-configs: target-gpu=B300\nservices:\n  s:\n    command: python3 -m sglang.launch_server "
            "--model-path deepseek-ai/DeepSeek-V3.1 --attention-backend fa4 --enable-deterministic-inference\n")},
        expect=[]),
    "local model config.json decides the architecture": dict(
        files={"models/house/config.json": '{"architectures": ["DeepseekV3ForCausalLM"], "kv_lora_rank": 512}\n',
               "compose.yaml": ("# lint-configs: target-gpu=H100\nservices:\n  s:\n    command: python3 -m "
                                "sglang.launch_server --model-path ./models/house --attention-backend fa4 "
                                "--enable-deterministic-inference\n")},
        expect=[("compose.yaml", 4, "SGL101")],
        fixed={"compose.yaml": ("backend fa4", "backend fa3")}),
    "Slurm script: gres target, model through a variable, continuations; a comment is not a launch": dict(
        files={"jobs/serve.sbatch": (
            "#!/usr/bin/env bash\n#SBATCH --job-name=v3\n#SBATCH --gres=gpu:h100:8\nset -euo pipefail\n\n"
            "MODEL=deepseek-ai/DeepSeek-V3\nPORT=${PORT:-30000}\n# on B200 we run: --attention-backend fa4\n"
            "python3 -m sglang.launch_server \\\n  --model-path \"$MODEL\" \\\n  --attention-backend fa4 \\\n"
            "  --enable-deterministic-inference \\\n  --port \"$PORT\"\n")},
        expect=[("jobs/serve.sbatch", 11, "SGL101")],
        fixed={"jobs/serve.sbatch": ("  --attention-backend fa4 \\", "  --attention-backend fa3 \\")}),
    "shell default in a variable on SM120, flags from an array -> triton": dict(
        files={"run.sh": (
            "#!/bin/bash\n# lint-configs: target-gpu=RTX PRO 6000 Blackwell\nBACKEND=${BACKEND:-fa4}\nFLAGS=(\n"
            "  --model-path zai-org/GLM-4.7-Flash\n  --enable-deterministic-inference\n)\n"
            "exec python3 -m sglang.launch_server \"${FLAGS[@]}\" --attention-backend \"$BACKEND\"\n")},
        expect=[("run.sh", 3, "SGL101")],
        fixed={"run.sh": ("${BACKEND:-fa4}", "${BACKEND:-triton}")}),
    "shell with no target: SGL901": dict(
        files={"serve.sh": ("#!/bin/bash\npython3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
                            "--attention-backend fa4 --enable-deterministic-inference\n")},
        expect=[("serve.sh", 2, "SGL901")]),
    "GB300 gres is SM103: accepted": dict(
        files={"gb300.sh": ("#!/bin/bash\n#SBATCH --gres=gpu:gb300:4\npython3 -m sglang.launch_server --model-path "
                            "zai-org/GLM-4.7-Flash --attention-backend fa4 --enable-deterministic-inference\n")},
        expect=[]),
    "suppression with a reason, and an unused one": dict(
        files={"serve.sh": (
            "#!/bin/bash\n# lint-configs: target-gpu=H100\n# lint-configs: ignore[SGL101] patched flash_attn here\n"
            "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
            "--enable-deterministic-inference\n# lint-configs: ignore[fa4-deterministic-mla-needs-sm100] stale\n"
            "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention-backend fa3\n")},
        expect=[("serve.sh", 5, "SGL002")]),
    "Python argv list with a module constant on H100": dict(
        files={"launch.py": (
            "import subprocess\n\nMODEL = \"deepseek-ai/DeepSeek-V3\"\n\n\ndef start(port):\n    argv = [\n"
            "        \"python3\", \"-m\", \"sglang.launch_server\",\n        \"--model-path\", MODEL,\n"
            "        \"--attention-backend\", \"fa4\",\n        \"--enable-deterministic-inference\",\n"
            "        \"--port\", str(port),\n    ]\n    return subprocess.Popen(argv)\n")},
        args=["--target-gpu", "H100"],
        expect=[("launch.py", 10, "SGL101")],
        fixed={"launch.py": ('"--attention-backend", "fa4"', '"--attention-backend", "fa3"')}),
    "Engine keywords: only the deterministic engine is rejected": dict(
        files={"engine.py": (
            "import sglang as sgl\n\n# lint-configs: target-gpu=H200\n\n\ndef det():\n    return sgl.Engine(\n"
            "        model_path=\"moonshotai/Kimi-K2-Instruct\",\n        attention_backend=\"fa4\",\n"
            "        enable_deterministic_inference=True,\n    )\n\n\ndef ref():\n    return sgl.Engine(\n"
            "        model_path=\"moonshotai/Kimi-K2-Instruct\",\n        attention_backend=\"fa4\",\n"
            "        enable_deterministic_inference=False,\n    )\n")},
        expect=[("engine.py", 9, "SGL101")],
        fixed={"engine.py": ('attention_backend="fa4",\n        enable_deterministic_inference=True',
                             'attention_backend="fa3",\n        enable_deterministic_inference=True')}),
    "popen_launch_server with list concatenation on A100 -> triton": dict(
        files={"tests/test_x.py": (
            "from sglang.test.test_utils import DEFAULT_URL_FOR_TEST, popen_launch_server\n\n"
            "BASE = [\"--enable-deterministic-inference\", \"--tp\", \"4\"]\nMODEL = \"zai-org/GLM-4.7-Flash\"\n\n\n"
            "def setup():\n    return popen_launch_server(\n        MODEL,\n        DEFAULT_URL_FOR_TEST,\n"
            "        other_args=BASE + [\"--attention-backend\", \"fa4\"],\n    )\n")},
        args=["--target-gpu", "A100-80GB"],
        expect=[("tests/test_x.py", 11, "SGL101")],
        fixed={"tests/test_x.py": ('"fa4"]', '"triton"]')}),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario(tmp_path, capsys, name):
    sc = SCENARIOS[name]
    args = sc.get("args", [])
    write_tree(tmp_path, sc["files"])
    code, diags = lint_json(tmp_path, capsys, *args)
    assert codes_at(diags) == sorted(sc["expect"])
    assert code == (1 if sc["expect"] else 0)
    run(tmp_path, capsys, "--fix", *args, ".")
    for path, content in sc["files"].items():
        want = content
        if path in sc.get("fixed", {}):
            old, new = sc["fixed"][path]
            want = content.replace(old, new)
        assert (tmp_path / path).read_text() == want, path
    after = {p: (tmp_path / p).read_bytes() for p in sc["files"]}
    run(tmp_path, capsys, "--fix", *args, ".")
    assert {p: (tmp_path / p).read_bytes() for p in sc["files"]} == after
