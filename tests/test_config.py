"""Configuration: ``[tool.lint-configs]`` in ``pyproject.toml`` or ``.lint-configs.toml``, the closest
one wins, per-path overrides, ``--config FILE``, and exit 2 naming the file, the key and what is
allowed for an invalid configuration."""

from __future__ import annotations

import pytest

from tests.helpers import lint_json, run, write_tree

LAUNCH = """\
services:
  sglang:
    image: lmsysorg/sglang:v0.5.23-cu129
    command: >
      python3 -m sglang.launch_server
      --model-path {model}
      --tp 16
      --attention-backend fa4
      --enable-deterministic-inference
"""
COMPOSE = LAUNCH.format(model="deepseek-ai/DeepSeek-V3")


def pyproject(body: str) -> str:
    return '[project]\nname = "deploy"\nversion = "1"\n\n[tool.lint-configs]\n' + body


def codes(diags: list[dict]) -> list[tuple[str, str]]:
    return [(d["path"], d["code"]) for d in diags]


# --- every key ---------------------------------------------------------------------------------------

def test_no_configuration_means_no_target(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE})
    code, diags = lint_json(tmp_path, capsys)
    assert codes(diags) == [("docker-compose.yml", "SGL901")]
    assert diags[0]["severity"] == "warning"


def test_target_gpus(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE, "pyproject.toml": pyproject('target-gpus = ["H100"]\n')})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert codes(diags) == [("docker-compose.yml", "SGL101")]
    assert diags[0]["message"].endswith("SGLang 0.5.23 refuses to start on H100 (SM90)")
    assert diags[0]["fix"]["applicability"] == "safe"
    assert diags[0]["fix"]["edits"][0]["content"] == "fa3"
    _, out, _ = run(tmp_path, capsys, "--explain", "docker-compose.yml")
    assert "target:    H100 -> NVIDIA H100 SXM5 80GB (compute capability 9.0); 'target-gpus' in pyproject.toml" in out


def test_a_file_directive_beats_the_configuration(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": "# lint-configs: target-gpu=B200\n" + COMPOSE,
                          "pyproject.toml": pyproject('target-gpus = ["H100"]\n')})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_sglang_version(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE,
                          "pyproject.toml": pyproject('target-gpus = ["H100"]\nsglang-version = "0.5.18"\n')})
    code, diags = lint_json(tmp_path, capsys)
    assert codes(diags) == [("docker-compose.yml", "SGL101")]
    # the configured release beats the image tag (v0.5.23)
    assert diags[0]["message"].endswith("SGLang 0.5.18 refuses to start on H100 (SM90)")
    _, out, _ = run(tmp_path, capsys, "--explain", "docker-compose.yml")
    assert "release:   SGLang 0.5.18, from 'sglang-version' in pyproject.toml" in out


def test_models(tmp_path, capsys):
    private = LAUNCH.format(model="/models/house-dsv3")
    write_tree(tmp_path, {"docker-compose.yml": private, "pyproject.toml": pyproject('target-gpus = ["H100"]\n')})
    code, diags = lint_json(tmp_path, capsys)
    assert codes(diags) == [("docker-compose.yml", "SGL901")]  # the architecture is unknown
    write_tree(tmp_path, {"pyproject.toml": pyproject(
        'target-gpus = ["H100"]\nmodels = { "/models/house-dsv3" = "DeepseekV3ForCausalLM" }\n')})
    code, diags = lint_json(tmp_path, capsys)
    assert codes(diags) == [("docker-compose.yml", "SGL101")]
    assert "/models/house-dsv3 (DeepseekV3ForCausalLM)" in diags[0]["message"]


@pytest.mark.parametrize(("body", "expected"), [
    ('ignore = ["SGL101"]\n', []),
    ('ignore = ["fa4-deterministic-mla-needs-sm100"]\n', []),
    ('select = ["SGL9"]\n', []),
    ('select = ["SGL1"]\n', ["SGL101"]),
    ('select = ["ALL"]\nignore = ["SGL10"]\n', []),
])
def test_select_and_ignore(tmp_path, capsys, body, expected):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE,
                          "pyproject.toml": pyproject('target-gpus = ["H100"]\n' + body)})
    code, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == expected
    assert code == (1 if expected else 0)


def test_command_line_select_replaces_the_configured_one(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE,
                          "pyproject.toml": pyproject('target-gpus = ["H100"]\nselect = ["SGL9"]\n')})
    code, diags = lint_json(tmp_path, capsys, "--select", "SGL101")
    assert [d["code"] for d in diags] == ["SGL101"]


@pytest.mark.parametrize("key", ["exclude", "extend-exclude"])
def test_exclude(tmp_path, capsys, key):
    write_tree(tmp_path, {"deploy/docker-compose.yml": COMPOSE, "legacy/docker-compose.yml": COMPOSE,
                          "old/b200/docker-compose.yml": COMPOSE,
                          "pyproject.toml": pyproject(f'target-gpus = ["H100"]\n{key} = ["legacy/", "old/**"]\n')})
    code, diags = lint_json(tmp_path, capsys)
    assert codes(diags) == [("deploy/docker-compose.yml", "SGL101")]
    # a file named on the command line is linted anyway, unless --force-exclude (as pre-commit passes it)
    code, out, _ = run(tmp_path, capsys, "--format", "concise", "legacy/docker-compose.yml")
    assert code == 1 and out.startswith("legacy/docker-compose.yml:8:27: error[SGL101]")
    code, out, _ = run(tmp_path, capsys, "--format", "concise", "--force-exclude", "legacy/docker-compose.yml",
                       "old/b200/docker-compose.yml")
    assert (code, out) == (0, "No file linted.\n")  # every file named was excluded: nothing was checked


# --- per-path overrides ------------------------------------------------------------------------------

def test_overrides(tmp_path, capsys):
    config = pyproject('target-gpus = ["H100"]\n'
                       '\n[[tool.lint-configs.overrides]]\npaths = ["clusters/b200/**"]\ntarget-gpus = ["B200"]\n'
                       '\n[[tool.lint-configs.overrides]]\npaths = ["*.override.yml"]\nignore = ["SGL101"]\n'
                       '\n[[tool.lint-configs.overrides]]\npaths = ["clusters/a100/**"]\ntarget-gpus = ["B200"]\n'
                       '\n[[tool.lint-configs.overrides]]\npaths = ["clusters/a100/**"]\ntarget-gpus = ["A100"]\n'
                       '\n[[tool.lint-configs.overrides]]\npaths = ["clusters/private/**"]\n'
                       'models = { "/models/house-dsv3" = "DeepseekV3ForCausalLM" }\n')
    write_tree(tmp_path, {
        "pyproject.toml": config,
        "docker-compose.yml": COMPOSE,
        "clusters/b200/docker-compose.yml": COMPOSE,
        "clusters/h100/docker-compose.override.yml": COMPOSE,
        "clusters/h100/docker-compose.yml": "services: {}\n",  # the override's base (an override is never run alone)
        "clusters/a100/docker-compose.yml": COMPOSE,
        "clusters/private/docker-compose.yml": LAUNCH.format(model="/models/house-dsv3"),
        "clusters/public/docker-compose.yml": LAUNCH.format(model="/models/house-dsv3"),
    })
    code, diags = lint_json(tmp_path, capsys)
    assert codes(diags) == [
        ("clusters/a100/docker-compose.yml", "SGL101"),
        ("clusters/private/docker-compose.yml", "SGL101"),
        ("clusters/public/docker-compose.yml", "SGL901"),
        ("docker-compose.yml", "SGL101"),
    ]
    # later overrides win: A100 (SM80) needs triton, not fa3
    assert diags[0]["message"].endswith("refuses to start on A100 (SM80)")
    assert diags[0]["fix"]["edits"][0]["content"] == "triton"


# --- which file ----------------------------------------------------------------------------------------

def test_closest_configuration_wins(tmp_path, capsys):
    write_tree(tmp_path, {
        "pyproject.toml": pyproject('target-gpus = ["H100"]\n'),
        "docker-compose.yml": COMPOSE,
        "b200/.lint-configs.toml": 'target-gpus = ["B200"]\n',
        "b200/docker-compose.yml": COMPOSE,
        "b200/nested/docker-compose.yml": COMPOSE,
        # the closest file wins whole: nothing is inherited from the root (no target here)
        "lab/.lint-configs.toml": 'ignore = ["SGL002"]\n',
        "lab/docker-compose.yml": COMPOSE,
        # a pyproject.toml without [tool.lint-configs] is not a configuration
        "svc/pyproject.toml": '[project]\nname = "svc"\nversion = "1"\n',
        "svc/docker-compose.yml": COMPOSE,
    })
    code, diags = lint_json(tmp_path, capsys)
    assert codes(diags) == [
        ("docker-compose.yml", "SGL101"),
        ("lab/docker-compose.yml", "SGL901"),
        ("svc/docker-compose.yml", "SGL101"),
    ]


def test_lint_configs_toml_beats_pyproject_in_the_same_folder(tmp_path, capsys):
    write_tree(tmp_path, {"pyproject.toml": pyproject('target-gpus = ["H100"]\n'),
                          ".lint-configs.toml": 'target-gpus = ["B300"]\n',
                          "docker-compose.yml": COMPOSE})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_config_option_forces_one_file(tmp_path, capsys):
    write_tree(tmp_path, {
        "ci/h100.toml": 'target-gpus = ["H100"]\n',
        "ci/pyproject.toml": pyproject('target-gpus = ["A100"]\n'),
        "b200/.lint-configs.toml": 'target-gpus = ["B200"]\n',
        "b200/docker-compose.yml": COMPOSE,
        "docker-compose.yml": COMPOSE,
    })
    code, diags = lint_json(tmp_path, capsys, "--config", "ci/h100.toml")
    assert codes(diags) == [("b200/docker-compose.yml", "SGL101"), ("docker-compose.yml", "SGL101")]
    assert all(d["message"].endswith("on H100 (SM90)") for d in diags)
    code, diags = lint_json(tmp_path, capsys, "--config", "ci/pyproject.toml")
    assert all(d["message"].endswith("on A100 (SM80)") for d in diags) and len(diags) == 2


# --- invalid configuration: exit 2, naming the file, the key and what is allowed ------------------

@pytest.mark.parametrize(("name", "text", "parts"), [
    ("pyproject.toml", pyproject('target-gpus = ["H100"\n'),
     ["pyproject.toml: invalid TOML: "]),
    (".lint-configs.toml", "target-gpus = H100\n",
     [".lint-configs.toml: invalid TOML: "]),
    ("pyproject.toml", pyproject('target-gpus = ["H100"]\ntarget-gpu = ["B200"]\n'),
     ["pyproject.toml [tool.lint-configs]: unknown key 'target-gpu'; did you mean 'target-gpus'? allowed keys are: "
      "target-gpus, extend-target-gpus, sglang-version, models, select, extend-select, ignore, extend-ignore, "
      "per-file-ignores, exclude, extend-exclude, baseline, overrides"]),
    (".lint-configs.toml", '[[overrides]]\npaths = ["a/**"]\nexcludes = ["b"]\n',
     [".lint-configs.toml: overrides[0]: unknown key 'excludes'; did you mean 'exclude'? allowed keys are: "
      "target-gpus, extend-target-gpus, sglang-version, models, select, extend-select, ignore, extend-ignore, "
      "exclude, extend-exclude, paths"]),
    (".lint-configs.toml", 'colour = "always"\n',
     [".lint-configs.toml: unknown key 'colour'; allowed keys are: "]),
    (".lint-configs.toml", '[[overrides]]\npaths = ["a/**"]\nbaseline = "b.json"\n',
     [".lint-configs.toml: overrides[0]: unknown key 'baseline'; allowed keys are: "]),
    (".lint-configs.toml", 'per-file-ignores = { "a/**" = ["SGL999"] }\n',
     [".lint-configs.toml: 'per-file-ignores': 'a/**': unknown rule 'SGL999'"]),
    (".lint-configs.toml", 'per-file-ignores = ["SGL101"]\n',
     [".lint-configs.toml: 'per-file-ignores': expected a table of glob = [codes]"]),
    (".lint-configs.toml", 'extend-select = "SGL101"\n',
     [".lint-configs.toml: 'extend-select': expected a list of strings, got 'SGL101'"]),
    (".lint-configs.toml", 'baseline = 3\n',
     [".lint-configs.toml: 'baseline': expected a path such as"]),
    (".lint-configs.toml", '[[overrides]]\ntarget-gpus = ["B200"]\n',
     [".lint-configs.toml: overrides[0]: missing 'paths' (a list of globs)"]),
    ("pyproject.toml", pyproject('target-gpus = ["H100", "Blackwell"]\n'),
     ["pyproject.toml [tool.lint-configs]: 'target-gpus': unknown GPU 'Blackwell': ", "names a GPU family",
      "B200"]),
    ("pyproject.toml", pyproject('target-gpus = ["H1000"]\n'),
     ["pyproject.toml [tool.lint-configs]: 'target-gpus': unknown GPU 'H1000'"]),
    (".lint-configs.toml", '[[overrides]]\npaths = ["a/**"]\ntarget-gpus = ["Hopper"]\n',
     [".lint-configs.toml: overrides[0]: 'target-gpus': unknown GPU 'Hopper'"]),
    ("pyproject.toml", pyproject('ignore = ["SGL999"]\n'),
     ["pyproject.toml [tool.lint-configs]: 'ignore': unknown rule 'SGL999'; use a code such as SGL101 or a name "
      "such as fa4-deterministic-mla-needs-sm100 (lint-configs --list-rules)"]),
    (".lint-configs.toml", 'select = ["fa4-on-hopper"]\n',
     [".lint-configs.toml: 'select': unknown rule 'fa4-on-hopper'"]),
    (".lint-configs.toml", 'sglang-version = "0.3.6"\n',
     [".lint-configs.toml: 'sglang-version': no option table for SGLang '0.3.6'; known: 0.4.0 … 0.5.23 (",
      "option tables)"]),
    (".lint-configs.toml", 'sglang-version = "0.5.24.post1"\n',
     [".lint-configs.toml: 'sglang-version': no option table for SGLang '0.5.24.post1'; known: 0.4.0 … "]),
    (".lint-configs.toml", 'sglang-version = "0.5.9-rc1"\n',
     [".lint-configs.toml: 'sglang-version': '0.5.9-rc1' is not a release such as \"0.5.18\" or "
      "\"0.4.5.post2\"; known: 0.4.0 … "]),
    (".lint-configs.toml", "sglang-version = 0.5\n",
     [".lint-configs.toml: 'sglang-version': expected a version string such as \"0.5.18\" or \"0.4.5.post2\", "
      "got 0.5"]),
    (".lint-configs.toml", "target-gpus = 8\n",
     [".lint-configs.toml: 'target-gpus': expected a list of strings, got 8"]),
    (".lint-configs.toml", 'models = ["DeepseekV3ForCausalLM"]\n',
     [".lint-configs.toml: 'models': expected a table of model path = \"ArchitectureName\""]),
    (".lint-configs.toml", 'overrides = { paths = ["a"] }\n',
     [".lint-configs.toml: 'overrides': expected an array of tables ([[tool.lint-configs.overrides]])"]),
])
def test_invalid_configuration_exits_2(tmp_path, capsys, name, text, parts):
    write_tree(tmp_path, {"deploy/docker-compose.yml": COMPOSE, f"deploy/{name}": text})
    code, out, err = run(tmp_path, capsys, "--format", "json", ".")
    assert code == 2
    assert out == ""
    assert err.startswith("lint-configs: error: ")
    assert err.count("\n") == 1
    path = str((tmp_path / "deploy" / name).resolve())
    assert path in err
    for part in parts:
        assert part in err


def test_config_option_errors(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE, "plain/pyproject.toml": '[project]\nname = "x"\n',
                          "bad.toml": "select = [\n"})
    code, _, err = run(tmp_path, capsys, "--config", "plain/pyproject.toml", ".")
    assert (code, err) == (2, "lint-configs: error: plain/pyproject.toml: no [tool.lint-configs] table\n")
    code, _, err = run(tmp_path, capsys, "--config", "bad.toml", ".")
    assert code == 2 and err.startswith("lint-configs: error: bad.toml: invalid TOML: ")
    code, _, err = run(tmp_path, capsys, "--config", "missing.toml", ".")
    assert code == 2 and err.startswith("lint-configs: error: missing.toml: cannot read: ")



def test_override_path_with_dot_slash_and_a_hidden_folder(tmp_path, capsys):
    write_tree(tmp_path, {".deploy/docker-compose.yml": COMPOSE, "pyproject.toml": pyproject(
        'target-gpus = ["H100"]\n\n[[tool.lint-configs.overrides]]\npaths = ["./.deploy/**"]\ntarget-gpus = ["B200"]\n')})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_override_path_with_leading_double_star_matches_the_top_folder(tmp_path, capsys):
    write_tree(tmp_path, {"compose.b200.yml": COMPOSE, "pyproject.toml": pyproject(
        'target-gpus = ["H100"]\n\n[[tool.lint-configs.overrides]]\npaths = ["**/*.b200.yml"]\ntarget-gpus = ["B200"]\n')})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_override_path_with_leading_double_star_matches_nested_folders(tmp_path, capsys):
    write_tree(tmp_path, {"deploy/compose.b200.yml": COMPOSE, "pyproject.toml": pyproject(
        'target-gpus = ["H100"]\n\n[[tool.lint-configs.overrides]]\npaths = ["**/*.b200.yml"]\ntarget-gpus = ["B200"]\n')})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_override_excludes_apply_to_their_paths(tmp_path, capsys):
    from tests.helpers import FOLDED_H100

    write_tree(tmp_path, {
        "pyproject.toml": ('[tool.lint-configs]\nexclude = ["vendor/"]\n\n[[tool.lint-configs.overrides]]\n'
                           'paths = ["legacy/**"]\nextend-exclude = ["*.old.yml"]\n'),
        "vendor/compose.yaml": FOLDED_H100,
        "legacy/compose.old.yml": FOLDED_H100,
        "legacy/compose.yml": FOLDED_H100,
        "compose.old.yml": FOLDED_H100,
    })
    _, diags = lint_json(tmp_path, capsys)
    assert sorted(d["path"] for d in diags) == ["compose.old.yml", "legacy/compose.yml"]


def test_model_architecture_case_typo_exits_2(tmp_path, capsys):
    write_tree(tmp_path, {"pyproject.toml": '[tool.lint-configs]\nmodels = { "/m" = "DeepseekV3ForCausalLm" }\n'})
    code, _, err = run(tmp_path, capsys, ".")
    assert code == 2 and "did you mean 'DeepseekV3ForCausalLM'" in err


def test_a_string_where_a_list_is_expected_exits_2(tmp_path, capsys):
    write_tree(tmp_path, {"pyproject.toml": '[tool.lint-configs]\ntarget-gpus = "H100"\n'})
    code, _, err = run(tmp_path, capsys, ".")
    assert code == 2 and "expected a list of strings" in err


# --- ruff's selection semantics: select replaces, extend-select adds, ignore adds up ----------------

# SGL101 (error), SGL201 (unknown option, error) and SGL207 (repeated option, warning) on H100
THREE = COMPOSE.replace("--tp 16", "--tp 32 --tp 16 --no-such-flag")


@pytest.mark.parametrize(("body", "expected"), [
    ("", ["SGL101", "SGL201", "SGL207"]),
    ('select = ["SGL1"]\nextend-select = ["SGL207"]\n', ["SGL101", "SGL207"]),
    ('extend-ignore = ["SGL2"]\n', ["SGL101"]),
    ('ignore = ["SGL2"]\nextend-select = ["SGL207"]\n', ["SGL101", "SGL207"]),  # a code beats a prefix
    ('select = ["SGL201"]\nignore = ["SGL201"]\n', []),  # equal specificity: ignore wins
    ('per-file-ignores = { "deploy/**" = ["SGL101"] }\n', ["SGL201", "SGL207"]),
    ('per-file-ignores = { "other/**" = ["SGL101"] }\n', ["SGL101", "SGL201", "SGL207"]),
    ('per-file-ignores = { "docker-compose.yml" = ["SGL2"] }\nignore = ["SGL101"]\n', []),
])
def test_extend_select_extend_ignore_per_file_ignores(tmp_path, capsys, body, expected):
    write_tree(tmp_path, {"deploy/docker-compose.yml": THREE,
                          "pyproject.toml": pyproject('target-gpus = ["H100"]\n' + body)})
    code, diags = lint_json(tmp_path, capsys)
    assert sorted(d["code"] for d in diags) == expected


def test_per_file_ignores_win_over_the_command_line_select(tmp_path, capsys):
    write_tree(tmp_path, {"deploy/docker-compose.yml": THREE,
                          "pyproject.toml": pyproject('target-gpus = ["H100"]\n'
                                                      'per-file-ignores = { "deploy/*" = ["SGL101"] }\n')})
    _, diags = lint_json(tmp_path, capsys, "--select", "SGL101,SGL201")
    assert [d["code"] for d in diags] == ["SGL201"]


@pytest.mark.parametrize(("top", "override", "expected"), [
    # an override's ignore adds to the top-level ignore (it used to replace it)
    ('ignore = ["SGL207"]\n', 'ignore = ["SGL201"]\n', ["SGL101"]),
    ('ignore = ["SGL207"]\n', 'extend-ignore = ["SGL201"]\n', ["SGL101"]),
    # an override's select replaces the inherited selection (the top-level ignore goes with it)
    ('ignore = ["SGL207"]\n', 'select = ["SGL2"]\n', ["SGL201", "SGL207"]),
    ('select = ["SGL1"]\n', 'select = ["SGL201"]\n', ["SGL201"]),
    # extend-select adds to it; a code re-selects what a prefix ignored above
    ('select = ["SGL1"]\n', 'extend-select = ["SGL201"]\n', ["SGL101", "SGL201"]),
    ('ignore = ["SGL2"]\n', 'extend-select = ["SGL207"]\n', ["SGL101", "SGL207"]),
])
def test_overrides_follow_ruff_layering(tmp_path, capsys, top, override, expected):
    config = pyproject('target-gpus = ["H100"]\n' + top +
                       '\n[[tool.lint-configs.overrides]]\npaths = ["deploy/**"]\n' + override)
    write_tree(tmp_path, {"deploy/docker-compose.yml": THREE, "other/docker-compose.yml": THREE,
                          "pyproject.toml": config})
    _, diags = lint_json(tmp_path, capsys)
    assert sorted(d["code"] for d in diags if d["path"].startswith("deploy/")) == expected


def test_command_line_ignore_adds_and_extend_select_adds(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": THREE,
                          "pyproject.toml": pyproject('target-gpus = ["H100"]\nignore = ["SGL207"]\n')})
    _, diags = lint_json(tmp_path, capsys, "--ignore", "SGL201")
    assert [d["code"] for d in diags] == ["SGL101"]
    _, diags = lint_json(tmp_path, capsys, "--extend-select", "SGL207", "--extend-ignore", "SGL1")
    assert sorted(d["code"] for d in diags) == ["SGL201", "SGL207"]


def test_extend_target_gpus_adds_and_target_gpus_replaces(tmp_path, capsys):
    config = pyproject('target-gpus = ["B200"]\n'
                       '\n[[tool.lint-configs.overrides]]\npaths = ["mixed/**"]\nextend-target-gpus = ["H100"]\n'
                       '\n[[tool.lint-configs.overrides]]\npaths = ["hopper/**"]\ntarget-gpus = ["H100"]\n')
    write_tree(tmp_path, {"pyproject.toml": config, "b200/docker-compose.yml": COMPOSE,
                          "mixed/docker-compose.yml": COMPOSE, "hopper/docker-compose.yml": COMPOSE})
    _, diags = lint_json(tmp_path, capsys)
    assert codes(diags) == [("hopper/docker-compose.yml", "SGL101"), ("mixed/docker-compose.yml", "SGL101")]
    # mixed runs on B200 and H100: the fix is unsafe (it changes B200's backend too)
    mixed = diags[1]
    assert mixed["fix"]["applicability"] == "unsafe" and "H100 (SM90)" in mixed["message"]
    assert diags[0]["fix"]["applicability"] == "safe"
