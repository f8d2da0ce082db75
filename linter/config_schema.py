"""The JSON Schema of the configuration (``[tool.lint-configs]`` and ``.lint-configs.toml``), made from the code.

:func:`schema` walks the key tables of :mod:`linter.config` (``KEYS`` for the top level,
``OVERRIDE_KEYS`` for each ``[[tool.lint-configs.overrides]]`` table) and gives each key the
fragment of :data:`FRAGMENTS` with its type, description and examples; a key of those tables
without a fragment raises :class:`KeyError`, so a new configuration key cannot ship without its
schema (``tests/test_config_schema.py`` also loads every fragment's examples with the real loader).
Rule selectors are the codes, names, prefixes and ``ALL`` of :mod:`linter.rules`, and SGLang versions
are the releases with an option table, so editors complete them.

What the schema cannot decide is left to lint-configs (which exits 2 naming file and key): GPU names
(matched by the catalog's rules, ``linter/gpus/catalog.py``, so any string is allowed and the
catalog's names are examples), model architecture spelling, and the case of rule codes and names
(lint-configs accepts ``sgl101``; the schema lists the canonical ``SGL101``).

The schema is draft-07 (what SchemaStore recommends) and is shipped in the package as
``linter/lint-configs.schema.json``; ``python scripts/generate_schema.py`` rewrites that file and
a test fails when it differs from :func:`schema`. Its ``$id`` is the address SchemaStore would serve
it from once submitted (catalog ``fileMatch``: ``.lint-configs.toml``; the ``pyproject.toml`` schema
refers to it for ``tool.lint-configs``).
"""

from __future__ import annotations

import json

from linter import datafiles

SCHEMA_ID = "https://json.schemastore.org/lint-configs.json"
SHIPPED = "lint-configs.schema.json"

_SELECTORS = {"type": "array", "items": {"$ref": "#/definitions/RuleSelector"}}
_GLOBS = {"type": "array", "items": {"type": "string"}}

# key -> JSON Schema fragment (without the definitions it refers to). Keys that the loader does
# not know yet are ignored by schema(); the test of every key of KEYS keeps the two in step.
FRAGMENTS: dict[str, dict] = {
    "target-gpus": {
        "description": "The GPUs the launches run on, as people write them (H100, NVIDIA-H100-80GB-HBM3, "
                       "p5.48xlarge …). A launch's own directive (`# lint-configs: target-gpu=...`) wins.",
        "type": "array", "items": {"$ref": "#/definitions/GpuName"}, "examples": [["H100"], ["H100", "B200"]],
    },
    "extend-target-gpus": {
        "description": "GPUs added to the inherited `target-gpus` (in an override: the files it matches run on "
                       "those too; `target-gpus` there replaces the inherited list).",
        "type": "array", "items": {"$ref": "#/definitions/GpuName"}, "examples": [["B200"]],
    },
    "sglang-version": {
        "description": "The SGLang release to check against when a file pins none (an image tag, sglang==); "
                       "default: the newest known.",
        "type": "string", "examples": ["0.5.23"],
    },
    "models": {
        "description": "Model paths the catalog does not know, mapped to their `architectures[0]` "
                       "(from the model's config.json).",
        "type": "object", "additionalProperties": {"type": "string"},
        "examples": [{"/models/house-dsv3": "DeepseekV3ForCausalLM"}],
    },
    "select": {"description": "Only these rules (codes, names, prefixes such as SGL1, or ALL).",
               **_SELECTORS, "examples": [["SGL1", "SGL201"]]},
    "ignore": {"description": "Never report these rules (codes, names or prefixes).",
               **_SELECTORS, "examples": [["SGL901", "unknown-option"]]},
    "extend-select": {"description": "Rules to report in addition to `select`.",
                      **_SELECTORS, "examples": [["SGL2"]]},
    "extend-ignore": {"description": "Rules to ignore in addition to `ignore`.",
                      **_SELECTORS, "examples": [["SGL207"]]},
    "per-file-ignores": {
        "description": "Globs (relative to this file's folder) mapped to the rules to ignore in the files they match.",
        "type": "object", "additionalProperties": _SELECTORS, "examples": [{"legacy/**": ["SGL201"]}],
    },
    "baseline": {
        "description": "A baseline file (written by `lint-configs --write-baseline`), relative to this file's "
                       "folder: only findings not recorded there are reported.",
        "type": "string", "examples": [".lint-configs-baseline.json"],
    },
    "exclude": {"description": "Files and folders never linted (gitignore-style globs relative to this file's "
                               "folder), besides .git, .venv, node_modules ….", **_GLOBS, "examples": [["vendor/"]]},
    "extend-exclude": {"description": "More files and folders never linted, in addition to `exclude`.",
                       **_GLOBS, "examples": [["old/**", "*.bak.yml"]]},
    "paths": {"description": "The files this override applies to (gitignore-style globs relative to the "
                             "configuration's folder).", **_GLOBS, "examples": [["clusters/b200/**"]]},
    "overrides": {
        "description": "Settings for the files some globs match; later overrides win.",
        "type": "array", "items": {"$ref": "#/definitions/Override"},
        "examples": [[{"paths": ["clusters/b200/**"], "target-gpus": ["B200"]}]],
    },
}


def _selectors() -> list[str]:
    """Every rule selector in its canonical spelling: ALL, the codes, every prefix of a code, the names."""
    from linter.codes import catalog

    rules = catalog()  # the rule classes' codes and names, in their order, as data (tests/test_rule_docs.py)
    codes = list(rules)
    prefixes = sorted({c[:n] for c in codes for n in range(3, len(c))})
    return ["ALL", *prefixes, *codes, *rules.values()]


def _table(keys: tuple[str, ...]) -> dict:
    missing = [k for k in keys if k not in FRAGMENTS]
    if missing:
        raise KeyError(f"configuration keys without a schema fragment in linter/config_schema.py: {missing}")
    return {k: FRAGMENTS[k] for k in keys}


def schema() -> dict:
    """The JSON Schema (draft-07) of one configuration table, as a dict.

    Raises KeyError when a key of ``linter.config.KEYS``/``OVERRIDE_KEYS`` has no fragment."""
    from linter.config import KEYS, OVERRIDE_KEYS
    from linter.gpus.catalog import all_gpus
    from linter.sglang.options import available_versions

    versions = list(available_versions())
    properties = _table(KEYS)
    if "sglang-version" in properties:  # the releases with an option table (a leading v is allowed)
        properties["sglang-version"] = {**properties["sglang-version"], "enum": versions + ["v" + v for v in versions]}
    override = {"type": "object", "description": "One [[tool.lint-configs.overrides]] table.",
                "properties": {k: properties.get(k, v) for k, v in _table(OVERRIDE_KEYS).items()},
                "additionalProperties": False}
    if "paths" in OVERRIDE_KEYS:
        override["required"] = ["paths"]
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": SCHEMA_ID,
        "title": "lint-configs",
        "description": "Configuration of lint-configs, the linter for SGLang launches: the [tool.lint-configs] "
                       "table of pyproject.toml, or the top level of .lint-configs.toml.",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "definitions": {
            "RuleSelector": {"description": "A rule code (SGL101), a code prefix (SGL1), a rule name "
                                            "(fa4-deterministic-mla-needs-sm100) or ALL.",
                             "type": "string", "enum": _selectors()},
            "GpuName": {"description": "A GPU name, instance type or node label value; lint-configs checks it "
                                       "against its GPU catalog.",
                        "type": "string", "minLength": 1, "examples": [g.canonical for g in all_gpus()]},
            "Override": override,
        },
    }


def render() -> str:
    """The schema as the shipped file's text (sorted keys are not used: the order above reads best)."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


def shipped() -> dict:
    """The schema file shipped in the package (``linter/lint-configs.schema.json``)."""
    return datafiles.load_json("linter", SHIPPED)
