"""Dockerfiles, as Docker runs the image: exec and shell form, SHELL, continuations, ENTRYPOINT + CMD,
ENV vs ARG, stages, the base image's entry point, directives and broken instructions."""

from __future__ import annotations

from pathlib import PurePath

import pytest

from linter.engine import extract_text, lint_text, lint_text_result
from linter.extract.dockerfile import instruction_text, json_array
from linter.formats import detect
from linter.launch import MStr
from linter.source import SourceFile
from tests.helpers import lint_json, run, write_tree

IMAGE = "FROM lmsysorg/sglang:v0.5.18-cu129\n"
GLM = "zai-org/GLM-4.7-Flash"


def argv(text: str) -> list[list[str | None]]:
    """The server arguments of each launch (None for an unknown value)."""
    return [[t.value for t in launch.args] for launch in extract_text(text, "dockerfile").launches]


def launches(text: str):
    return extract_text(text, "dockerfile").launches


@pytest.mark.parametrize("name", ["Dockerfile", "Dockerfile.sagemaker", "serve.Dockerfile", "Containerfile",
                                  "gpu.dockerfile"])
def test_detection(name):
    assert detect(PurePath(name), IMAGE + "CMD python -m sglang.launch_server\n").name == "dockerfile"


def test_exec_form_is_not_expanded_and_keeps_exact_spans():
    text = IMAGE + 'ENV B=fa4\nCMD ["python3", "-m", "sglang.launch_server", "--attention-backend", "$B"]\n'
    (launch,) = launches(text)
    assert [t.value for t in launch.args] == ["--attention-backend", "$B"]
    assert launch.args[1].span_of().text == "$B"


def test_json_escapes_are_decoded():
    src = SourceFile(None, "x", r'["a\"b", "c\\d", "\u0041"]')
    tokens, _, _ = json_array(MStr.literal(src, 0, len(src.text)))
    assert [t.value for t in tokens] == ['a"b', "c\\d", "A"]


def test_shell_form_expands_env_and_the_fix_lands_in_env(tmp_path, capsys):
    text = (IMAGE + "# lint-configs: target-gpu=H100\nENV MODEL=" + GLM + " BACKEND=fa4\n"
            "CMD python3 -m sglang.launch_server --model-path $MODEL \\\n"
            "    # a comment line inside the instruction\n\n"
            "    --attention-backend ${BACKEND} \\\n    --enable-deterministic-inference\n")
    write_tree(tmp_path, {"Dockerfile": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"], d["column"]) for d in diags] == [("SGL101", 3, 41)]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "Dockerfile").read_text() == text.replace("BACKEND=fa4", "BACKEND=fa3")


def test_continuation_lines_map_back_exactly():
    text = IMAGE + "CMD python3 -m sglang.launch_server \\\n  --tp 2 \\\n  --attention-backend fa3\n"
    (launch,) = launches(text)
    assert [t.value for t in launch.args] == ["--tp", "2", "--attention-backend", "fa3"]
    assert launch.args[3].span_of().line == 4 and launch.args[3].span_of().text == "fa3"


def test_escape_directive_backtick():
    text = "# escape=`\n" + IMAGE + "CMD python3 -m sglang.launch_server `\n  --tp 2\n"
    assert argv(text) == [["--tp", "2"]]
    src = SourceFile(None, "x", text)
    assert instruction_text(src, 2, 3, "`")[0].text == "python3 -m sglang.launch_server   --tp 2"


def test_shell_instruction_runs_shell_form():
    bash = IMAGE + 'SHELL ["/bin/bash", "-o", "pipefail", "-c"]\nENV B=fa3\n' \
                   "CMD python3 -m sglang.launch_server --attention-backend $B\n"
    assert argv(bash) == [["--attention-backend", "fa3"]]
    # A shell that is not a POSIX shell: the text is not a shell script we read.
    pwsh = IMAGE + 'SHELL ["pwsh", "-Command"]\nCMD python3 -m sglang.launch_server --tp 2\n'
    assert argv(pwsh) == []


def test_shell_in_effect_is_the_one_before_the_instruction():
    text = IMAGE + "CMD python3 -m sglang.launch_server --tp 2\n" + 'SHELL ["pwsh", "-Command"]\n'
    assert argv(text) == [["--tp", "2"]]


@pytest.mark.parametrize("body,expected", [
    # exec-form ENTRYPOINT gets CMD as its arguments
    ('ENTRYPOINT ["python3", "-m", "sglang.launch_server"]\nCMD ["--tp", "2"]\n', [["--tp", "2"]]),
    # shell-form ENTRYPOINT ignores CMD
    ('ENTRYPOINT python3 -m sglang.launch_server --tp 4\nCMD ["--tp", "2"]\n', [["--tp", "4"]]),
    # CMD in exec form without ENTRYPOINT: the sglang image's entry point runs it (exec "$@")
    ('CMD ["python3", "-m", "sglang.launch_server", "--tp", "2"]\n', [["--tp", "2"]]),
    # the last CMD wins
    ('CMD ["python3", "-m", "sglang.launch_server", "--tp", "2"]\nCMD python3 -m sglang.launch_server --tp 8\n',
     [["--tp", "8"]]),
    # ENTRYPOINT alone, CMD set before it in the same stage is kept
    ('CMD ["--tp", "2"]\nENTRYPOINT ["python3", "-m", "sglang.launch_server"]\n', [["--tp", "2"]]),
    # no CMD and no ENTRYPOINT: the base image's own command runs (not in this file)
    ("ENV A=1\n", []),
    # an entry point that is a script copied into the image
    ('ENTRYPOINT ["/usr/bin/serve"]\nCMD ["--tp", "2"]\n', []),
])
def test_entrypoint_and_cmd_combinations(body, expected):
    assert argv(IMAGE + body) == expected


def test_new_entrypoint_clears_the_cmd_of_the_earlier_stage():
    text = (IMAGE + "AS base\n" if False else "FROM lmsysorg/sglang:v0.5.18-cu129 AS base\n") + \
        'CMD ["--tp", "2"]\nFROM base\nENTRYPOINT ["python3", "-m", "sglang.launch_server"]\n'
    assert argv(text) == [[]]
    inherited = "FROM lmsysorg/sglang:v0.5.18-cu129 AS base\n" \
        'ENTRYPOINT ["python3", "-m", "sglang.launch_server"]\nFROM base\nCMD ["--tp", "2"]\n'
    assert argv(inherited) == [["--tp", "2"]]


def test_unknown_base_image_without_entrypoint_runs_cmd():
    assert argv('FROM python:3.11\nCMD ["python", "-m", "sglang.launch_server", "--tp", "2"]\n') == [["--tp", "2"]]


def test_arg_only_is_empty_at_run_time_env_carries_the_default():
    arg_only = IMAGE + "ARG B=fa4\nCMD python3 -m sglang.launch_server --attention-backend $B\n"
    assert argv(arg_only) == [["--attention-backend"]]  # empty at run time: the unquoted word vanishes
    carried = IMAGE + "ARG B=fa4\nENV B=$B\nCMD python3 -m sglang.launch_server --attention-backend $B\n"
    ((_tok_flag, tok),) = [launch.args for launch in launches(carried)]
    assert tok.value == "fa4" and tok.span_of().line == 2  # the fix goes to the ARG default
    no_default = IMAGE + "ARG B\nENV B=$B\nCMD python3 -m sglang.launch_server --attention-backend $B\n"
    assert argv(no_default) == [["--attention-backend", None]]
    env_wins = IMAGE + "ARG B=fa4\nENV B=fa3\nCMD python3 -m sglang.launch_server --attention-backend $B\n"
    assert argv(env_wins) == [["--attention-backend", "fa3"]]


def test_legacy_env_form_and_quoted_values():
    text = IMAGE + 'ENV B fa3\nENV M="zai-org/GLM-4.7-Flash" T=2\n' \
                   "CMD python3 -m sglang.launch_server --model-path $M --tp $T --attention-backend $B\n"
    assert argv(text) == [["--model-path", GLM, "--tp", "2", "--attention-backend", "fa3"]]


def test_multi_stage_last_stage_runs_and_inherits_env_and_release():
    text = ("ARG TAG=v0.5.18-cu129\nFROM lmsysorg/sglang:${TAG} AS base\nENV B=fa4\n"
            "CMD python3 -m sglang.launch_server --tp 2\n"
            "FROM base AS serve\nCMD python3 -m sglang.launch_server --model-path " + GLM +
            " --attention-backend $B --enable-deterministic-inference\n")
    result = lint_text_result(text, "dockerfile", ["H100"])
    (ctx,) = result.contexts
    assert ctx.table.version == "0.5.18"
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("SGL101", 3)]
    other = text + "FROM ubuntu:22.04\nRUN echo build tools\n"
    assert argv(other) == []  # the last stage (ubuntu) runs its own command


def test_directive_targets_and_suppressions():
    text = ("FROM lmsysorg/sglang:v0.5.18-cu129\n# lint-configs: target-gpu=H100\n"
            "# lint-configs: ignore[SGL101] known, tracked\n"
            "CMD python3 -m sglang.launch_server --model-path " + GLM +
            " --attention-backend fa4 --enable-deterministic-inference\n")
    assert lint_text(text, "dockerfile") == []
    assert [d.code for d in lint_text(text.replace("# lint-configs: ignore[SGL101] known, tracked\n", ""),
                                      "dockerfile")] == ["SGL101"]


def test_unterminated_json_array_is_a_diagnostic_and_the_run_goes_on(tmp_path, capsys):
    bad = IMAGE + 'CMD ["python3", "-m", "sglang.launch_server",\n'
    good = IMAGE + "# lint-configs: target-gpu=H100\nCMD python3 -m sglang.launch_server --model-path " + GLM + \
        " --attention-backend fa4 --enable-deterministic-inference\n"
    write_tree(tmp_path, {"a/Dockerfile": bad, "b/Dockerfile": good})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"], d["line"]) for d in diags] == [("a/Dockerfile", "SGL001", 2),
                                                                  ("b/Dockerfile", "SGL101", 3)]
    assert "not a JSON array" in diags[0]["message"]
    # The problem is reported where the array stops: after the last string.
    assert diags[0]["column"] == len('CMD ["python3", "-m", "sglang.launch_server",') + 1


def test_broken_shell_form_cmd_is_a_diagnostic():
    diags = lint_text(IMAGE + 'CMD python3 -m sglang.launch_server --tp "2\n', "dockerfile")
    assert ("SGL001", 2) in [(d.code, d.span.line) for d in diags]
