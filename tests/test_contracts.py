"""The closed sets between stages are types, not free strings: fixability, severity, SGLang's start-up
error class and what ``unwrap`` found."""

from __future__ import annotations

import pytest

from linter.rules import LAUNCH_RULES
from linter.rules.base import Fixability, Rule, Severity
from linter.sglang.decision import ErrorClass


def test_every_rule_carries_typed_metadata():
    assert LAUNCH_RULES
    for rule in LAUNCH_RULES:
        assert type(rule.fixable) is Fixability and type(rule.severity) is Severity, rule.code


def test_a_rule_may_write_the_plain_string_and_gets_the_type():
    class Toy(Rule):
        code, name, severity, fixable = "SGL999", "toy", "warning", "sometimes"

    assert Toy.fixable is Fixability.SOMETIMES and Toy.severity is Severity.WARNING
    assert f"{Toy.fixable}" == "sometimes"  # reports print the value


@pytest.mark.parametrize("attrs", [{"fixable": "maybe"}, {"severity": "fatal"}])
def test_a_misspelt_contract_fails_when_the_rule_is_defined(attrs):
    with pytest.raises(ValueError, match="maybe|fatal"):
        type("Bad", (Rule,), {"code": "SGL998", "name": "bad", **attrs})


def test_the_start_up_rules_name_their_error_class():
    by_code = {r.code: r for r in LAUNCH_RULES}
    assert [by_code[c].error for c in ("SGL101", "SGL102", "SGL103")] == [ErrorClass.C, ErrorClass.B, ErrorClass.A]


def test_the_decision_returns_an_error_class(tmp_path, capsys):
    from tests.helpers import lint_json, write_tree

    write_tree(tmp_path, {"serve.sh": "# lint-configs: target-gpu=H100\n"
                          "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
                          "--enable-deterministic-inference --attention-backend fa4\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert (code, [d["code"] for d in diags]) == (1, ["SGL101"])


def test_unwrap_names_what_it_found():
    from linter.launch import MStr, Token
    from linter.recognize import UnwrapKind, unwrap

    def words(*ws):
        return [Token(MStr.plain(w)) for w in ws]

    got = unwrap(words("bash", "-c", "python -m sglang.launch_server --model-path m"))
    assert got.kind is UnwrapKind.SCRIPT and got.how == "bash"
    got = unwrap(words("python", "-m", "sglang.launch_server", "--model-path", "m"))
    assert got.kind is UnwrapKind.LAUNCH and [t.value for t in got.args] == ["--model-path", "m"]
    assert unwrap(words("echo", "hi")).kind is None


def test_the_code_catalog_is_the_rules():
    from linter.codes import catalog
    from linter.rules import ALL_RULES

    assert catalog() == {r.code: r.name for r in sorted(ALL_RULES, key=lambda r: r.code)}


@pytest.mark.parametrize("selector,expected", [
    ("ALL", None), ("SGL101", {"SGL101"}), ("sgl101", {"SGL101"}),
    ("fa4-deterministic-mla-needs-sm100", {"SGL101"}), ("SGL10", {"SGL101", "SGL102", "SGL103"}),
    ("nothing-like-it", set()),
])
def test_selectors_expand_from_the_catalog(selector, expected):
    from linter.codes import catalog, expand_selector

    got = expand_selector(selector)
    if selector == "ALL":
        assert got == set(catalog())
    elif not expected:
        assert got is None
    else:
        assert {c for c in got if c in ("SGL101", "SGL102", "SGL103")} == expected and got <= set(catalog())


def test_directives_and_configuration_do_not_load_the_rules():
    """Selecting and suppressing read the catalog: the directive scanner and the configuration sit below
    the rules (and a run whose files mention no SGLang loads none)."""
    import subprocess
    import sys

    code = ("import sys, linter.directives, linter.config; "
            "from linter.config import selected_codes; from linter.directives import scan; "
            "print(sorted(m for m in sys.modules if m.startswith('linter.rules')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
