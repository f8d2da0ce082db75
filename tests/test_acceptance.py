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
