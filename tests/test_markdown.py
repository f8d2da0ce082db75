"""Markdown runbooks: fences of each language read by their format, prompts, containers,
placeholders, HTML-comment directives, per-block parse problems and fixes in the fence's text."""

from __future__ import annotations

import pytest

from linter.engine import extract_text, lint_text
from tests.helpers import lint_json, run, write_tree

BAD = "--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference"
HEAD = "# Serving\n\n<!-- lint-configs: target-gpu=H100 -->\n\n"


def codes(text: str) -> list[tuple[str, int, str]]:
    return [(d.code, d.span.line, d.span.text) for d in lint_text(text, "markdown", name="RUNBOOK.md")]


@pytest.mark.parametrize("lang", ["bash", "sh", "shell", "zsh", "console", "Bash {.line-numbers}"])
def test_each_shell_fence_kind_is_a_shell_script(lang):
    text = HEAD + f"```{lang}\npython3 -m sglang.launch_server {BAD}\n```\n"
    assert codes(text) == [("SGL101", 6, "fa4")]


def test_python_yaml_and_untagged_fences():
    text = HEAD + (
        "```python\nimport sglang as sgl\n"
        f'llm = sgl.Engine(model_path="deepseek-ai/DeepSeek-V3", attention_backend="fa4",\n'
        "                 enable_deterministic_inference=True)\n```\n\n"
        "```yaml\nservices:\n  sglang:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
        "    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tpp 2\n```\n\n"
        "```\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention-backendd fa3\n```\n\n"
        "```\nsome text --tpp 2 that is not a command\n```\n\n"
        "```yaml\nkey: python -m sglang.launch_server --tpp 2\n```\n\n"
        "```text\npython -m sglang.launch_server --tpp 2\n```\n")
    assert codes(text) == [("SGL101", 7, "fa4"), ("SGL201", 15, "--tpp"), ("SGL201", 19, "--attention-backendd")]


def test_console_prompts_are_stripped_and_output_is_ignored():
    text = HEAD + (
        "```console\n"
        "$ export MODEL=deepseek-ai/DeepSeek-V3\n"
        "# python3 -m sglang.launch_server --model-path $MODEL --attention-backend fa4 \\\n"
        "    --enable-deterministic-inference\n"
        "[2025-01-01] error: --tpp 2 is not an option\n"
        "python -m sglang.launch_server --tpp 2\n"
        "```\n\n"
        "```bash\n"
        "(venv) user@host:~/sglang$ python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tpp 2\n"
        "INFO: python -m sglang.launch_server --tpp 2\n"
        "```\n")
    assert codes(text) == [("SGL101", 7, "fa4"), ("SGL201", 14, "--tpp")]
    # The launch is located at the text after the prompt.
    ext = extract_text(text, "markdown", name="RUNBOOK.md")
    assert [launch.args[0].span_of().text for launch in ext.launches] == ["--model-path", "--model-path"]


def test_fences_in_list_items_and_block_quotes_skip_their_prefixes(tmp_path, capsys):
    text = HEAD + (
        "1. Start the server:\n\n"
        "   ```bash\n"
        f"   python3 -m sglang.launch_server \\\n     {BAD}\n"
        "   ```\n\n"
        "> **Note**\n"
        "> ```sh\n"
        f"> python3 -m sglang.launch_server {BAD} \\\n"
        ">   --tpp 2\n"
        "> ```\n")
    assert codes(text) == [("SGL101", 9, "fa4"), ("SGL101", 14, "fa4"), ("SGL201", 15, "--tpp")]
    ext = extract_text(text, "markdown", name="RUNBOOK.md")
    quoted = ext.launches[1]
    assert [t.value for t in quoted.args[-2:]] == ["--tpp", "2"]
    assert not any(">" in t.raw for t in quoted.args)
    write_tree(tmp_path, {"RUNBOOK.md": text})
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "RUNBOOK.md").read_text() == text.replace("backend fa4", "backend fa3")


@pytest.mark.parametrize("args", [
    "--model-path <MODEL> --tp <TP_SIZE>",
    "--model-path <your model path> --port 30000",
    "--model-path $MODEL_PATH --tp ${TP}",
    "--model-path Qwen/Qwen3-8B ...",
    "--model-path Qwen/Qwen3-8B [OPTIONS]",
    "--model-path Qwen/Qwen3-8B --tp 2 … --port 30000",
])
def test_placeholders_are_unknown_values_never_errors(args):
    text = HEAD + f"```bash\npython3 -m sglang.launch_server {args}\n```\n"
    assert codes(text) == []
    (launch,) = extract_text(text, "markdown", name="RUNBOOK.md").launches
    assert any(t.value is None for t in launch.args)


def test_a_placeholder_is_located_at_its_text():
    text = "```bash\npython3 -m sglang.launch_server --model-path <MODEL>\n```\n"
    (launch,) = extract_text(text, "markdown", name="RUNBOOK.md").launches
    assert launch.args[1].value is None and launch.args[1].location().text == "<MODEL>"


def test_a_block_that_does_not_parse_is_its_sgl001_and_the_rest_is_linted():
    text = HEAD + ("```python\ndef broken(:\n    sglang.Engine(model_path='m')\n```\n\n"
                   f"```bash\npython3 -m sglang.launch_server {BAD}\n```\n")
    got = lint_text(text, "markdown", name="RUNBOOK.md")
    assert [(d.code, d.span.line) for d in got] == [("SGL001", 6), ("SGL101", 11)]
    assert "python block at line 5" in got[0].message


def test_an_unterminated_fence_runs_to_the_end_of_the_file():
    text = HEAD + f"Run:\n\n```bash\npython3 -m sglang.launch_server {BAD}\n\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tpp 2\n"
    assert codes(text) == [("SGL101", 8, "fa4"), ("SGL201", 10, "--tpp")]


def test_suppressions_inside_a_fence_and_html_directives(tmp_path, capsys):
    text = HEAD + (f"```bash\n# lint-configs: ignore[SGL101] checked on B200 too\npython3 -m sglang.launch_server {BAD}\n"
                   "```\n\n<!-- lint-configs: ignore[SGL201] nothing here -->\n")
    assert [(d.code, d.span.line) for d in lint_text(text, "markdown", name="RUNBOOK.md")] == [("SGL002", 10)]
    # A directive written in a fence of a language that is not read is no directive.
    text = "```text\n# lint-configs: target-gpu=H100\n```\n\n" + \
        f"```bash\npython3 -m sglang.launch_server {BAD}\n```\n"
    assert [d.code for d in lint_text(text, "markdown", name="RUNBOOK.md")] == ["SGL901"]


def test_a_readme_is_linted_and_fixed_byte_for_byte(tmp_path, capsys):
    text = ("# Deploy\r\n\r\n<!-- lint-configs: target-gpu=H100 -->\r\n\r\n"
            f"```bash\r\ndocker run --gpus all lmsysorg/sglang:v0.5.23-cu129 \\\r\n  python3 -m sglang.launch_server {BAD}\r\n"
            "```\r\n")
    write_tree(tmp_path, {"README.md": text})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1 and [(d["code"], d["line"], d["column"]) for d in diags] == [("SGL101", 7, 92)]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "README.md").read_bytes() == text.replace("backend fa4", "backend fa3").encode()


def test_a_shell_block_showing_output_is_no_parse_problem_unless_it_holds_a_launch():
    text = ("```shell\n============ sglang Serving Benchmark Result ============\nBackend: sglang-oai (x\n```\n\n"
            "```shell\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B (\n```\n")
    assert [(d.code, d.span.line) for d in lint_text(text, "markdown", name="RUNBOOK.md")] == [("SGL001", 7)]


def test_an_untagged_block_whose_first_command_is_continued_onto_the_entry_point():
    text = ("```\nSGLANG_CACHE_DIT_ENABLED=true \\\nFOO=1 \\\nsglang serve --model-path Qwen/Qwen3-8B --tpp 2\n"
            "```\n")
    assert [(d.code, d.span.line) for d in lint_text(text, "markdown", name="RUNBOOK.md")] == [("SGL201", 4)]


def test_a_tab_indented_fence_line_is_located_at_its_text():
    text = "- item\n\n  ```bash\n\tpython -m sglang.launch_server --model-path Qwen/Qwen3-8B --tpp 2\n  ```\n"
    assert codes(text) == [("SGL201", 4, "--tpp")]


def test_continuation_prompts_and_interactive_python_sessions():
    text = HEAD + (
        "```console\n$ python3 -m sglang.launch_server \\\n> --model-path Qwen/Qwen3-8B --tpp 2\nerror: --tpp\n```\n\n"
        "```pycon\n>>> import sglang as sgl\n>>> llm = sgl.Engine(model_path=\"deepseek-ai/DeepSeek-V3\",\n"
        "...     attention_backend=\"fa4\", enable_deterministic_inference=True)\n<sglang.Engine object>\n```\n")
    assert codes(text) == [("SGL201", 7, "--tpp"), ("SGL101", 14, "fa4")]


def test_a_python_doc_fragment_that_starts_no_server_is_not_judged():
    from linter.engine import lint_text

    text = '# Usage\n\n```python\nfrom x import sglang_rollout\ndef f():\n    """doc"""\n        ...\n```\n'
    assert lint_text(text, "markdown", name="usage.md") == []
    broken = '```python\nimport sglang\nllm = sglang.Engine(model_path="m"\n```\n'
    assert [d.code for d in lint_text(broken, "markdown", name="usage.md")] == ["SGL001"]
