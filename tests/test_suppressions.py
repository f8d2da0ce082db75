"""``# lint-configs: ignore[CODE] reason`` as DESIGN.md defines it, on realistic compose files.

A suppression applies on the finding's line, on the line directly above it, or on the first line of
the launch the finding belongs to (for compose, the ``command:``/``entrypoint:`` key line, also of a
folded ``command: >``) or the line above that; codes or kebab-case names, comma-separated; an
unknown code or a suppression that suppresses nothing is SGL002; ``--no-ignores`` disables them.
"""

from __future__ import annotations


from tests.helpers import lint_json, write_tree

IMAGE = "    image: lmsysorg/sglang:v0.5.23-cu129\n"
MSG_101 = "fa4 with deterministic inference and the absorbed-MLA model deepseek-ai/DeepSeek-V3"


def folded(before_command: str = "", key_comment: str = "", backend_line: str = "      --attention-backend fa4\n",
           after: str = "") -> str:
    """c01: a folded command, DeepSeek-V3, fa4 + deterministic, H100 from a directive."""
    return ("# lint-configs: target-gpu=H100\n"
            "services:\n"
            "  sglang:\n"
            + IMAGE + before_command
            + f"    command: >{key_comment}\n"
              "      python3 -m sglang.launch_server\n"
              "      --model-path deepseek-ai/DeepSeek-V3\n"
              "      --tp 16\n"
            + backend_line
            + "      --enable-deterministic-inference\n"
            + after)


def block_list(value_line: str = "      - fa4\n", above_value: str = "") -> str:
    return ("# lint-configs: target-gpu=H100\n"
            "services:\n"
            "  sglang:\n"
            + IMAGE
            + "    command:\n"
              "      - python3\n"
              "      - -m\n"
              "      - sglang.launch_server\n"
              "      - --model-path\n"
              "      - deepseek-ai/DeepSeek-V3\n"
              "      - --attention-backend\n"
            + above_value + value_line
            + "      - --enable-deterministic-inference\n")


def lint(tmp_path, capsys, text: str, *args: str, files: dict[str, str] | None = None):
    write_tree(tmp_path, {"docker-compose.yml": text, **(files or {})})
    return lint_json(tmp_path, capsys, *args)


def found(diags: list[dict]) -> list[tuple[int, str]]:
    return [(d["line"], d["code"]) for d in diags]


def test_unsuppressed_baseline(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, folded())
    assert code == 1
    assert found(diags) == [(9, "SGL101")]
    assert diags[0]["message"].startswith(MSG_101)


def test_same_line(tmp_path, capsys):
    text = block_list(value_line="      - fa4  # lint-configs: ignore[SGL101] patched flash_attn build on these hosts\n")
    code, diags = lint(tmp_path, capsys, text)
    assert (code, diags) == (0, [])
    # the same file without the comment reports SGL101 at that very line
    code, diags = lint(tmp_path, capsys, block_list())
    assert found(diags) == [(12, "SGL101")]


def test_line_above(tmp_path, capsys):
    text = block_list(above_value="      # lint-configs: ignore[SGL101] patched flash_attn build on these hosts\n")
    assert lint(tmp_path, capsys, text) == (0, [])


def test_two_lines_above_is_not_enough(tmp_path, capsys):
    text = block_list(above_value="      # lint-configs: ignore[SGL101] too far away\n      # another comment\n")
    code, diags = lint(tmp_path, capsys, text)
    assert code == 1
    assert found(diags) == [(12, "SGL002"), (14, "SGL101")]


def test_folded_command_key_line(tmp_path, capsys):
    text = folded(key_comment="  # lint-configs: ignore[SGL101] B200 nodes only, see runbook")
    assert lint(tmp_path, capsys, text) == (0, [])


def test_line_above_the_launch(tmp_path, capsys):
    text = folded(before_command="    # lint-configs: ignore[SGL101] B200 nodes only, see runbook\n")
    assert lint(tmp_path, capsys, text) == (0, [])


def test_above_the_image_line_is_not_the_launch(tmp_path, capsys):
    text = folded().replace(IMAGE, "    # lint-configs: ignore[SGL101] not on the launch\n" + IMAGE)
    code, diags = lint(tmp_path, capsys, text)
    assert found(diags) == [(4, "SGL002"), (10, "SGL101")]
    assert diags[0]["message"] == ("unused suppression: no SGL101 finding on this line, the next line or a launch "
                                   "starting there")


def test_kebab_case_name(tmp_path, capsys):
    text = folded(key_comment="  # lint-configs: ignore[fa4-deterministic-mla-needs-sm100] runs on B200")
    assert lint(tmp_path, capsys, text) == (0, [])


def test_several_codes_one_used(tmp_path, capsys):
    # The used code is suppressed; the unused one is reported, as ruff's RUF100 does.
    text = folded(key_comment="  # lint-configs: ignore[SGL103, SGL101] B200 nodes only")
    code, diags = lint(tmp_path, capsys, text)
    assert [d["code"] for d in diags] == ["SGL002"] and "SGL103" in diags[0]["message"]


def test_launch_suppression_covers_a_value_written_in_dotenv(tmp_path, capsys):
    text = folded(key_comment="  # lint-configs: ignore[SGL101] patched build",
                  backend_line="      --attention-backend ${ATTENTION_BACKEND}\n")
    code, diags = lint(tmp_path, capsys, text, files={".env": "ATTENTION_BACKEND=fa4\n"})
    assert (code, diags) == (0, [])
    # without the suppression the finding is in .env, where the value was written
    code, diags = lint(tmp_path, capsys, text.replace("  # lint-configs: ignore[SGL101] patched build", ""))
    assert [(d["path"], d["line"], d["column"], d["code"]) for d in diags] == [(".env", 1, 19, "SGL101")]


def test_suppression_above_the_value_in_dotenv(tmp_path, capsys):
    text = folded(backend_line="      --attention-backend ${ATTENTION_BACKEND}\n")
    env = "# lint-configs: ignore[SGL101] patched build\nATTENTION_BACKEND=fa4\n"
    assert lint(tmp_path, capsys, text, files={".env": env}) == (0, [])


def test_unknown_code(tmp_path, capsys):
    text = folded(key_comment="  # lint-configs: ignore[SGL999] typo")
    code, diags = lint(tmp_path, capsys, text)
    assert code == 1
    assert found(diags) == [(5, "SGL002"), (9, "SGL101")]
    sgl002 = diags[0]
    assert sgl002["message"] == "suppression names unknown code(s) SGL999; see lint-configs --list-rules"
    assert (sgl002["column"], sgl002["severity"], sgl002["name"]) == (17, "warning", "unused-suppression")


def test_unknown_name_next_to_a_used_code(tmp_path, capsys):
    text = folded(key_comment="  # lint-configs: ignore[SGL101, fa4-needs-blackwell] patched build")
    code, diags = lint(tmp_path, capsys, text)
    assert found(diags) == [(5, "SGL002")]
    assert diags[0]["message"] == ("suppression names unknown code(s) fa4-needs-blackwell; see lint-configs "
                                   "--list-rules")


def test_empty_brackets(tmp_path, capsys):
    text = folded(key_comment="  # lint-configs: ignore[] why")
    code, diags = lint(tmp_path, capsys, text)
    assert found(diags) == [(5, "SGL002"), (9, "SGL101")]
    assert diags[0]["message"] == "suppression names unknown code(s) (no code); see lint-configs --list-rules"


def test_unused(tmp_path, capsys):
    text = folded(backend_line="      --attention-backend fa3\n",
                  key_comment="  # lint-configs: ignore[SGL101] left over from the B200 config")
    code, diags = lint(tmp_path, capsys, text)
    assert code == 1
    assert found(diags) == [(5, "SGL002")]
    d = diags[0]
    assert d["message"] == ("unused suppression: no SGL101 finding on this line, the next line or a launch "
                            "starting there")
    assert (d["line"], d["column"], d["end_line"]) == (5, 17, 5)
    line = text.splitlines()[4]
    assert line == "    command: >  # lint-configs: ignore[SGL101] left over from the B200 config"
    assert d["end_column"] == len(line) + 1
    assert d["fix"] is None


def test_unused_not_reported_when_sgl002_is_ignored(tmp_path, capsys):
    text = folded(backend_line="      --attention-backend fa3\n",
                  key_comment="  # lint-configs: ignore[SGL101] left over")
    assert lint(tmp_path, capsys, text, "--ignore", "unused-suppression") == (0, [])


def test_unused_for_a_code_that_is_not_selected_is_not_reported(tmp_path, capsys):
    text = folded(backend_line="      --attention-backend fa3\n",
                  key_comment="  # lint-configs: ignore[SGL103] left over")
    assert lint(tmp_path, capsys, text, "--select", "SGL101,SGL002") == (0, [])
    code, diags = lint(tmp_path, capsys, text)
    assert found(diags) == [(5, "SGL002")]


def test_malformed_directive(tmp_path, capsys):
    text = folded(after="    # lint-configs: ignroe[SGL101]\n")
    code, diags = lint(tmp_path, capsys, text)
    assert found(diags) == [(9, "SGL101"), (11, "SGL002")]
    assert diags[1]["message"] == ("unknown lint-configs directive 'ignroe[SGL101]'; expected 'target-gpu=NAME' or "
                                   "'ignore[CODE] reason'")


def test_suppressing_an_unknown_gpu_on_the_line_above_the_directive(tmp_path, capsys):
    text = folded().replace("# lint-configs: target-gpu=H100\n",
                            "# lint-configs: ignore[unknown-gpu] the lab's own name for its H100 nodes\n"
                            "# lint-configs: target-gpu=H100, lab-gpu\n")
    code, diags = lint(tmp_path, capsys, text)
    assert [d["code"] for d in diags] == ["SGL101"]
    code, diags = lint(tmp_path, capsys, text, "--no-ignores")
    assert [(d["line"], d["code"]) for d in diags] == [(2, "SGL003"), (10, "SGL101")]


def test_no_ignores(tmp_path, capsys):
    text = folded(key_comment="  # lint-configs: ignore[SGL101] patched build",
                  after="    # lint-configs: ignore[SGL999] unknown\n")
    code, diags = lint(tmp_path, capsys, text)
    assert found(diags) == [(11, "SGL002")]
    code, diags = lint(tmp_path, capsys, text, "--no-ignores")
    assert code == 1
    # the finding comes back, and neither the used nor the unknown suppression is reported
    assert found(diags) == [(9, "SGL101")]


def test_suppression_in_one_service_does_not_cover_another(tmp_path, capsys):
    service = folded().split("services:\n")[1]
    text = ("# lint-configs: target-gpu=H100\nservices:\n"
            + service.replace("    command: >", "    command: >  # lint-configs: ignore[SGL101] patched build")
            + service.replace("  sglang:", "  sglang-canary:"))
    code, diags = lint(tmp_path, capsys, text)
    assert found(diags) == [(17, "SGL101")]


def test_each_code_of_a_suppression_must_suppress_something(tmp_path, capsys):
    from tests.helpers import FOLDED_H100

    text = FOLDED_H100.replace("    command: >\n", "    command: >  # lint-configs: ignore[SGL101, SGL105] ok\n")
    write_tree(tmp_path, {"compose.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL002", 5)]
    assert "SGL105" in diags[0]["message"] and "SGL101" not in diags[0]["message"]
