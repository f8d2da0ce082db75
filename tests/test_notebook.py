"""Jupyter notebooks: code cells as one Python program, ``!`` lines and ``%%bash`` cells as shell,
locations in the notebook's own lines and columns, fixes JSON-escaped and byte-exact."""

from __future__ import annotations

import json

import pytest

from linter.engine import extract_text, lint_text
from tests.helpers import lint_json, run, write_tree

BAD = "--attention-backend fa4 --enable-deterministic-inference"


def notebook(*sources, indent: int = 1) -> str:
    """An nbformat 4 notebook whose code cells have these ``source`` values (a str or a list of str);
    a markdown cell first, and an output that mentions a launch (outputs are never read)."""
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Serving DeepSeek-V3 on H100\n"]}]
    for src in sources:
        cells.append({"cell_type": "code", "execution_count": None, "metadata": {},
                      "outputs": [{"output_type": "stream", "name": "stdout",
                                   "text": ["python -m sglang.launch_server --tpp 3\n"]}],
                      "source": src})
    doc = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"


MODEL_CELL = ["# lint-configs: target-gpu=H100\n", 'MODEL = "deepseek-ai/DeepSeek-V3"\n']
IMPORT_CELL = 'import sglang as sgl\nprint("ready: \\"yes\\"")'
LAUNCH_CELL = ["llm = sgl.Engine(\n", '    model_path=MODEL, attention_backend="fa4",\n',
               "    enable_deterministic_inference=True)\n"]


def _line_col(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)


@pytest.mark.parametrize("form", ["list", "string"])
def test_a_model_bound_two_cells_before_the_launch_is_fixed_byte_for_byte(tmp_path, capsys, form):
    launch = LAUNCH_CELL if form == "list" else "".join(LAUNCH_CELL)
    text = notebook(MODEL_CELL, IMPORT_CELL, launch)
    write_tree(tmp_path, {"serve.ipynb": text})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert [(d["code"], d["line"], d["column"]) for d in diags] == [("SGL101", *_line_col(text, 'fa4\\"'))]
    assert "deepseek-ai/DeepSeek-V3" in diags[0]["message"] and "H100" in diags[0]["message"]
    assert diags[0]["fix"]["edits"][0]["content"] == "fa3"
    run(tmp_path, capsys, "--fix", ".")
    fixed = (tmp_path / "serve.ipynb").read_text()
    assert fixed == text.replace('attention_backend=\\"fa4\\"', 'attention_backend=\\"fa3\\"')
    cells = json.loads(fixed)["cells"]
    assert isinstance(cells[3]["source"], list if form == "list" else str)
    assert 'attention_backend="fa3"' in "".join(cells[3]["source"])
    assert lint_json(tmp_path, capsys) == (0, [])


def test_bang_lines_and_ipython_expansions_are_shell_commands(tmp_path):
    text = notebook(MODEL_CELL, ["%pip install sglang\n",
                                 "!python -m sglang.launch_server --model-path {MODEL} --tpp 2 \\\n",
                                 '    --host "0.0.0.0"\n', "x = 1\n"])
    diags = lint_text(text, "notebook", name="serve.ipynb")
    assert [(d.code, d.span.text, d.span.start_line_col) for d in diags] == \
        [("SGL201", "--tpp", _line_col(text, "--tpp 2"))]
    ext = extract_text(text, "notebook", name="serve.ipynb")
    (launch,) = ext.launches
    # {MODEL} is filled in by IPython from Python: a value not known here, located at the braces.
    model = launch.args[1]
    assert model.value is None and model.location().text == "{MODEL}"
    assert [t.value for t in launch.args[2:]] == ["--tpp", "2", "--host", "0.0.0.0"]
    # "0.0.0.0" is written as \"0.0.0.0\" in the JSON: its value is exact between the escapes.
    assert launch.args[-1].span_of().text == "0.0.0.0"
    assert text[launch.args[-1].span_of().start - 2:][:2] == '\\"'


def test_a_bash_cell_is_a_shell_script_and_other_cell_magics_are_skipped(tmp_path):
    text = notebook(["%%bash\n", "# lint-configs: target-gpu=H100\n",
                     "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 " + BAD + "\n"],
                    ["%%writefile serve.sh\n", "python3 -m sglang.launch_server --tpp 2\n"],
                    ["%%time\n", "import subprocess\n",
                     'subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B",'
                     ' "--tpp", "2"])\n'])
    diags = lint_text(text, "notebook", name="serve.ipynb")
    assert [(d.code, d.span.text, d.span.line) for d in diags] == [
        ("SGL101", "fa4", _line_col(text, "fa4 --enable")[0]),
        ("SGL201", '--tpp', _line_col(text, '\\"--tpp')[0]),
    ]


def test_a_fix_in_a_bash_cell_keeps_the_notebook_valid(tmp_path, capsys):
    text = notebook(["%%bash\n", "# lint-configs: target-gpu=H100\n",
                     'MODEL="deepseek-ai/DeepSeek-V3"\n',
                     'python3 -m sglang.launch_server --model-path "$MODEL" ' + BAD + "\n"], indent=2)
    write_tree(tmp_path, {"nb.ipynb": text})
    run(tmp_path, capsys, "--fix", ".")
    fixed = (tmp_path / "nb.ipynb").read_text()
    assert fixed == text.replace("backend fa4", "backend fa3")
    json.loads(fixed)


@pytest.mark.parametrize("content,message", [
    ('{"cells": ["import sglang"', "not a notebook: invalid JSON"),
    ('{"cells": [{"cell_type": "code", "source": "import sglang"}], "nbformat": 3}', "not an nbformat 4 notebook"),
    ('["sglang"]', "not an nbformat 4 notebook"),
])
def test_a_file_that_is_not_an_nbformat_4_notebook_is_sgl001_and_never_written(tmp_path, capsys, content, message):
    write_tree(tmp_path, {"bad.ipynb": content})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1 and [d["code"] for d in diags] == ["SGL001"] and message in diags[0]["message"]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "bad.ipynb").read_text() == content


def test_a_cell_that_is_not_python_is_its_own_sgl001_and_the_rest_is_linted():
    text = notebook(MODEL_CELL, ["def broken(:\n"], IMPORT_CELL, LAUNCH_CELL)
    diags = lint_text(text, "notebook", name="serve.ipynb")
    assert [(d.code, d.span.start_line_col) for d in diags] == [
        ("SGL001", _line_col(text, ':\\n"\n')), ("SGL101", _line_col(text, 'fa4\\"'))]
    assert "cell 3 is not valid Python" in diags[0].message


def test_non_ascii_and_escapes_before_a_value_keep_columns_exact():
    text = notebook(["# lint-configs: target-gpu=H100\n",
                     'note = "café \\t ☕"; MODEL = "deepseek-ai/DeepSeek-V3"\n'],
                    ["import sglang as sgl\n",
                     'llm = sgl.Engine(model_path=MODEL, attention_backend="fa4", enable_deterministic_inference=True)'],
                    indent=None)
    (d,) = lint_text(text, "notebook", name="serve.ipynb")
    assert d.code == "SGL101" and d.span.text == "fa4" and d.span.start == text.index('fa4\\"')


def test_a_fix_text_is_json_escaped_where_it_is_written():
    from linter.extract.notebook import escape_edit

    assert escape_edit(None, 'a "b" \\ c\n\té') == 'a \\"b\\" \\\\ c\\n\\té'


def test_a_notebook_with_huge_outputs_is_still_read(tmp_path, capsys):
    import json as _json

    from tests.helpers import lint_json

    cell = {"cell_type": "code", "metadata": {}, "execution_count": 1,
            "source": ["# lint-configs: target-gpu=H100\n", "import subprocess\n",
                       "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--model-path', "
                       "'deepseek-ai/DeepSeek-V3', '--attention-backend', 'fa4', "
                       "'--enable-deterministic-inference'])\n"],
            "outputs": [{"output_type": "stream", "name": "stdout", "text": ["x" * 300000]}]}
    text = _json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [cell]})
    (tmp_path / "big.ipynb").write_text(text)  # one 300,000-character line: its outputs
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == ["SGL101"]
