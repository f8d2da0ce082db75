"""docker-compose extraction: every form of command/entrypoint, anchors and merges, interpolation
with .env, exact spans (folded/literal scalars, CRLF, non-ASCII) and fixes checked byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.extract import compose, yamltree
from linter.launch import MStr
from linter.source import SourceFile
from linter.workspace import Workspace
from tests.helpers import codes_at, lint_json, run, write_tree

H100 = "# lint-configs: target-gpu=H100\n"
BAD = "--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference"


def extract(tmp_path: Path, text: str, env: str | None = None):
    path = tmp_path / "docker-compose.yml"
    path.write_bytes(text.encode())
    if env is not None:
        (tmp_path / ".env").write_text(env)
    ws = Workspace(tmp_path)
    return compose.extract(ws.read(path), ws)


def args_of(launch) -> list[str | None]:
    return [t.value for t in launch.args]


# --- each form of command/entrypoint -----------------------------------------------------------------

FORMS = {
    "plain": "    command: python3 -m sglang.launch_server {args}\n",
    "double-quoted": '    command: "python3 -m sglang.launch_server {args}"\n',
    "single-quoted": "    command: 'python3 -m sglang.launch_server {args}'\n",
    "folded": "    command: >\n      python3 -m sglang.launch_server\n      {args}\n",
    "literal": "    command: |\n      python3 -m sglang.launch_server\n      {args}\n",
    "multi-line plain": "    command: python3 -m sglang.launch_server\n      {args}\n",
    "flow list": '    command: ["python3", "-m", "sglang.launch_server", {list}]\n',
    "block list": "    command:\n      - python3\n      - -m\n      - sglang.launch_server\n{block}",
    "entrypoint string + command list": "    entrypoint: python3 -m sglang.launch_server\n    command: [{list}]\n",
    "entrypoint list + command string": '    entrypoint: ["python3", "-m", "sglang.launch_server"]\n    command: {args}\n',
    "sh -c": '    command: ["sh", "-c", "python3 -m sglang.launch_server {args}"]\n',
    "bash -c with exec and env": "    entrypoint: [bash, -c]\n    command: [\"export X=1; exec python3 -m sglang.launch_server {args}\"]\n",
    "sglang serve": "    command: sglang serve deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference\n",
}


def render(form: str) -> str:
    words = BAD.split()
    body = FORMS[form].format(args=BAD, list=", ".join(f'"{w}"' for w in words),
                              block="".join(f"      - {w}\n" for w in words))
    return H100 + "services:\n  sglang:\n    image: lmsysorg/sglang:latest\n" + body


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_command_form_is_found_and_fixed(tmp_path, capsys, form):
    text = render(form)
    write_tree(tmp_path, {"docker-compose.yml": text})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert [d["code"] for d in diags] == ["SGL101"]
    d = diags[0]
    line = text.splitlines()[d["line"] - 1]
    assert line[d["column"] - 1:d["end_column"] - 1] == "fa4"
    assert d["fix"]["applicability"] == "safe"
    assert run(tmp_path, capsys, "--fix", ".")[0] == 0
    fixed = (tmp_path / "docker-compose.yml").read_text()
    assert fixed == text.replace("--attention-backend fa4", "--attention-backend fa3").replace(
        '"--attention-backend", "fa4"', '"--attention-backend", "fa3"').replace(
        "- --attention-backend\n      - fa4", "- --attention-backend\n      - fa3")
    assert run(tmp_path, capsys, "--fix", ".")[0] == 0
    assert (tmp_path / "docker-compose.yml").read_text() == fixed  # idempotent


def test_tokens_of_a_folded_scalar_map_to_their_source_text(tmp_path):
    text = "services:\n  s:\n    command: >\n      python3 -m sglang.launch_server\n      --tp 8\n      --attention-backend fa4\n"
    launch = extract(tmp_path, text).launches[0]
    assert args_of(launch) == ["--tp", "8", "--attention-backend", "fa4"]
    for tok in launch.args:
        span = tok.span_of()
        assert span is not None and span.text == tok.value


def test_crlf_and_non_ascii_before_the_launch(tmp_path, capsys):
    text = ("# Überwachung: déploiement 日本語\r\n# lint-configs: target-gpu=H100\r\nservices:\r\n  llm:\r\n"
            "    command: >\r\n      python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3\r\n"
            "      --attention-backend fa4\r\n      --enable-deterministic-inference\r\n")
    raw = b"\xef\xbb\xbf" + text.encode()
    write_tree(tmp_path, {"docker-compose.yml": raw})
    code, diags = lint_json(tmp_path, capsys)
    assert [(d["line"], d["column"], d["end_column"]) for d in diags] == [(7, 27, 30)]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "docker-compose.yml").read_bytes() == raw.replace(b"backend fa4", b"backend fa3")


def test_file_mode_is_kept_by_fix(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": render("plain")})
    (tmp_path / "docker-compose.yml").chmod(0o640)
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "docker-compose.yml").stat().st_mode & 0o777 == 0o640


# --- anchors, aliases, merges ---------------------------------------------------------------------------

def test_a_launch_shared_through_an_anchor_is_one_diagnostic_and_one_fix(tmp_path, capsys):
    text = (H100 + "x-cmd: &cmd\n  - python3\n  - -m\n  - sglang.launch_server\n  - --model-path\n"
            "  - deepseek-ai/DeepSeek-V3\n  - --attention-backend\n  - fa4\n  - --enable-deterministic-inference\n"
            "services:\n  a:\n    command: *cmd\n  b:\n    command: *cmd\n")
    write_tree(tmp_path, {"compose.yaml": text})
    code, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == [("compose.yaml", 9, "SGL101")]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "compose.yaml").read_text() == text.replace("  - fa4\n", "  - fa3\n")


def test_merge_keys_resolve_and_own_keys_win(tmp_path):
    text = ("x-base: &base\n  image: lmsysorg/sglang:v0.5.18-cu129\n  entrypoint: python3 -m sglang.launch_server\n"
            "  command: --model-path Qwen/Qwen3-8B\n"
            "services:\n  one:\n    <<: *base\n  two:\n    <<: [*base]\n    command: --model-path deepseek-ai/DeepSeek-V3\n")
    result = extract(tmp_path, text)
    assert [(launch.key, args_of(launch)) for launch in result.launches] == [
        ("services.one", ["--model-path", "Qwen/Qwen3-8B"]),
        ("services.two", ["--model-path", "deepseek-ai/DeepSeek-V3"]),
    ]
    assert result.launches[0].image.text == "lmsysorg/sglang:v0.5.18-cu129"


def test_x_fields_are_not_services_and_other_programs_are_not_launches(tmp_path):
    text = ("x-sglang:\n  command: python3 -m sglang.launch_server --attention-backend fa4\n"
            "services:\n  trainer:\n    command: python3 train.py --attention-backend fa4 --enable-deterministic-inference\n"
            "  router:\n    command: python3 -m sglang_router.launch_router --port 30000\n"
            "  empty:\n    command:\n")
    assert extract(tmp_path, text).launches == []


# --- interpolation --------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr,env,value", [
    ("${ATTN:-fa4}", None, "fa4"),
    ("${ATTN-fa4}", None, "fa4"),
    ("${ATTN:-fa4}", "ATTN=triton\n", "triton"),
    ("${ATTN:-fa4}", "ATTN=\n", "fa4"),        # :- treats empty as unset
    ("${ATTN-fa4}", "ATTN=\n", ""),             # - does not
    ("${ATTN}", "ATTN='fa3'\n", "fa3"),
    ("${ATTN}", 'export ATTN="fa3"  # comment\n', "fa3"),
    ("$ATTN", "ATTN=fa3 # trailing comment\n", "fa3"),
    ("${ATTN}", None, None),                    # unknown, never guessed
    ("${ATTN:?set ATTN}", None, None),
    ("${ATTN:+triton}", "ATTN=x\n", "triton"),
    ("${ATTN:+triton}", None, ""),
    ("fa$${X}", None, "fa${X}"),                # $$ is a literal dollar
    ("${A:-${B:-fa4}}", None, "fa4"),           # nested default
])
def test_interpolation(tmp_path, expr, env, value):
    text = f"services:\n  s:\n    command:\n      - python3\n      - -m\n      - sglang.launch_server\n      - --attention-backend\n      - \"{expr}\"\n"
    launch = extract(tmp_path, text, env).launches[0]
    assert launch.args[1].value == value


def test_default_is_fixed_where_written_and_env_value_is_fixed_in_env(tmp_path, capsys):
    compose_text = H100 + ("services:\n  s:\n    command: >\n      python3 -m sglang.launch_server\n"
                           "      --model-path ${MODEL:-deepseek-ai/DeepSeek-V3}\n      --attention-backend ${ATTN}\n"
                           "      --enable-deterministic-inference\n")
    write_tree(tmp_path, {"docker-compose.yml": compose_text, ".env": "# backends\nATTN=fa4\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == [(".env", 2, "SGL101")]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / ".env").read_text() == "# backends\nATTN=fa3\n"
    assert (tmp_path / "docker-compose.yml").read_text() == compose_text


def test_unknown_variable_is_not_fixed_and_not_guessed(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": H100 + "services:\n  s:\n    command: python3 -m sglang.launch_server "
               "--model-path deepseek-ai/DeepSeek-V3 --attention-backend ${ATTN} --enable-deterministic-inference\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert (code, diags) == (0, [])


def test_unknown_model_path_from_env_is_sgl901(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": H100 + "services:\n  s:\n    command: python3 -m sglang.launch_server "
               "--model-path ${MODEL} --attention-backend fa4 --enable-deterministic-inference\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == ["SGL901"]
    assert "architecture" in diags[0]["message"]
    assert diags[0]["fix"] is None


def test_splitting_with_quotes_keeps_exact_spans(tmp_path):
    text = ("services:\n  s:\n    command: |\n      python3 -m sglang.launch_server --json-model-override-args "
            "'{\"architectures\": [\"DeepseekV3ForCausalLM\"]}' --attention-backend \"fa4\"\n")
    launch = extract(tmp_path, text).launches[0]
    assert args_of(launch) == ["--json-model-override-args", '{"architectures": ["DeepseekV3ForCausalLM"]}',
                               "--attention-backend", "fa4"]
    assert launch.args[3].span_of().text == "fa4"
    assert launch.args[1].span_of() is None or launch.args[1].span_of().text == launch.args[1].value


def test_unbalanced_quote_is_sgl001(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": "services:\n  s:\n    command: python3 -m sglang.launch_server --x 'oops\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == [("docker-compose.yml", 3, "SGL001")]


def test_align_marks_escapes_as_inexact(tmp_path):
    source = SourceFile(tmp_path / "f", "f", 'a: "x\\ty fa4"\n')
    value = "x\ty fa4"
    m = MStr(value, yamltree.align(value, source, 3, 13))
    assert m.span_of(4, 7).text == "fa4"
    assert m.span_of(0, 3) is None  # the \t escape is not the source text


def test_directives_inside_yaml_strings_are_text(tmp_path, capsys):
    text = ("services:\n  a:\n    environment:\n      NOTE: \"# lint-configs: target-gpu=B200\"\n"
            "      OTHER: 'x # lint-configs: ignore[SGL101]'\n"
            "    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
            "--enable-deterministic-inference  # lint-configs: target-gpu=H100\n")
    write_tree(tmp_path, {"compose.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL101", 6)]


def test_an_unreadable_dotenv_is_reported(tmp_path, capsys):
    write_tree(tmp_path, {".env": b"ATTN=fa4\n\xff\n", "compose.yaml": H100 + (
        "services:\n  s:\n    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
        "--attention-backend ${ATTN} --enable-deterministic-inference\n")})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"]) for d in diags] == [("compose.yaml", "SGL001")]
    assert "not UTF-8" in diags[0]["message"]


def test_fifo_and_device_links_are_skipped(tmp_path, capsys):
    import os

    os.mkfifo(tmp_path / "x.sh")
    (tmp_path / "zero.sh").symlink_to("/dev/zero")
    assert lint_json(tmp_path, capsys) == (0, [])


def test_sh_c_sees_the_service_environment_and_env_file(tmp_path, capsys):
    text = H100 + ("services:\n  a:\n    environment:\n      ATTN: fa4\n    command: [\"sh\", \"-c\", \"python3 -m "
                   "sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend $$ATTN "
                   "--enable-deterministic-inference\"]\n"
                   "  b:\n    env_file: [b.env]\n    environment:\n      - MODEL=deepseek-ai/DeepSeek-V3\n"
                   "    command: sh -c 'python3 -m sglang.launch_server --model-path $$MODEL --attention-backend "
                   "$$ATTN --enable-deterministic-inference'\n")
    write_tree(tmp_path, {"compose.yaml": text, "b.env": "ATTN=fa4\n"})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["line"]) for d in diags] == [("b.env", 1), ("compose.yaml", 5)]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "b.env").read_text() == "ATTN=fa3\n"
    assert "ATTN: fa3" in (tmp_path / "compose.yaml").read_text()


def test_backslash_line_ends_in_a_literal_command_are_newline_arguments(tmp_path, capsys):
    # compose splits with go-shellwords: "\\\n" is an escaped newline, an argument of its own.
    text = ("services:\n  e:\n    command: |\n      python3 -m sglang.launch_server \\\n"
            "        --model-path Qwen/Qwen3-8B \\\n        --tp 2\n")
    write_tree(tmp_path, {"docker-compose.yml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL204", 4), ("SGL204", 5)]
    assert "backslash at a line end" in diags[0]["message"]


def test_a_value_written_with_an_escape_is_located_at_its_whole_literal(tmp_path, capsys):
    text = H100 + ('services:\n  a:\n    command: ["python3", "-m", "sglang.launch_server", "--model-path", '
                   '"deepseek-ai/DeepSeek-V3", "--attention-backend", "\\x66a4", "--enable-deterministic-inference"]\n')
    write_tree(tmp_path, {"compose.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    d = diags[0]
    line = text.splitlines()[d["line"] - 1]
    assert line[d["column"] - 1:d["end_column"] - 1] == '"\\x66a4"' and d["fix"] is None


def test_a_shell_syntax_error_in_sh_c_is_sgl001(tmp_path, capsys):
    text = ("services:\n  a:\n    command: [\"sh\", \"-c\", \"python3 -m sglang.launch_server --model-path "
            "Qwen/Qwen3-8B --served-model-name 'x\"]\n")
    write_tree(tmp_path, {"compose.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    [problem] = [d for d in diags if d["code"] == "SGL001"]
    assert problem["line"] == 3 and problem["message"].startswith("shell syntax error")
