"""Shell and Slurm scripts (linter/extract/shell/): launches, values, GPU declarations, fixes.

Most tests lint a small realistic script written to ``tmp_path`` through ``linter.cli.main`` (JSON
output, ``--fix`` and the file's bytes afterwards); the others call ``extract()`` and look at the
token values and the exact source text each token came from.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.cli import main
from linter.extract import shell
from linter.launch import UNKNOWN_CHAR, MStr
from linter.source import SourceFile

DSV3 = "--model-path deepseek-ai/DeepSeek-V3"
DET = "--enable-deterministic-inference"


# ------------------------------------------------------------------------------------------------
# helpers


def _extract(text: str, name: str = "serve.sh"):
    source = SourceFile(Path("/virtual") / name, name, text)
    return source, shell.extract(source, None)


def _values(launch) -> list:
    return [None if t.splat else t.value for t in launch.args]


def _value_after(launch, option: str):
    """The token after ``option`` (the last occurrence)."""
    idx = max(i for i, t in enumerate(launch.args) if t.value == option)
    return launch.args[idx + 1]


def _span(token) -> tuple[str, int] | None:
    span = token.span_of()
    return (span.text, span.line) if span is not None else None


@pytest.fixture
def repo(tmp_path, monkeypatch, capsys):
    """Write files, lint with --format json, apply --fix, read files back."""

    class Repo:
        root = tmp_path

        def write(self, files: dict[str, str | bytes]) -> None:
            for name, text in files.items():
                path = tmp_path / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))

        def lint(self, *args: str) -> list[dict]:
            monkeypatch.chdir(tmp_path)
            capsys.readouterr()
            code = main(["--format", "json", *args, "."])
            out = capsys.readouterr().out
            diags = json.loads(out)
            assert code == (1 if diags else 0)
            return diags

        def fix(self, *args: str) -> int:
            monkeypatch.chdir(tmp_path)
            code = main(["--fix", *args, "."])
            capsys.readouterr()
            return code

        def read(self, name: str) -> bytes:
            return (tmp_path / name).read_bytes()

    return Repo()


def _found(diags: list[dict]) -> list[tuple[str, int, str]]:
    return sorted((d["path"], d["line"], d["code"]) for d in diags)


# ------------------------------------------------------------------------------------------------
# the acceptance-case shapes, end to end


SLURM = """\
#!/usr/bin/env bash
#SBATCH --job-name=dsv3-serve
#SBATCH --nodes=1
#SBATCH --gres=gpu:h100:8
set -euo pipefail

MODEL=deepseek-ai/DeepSeek-V3
PORT=${PORT:-30000}

# --attention-backend fa4 is what we use on the B200 cluster
python3 -m sglang.launch_server \\
  --model-path "$MODEL" \\
  --tp 8 \\
  --attention-backend fa4 \\
  --enable-deterministic-inference \\
  --port "$PORT"
"""


def test_slurm_continuations_gres_and_fix(repo):
    repo.write({"scripts/serve_dsv3.sh": SLURM})
    diags = repo.lint()
    assert sorted(_found(diags)) == [("scripts/serve_dsv3.sh", 14, "SGL101")]
    d = next(x for x in diags if x["code"] == "SGL101")
    assert (d["column"], d["end_column"]) == (23, 26)
    assert d["fix"]["applicability"] == "safe"
    assert d["fix"]["edits"][0]["content"] == "fa3"
    assert repo.fix() == 0
    assert repo.read("scripts/serve_dsv3.sh") == SLURM.replace("--attention-backend fa4", "--attention-backend fa3")\
        .replace("# --attention-backend fa3", "# --attention-backend fa4").encode()


RUN_SH = """\
#!/bin/bash
# lint-configs: target-gpu=RTX PRO 6000 Blackwell
ATTN=${ATTN:-fa4}
ARGS=(
  --model-path zai-org/GLM-4.7-Flash
  --enable-deterministic-inference
)
exec python3 -m sglang.launch_server "${ARGS[@]}" --attention-backend "$ATTN"
"""


def test_variable_default_and_array_fix_at_the_assignment(repo):
    repo.write({"run.sh": RUN_SH})
    diags = repo.lint()
    assert _found(diags) == [("run.sh", 3, "SGL101")]
    assert (diags[0]["column"], diags[0]["end_column"]) == (14, 17)
    repo.fix()
    assert repo.read("run.sh") == RUN_SH.replace("${ATTN:-fa4}", "${ATTN:-triton}").encode()


def test_variable_default_tokens():
    _, ex = _extract(RUN_SH)
    (launch,) = ex.launches
    assert launch.program == "python -m sglang.launch_server"
    assert _values(launch) == ["--model-path", "zai-org/GLM-4.7-Flash", DET, "--attention-backend", "fa4"]
    assert _span(launch.args[1]) == ("zai-org/GLM-4.7-Flash", 5)
    assert _span(launch.args[4]) == ("fa4", 3)
    assert launch.span.line == 8 and launch.key == "script"


def test_no_target_declared_warns(repo):
    repo.write({"serve.sh": "#!/bin/bash\n"
                            f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 {DET} --tp 8\n"})
    assert _found(repo.lint()) == [("serve.sh", 2, "SGL901")]


def test_blackwell_datacenter_gres_is_fine(repo):
    repo.write({"gb300/serve.sh": "#!/bin/bash\n#SBATCH --gres=gpu:gb300:4\npython3 -m sglang.launch_server "
                                  f"--model-path zai-org/GLM-4.7-Flash --attention-backend fa4 {DET}\n",
                "b200/serve.slurm": "#!/bin/bash\n#SBATCH --gres=gpu:nvidia_b200:8\n"
                                    f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 {DET} --tp 8\n"})
    assert repo.lint() == []


def test_local_model_config(repo):
    repo.write({"models/house-dsv3/config.json": '{"architectures": ["DeepseekV3ForCausalLM"], "kv_lora_rank": 512}',
                "serve.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\npython3 -m sglang.launch_server "
                            f"--model-path ./models/house-dsv3 --attention-backend fa4 {DET}\n"})
    assert _found(repo.lint()) == [("serve.sh", 3, "SGL101")]


def test_suppressions_in_shell_comments(repo):
    text = ("#!/bin/bash\n# lint-configs: target-gpu=H100\n"
            "# lint-configs: ignore[SGL101] this host runs a patched flash_attn build\n"
            f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 {DET}\n"
            "# lint-configs: ignore[SGL101] left over from an old config\n"
            "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention-backend fa3\n")
    repo.write({"serve.sh": text})
    assert _found(repo.lint("--select", "SGL101,SGL002")) == [("serve.sh", 5, "SGL002")]


def test_suppression_above_a_continued_command_covers_later_lines(repo):
    text = ("#!/bin/bash\n#SBATCH --gres=gpu:h100:8\n# lint-configs: ignore[SGL101] we patch flash_attn\n"
            "python3 -m sglang.launch_server \\\n  --model-path deepseek-ai/DeepSeek-V3 \\\n"
            "  --attention-backend fa4 \\\n  --enable-deterministic-inference \\\n  --tp 8\n")
    repo.write({"serve.sh": text})
    assert _found(repo.lint()) == []


# ------------------------------------------------------------------------------------------------
# 2. launches: prefixes, positions, wrappers, what is not a launch


@pytest.mark.parametrize("prefix", [
    "CUDA_VISIBLE_DEVICES=0,1 NCCL_DEBUG=INFO",
    "env -i PATH=/usr/bin HOME=/root",
    "env A=b",
    "exec",
    "exec -a sglang-server",
    "nohup",
    "time",
    "time -p",
    "command",
    "timeout 10m",
    "timeout -s KILL --kill-after=30s 10m",
    "numactl --cpunodebind=0 --membind=0",
    "numactl -N 0 -m 0",
    "taskset -c 0-7",
    "taskset 0xff",
    "stdbuf -oL -eL",
    "stdbuf -o L",
    "nice -n 5",
    "sudo -E -u svc",
    "nohup env OMP_NUM_THREADS=1 timeout 1h numactl --interleave=all stdbuf -oL",
    "srun --nodes 2 --ntasks-per-node=1 -l --gres=gpu:8 --mpi pmix",
    "mpirun -np 2 --mca btl tcp,self -x NCCL_DEBUG --bind-to none",
    "torchrun --nproc-per-node 8 --nnodes=1 --no-python",
    "uv run --with sglang",
    "conda run -n sglang --no-capture-output",
])
def test_prefixes_are_stripped(prefix):
    _, ex = _extract(f"#!/bin/bash\n{prefix} python3 -m sglang.launch_server --tp 2 --attention-backend fa3\n")
    (launch,) = ex.launches
    assert _values(launch) == ["--tp", "2", "--attention-backend", "fa3"]
    assert _span(launch.args[3]) == ("fa3", 2)


def test_sglang_serve_and_interpreter_path():
    _, ex = _extract("/opt/venv/bin/python3.11 -m sglang.launch_server --tp 2\nsglang serve Qwen/Qwen3-8B --tp 4\n")
    assert [(l.program, _values(l)) for l in ex.launches] == [
        ("python -m sglang.launch_server", ["--tp", "2"]),
        ("sglang serve", ["Qwen/Qwen3-8B", "--tp", "4"]),
    ]


def test_launches_wherever_the_command_stands():
    text = """\
#!/bin/bash
start() {
  python -m sglang.launch_server --k fn "$@" &
}
python -m sglang.launch_server --k list && echo ok || python -m sglang.launch_server --k or
python -m sglang.launch_server --k pipe 2>&1 | tee server.log
python -m sglang.launch_server --k bg > server.log 2>&1 &
( cd /srv && python -m sglang.launch_server --k subshell )
while true; do
  python -m sglang.launch_server --k loop
  sleep 5
done
for port in 30000 30001; do python -m sglang.launch_server --k for --port "$port"; done
if [ "$MODE" = a ]; then
  python -m sglang.launch_server --k then
elif [ "$MODE" = b ]; then
  python -m sglang.launch_server --k elif
else
  python -m sglang.launch_server --k else
fi
case "$1" in
  prefill) python -m sglang.launch_server --k case1 ;;
  *) python -m sglang.launch_server --k case2 ;;
esac
PID=$(python -m sglang.launch_server --k subst & echo $!)
start
"""
    _, ex = _extract(text)
    kinds = [(l.args[1].value, l.span.line, l.key) for l in ex.launches]
    assert kinds == [
        ("fn", 3, "start()"),
        ("list", 5, "script"), ("or", 5, "script"),
        ("pipe", 6, "script"), ("bg", 7, "script"),
        ("subshell", 8, "script"),
        ("loop", 10, "script"), ("for", 13, "script"), ("for", 13, "script"),  # once per port
        ("then", 15, "script"), ("elif", 17, "script"),
        ("else", 19, "script"),
        ("case1", 22, "script"),
        ("case2", 23, "script"),
        ("subst", 25, "script"),
    ]
    fn = ex.launches[0]
    assert _values(fn) == ["--k", "fn"]  # start is called with no arguments: "$@" is no word (bash)
    assert [l.args[-1].value for l in ex.launches if l.args[1].value == "for"] == ["30000", "30001"]


def test_not_launches_comments_heredocs_echo_and_other_programs(repo):
    text = """\
#!/bin/bash
#SBATCH --gres=gpu:h100:8
# python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference
cat > run_server.sh <<EOF
python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference
EOF
cat <<-'EOT' | tee notes.txt
	python3 -m sglang.launch_server --attention-backend fa4 --enable-deterministic-inference
	EOT
echo python3 -m sglang.launch_server --attention-backend fa4 --enable-deterministic-inference
printf '%s\\n' "python3 -m sglang.launch_server --attention-backend fa4"
python3 train.py --attention-backend fa4 --enable-deterministic-inference --model-path deepseek-ai/DeepSeek-V3
python3 -m sglang_router.launch_router --attention-backend fa4
"""
    repo.write({"job.sbatch": text})
    assert repo.lint() == []
    _, ex = _extract(text)
    assert ex.launches == []
    assert [c.line for c in ex.comments] == [1, 2, 3]


def test_rl_launcher_attention_backend_belongs_to_the_trainer(repo):
    text = """\
#!/bin/bash
#SBATCH --gres=gpu:h100:8
MODEL_ARGS=(--hf-checkpoint /root/DeepSeek-V3 --multi-latent-attention)
SGLANG_ARGS=(--sglang-enable-deterministic-inference --sglang-attention-backend fa3)
MISC_ARGS=(--attention-backend flash --deterministic-mode)
ray job submit --address="http://127.0.0.1:8265" \\
   --runtime-env-json='{"env_vars": {"PYTHONPATH": "/root/Megatron-LM/"}}' \\
   -- python3 train.py \\
   ${MODEL_ARGS[@]} \\
   ${SGLANG_ARGS[@]} \\
   --attention-backend fa4 \\
   ${MISC_ARGS[@]}
"""
    repo.write({"scripts/run-deepseek.sh": text})
    assert repo.lint() == []
    # The trainer is a launch in slime's dialect: its --sglang-attention-backend fa3 counts, the bare
    # --attention-backend fa4 / flash beside it are Megatron's.
    [launch] = _extract(text)[1].launches
    assert launch.program == "slime/miles trainer"


def test_docker_run_launch(repo):
    text = """\
#!/bin/bash
# lint-configs: target-gpu=H100
docker run --gpus all --shm-size 32g -p 30000:30000 \\
    -v ~/.cache/huggingface:/root/.cache/huggingface \\
    --env "HF_TOKEN=$HF_TOKEN" --ipc=host --name sglang -it --rm \\
    lmsysorg/sglang:v0.5.18-cu129 \\
    python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 \\
      --enable-deterministic-inference --host 0.0.0.0 --port 30000
"""
    repo.write({"docker_run.sh": text})
    _, ex = _extract(text)
    (launch,) = ex.launches
    assert launch.image.text == "lmsysorg/sglang:v0.5.18-cu129"
    assert launch.span.line == 3
    assert ex.gpu_decls == []  # --gpus all is a count
    diags = repo.lint()
    assert _found(diags) == [("docker_run.sh", 7, "SGL101")]
    assert "0.5.18" in diags[0]["message"]  # the image tag pins the release
    repo.fix()
    assert repo.read("docker_run.sh") == text.replace("backend fa4", "backend fa3").encode()


def test_docker_entrypoint_exec_and_env():
    text = """\
docker run --rm --entrypoint python3 -e ATTN=fa4 img:1 -m sglang.launch_server --tp 2
docker exec -it -e X=1 -w /srv sglang-box python3 -m sglang.launch_server --tp 4
docker run --rm -e ATTN=triton img:2 bash -c 'python3 -m sglang.launch_server --attention-backend "$ATTN"'
podman run -d --name x img:3 sglang serve some/model
docker run --rm img:4
docker ps
"""
    _, ex = _extract(text)
    assert [(l.image.text if l.image else None, _values(l)) for l in ex.launches] == [
        ("img:1", ["--tp", "2"]),
        (None, ["--tp", "4"]),
        ("img:2", ["--attention-backend", "triton"]),
        ("img:3", ["some/model"]),
    ]
    assert _span(ex.launches[2].args[1]) == ("triton", 3)


def test_srun_bash_c_with_escaped_dollar(repo):
    text = """\
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --gpus-per-node=h100:8
MODEL_PATH="deepseek-ai/DeepSeek-R1"
BACKEND=fa4
FIRST_NODE_IP=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n1)
srun --nodes=2 --ntasks=2 --ntasks-per-node=1 bash -c "python -m sglang.launch_server \\
    --model-path '$MODEL_PATH' --tp 16 --dist-init-addr '$FIRST_NODE_IP:5000' \\
    --nnodes 2 --node-rank \\$SLURM_PROCID --attention-backend $BACKEND \\
    --enable-deterministic-inference --context-length 32768" &
wait
"""
    _, ex = _extract(text, "serve_r1.slurm")
    (launch,) = ex.launches
    assert launch.span.line == 7
    assert _values(launch)[:2] == ["--model-path", "deepseek-ai/DeepSeek-R1"]
    assert _span(launch.args[1]) == ("deepseek-ai/DeepSeek-R1", 4)
    assert _value_after(launch, "--dist-init-addr").value is None
    rank = _value_after(launch, "--node-rank")
    assert rank.splat and rank.raw == UNKNOWN_CHAR  # \$SLURM_PROCID: expanded by the inner shell
    assert _span(_value_after(launch, "--attention-backend")) == ("fa4", 5)
    assert [(d.name, d.how) for d in ex.gpu_decls] == [("h100", "declared by #SBATCH --gpus-per-node")]
    repo.write({"serve_r1.slurm": text})
    assert _found(repo.lint()) == [("serve_r1.slurm", 5, "SGL101")]
    repo.fix()
    assert repo.read("serve_r1.slurm") == text.replace("BACKEND=fa4", "BACKEND=fa3").encode()


def test_value_inside_a_bash_c_string_is_edited_there(repo):
    text = ("#!/bin/bash\n#SBATCH --gres=gpu:h100:8\n"
            "srun -N1 bash -lc \"cd /srv && exec python3 -m sglang.launch_server "
            "--model-path deepseek-ai/DeepSeek-V3 --attention-backend 'fa4' --enable-deterministic-inference\"\n")
    repo.write({"job.sh": text})
    diags = repo.lint()
    assert _found(diags) == [("job.sh", 3, "SGL101")]
    repo.fix()
    assert repo.read("job.sh") == text.replace("'fa4'", "'fa3'").encode()


def test_ssh_host_string():
    text = ('export MODEL=Qwen/Qwen3-8B\nssh -o StrictHostKeyChecking=no -p 2222 gpu-node-1 '
            '"source ~/.venv/bin/activate; python -m sglang.launch_server --model-path $MODEL --port \\$PORT"\n'
            "ssh gpu-node-2 python -m sglang.launch_server --tp 8\n")
    _, ex = _extract(text)
    assert [_values(l) for l in ex.launches] == [["--model-path", "Qwen/Qwen3-8B", "--port", None],
                                                 ["--tp", "8"]]
    assert _span(ex.launches[0].args[1]) == ("Qwen/Qwen3-8B", 1)


def test_sbatch_wrap_and_torchrun_module():
    text = ('sbatch --gres=gpu:b200:8 --wrap="python -m sglang.launch_server --tp 8"\n'
            "deepspeed --num_gpus 8 --module sglang.launch_server --tp 8\n")
    _, ex = _extract(text)
    assert [_values(l) for l in ex.launches] == [["--tp", "8"], ["--tp", "8"]]
    assert [(d.name, d.how) for d in ex.gpu_decls] == [("b200", "declared by sbatch --gres")]


def test_repeated_option_last_wins(repo):
    head = "#!/bin/bash\n#SBATCH --gres=gpu:h100:8\n"
    repo.write({"a.sh": head + f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 {DET} "
                               "--attention-backend triton\n",
                "b.sh": head + f"python3 -m sglang.launch_server {DSV3} --attention-backend triton {DET} "
                               "--attention-backend fa4\n"})
    diags = repo.lint("--select", "SGL101")
    assert _found(diags) == [("b.sh", 3, "SGL101")]
    assert diags[0]["column"] == len(f"python3 -m sglang.launch_server {DSV3} --attention-backend triton {DET} "
                                     "--attention-backend ") + 1


def test_abbreviated_option(repo):
    repo.write({"s.sh": "#!/bin/bash\n#SBATCH --gres=gpu:h100:8\n"
                        "python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-V3 --attention-b fa4 "
                        "--enable-deterministic\n"})
    assert _found(repo.lint("--select", "SGL101")) == [("s.sh", 3, "SGL101")]


# ------------------------------------------------------------------------------------------------
# 3. values


def test_quoting_escapes_and_continuations():
    text = """\
python3 -m sglang.launch_server 'single $X' "dq \\$ \\" \\\\ \\` $'" $'ansi\\tc\\x41\\'' $"tr" \\
  'a'"b"c\\ d --json-model-override-args '{"architectures": ["X"]}' "two \\
lines" -- =x
"""
    _, ex = _extract(text)
    (launch,) = ex.launches
    assert _values(launch) == ["single $X", 'dq $ " \\ ` $\'', "ansi\tcA'", "tr", "abc d",
                               "--json-model-override-args", '{"architectures": ["X"]}', "two lines", "--", "=x"]
    assert _span(launch.args[0]) == ("single $X", 1)
    assert _span(launch.args[6]) == ('{"architectures": ["X"]}', 2)
    assert _span(launch.args[1]) is None  # escapes: no exact literal


def test_assignment_forms_and_defaults():
    text = """\
#!/bin/bash
: "${ATTN:=fa4}"
export MODEL=deepseek-ai/DeepSeek-V3
readonly TP=8
declare -r PP=2
PORT=${PORT-30000}
HOST=${HOST:-"0.0.0.0"}
f() { local L=local-value; python -m sglang.launch_server --l "$L"; }
python -m sglang.launch_server --attention-backend "$ATTN" --model-path $MODEL --tp $TP --pp $PP \\
  --port "$PORT" --host $HOST --mem "${MEM:-0.9}" --never "$NEVER_SET" --plus ${PLUS:+--flag} $NEVER_SET
f
"""
    _, ex = _extract(text)
    fn, main_, unset = ex.launches
    # ${PLUS:+--flag}, PLUS never set in the script: the word on one path, nothing on the other
    assert (main_.path, unset.path) == (("`$PLUS` is set and not empty",), ("`$PLUS` is unset or empty",))
    assert _values(main_) == ["--attention-backend", "fa4", "--model-path", "deepseek-ai/DeepSeek-V3", "--tp", "8",
                              "--pp", "2", "--port", "30000", "--host", "0.0.0.0", "--mem", "0.9", "--never", None,
                              "--plus", "--flag", None]
    assert _values(unset)[-2:] == ["--plus", None]
    spans = [_span(t) for t in main_.args]
    assert spans[1] == ("fa4", 2)
    assert spans[3] == ("deepseek-ai/DeepSeek-V3", 3)
    assert spans[5] == ("8", 4) and spans[7] == ("2", 5)
    assert spans[9] == ("30000", 6) and spans[11] == ("0.0.0.0", 7)
    assert spans[13] == ("0.9", 10)
    never = main_.args[15]
    assert never.value is None and not never.splat  # "$NEVER_SET": one word, unknown
    assert main_.args[-1].splat  # $NEVER_SET unquoted: any number of words
    assert _values(fn) == ["--l", "local-value"]


def test_positional_substitution_arithmetic_are_unknown():
    # ${1:-sglang}: a default written in the file is taken as the value (DESIGN.md "resolve");
    # arithmetic of known integers is computed (--b), any other arithmetic is unknown (--i … --l)
    text = ('ENGINE=${1:-sglang}\nN=8\nTP=$((N * (1 + 1)))\nNODE=$(hostname)\nOLD=`date`\n'
            'python -m sglang.launch_server --a "$ENGINE" --b "$TP" --c "$NODE" --d "$OLD" --e "$2" --f "$*" '
            '--g ${#ENGINE} --h "${ENGINE/x/y}" --i $((M * 2)) --j $((N / 0)) --k $((N > 2)) --l $((ENGINE + 1)) '
            '--m $(( -7 / 2 )) --n $(($N % 3)) "$@"\n')
    _, ex = _extract(text)
    (launch,) = ex.launches
    values = launch.args[1::2]
    assert [t.value for t in values] == ["sglang", "16"] + [None] * 10 + ["-3", "2"]
    assert launch.args[3].text.span_of() is None  # a computed value: no fix may edit it
    assert launch.args[-1].splat


def test_arrays():
    text = """\
ARGS=(
  --model-path deepseek-ai/DeepSeek-V3   # the model
  --tp 8

  "--host" '0.0.0.0'
)
ARGS+=(--port 30000)
EXTRA=(--log-level "debug info")
python -m sglang.launch_server "${ARGS[@]}" ${EXTRA[*]} "${EXTRA[*]}" "${ARGS[0]}" "x${EXTRA[@]}y" ${EMPTY[@]}
"""
    _, ex = _extract(text)
    (launch,) = ex.launches
    assert _values(launch) == ["--model-path", "deepseek-ai/DeepSeek-V3", "--tp", "8", "--host", "0.0.0.0",
                               "--port", "30000", "--log-level", "debug", "info", "--log-level debug info",
                               "--model-path", "x--log-level", "debug infoy", None]
    assert _span(launch.args[1]) == ("deepseek-ai/DeepSeek-V3", 2)
    assert _span(launch.args[7]) == ("30000", 7)


def test_field_splitting_of_unquoted_variables():
    text = ('EXTRA_ARGS="--tp 8  --attention-backend fa4"\n'
            'python -m sglang.launch_server $EXTRA_ARGS "$EXTRA_ARGS"\n')
    _, ex = _extract(text)
    (launch,) = ex.launches
    assert _values(launch) == ["--tp", "8", "--attention-backend", "fa4", "--tp 8  --attention-backend fa4"]
    assert _span(launch.args[3]) == ("fa4", 1)


def test_variable_set_in_both_branches_of_if_is_kept_per_path(repo):
    text = f"""\
#!/bin/bash
#SBATCH --gres=gpu:h100:8
if [ "$FAST" = 1 ]; then
  ATTN=fa4
else
  ATTN=triton
fi
python3 -m sglang.launch_server {DSV3} --attention-backend "$ATTN" {DET}
"""
    _, ex = _extract(text)
    fa4, triton = ex.launches  # a launch per path (issue 35)
    assert (_value_after(fa4, "--attention-backend").value, _value_after(triton, "--attention-backend").value) == \
        ("fa4", "triton")
    assert (fa4.path, triton.path) == (('`[ "$FAST" = 1 ]` succeeds',), ('`[ "$FAST" = 1 ]` fails',))
    repo.write({"s.sh": text})
    [d] = repo.lint()
    assert (d["code"], d["severity"], d["line"]) == ("SGL101", "warning", 4)
    # the fa4 is written in the branch that fails and read only there: its fix is safe
    assert 'when `[ "$FAST" = 1 ]` succeeds' in d["message"] and d["fix"]["applicability"] == "safe"


def test_branch_and_loop_merging():
    text = """\
if [ -n "$A" ]; then SAME=fa3; else SAME=fa3; fi
if [ -n "$A" ]; then ONE=fa3; fi
if [ -n "$A" ]; then KEPT=1; fi; KEPT=fa3
case "$1" in a) C=x ;; *) C=x ;; esac
true && AND=1
for f in a b; do IN_LOOP=fa3; done
BEFORE=fa4
for f in a b; do python -m sglang.launch_server --loop "$BEFORE"; BEFORE=triton; done
python -m sglang.launch_server --same "$SAME" --one "$ONE" --kept "$KEPT" --case "$C" --and "$AND" --in "$IN_LOOP"
"""
    _, ex = _extract(text)
    first, second, after, after_unset = ex.launches
    # a `for` over known words runs once per word, as bash does (issue 35): the second round sees triton
    assert (_values(first), _values(second)) == (["--loop", "fa4"], ["--loop", "triton"])
    # ONE is set on one path of an ``if``: a launch per path (issue 35); ``true &&`` always runs
    assert _values(after) == ["--same", "fa3", "--one", "fa3", "--kept", "fa3", "--case", "x", "--and", "1",
                              "--in", "fa3"]
    assert _values(after_unset) == ["--same", "fa3", "--one", None, "--kept", "fa3", "--case", "x", "--and", "1",
                                    "--in", "fa3"]
    assert after.path == ('`[ -n "$A" ]` succeeds',) and after_unset.path == ('`[ -n "$A" ]` fails',)
    assert after.args[1].span_of() is None  # written in two places: known, but no single literal to edit
    assert _span(after.args[5]) == ("fa3", 3)


def test_functions_see_the_variables_at_their_call_sites():
    text = """\
launch() {
  python3 -m sglang.launch_server --model-path "$MODEL" --attention-backend "${ATTN:-fa3}" --port "$1"
}
setup() { ATTN=fa4; }
MODEL=Qwen/Qwen3-8B
launch 30000
"""
    _, ex = _extract(text)
    (launch,) = ex.launches
    assert launch.key == "launch()"
    # "$1" is the call's argument (before: unknown)
    assert _values(launch) == ["--model-path", "Qwen/Qwen3-8B", "--attention-backend", "fa3", "--port", "30000"]
    _, ex2 = _extract(text.replace("launch 30000", "setup\nlaunch 30000"))
    assert _value_after(ex2.launches[0], "--attention-backend").value is None


def test_assignment_lines_before_a_command_are_statements():
    # tree-sitter-bash joins "A=1 B=2" to the next line's command; bash does not
    text = ('#!/bin/bash\nset -e\nATTN=fa4 MODEL=deepseek-ai/DeepSeek-V3\n'
            'python -m sglang.launch_server --attention-backend "$ATTN" --model-path "$MODEL"\n')
    _, ex = _extract(text)
    (launch,) = ex.launches
    assert _values(launch) == ["--attention-backend", "fa4", "--model-path", "deepseek-ai/DeepSeek-V3"]
    assert launch.span.line == 4
    _, ex2 = _extract('ATTN=fa4 \\\n  python -m sglang.launch_server --attention-backend "$ATTN"\n')
    assert _values(ex2.launches[0]) == ["--attention-backend", None]  # a prefix assignment: not for arguments
    assert ex2.launches[0].span.line == 1


def test_exported_variables_reach_a_single_quoted_bash_c():
    text = ("export MODEL=Qwen/Qwen3-8B\nLOCAL=x\n"
            "bash -c 'python -m sglang.launch_server --model-path \"$MODEL\" --l \"$LOCAL\" --d ${D:-dflt}'\n"
            "ATTN=fa3 bash -c 'python -m sglang.launch_server --attention-backend $ATTN'\n")
    _, ex = _extract(text)
    assert [_values(l) for l in ex.launches] == [["--model-path", "Qwen/Qwen3-8B", "--l", None, "--d", "dflt"],
                                                 ["--attention-backend", "fa3"]]
    assert _span(ex.launches[0].args[5]) == ("dflt", 3)
    assert _span(ex.launches[1].args[1]) == ("fa3", 4)


@pytest.mark.parametrize("assignment, fixed", [
    ('ATTN="fa4"', 'ATTN="fa3"'),
    ("ATTN='fa4'", "ATTN='fa3'"),
    ("export ATTN=fa4", "export ATTN=fa3"),
    (': "${ATTN:=fa4}"', ': "${ATTN:=fa3}"'),
    ('ATTN="${ATTN:-"fa4"}"', 'ATTN="${ATTN:-"fa3"}"'),
])
def test_fix_keeps_the_quoting_of_the_assignment(repo, assignment, fixed):
    text = (f"#!/bin/bash\n#SBATCH --gres=gpu:h100:8\n{assignment}\n"
            f'python3 -m sglang.launch_server {DSV3} --attention-backend "$ATTN" {DET}\n')
    repo.write({"s.sh": text})
    assert _found(repo.lint()) == [("s.sh", 3, "SGL101")]
    repo.fix()
    assert repo.read("s.sh") == text.replace(assignment, fixed).encode()


def test_crlf_and_non_ascii_before_the_launch(repo):
    text = ("#!/bin/bash\r\n# Déploiement du modèle — überprüft ✓ 部署\r\n#SBATCH --gres=gpu:h100:8\r\n"
            'NOTE="café ☕"\r\nATTN="fa4"  # ünïcödé\r\npython3 -m sglang.launch_server \\\r\n'
            "  --model-path deepseek-ai/DeepSeek-V3 \\\r\n  --attention-backend \"$ATTN\" \\\r\n"
            "  --enable-deterministic-inference\r\n")
    _, ex = _extract(text)
    assert _span(_value_after(ex.launches[0], "--attention-backend")) == ("fa4", 5)
    assert _values(ex.launches[0])[-1] == DET
    repo.write({"s.sh": text})
    diags = repo.lint()
    assert _found(diags) == [("s.sh", 5, "SGL101")]
    assert (diags[0]["column"], diags[0]["end_column"]) == (7, 10)
    repo.fix()
    assert repo.read("s.sh") == text.replace('ATTN="fa4"', 'ATTN="fa3"').encode()


def test_non_ascii_inside_a_bash_c_string():
    text = 'srun bash -c "echo ü; python -m sglang.launch_server --name \'é\' --attention-backend fa4"\n'
    _, ex = _extract(text)
    (launch,) = ex.launches
    assert _values(launch) == ["--name", "é", "--attention-backend", "fa4"]
    assert _span(launch.args[3]) == ("fa4", 1)
    assert text[launch.args[3].span_of().start:].startswith("fa4\"")


# ------------------------------------------------------------------------------------------------
# 4. GPU declarations


@pytest.mark.parametrize("line, names", [
    ("#SBATCH --gres=gpu:h100:8", ["h100"]),
    ("#SBATCH --gres=gpu:nvidia_h100_80gb_hbm3:8", ["nvidia_h100_80gb_hbm3"]),
    ("#SBATCH --gres=gpu:b200", ["b200"]),
    ("#SBATCH --gres=nvme:1,gpu:nvidia_b200:4", ["nvidia_b200"]),
    ("#SBATCH --gres gpu:h200:8", ["h200"]),
    ("#SBATCH --gpus=h100:8", ["h100"]),
    ("#SBATCH --gpus-per-node=b200:8", ["b200"]),
    ("#SBATCH --gpus-per-task=h100:1", ["h100"]),
    ("#SBATCH -G a100:2", ["a100"]),
    ("#SBATCH -Gh100:2", ["h100"]),
    ("#SBATCH --tres-per-task=gres/gpu:gb200:1", ["gb200"]),
    ("#SBATCH --constraint=h100", ["h100"]),
    ('#SBATCH --constraint="h100|h200"', ["h100", "h200"]),
    ("#SBATCH -C 'b200&ib'", ["b200"]),
    ("#SBATCH --constraint=[h100*2|a100*4]", ["h100", "a100"]),
    ("#SBATCH --constraint=skylake", []),
    ("#SBATCH --gres=gpu:8", []),
    ("#SBATCH --gpus=8", []),
    ("#SBATCH --gpus-per-node=4", []),
    ("#SBATCH --job-name=h100-serve", []),
    ("#SBATCHX --gres=gpu:h100:8", []),
])
def test_sbatch_directives(line, names):
    text = f"#!/bin/bash\n{line}\npython -m sglang.launch_server --tp 8\n"
    _, ex = _extract(text)
    assert [d.name for d in ex.gpu_decls] == names
    for d in ex.gpu_decls:
        assert d.span.text == d.name and d.span.line == 2


def test_sbatch_directives_after_the_first_command_are_not_read():
    _, ex = _extract("#!/bin/bash\n#SBATCH --nodes=1\nmodule load cuda\n#SBATCH --gres=gpu:h100:8\n")
    assert ex.gpu_decls == []


def test_srun_salloc_sbatch_lines_declare_gpus():
    text = ("salloc -N1 --gpus=h200:8 --time=1:00:00\n"
            "srun --gres=gpu:h100:8 -C 'h100|b200' python -m sglang.launch_server --tp 8\n"
            "srun --container-image=lmsysorg/sglang:v0.5.19 --gpus-per-node h100:8 "
            "python -m sglang.launch_server --tp 8\n"
            "docker run --gpus '\"device=0,1\"' img python -m sglang.launch_server --tp 2\n")
    _, ex = _extract(text)
    assert [(d.name, d.span.line, d.how) for d in ex.gpu_decls] == [
        ("h200", 1, "declared by salloc --gpus"), ("h100", 2, "declared by srun --gres"),
        ("h100", 2, "declared by srun -C"), ("b200", 2, "declared by srun -C"),
        ("h100", 3, "declared by srun --gpus-per-node"),
    ]
    assert ex.launches[1].image.text == "lmsysorg/sglang:v0.5.19"
    assert ex.launches[2].image.text == "img"


def test_constraint_candidates_make_the_fix_unsafe(repo):
    repo.write({"s.sh": "#!/bin/bash\n#SBATCH --constraint=h100|b200\n"
                        f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 {DET}\n"})
    diags = repo.lint()
    assert _found(diags) == [("s.sh", 3, "SGL101")]
    assert diags[0]["fix"]["applicability"] == "unsafe"


def test_unknown_gres_type_is_sgl003(repo):
    repo.write({"s.sh": "#!/bin/bash\n#SBATCH --gres=gpu:tesla_x9000:8\n"
                        f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 {DET}\n"})
    assert ("s.sh", 2, "SGL003") in _found(repo.lint())


def test_bare_gres_count_declares_nothing(repo):
    repo.write({"s.sh": "#!/bin/bash\n#SBATCH --gres=gpu:8\n"
                        f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 {DET}\n"})
    assert _found(repo.lint()) == [("s.sh", 3, "SGL901")]


# ------------------------------------------------------------------------------------------------
# parse errors, comments


def test_unparseable_script_still_yields_its_launches(repo):
    text = (f"#!/bin/bash\n#SBATCH --gres=gpu:h100:8\npython3 -m sglang.launch_server {DSV3} "
            f"--attention-backend fa4 {DET}\nif [ -n \"$X\" ]; then\n  echo (\nfi\n")
    _, ex = _extract(text)
    assert len(ex.launches) == 1
    assert [(p.message, p.span.start_line_col) for p in ex.problems] == [("shell syntax error near 'if'", (4, 1))]
    repo.write({"broken.sh": text})
    assert _found(repo.lint()) == [("broken.sh", 3, "SGL101"), ("broken.sh", 4, "SGL001")]


def test_missing_node_is_reported_at_its_position():
    _, ex = _extract("python -m sglang.launch_server --a 1\nstart() {\n  python -m sglang.launch_server --b 2\n")
    assert [_values(l) for l in ex.launches] == [["--a", "1"], ["--b", "2"]]
    assert [(p.message, p.span.line) for p in ex.problems] == [("shell syntax error: missing '}'", 4)]


def test_comments_are_exact():
    text = 'A="# not a comment"  # lint-configs: target-gpu=H100\ncat <<EOF\n# heredoc\nEOF\n# last\n'
    source, ex = _extract(text)
    assert [c.text for c in ex.comments] == ["# lint-configs: target-gpu=H100", "# last"]


# ------------------------------------------------------------------------------------------------
# compose ``sh -c`` goes through the same parser


def test_compose_sh_c_uses_the_shell_parser(repo):
    text = """\
# lint-configs: target-gpu=H100
services:
  sglang:
    image: lmsysorg/sglang:latest
    command:
      - bash
      - -c
      - |
        ATTN=fa4
        if [ -f /models/ready ]; then echo ready; fi
        exec python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 \\
          --attention-backend $$ATTN --enable-deterministic-inference
  other:
    entrypoint: sh -c "echo 'python3 -m sglang.launch_server --attention-backend fa4'; sleep infinity"
"""
    repo.write({"docker-compose.yml": text})
    assert _found(repo.lint()) == [("docker-compose.yml", 9, "SGL101")]
    repo.fix()
    assert repo.read("docker-compose.yml") == text.replace("ATTN=fa4", "ATTN=fa3").encode()


def test_launches_in_script_maps_origins():
    source = SourceFile(Path("/virtual/c.yml"), "c.yml", "x: 'python -m sglang.launch_server --tp 2'\n")
    script = MStr.literal(source, 4, 41)
    ((program, args, image),) = shell.launches_in_script(script, source)
    assert program == "python -m sglang.launch_server" and image is None
    assert [t.value for t in args] == ["--tp", "2"]
    assert args[1].span_of().start == 40


# ------------------------------------------------------------------------------------------------
# expansion operators and builtins


@pytest.mark.parametrize("setup, word, expected", [
    ("X=v", "${X:-d}", "v"), ("X=", "${X:-d}", "d"), ("X=", "${X-d}", ""), ("unset X", "${X-d}", "d"),
    ("", "${X-d}", "d"), ("X=$1", "${X:-d}", None), ("X=$(date)", "${X-d}", None),
    ("X=v", "${X:+alt}", "alt"), ("X=", "${X:+alt}", ""), ("X=", "${X+alt}", "alt"), ("unset X", "${X:+alt}", ""),
    # a value from outside the script: the word on one path, nothing on the other (two launches)
    ("", "${X:+alt}", ("alt", "")), ("X=$1", "${X:+alt}", ("alt", "")), ("X=$1", "${X+alt}", "alt"),
    ("X=v", "${X:?missing}", "v"), ("", "${X:?missing}", None), ("X=", "${X?missing}", ""),
    ("X=v", "${X}", "v"), ("unset X", "${X}", ""), ("X=v", "${#X}", None), ("X=v", "${X%v}", None),
    ("X=v", "${X:0:1}", None), ("X=v", "${!X}", None),
    ("A=(a b c)", "${A[1]}", "b"), ("A=(a b c)", "${A[7]}", ""), ("A=(a b c)", "${A[$i]}", None),
    ("A=(a b c)", "$A", "a"), ("A=(a b c); A[1]=z", "${A[1]}", "z"), ("A=(a b); A+=c", "${A[0]}", "ac"),
    ("X=v", "${X[0]}", "v"), ("X=v", "${X[@]}", "v"), ("X=a; X+=b", "$X", "ab"), ("X=v; unset X", "x${X}y", "xy"),
    ("X=v; unset -f X", "$X", "v"), ("declare -i X=1+2", "$X", None), ("declare X", "x${X:-d}", "xd"),
    ("read -r X Y", "$Y", None), ("mapfile -t X", "${X[0]}", None), ("getopts ab: X", "$OPTARG", None),
    ("printf -v X %s a", "$X", None), ("X=${Y:=dflt}", "$X$Y", "dfltdflt"), ("X=v", "${X:-}", "v"),
    ("", "${X:-}", ""),
])
def test_expansion_operators(setup, word, expected):
    _, ex = _extract(f'{setup}\npython -m sglang.launch_server --v "{word}"\n')
    per_path = expected if isinstance(expected, tuple) else (expected,)
    assert [_values(launch)[1:] for launch in ex.launches] == [[v] for v in per_path]


def test_exported_and_allexport_variables_in_child_shells():
    text = ("A=1\nset -a\nB=2\nset +a\nC=3\nexport -n C\nexport D=4; export -n D\n"
            "bash -c 'python -m sglang.launch_server --a \"$A\" --b \"$B\" --c \"$C\" --d \"$D\"'\n"
            "env -i bash -c 'python -m sglang.launch_server --b \"${B:-none}\"'\n"
            "A=9 bash -c 'python -m sglang.launch_server --a \"$A\"'\n"
            "docker run -e B -e E=5 --env-file x.env img sh -c 'python -m sglang.launch_server --b \"$B\" --e $E'\n"
            "sudo -E FOO=bar bash -c 'python -m sglang.launch_server --foo \"$FOO\"'\n")
    _, ex = _extract(text)
    assert [_values(l) for l in ex.launches] == [
        ["--a", None, "--b", "2", "--c", None, "--d", None],
        ["--b", "none"],
        ["--a", "9"],
        ["--b", "2", "--e", "5"],
        ["--foo", "bar"],
    ]


def test_ansi_c_quoting():
    _, ex = _extract("python -m sglang.launch_server $'a\\101\\x42\\u00e9\\cA\\q\\\\\\'' $'\\n\\t\\e'\n")
    assert _values(ex.launches[0]) == ["aABé\x01\\q\\'", "\n\t\x1b"]


def test_other_wrappers():
    text = ("apptainer exec --nv -B /data:/data sglang.sif python3 -m sglang.launch_server --tp 1\n"
            "singularity --debug exec --cleanenv img.sif bash -c 'python -m sglang.launch_server --x \"$HOME\"'\n"
            "kubectl exec -it -n llm sglang-0 -- python3 -m sglang.launch_server --tp 2\n"
            "kubectl logs sglang-0 -- python3 -m sglang.launch_server --tp 3\n"
            "accelerate launch --num_processes 1 -m sglang.launch_server --tp 4\n"
            "torchrun --nproc_per_node=8 serve.py --attention-backend fa4\n"
            "command -v python3 -m sglang.launch_server\n"
            "taskset -p 0x3 1234\n"
            "env -S 'python -m sglang.launch_server --tp 5'\n"
            "ray status\n"
            "docker compose up\n")
    _, ex = _extract(text)
    assert [(l.image.text if l.image else None, _values(l)) for l in ex.launches] == [
        ("sglang.sif", ["--tp", "1"]),
        ("img.sif", ["--x", None]),
        (None, ["--tp", "2"]),
        (None, ["--tp", "4"]),
    ]


def test_syntax_error_inside_a_bash_c_string():
    text = 'bash -c "if true; then python -m sglang.launch_server --x 1"\nbash -c "$UNKNOWN_SCRIPT"\n'
    _, ex = _extract(text)
    assert [_values(l) for l in ex.launches] == [["--x", "1"]]
    assert [(p.message, p.span.start_line_col) for p in ex.problems] == [
        ("shell syntax error near 'if' (in the bash command string)", (1, 10))]


def test_shell_options_before_dash_c():
    _, ex = _extract("bash -euo pipefail -c 'python -m sglang.launch_server --tp 1'\n"
                     "sh -e -x -c 'python -m sglang.launch_server --tp 2' sh extra\n"
                     "bash --norc -lc 'python -m sglang.launch_server --tp 3'\n"
                     "bash serve.sh --tp 4\n")
    assert [_values(l) for l in ex.launches] == [["--tp", "1"], ["--tp", "2"], ["--tp", "3"]]


def test_compose_sh_c_shell_default_is_fixed_in_the_compose_file(repo):
    text = ("# lint-configs: target-gpu=H100\nservices:\n  sglang:\n    image: lmsysorg/sglang:latest\n"
            "    entrypoint: [\"/bin/sh\", \"-c\"]\n"
            "    command: [\"exec python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
            "--attention-backend $${ATTN:-fa4} --enable-deterministic-inference\"]\n")
    repo.write({"compose.yaml": text})
    diags = repo.lint()
    assert _found(diags) == [("compose.yaml", 6, "SGL101")]
    repo.fix()
    assert repo.read("compose.yaml") == text.replace(":-fa4}", ":-fa3}").encode()


def test_positional_parameter_default_is_taken_as_the_value(tmp_path, capsys):
    from tests.helpers import lint_json, write_tree

    text = ("#!/bin/bash\n# lint-configs: target-gpu=H100\nbackend=\"${2:-fa4}\"\nmodel=${1:-deepseek-ai/DeepSeek-V3}\n"
            "python3 -m sglang.launch_server --model-path \"$model\" --attention-backend \"$backend\" "
            "--enable-deterministic-inference\n")
    write_tree(tmp_path, {"serve.sh": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"], d["column"]) for d in diags] == [("SGL101", 3, 15)]


@pytest.mark.parametrize("script,launches", [
    # tree-sitter leaves the unterminated `$((` out of the command: bash still stops on that line
    ("python -m sglang.launch_server --model-path m --port $((1+2)\n", 0),
    ("python -m sglang.launch_server --model-path m \\\n  --port $((1+2)\n", 0),
    ("python -m sglang.launch_server --model-path m --port 1\necho $((1+2)\n", 1),  # the line before runs
])
def test_a_syntax_error_on_a_launch_s_line_leaves_only_sgl001(tmp_path, capsys, script, launches):
    from tests.helpers import lint_json, run, write_tree

    write_tree(tmp_path, {"serve.sh": script})
    code, diags = lint_json(tmp_path, capsys)
    assert (code, [d["code"] for d in diags]) == (1, ["SGL001"])
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--color", "never", "serve.sh")
    assert out.count("python -m sglang.launch_server") == launches


@pytest.mark.parametrize("assign, use, words", [
    # tree-sitter-bash puts the blank between two expansions of a double-quoted string into the
    # second expansion's first token: it is still text of the string (before, "$A $B" was "xy")
    ('A=x\nB=y\nC="$A $B"\n', "$C", ["x", "y"]),
    ('A=x\nB=y\nC="$A ${B}"\n', "$C", ["x", "y"]),
    ('A=x\nB=y\nC="$A\t  $B"\n', '"$C"', ["x\t  y"]),
    ('A=x\nB=y\n', '"$A $B"', ["x y"]),
    ('A=x\nB=y\nC="$A $B $A"\n', "$C", ["x", "y", "x"]),
    ('A=x\nC="a $A b"\n', '"$C"', ["a x b"]),
    ('A=x\nB=y\nC="$A$B"\n', "$C", ["xy"]),  # no blank: one word (must not change)
])
def test_blanks_between_expansions_in_double_quotes_are_kept(assign, use, words):
    _, ex = _extract(f"#!/bin/bash\n{assign}python -m sglang.launch_server --model-path {use}\n")
    [launch] = ex.launches
    assert _values(launch)[1:] == words


def test_an_option_list_built_in_a_string_is_split_at_its_blanks(repo):
    """``ARGS="$ARGS $DET"`` (the common way to gather options): before, the blank was lost and
    ``fa4--enable-deterministic-inference`` was judged an invalid choice."""
    text = f"""#!/bin/bash
# lint-configs: target-gpu=H100
ARGS="{DSV3} --attention-backend fa4"
ARGS="$ARGS {DET}"
python -m sglang.launch_server $ARGS
"""
    repo.write({"serve.sh": text})
    assert [(d["code"], d["line"]) for d in repo.lint()] == [("SGL101", 3)]


@pytest.mark.parametrize("line, when", [
    ('EXTRA=""\n[ -n "$DET" ] && EXTRA="{det}"', '`[ -n "$DET" ]` succeeds'),
    ('EXTRA=""\n[[ -n $DET ]] && EXTRA="{det}"', '`[[ -n $DET ]]` succeeds'),
    ('EXTRA=""\ntest -n "$DET" && EXTRA="{det}"', '`test -n "$DET"` succeeds'),
    ('EXTRA="{det}"\n[ -z "$DET" ] || EXTRA=""', '`[ -z "$DET" ]` succeeds'),  # kept where it succeeds
])
def test_a_test_and_an_assignment_joined_by_and_or_are_a_decision(repo, line, when):
    """``[ -n "$DET" ] && EXTRA=…`` is ``if [ -n "$DET" ]; then EXTRA=…; fi``: a warning naming the
    condition (before: merged to unknown, the launch passed as not fully verified)."""
    text = (f"#!/bin/bash\n# lint-configs: target-gpu=H100\n{line.format(det=DET)}\n"
            f"python -m sglang.launch_server {DSV3} --attention-backend fa4 $EXTRA\n")
    repo.write({"serve.sh": text})
    [d] = repo.lint()
    assert (d["code"], d["severity"]) == ("SGL101", "warning")
    assert f"when {when}" in d["message"]


@pytest.mark.parametrize("line, words", [
    ("true && X=1", ["1"]),
    ("false && X=1", [None]),  # never runs: X is what the environment gives
    ("false || X=1", ["1"]),
    ("[ a = a ] && X=1", ["1"]),  # decided by the script
    ("[ a = b ] && X=1", [None]),
])
def test_decided_and_or_lists_take_their_one_way(line, words):
    _, ex = _extract(f"#!/bin/bash\n{line}\npython -m sglang.launch_server --x $X\n")
    [launch] = ex.launches
    assert _values(launch)[1:] == words and launch.path == ()


def test_another_commands_success_is_not_a_decision():
    """``cd dir && X=…``: whether cd succeeds is not a switch the user means; X stays merged."""
    _, ex = _extract('#!/bin/bash\ncd /opt && X=fa3\npython -m sglang.launch_server --x "$X"\n')
    [launch] = ex.launches
    assert _values(launch)[1:] == [None] and launch.path == ()


@pytest.mark.parametrize("body, call, words", [
    ('"$@"', "f --tp 2 --x", ["--tp", "2", "--x"]),
    ("$@", "f --tp 2", ["--tp", "2"]),
    ('--tp "$1" --pp "$2"', "f 2 4", ["--tp", "2", "--pp", "4"]),
    ('--tp "${1:-8}"', "f", ["--tp", "8"]),  # no argument: the default
    ('--tp "$2"', "f 2", ["--tp", ""]),  # past the arguments: empty, as bash
    ('"$@"', "f", []),  # no arguments: "$@" is no word at all
    ('"$@"', "f $UNSET_FROM_OUTSIDE", [None]),  # an unknown word stays unknown
    ('M=$1; shift; python -m sglang.launch_server --model-path "$M" "$@"', "f m --tp 2",
     ["--model-path", "m", "--tp", "2"]),
    ('shift 2; python -m sglang.launch_server "$@"', "f a b --tp 2", ["--tp", "2"]),
    ('set -- --tp 4; python -m sglang.launch_server "$@"', "f --tp 2", ["--tp", "4"]),
])
def test_a_functions_positional_parameters_are_its_calls_arguments(body, call, words):
    """``launch() { python -m sglang.launch_server … "$@"; }; launch --attention-backend fa4`` (before:
    "$@" and $1 were unknown in every function, and the launch passed as not fully verified)."""
    if "python" not in body:
        body = f"python -m sglang.launch_server {body}"
    _, ex = _extract(f"#!/bin/bash\nf() {{ {body}; }}\n{call}\n")
    [launch] = ex.launches
    assert _values(launch) == words


def test_calls_with_different_arguments_give_a_launch_each():
    # one launch per call (fresh review of issue 35, D11b); before, the calls' arguments were merged
    _, ex = _extract('#!/bin/bash\nf() { python -m sglang.launch_server --tp "$1"; }\nf 2\nf 4\n')
    assert [_values(launch) for launch in ex.launches] == [["--tp", "2"], ["--tp", "4"]]


def test_a_function_forwarding_its_arguments_gets_a_finding_at_the_call(repo):
    text = f"""#!/bin/bash
# lint-configs: target-gpu=H100
launch() {{
  python -m sglang.launch_server {DSV3} "$@"
}}
launch --attention-backend fa4 {DET}
"""
    repo.write({"serve.sh": text})
    assert [(d["code"], d["line"], d["severity"]) for d in repo.lint()] == [("SGL101", 6, "error")]


def test_a_printed_command_line_takes_the_calls_arguments(repo):
    """``CMD=$(build fa4)`` where ``build`` echoes a command line with ``$1``: the call's argument is
    the value (before: a call with arguments printed something unknown, and no launch was found)."""
    text = f"""#!/bin/bash
# lint-configs: target-gpu=H100
build() {{
  local be=$1
  echo "python -m sglang.launch_server {DSV3} --attention-backend $be {DET}"
}}
CMD=$(build fa4)
$CMD
"""
    repo.write({"serve.sh": text})
    [d] = repo.lint()
    assert (d["code"], d["line"], d["column"], d["severity"]) == ("SGL101", 7, 13, "error")
    repo.fix()
    assert b"CMD=$(build fa3)" in repo.read("serve.sh")


HUGE = "9" * 5000  # int() refuses strings of more than 4,300 digits


@pytest.mark.parametrize("script", [
    f'f() {{ shift {HUGE}; python -m sglang.launch_server "$@"; }}\nf a\n',
    'f() { shift ²; python -m sglang.launch_server "$@"; }\nf a\n',  # a Unicode digit: isdigit() but no int
    f"X=$(( {HUGE} + 1 ))\npython -m sglang.launch_server --tp $X\n",
    f"A=(x)\npython -m sglang.launch_server --tp ${{A[{HUGE}]}}\n",
    f"A=(x)\nA[{HUGE}]=3\npython -m sglang.launch_server --tp ${{A[0]}}\n",
    f'f() {{ python -m sglang.launch_server --tp "${{{HUGE}}}"; }}\nf a\n',
])
def test_numbers_a_file_writes_are_read_only_when_small(repo, script):
    """A count, index or arithmetic number of thousands of digits (or a Unicode digit) is not a
    number the walker uses: the run goes on, never an internal error (SGL000)."""
    repo.write({"serve.sh": "#!/bin/bash\n" + script})
    assert not [d for d in repo.lint() if d["code"] == "SGL000"]


def test_a_wrapper_shifting_a_huge_count_is_no_internal_error(repo):
    repo.write({"wrap.sh": f'#!/bin/bash\nshift {HUGE}\nexec "$@"\n',
                "compose.yaml": 'services:\n  s:\n    image: lmsysorg/sglang\n    entrypoint: ["./wrap.sh"]\n'
                                '    command: ["python3", "-m", "sglang.launch_server", "--model-path", "m"]\n'})
    assert not [d for d in repo.lint() if d["code"] == "SGL000"]
