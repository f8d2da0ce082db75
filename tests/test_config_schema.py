"""The configuration's JSON Schema (``linter/lint-configs.schema.json``) against the configuration code
(``linter/config.py``: its key tables and its loader) and against valid and invalid sample files
(``tests/data/config-samples``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from linter import config, config_schema
from linter.config import ConfigError, load

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = Path(__file__).parent / "data" / "config-samples"


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft7Validator:
    schema = config_schema.shipped()
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def _errors(validator, table) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(table)]


def _toml(value) -> str:
    """A TOML value for the JSON-like ``value`` (strings, numbers, lists, tables: all inline)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"


def _load_table(tmp_path: Path, table: dict) -> None:
    """Load ``table`` as a ``.lint-configs.toml`` with the real loader (raises ConfigError)."""
    path = tmp_path / ".lint-configs.toml"
    path.write_text("".join(f"{json.dumps(k)} = {_toml(v)}\n" for k, v in table.items()), encoding="utf-8")
    load(path)


# --- the schema and the code ------------------------------------------------------------------------

def test_the_shipped_schema_is_the_generated_one():
    assert config_schema.shipped() == config_schema.schema(), "run python scripts/generate_schema.py"
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate_schema.py"), "--check"],
                       capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, "")


def test_the_schema_is_shipped_as_package_data():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert config_schema.SHIPPED in pyproject["tool"]["setuptools"]["package-data"]["linter"]
    assert (ROOT / "linter" / config_schema.SHIPPED).is_file()


def test_the_schema_has_exactly_the_keys_of_the_code():
    schema = config_schema.schema()
    assert list(schema["properties"]) == list(config.KEYS)
    override = schema["definitions"]["Override"]
    assert list(override["properties"]) == list(config.OVERRIDE_KEYS)
    assert schema["additionalProperties"] is False and override["additionalProperties"] is False
    assert override["required"] == ["paths"]
    assert schema["$id"] == "https://json.schemastore.org/lint-configs.json"
    for key, fragment in schema["properties"].items():
        assert fragment["description"] and fragment["examples"], key


def test_a_key_without_a_fragment_cannot_ship(monkeypatch):
    monkeypatch.setattr(config, "KEYS", config.KEYS + ("new-key",))
    with pytest.raises(KeyError, match="new-key"):
        config_schema.schema()


def test_every_example_of_every_key_is_accepted_by_the_loader_and_the_schema(tmp_path, validator):
    for key in config.KEYS:
        for example in config_schema.FRAGMENTS[key]["examples"]:
            table = {key: example}
            assert not _errors(validator, table), table
            _load_table(tmp_path, table)
    for key in config.OVERRIDE_KEYS:
        for example in config_schema.FRAGMENTS[key]["examples"]:
            table = {"overrides": [{"paths": ["x/**"], key: example}]}
            assert not _errors(validator, table), table
            _load_table(tmp_path, table)


def test_a_wrong_type_for_any_key_is_rejected_by_both(tmp_path, validator):
    for key in config.KEYS:
        for table in ({key: 7}, {key: [7]} if key not in ("models", "per-file-ignores") else {key: {"a": 7}}):
            assert _errors(validator, table), table
            with pytest.raises(ConfigError, match=repr(key)):
                _load_table(tmp_path, table)
    for key in config.OVERRIDE_KEYS:
        table = {"overrides": [{"paths": ["x/**"], key: 7}]}
        assert _errors(validator, table), table
        with pytest.raises(ConfigError, match=repr(key)):
            _load_table(tmp_path, table)


def test_rule_selectors_versions_and_gpu_examples_agree_with_the_code():
    from linter.gpus.catalog import all_gpus, lookup
    from linter.rules import ALL_RULES, expand_selector
    from linter.sglang.options import available_versions

    schema = config_schema.schema()
    selectors = schema["definitions"]["RuleSelector"]["enum"]
    assert all(expand_selector(s) for s in selectors)
    assert {r.code for r in ALL_RULES} | {r.name for r in ALL_RULES} | {"ALL", "SGL", "SGL1", "SGL20"} <= set(selectors)
    # every prefix the code accepts is listed, and nothing that names no rule
    prefixes = {r.code[:n] for r in ALL_RULES for n in range(3, 6)}
    assert prefixes <= set(selectors)
    assert "SGL5" not in selectors and expand_selector("SGL5") is None
    assert schema["properties"]["sglang-version"]["enum"] == (
        list(available_versions()) + ["v" + v for v in available_versions()])
    examples = schema["definitions"]["GpuName"]["examples"]
    assert len(examples) == len(all_gpus()) and all(lookup(name) is not None for name in examples)


def test_what_only_the_code_can_decide(tmp_path, validator):
    """GPU names and the case of rule codes are left to lint-configs (documented in config_schema)."""
    assert not _errors(validator, {"target-gpus": ["H100-typo"]})
    with pytest.raises(ConfigError, match="unknown GPU 'H100-typo'"):
        _load_table(tmp_path, {"target-gpus": ["H100-typo"]})
    _load_table(tmp_path, {"select": ["sgl101"]})
    assert _errors(validator, {"select": ["sgl101"]})


# --- sample files -----------------------------------------------------------------------------------

def _sample_table(path: Path) -> dict:
    raw = tomllib.loads(path.read_text("utf-8"))
    return raw["tool"]["lint-configs"] if path.name.endswith(".pyproject.toml") else raw


def _load_sample(path: Path, tmp_path: Path):
    name = "pyproject.toml" if path.name.endswith(".pyproject.toml") else ".lint-configs.toml"
    target = tmp_path / name
    target.write_bytes(path.read_bytes())
    return load(target)


VALID = sorted((SAMPLES / "valid").glob("*.toml"))
INVALID = sorted((SAMPLES / "invalid").glob("*.toml"))


def test_there_are_samples():
    assert len(VALID) >= 4 and len(INVALID) >= 10


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_samples(path, tmp_path, validator):
    assert not _errors(validator, _sample_table(path))
    assert _load_sample(path, tmp_path) is not None


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_samples(path, tmp_path, validator):
    first = path.read_text("utf-8").splitlines()[0]
    assert first.startswith("# rejected: ")
    key = first.removeprefix("# rejected: ")
    assert _errors(validator, _sample_table(path))
    with pytest.raises(ConfigError, match=repr(key)):
        _load_sample(path, tmp_path)


def test_the_full_sample_uses_every_key():
    table = _sample_table(SAMPLES / "valid" / "full.pyproject.toml")
    message = "add the new configuration key to tests/data/config-samples/valid/full.pyproject.toml"
    assert set(table) == set(config.KEYS), message
    assert set().union(*table["overrides"]) == set(config.OVERRIDE_KEYS), message
