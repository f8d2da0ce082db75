"""Point 1 of issue 11: whether an option takes a value follows its argparse action and nargs.

Walks every option string of every generated table (the versions come from the data folder) and
parses it bare, as ``--opt=true`` and as ``--opt true``, comparing the result with what argparse
does for the table row's action/nargs (Python ``argparse``: a no-value action rejects an explicit
``=value`` and leaves a following word as an unrecognised argument).
"""

from __future__ import annotations

import json
from importlib import resources

import pytest

from linter.launch import MStr, Token
from linter.sglang.options import available_versions, load_table, parse_args, version_tuple

_ARGPARSE_NO_VALUE = {"store_true", "store_false", "store_const", "append_const", "count", "help", "version"}


def _rows(version: str) -> list[dict]:
    raw = json.loads(resources.files("linter.sglang.data").joinpath(f"options-{version}.json").read_text("utf-8"))
    return raw["options"]


def _parse(version: str, words: list[str]):
    if not any(w in ("--model-path", "--model") for w in words):
        words = ["--model-path", "m", *words]
    return parse_args(load_table(version), [Token(MStr.plain(w)) for w in words])


def test_the_data_folder_has_tables():
    assert len(available_versions()) >= 8
    assert "0.5.22" in available_versions() and "0.5.23" in available_versions()


@pytest.mark.parametrize("version", available_versions())
def test_value_taking_follows_action_and_nargs(version):
    checked_flags = checked_values = 0
    for row in _rows(version):
        # The tables omit keys that have argparse's default (action "store", nargs None).
        action, nargs = row.get("action", "store"), row.get("nargs")
        if action in ("help", "version") or row["dest"] == "config":
            continue
        no_value = action in _ARGPARSE_NO_VALUE or nargs == 0
        for s in row["option_strings"]:
            if not s.startswith("--"):
                continue
            deprecated = "deprecation" in row  # what it stores (or raises) is the deprecation's, tested apart

            def kinds(words):
                return [p.kind for p in _parse(version, words).problems if not p.kind.startswith("deprecated-")]

            if no_value:
                bare = _parse(version, [s])
                assert kinds([s]) == [], (s, bare.problems)
                expected = not (action == "store_false" or (action.endswith("BooleanOptionalAction")
                                                            and s.startswith("--no-")))
                if not deprecated:
                    assert bare.value(row["dest"]) is expected, s
                assert kinds([f"{s}=true"]) == ["unexpected-value"], s
                assert kinds([s, "true"]) == ["unrecognized-argument"], s
                checked_flags += 1
            else:
                value = str(row["choices"][0]) if row.get("choices") else \
                    "{}" if row.get("type") == "parse_cuda_graph_config_arg" else "1"
                given = _parse(version, [s, value])
                assert kinds([s, value]) == [], (s, given.problems)
                got = given.value(row["dest"])
                if not deprecated:
                    assert got == (value if nargs in (None, "?", 1) else [value]), (s, got)
                bare_kinds = [p.kind for p in _parse(version, [s]).problems if p.kind != "missing-required"]
                assert bare_kinds == ([] if nargs in ("?", "*") else ["missing-value"]), (s, bare_kinds)
                checked_values += 1
    assert checked_flags > 10 and checked_values > 30


@pytest.mark.parametrize("version,flag", [
    ("0.5.22", "--enable-dp-attention"), ("0.5.23", "--enable-dp-attention"), ("0.5.23", "--disable-cuda-graph"),
])
def test_custom_store_true_actions_take_no_value(version, flag):
    row = next(r for r in _rows(version) if flag in r["option_strings"])
    assert row.get("action") == "custom:DeprecatedStoreTrueAction" and row.get("nargs") == 0
    assert not load_table(version).by_string[flag].takes_value
    assert [p.kind for p in _parse(version, [flag, "--tp", "8"]).problems] == ["deprecated-warns"]


@pytest.mark.parametrize("version", available_versions())
def test_boolean_optional_actions_carry_their_no_form(version):
    rows = [r for r in _rows(version) if r.get("action", "store").endswith("BooleanOptionalAction")]
    if version_tuple(version) >= (0, 5, 16):
        assert rows  # older releases may have none
    for r in rows:
        pos = [s for s in r["option_strings"] if not s.startswith("--no-")]
        assert [f"--no-{s[2:]}" for s in pos] == [s for s in r["option_strings"] if s.startswith("--no-")]


def test_boolean_optional_no_form_and_abbreviation_store_false():
    p = _parse("0.5.23", ["--no-enable-tf32"])
    assert p.problems == [] and p.value("enable_tf32_matmul") is False
    assert _parse("0.5.23", ["--enable-tf32-matmul"]).value("enable_tf32_matmul") is True
