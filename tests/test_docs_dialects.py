"""Documentation dialects: MkDocs-Material/PyMdown admonitions, collapsible blocks and tabs, MyST code
directives and colon fences, reStructuredText (Sphinx) code blocks and literal blocks — each finding on
its line and column, each fix byte for byte, the labels a launch sits under, and bad input as an SGL001
on its block only."""

from __future__ import annotations

import json

import pytest

from linter.engine import extract_text, lint_text
from tests.helpers import lint_json, run, write_tree

BAD = "--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference"
TPP = "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tpp 2"


def where(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based line and column of the ``nth`` occurrence of ``needle`` in ``text``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def found(tmp_path, capsys, name: str, text: str | bytes) -> list[tuple[str, int, int]]:
    write_tree(tmp_path, {name: text})
    _, diags = lint_json(tmp_path, capsys)
    return [(d["code"], d["line"], d["column"]) for d in diags]


def fixed(tmp_path, capsys, name: str) -> bytes:
    run(tmp_path, capsys, "--fix", ".")
    return (tmp_path / name).read_bytes()


def labels(launch) -> list[tuple[str, str, int | None]]:
    return [(c.kind, c.text, c.span.line if c.span else None) for c in launch.context]


# -- MkDocs-Material / PyMdown ---------------------------------------------------------------------

NESTED = f"""# DeepSeek-V3

<!-- lint-configs: target-gpu=H100 -->

## Hopper

=== "H100"

    Launch it on one node.

    !!! warning "8x H100"

        ```bash
        python3 -m sglang.launch_server \\
            {BAD}
        ```

=== "AMD"

    ```bash
    {TPP}
    ```
"""


def test_an_admonition_nested_in_a_tab_is_read_located_and_fixed_in_place(tmp_path, capsys):
    assert found(tmp_path, capsys, "README.md", NESTED) == [
        ("SGL101", *where(NESTED, "fa4")), ("SGL201", *where(NESTED, "--tpp"))]
    assert where(NESTED, "fa4") == (15, 70)
    assert fixed(tmp_path, capsys, "README.md") == NESTED.replace("backend fa4", "backend fa3").encode()
    first, second = extract_text(NESTED, "markdown", name="README.md").launches
    assert labels(first) == [("heading", "DeepSeek-V3", 1), ("heading", "Hopper", 5), ("tab", "H100", 7),
                             ("admonition", "8x H100", 11)]
    assert labels(second) == [("heading", "DeepSeek-V3", 1), ("heading", "Hopper", 5), ("tab", "AMD", 18)]
    tab = first.context[2]
    assert (tab.span.text, tab.span.start_line_col) == ("H100", (7, 6))


LIST = f"""Steps:

1. Pull the image.

    ???+ tip "On B200"

        ```console
        $ python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B \\
        >     --tpp 2
        server started
        ```

2. Send a request.

    ??? note

        ```bash
        {TPP}
        ```
"""


def test_a_collapsible_block_in_a_list_item(tmp_path, capsys):
    assert found(tmp_path, capsys, "steps.md", LIST) == [("SGL201", 9, 15), ("SGL201", *where(LIST, "--tpp", 1))]
    launches = extract_text(LIST, "markdown", name="steps.md").launches
    assert [labels(x) for x in launches] == [[("admonition", "On B200", 5)], [("admonition", "Note", 15)]]
    assert launches[1].context[0].span.text == "note"  # shown as "Note", written "note"
    assert launches[0].args[-2].span_of().start_line_col == (9, 15)


def test_two_blank_lines_inside_an_admonition_keep_the_block_whole():
    # mdit-py-plugins' admon closes an admonition at two blank lines (a reason to read these by hand);
    # Python-Markdown and pymdownx keep the body going while lines are indented.
    text = f"!!! note\n\n    ```bash\n    {TPP} \\\n\n\n      --tp 2\n    ```\n\nAfter.\n"
    (launch,) = extract_text(text, "markdown", name="a.md").launches
    assert [t.value for t in launch.args][-2:] == ["--tpp", "2"]
    assert [(d.code, d.span.line) for d in lint_text(text, "markdown", name="a.md")] == [("SGL201", 4)]


def test_tabs_of_every_marker_and_titles_as_shown():
    text = ('=== "One"\n\n    ```bash\n    ' + TPP + '\n    ```\n\n'
            '===+ "Two"\n    ```bash\n    ' + TPP + '\n    ```\n\n'
            '===! "Three"\n    ```bash\n    ' + TPP + '\n    ```\n\n'
            '!!! danger ""\n    ```bash\n    ' + TPP + '\n    ```\n')
    launches = extract_text(text, "markdown", name="tabs.md").launches
    assert [labels(x) for x in launches] == [[("tab", "One", 1)], [("tab", "Two", 7)], [("tab", "Three", 12)], []]


def test_a_fix_inserting_a_line_break_keeps_the_blocks_indentation():
    ext = extract_text(NESTED, "markdown", name="README.md")
    span = ext.launches[0].args[1].span_of()  # on line 15: 8 spaces of tab and admonition, 4 of the code's own
    assert span.start_line_col == (15, 26)
    assert ext.escape_edit(span, "a \\\nb") == "a \\\n        b"


# -- MyST -----------------------------------------------------------------------------------------

MYST = f"""# Serving

```{{code-block}} bash
:caption: 8x H100 (SXM)
:linenos:

python3 -m sglang.launch_server {BAD}
```

```{{code}} shell
---
caption: MI300X
emphasize-lines: 1
---
{TPP}
```

::::{{tab-set}}
:::{{tab-item}} B200
:sync: b200

```bash
{TPP.replace("--tpp 2", "--tpp 3")}
```
:::
::::

````{{note}}
```{{eval-rst}}
.. code-block:: bash

   {TPP.replace("--tpp 2", "--tpp 4")}
```
````
"""


def test_myst_code_directives_colon_fences_and_eval_rst(tmp_path, capsys):
    head = "<!-- lint-configs: target-gpu=H100 -->\n"
    text = head + MYST
    got = found(tmp_path, capsys, "serving.md", text)
    assert got == [("SGL101", *where(text, "fa4")), ("SGL201", *where(text, "--tpp")),
                   ("SGL201", *where(text, "--tpp", 1)), ("SGL201", *where(text, "--tpp", 2))]
    assert got[0] == ("SGL101", 8, 90)
    assert fixed(tmp_path, capsys, "serving.md") == text.replace("backend fa4", "backend fa3").encode()
    launches = extract_text(MYST, "markdown", name="serving.md").launches
    assert [labels(x) for x in launches] == [
        [("heading", "Serving", 1), ("caption", "8x H100 (SXM)", 4)],
        [("heading", "Serving", 1), ("caption", "MI300X", 12)],
        [("heading", "Serving", 1), ("tab", "B200", 19)],
        [("heading", "Serving", 1), ("admonition", "Note", 28)],
    ]
    assert [t.raw for t in launches[3].args][-2:] == ["--tpp", "4"]
    assert launches[3].args[-2].span_of().start_line_col == (32, 63)


def test_a_mkdocstrings_colon_line_is_no_fence():
    # ::: module.path is mkdocstrings' syntax in MkDocs pages: colon fences are read only on MyST pages.
    text = f"::: mypackage.server\n\n```bash\n{TPP}\n```\n"
    assert [(d.code, d.span.line) for d in lint_text(text, "markdown", name="api.md")] == [("SGL201", 4)]


# -- reStructuredText -----------------------------------------------------------------------------

RST = f"""Serving DeepSeek
================

.. lint-configs: target-gpu=H100

On H100
-------

.. code-block:: bash
   :caption: Launch on 8x H100

   python3 -m sglang.launch_server \\
       {BAD}

Or, with the defaults::

    {TPP}

.. tab-set::

   .. tab-item:: MI300X
      :sync: amd

      .. code:: console

         $ {TPP.replace("--tpp 2", "--tpp 3")}
         INFO started
"""


def test_rst_code_block_and_literal_block(tmp_path, capsys):
    got = found(tmp_path, capsys, "serving.rst", RST)
    assert got == [("SGL101", *where(RST, "fa4")), ("SGL201", *where(RST, "--tpp")), ("SGL201", *where(RST, "--tpp", 1))]
    assert got == [("SGL101", 13, 65), ("SGL201", 17, 64), ("SGL201", 26, 71)]
    assert fixed(tmp_path, capsys, "serving.rst") == RST.replace("backend fa4", "backend fa3").encode()
    launches = extract_text(RST, "rst", name="serving.rst").launches
    assert [labels(x) for x in launches] == [
        [("heading", "Serving DeepSeek", 1), ("heading", "On H100", 6), ("caption", "Launch on 8x H100", 10)],
        [("heading", "Serving DeepSeek", 1), ("heading", "On H100", 6)],
        [("heading", "Serving DeepSeek", 1), ("heading", "On H100", 6), ("tab", "MI300X", 21)],
    ]


def test_rst_with_crlf_line_ends_is_fixed_byte_for_byte(tmp_path, capsys):
    text = RST.replace("\n", "\r\n")
    assert found(tmp_path, capsys, "serving.rst", text.encode())[0] == ("SGL101", 13, 65)
    assert fixed(tmp_path, capsys, "serving.rst") == text.replace("backend fa4", "backend fa3").encode()


def test_rst_highlight_sets_the_language_of_literal_blocks_and_doctests_are_python():
    text = (".. highlight:: console\n\nRun::\n\n    $ " + TPP + "\n    output --tpp 9\n\n"
            ">>> import sglang as sgl\n>>> sgl.Engine(model_path='Qwen/Qwen3-8B', tpp=2)\n")
    assert [(d.code, d.span.line) for d in lint_text(text, "rst", name="x.rst")] == [("SGL201", 5), ("SGL201", 9)]


def test_sphinx_tabs_code_tab_and_prompt():
    text = (".. tabs::\n\n   .. code-tab:: bash H200\n\n      " + TPP + "\n\n"
            ".. prompt:: bash $\n\n   " + TPP.replace("2", "3") + "\n")
    launches = extract_text(text, "rst", name="x.rst").launches
    assert [labels(x) for x in launches] == [[("tab", "H200", 3)], []]
    assert [(d.code, d.span.line) for d in lint_text(text, "rst", name="x.rst")] == [("SGL201", 5), ("SGL201", 9)]


# -- context in the reports -----------------------------------------------------------------------

def test_the_context_is_shown_by_explain_and_in_the_json_inventory(tmp_path, capsys):
    write_tree(tmp_path, {"README.md": NESTED})
    _, out, _ = run(tmp_path, capsys, "--explain", "README.md:15")
    assert ("  context:   heading 'DeepSeek-V3' (line 1) > heading 'Hopper' (line 5) > tab 'H100' (line 7) > "
            "admonition '8x H100' (line 11)") in out.splitlines()
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json", ".")
    first = json.loads(out)[0]
    assert first["context"][2:] == [{"kind": "tab", "text": "H100", "line": 7, "column": 6},
                                    {"kind": "admonition", "text": "8x H100", "line": 11, "column": 18}]


# -- bad input: SGL001 on the block, the rest of the page read ------------------------------------

@pytest.mark.parametrize("text,problem_line,rest", [
    # a fence in a tab whose closing fence is not indented: not closed inside the tab
    (f'=== "H100"\n\n    ```bash\n    {TPP}\n\n```\n\n' + f"Later:\n\n```bash\n{TPP}\n```\n", 3, []),
    # mixed tabs and spaces in an admonition's body
    (f"!!! note\n\n \t   ```bash\n    {TPP}\n    ```\n\n```bash\n{TPP}\n```\n", 3, [("SGL201", 8)]),
    # a tab whose fence is not indented: MkDocs shows it outside the tab (still read)
    (f'=== "H100"\n```bash\n{TPP}\n```\n', 1, [("SGL201", 3)]),
    # a MyST directive never closed
    (f":::{{note}}\n```bash\n{TPP}\n```\n", 1, [("SGL201", 3)]),
])
def test_malformed_markdown_blocks(text, problem_line, rest):
    got = [(d.code, d.span.line) for d in lint_text(text, "markdown", name="bad.md")]
    assert got[0] == ("SGL001", problem_line)
    assert got[1:] == rest


def test_an_unterminated_tab_fence_is_its_sgl001_and_later_blocks_are_still_read():
    text = (f'=== "H100"\n\n    ```bash\n    {TPP}\n    ```\n\n'
            f'=== "AMD"\n\n    ```bash\n    {TPP}\n\n'
            f"## Next\n\n```bash\n{TPP}\n```\n")
    got = lint_text(text, "markdown", name="bad.md")
    assert [(d.code, d.span.line) for d in got] == [("SGL201", 4), ("SGL001", 9), ("SGL201", 15)]
    assert "not closed inside its container" in got[1].message


def test_a_directive_docutils_rejects_is_its_sgl001_and_the_rest_is_read():
    text = (".. code-block:: bash\n   :emphasise-lines: 1\n\n   " + TPP + "\n\n"
            ".. code-block:: bash\n\n   " + TPP + "\n\n"
            ".. code-block:: python\n   :bogus:\n\n   print('unrelated')\n")
    got = lint_text(text, "rst", name="x.rst")
    assert [(d.code, d.span.line, d.span.start_line_col[1]) for d in got] == [("SGL001", 1, 1), ("SGL201", 8, 63)]
    assert 'unknown option: "emphasise-lines"' in got[0].message


def test_an_rst_block_indented_with_tabs_and_spaces_is_its_sgl001():
    text = "Run::\n\n \t" + TPP + "\n\n.. code-block:: bash\n\n   " + TPP + "\n"
    assert [(d.code, d.span.line) for d in lint_text(text, "rst", name="x.rst")] == [("SGL001", 3), ("SGL201", 7)]


def test_rst_that_docutils_cannot_read_at_all_is_one_sgl001():
    text = "".join(f"{'  ' * k}- item\n\n" for k in range(400)) + f".. code-block:: bash\n\n   {TPP}\n"
    got = lint_text(text, "rst", name="deep.rst")
    assert [(d.code, d.span.line, d.message) for d in got] == [
        ("SGL001", 1, "the page is nested too deeply for the reStructuredText reader")]


def test_blocks_nested_past_the_readers_limit_are_sgl004_and_the_rest_is_read(tmp_path, capsys):
    text = "".join("    " * k + "!!! note\n" for k in range(30)) + f"\n```bash\n{TPP}\n```\n"
    got = found(tmp_path, capsys, "deep.md", text)
    assert got == [("SGL004", 20, 1), ("SGL201", 33, 60)]


# -- MyST-NB code cells, broken Python blocks, the mention filter's spellings ---------------------

CELLS = f"""# DeepSeek on H100

<!-- lint-configs: target-gpu=H100 -->

```{{code-cell}} ipython3
!python -m sglang.launch_server {BAD}
```

```{{code-cell}} ipython3
%%bash
python3 -m sglang.launch_server {TPP[len("python3 -m sglang.launch_server "):]}
```

```{{code-cell}}
import sglang
x = 1
```
"""


def test_myst_code_cells_are_read_as_notebook_cells_and_fixed_in_place(tmp_path, capsys):
    got = found(tmp_path, capsys, "page.md", CELLS)
    assert got == [("SGL101", *where(CELLS, "fa4")), ("SGL201", *where(CELLS, "--tpp"))]
    assert fixed(tmp_path, capsys, "page.md") == CELLS.replace("backend fa4", "backend fa3").encode()


def test_a_broken_python_block_that_calls_a_framework_api_is_sgl001():
    # NeMo-Skills docs/evaluation/natural-math.md: " eval(" indented by one space
    text = ('```python\nfrom nemo_skills.pipeline.cli import wrap_arguments, eval\n\n eval(\n'
            '    ctx=wrap_arguments(""),\n    judge_server_type="sglang",\n    judge_server_gpus=2,\n)\n```\n')
    [d] = lint_text(text, "markdown", ["H100"], name="natural-math.md")
    assert d.code == "SGL001" and "unexpected indent" in d.message and d.span.start_line_col == (4, 1)
    elided = "```python\nimport sglang\nengine = ...(\n```\n"  # a fragment that starts nothing: not judged
    assert lint_text(elided, "markdown", ["H100"], name="a.md") == []


def test_a_page_that_names_sglang_only_as_sglang_is_read(tmp_path, capsys):
    # AReaL examples/search_agent/tongyi_deepresearch/README.md: "SGLang" in prose, the command in a fence
    config = ("rollout:\n  backend: \"sglang:d1t8\"\nactor:\n  path: Qwen/Qwen3-8B\nsglang:\n"
              "  model_path: ${actor.path}\n  attention_backend: fa3\n")
    page = ("# Deep research with SGLang\n\n<!-- lint-configs: target-gpu=B200 -->\n\n```bash\n"
            "python3 examples/train.py --config examples/config.yaml\n```\n")
    write_tree(tmp_path, {".git/HEAD": "", "examples/config.yaml": config, "README.md": page})
    _, out, _ = run(tmp_path, capsys, "--show-files", "README.md")
    assert "README.md: markdown, 1 launch" in out
    from linter.discover import mentions_sglang

    assert mentions_sglang("SGLANG_ENABLE_TORCH_COMPILE=1") and not mentions_sglang("# vLLM only")
