"""Every configuration key of KEY_TABLE has its check in config._CHECKS (the table _validate reads)."""

import pytest

from linter import config


def test_every_key_has_a_check():
    assert set(config._CHECKS) == {k.name for k in config.KEY_TABLE}


@pytest.mark.parametrize("key,value,expected", [
    ("baseline", "b.json", "b.json"),
    ("exclude", ["vendor/"], ["vendor/"]),
    ("models", {"/m": "DeepseekV3ForCausalLM"}, {"/m": "DeepseekV3ForCausalLM"}),
])
def test_checks_return_the_value(key, value, expected):
    assert config._validate({key: value}, "f.toml", config.KEYS) == {key: expected}


def test_override_without_paths_is_refused():
    with pytest.raises(config.ConfigError, match=r"f.toml: overrides\[0\]: missing 'paths'"):
        config._validate({"overrides": [{"select": ["SGL1"]}]}, "f.toml", config.KEYS)
