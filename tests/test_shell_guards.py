"""Guards and tests of one variable in shell scripts (fresh review rev38 e4, e4b, e4d, e5b, e7 and rev37
d9): a guard that ends the script on one branch of a test decides a later test of the same variable
(``[ -n "$X" ]``, ``[ -z "$X" ]``, ``[ "$X" ]``, ``test -n "$X"``, ``${X:+…}`` ask the same thing), a
function whose body always exits ends a path as ``exit`` does, and tests of one variable against
different texts make no path on which both succeed. Each script serves DeepSeek-V3 on an H100, so a
path with fa4 and deterministic inference on shows as SGL101: a warning naming its conditions when
some paths have it, an error when every path does."""

from __future__ import annotations

import re

import pytest

from tests.helpers import lint_json, write_tree

HEAD = "#!/bin/bash\n# lint-configs: target-gpu=H100\n"  # lines 1-2: the cases' lines count from 3
LAUNCH = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3"
FA4 = 'A="--attention-backend fa4"\n'
ADD_DET = 'A="$A --enable-deterministic-inference"'
DET_IF = f'if [ -n "$DET" ]; then {ADD_DET}; fi\n'
RUN = f"{LAUNCH} $A\n"


def sgl101(tmp_path, capsys, script: str) -> list[tuple[str, int, str | None]]:
    """(severity, line, the path's conditions or None on every path) of each SGL101 of ``script``."""
    write_tree(tmp_path, {"run.sh": HEAD + script})
    out = []
    for d in lint_json(tmp_path, capsys)[1]:
        if d["code"] == "SGL101":
            when = re.search(r"\(when (.*); not on every path of this launch\)", d["message"])
            out.append((d["severity"], d["line"], when.group(1) if when else None))
    return out


# -- a guard that exits decides a later test of the same variable (e4, e4b, e4d) --------------------------

GUARDS_AGAINST_DET = [
    'if [ -n "$DET" ]; then exit 1; fi\n',  # e4
    '[ -n "$DET" ] && exit 1\n',  # e4b
    '[ -z "$DET" ] || exit 1\n',
    'if [ -z "$DET" ]; then :; else echo "det needs fa3" >&2; exit 1; fi\n',
    'if [ "$DET" ]; then exit 1; fi\n',
    'test -n "$DET" && exit 2\n',
    '[[ -n $DET ]] && { echo "det needs fa3" >&2; exit 1; }\n',
]
LATER_TESTS_OF_DET = [
    DET_IF,
    f'if [ -z "$DET" ]; then :; else {ADD_DET}; fi\n',
    f'[ -n "${{DET}}" ] && {ADD_DET}\n',
    f'[ -z "$DET" ] || {ADD_DET}\n',
]


@pytest.mark.parametrize("later", LATER_TESTS_OF_DET)
@pytest.mark.parametrize("guard", GUARDS_AGAINST_DET)
def test_a_guard_that_exits_decides_the_later_test_of_the_same_variable(tmp_path, capsys, guard, later):
    assert sgl101(tmp_path, capsys, FA4 + guard + later + RUN) == []


@pytest.mark.parametrize("guard", GUARDS_AGAINST_DET)
def test_a_guard_that_exits_decides_a_later_colon_plus_word(tmp_path, capsys, guard):  # e4d
    script = guard + f"{LAUNCH} --attention-backend fa4 ${{DET:+--enable-deterministic-inference}}\n"
    assert sgl101(tmp_path, capsys, script) == []


# must still warn: the guard leaves the deciding path open, or tests another thing
STILL_OPEN = [
    # the guard ends the other branch: every path that goes on has DET set
    ('[ -n "$DET" ] || exit 1\n' + FA4 + DET_IF + RUN, [("error", 4, None)]),
    ('if [ -z "$DET" ]; then exit 1; fi\n' + FA4 + DET_IF + RUN, [("error", 4, None)]),
    # another variable guarded
    (FA4 + '[ -n "$OTHER" ] && exit 1\n' + DET_IF + RUN, [("warning", 3, '`[ -n "$DET" ]` succeeds')]),
    # a guard without exit
    (FA4 + '[ -n "$DET" ] && echo "det is slow"\n' + DET_IF + RUN, [("warning", 3, '`[ -n "$DET" ]` succeeds')]),
    # the exit is in a subshell: only that ends
    (FA4 + '[ -n "$DET" ] && ( exit 1 )\n' + DET_IF + RUN, [("warning", 3, '`[ -n "$DET" ]` succeeds')]),
    # the guard is itself in a branch: a path that skipped it goes on with DET set
    (FA4 + 'if [ -n "$STRICT" ]; then [ -n "$DET" ] && exit 1; fi\n' + DET_IF + RUN,
     [("warning", 3, '`[ -n "$DET" ]` succeeds')]),
    # `[ -n $DET ]` unquoted is `[ -n ]` when DET is empty, which succeeds: not the test of `[ -n "$DET" ]`
    (FA4 + '[ -n $DET ] && exit 1\n' + DET_IF + RUN, [("warning", 3, '`[ -n "$DET" ]` succeeds')]),
    # a test of DET's value is not its emptiness
    (FA4 + '[ "$DET" = 1 ] && exit 1\n' + DET_IF + RUN, [("warning", 3, '`[ -n "$DET" ]` succeeds')]),
    # DET is given a new value after the guard: what the guard said no longer holds
    (FA4 + '[ -n "$DET" ] && exit 1\nDET=$(cat /etc/det)\n' + DET_IF + RUN,
     [("warning", 3, '`[ -n "$DET" ]` succeeds')]),
    (FA4 + '[ -n "$DET" ] && exit 1\nread -r DET < /etc/det\n' + DET_IF + RUN,
     [("warning", 3, '`[ -n "$DET" ]` succeeds')]),
    (FA4 + '[ -n "$DET" ] && exit 1\nif [ -f /etc/det ]; then DET=$(cat /etc/det); fi\n' + DET_IF + RUN,
     [("warning", 3, '`[ -n "$DET" ]` succeeds')]),
    # a test of something other than a variable (a file, an argument) may change without an assignment
    (FA4 + '[ -f /tmp/det ] && exit 1\ntouch /tmp/det\nif [ -f /tmp/det ]; then ' + ADD_DET + '; fi\n' + RUN,
     [("warning", 3, '`[ -f /tmp/det ]` succeeds')]),
    (FA4 + '[ -z "$1" ] && exit 1\nshift\nif [ -z "$1" ]; then :; else ' + ADD_DET + '; fi\n' + RUN,
     [("warning", 3, '`[ -z "$1" ]` fails')]),
]


@pytest.mark.parametrize("script, expected", STILL_OPEN)
def test_what_a_guard_leaves_open_still_warns(tmp_path, capsys, script, expected):
    assert sgl101(tmp_path, capsys, script) == expected


def test_a_colon_plus_word_after_a_guard_that_requires_the_variable_is_there_on_every_path(tmp_path, capsys):
    script = f'[ -n "$DET" ] || exit 1\n{LAUNCH} --attention-backend fa4 ${{DET:+--enable-deterministic-inference}}\n'
    assert sgl101(tmp_path, capsys, script) == [("error", 4, None)]


def test_a_colon_plus_word_and_an_if_on_the_same_variable_are_one_decision(tmp_path, capsys):
    # the fa4 comes with DET set, the deterministic inference with DET set too: one path has both
    script = ('B=""\nif [ -n "$DET" ]; then B="--attention-backend fa4"; fi\n'
              f"{LAUNCH} $B ${{DET:+--enable-deterministic-inference}}\n")
    assert sgl101(tmp_path, capsys, script) == [("warning", 4, '`[ -n "$DET" ]` succeeds')]
    script = script.replace('[ -n "$DET" ]', '[ -z "$DET" ]')  # fa4 only where DET is empty: never both
    assert sgl101(tmp_path, capsys, script) == []


# -- a function that always exits ends the path (e5b) -------------------------------------------------------

DIE_FUNCTIONS = [
    'die() { echo "$*" >&2; exit 1; }\n',  # e5b
    'function die { echo "$*" >&2; exit 1; }\n',
    'die() {\n  echo "$*" >&2\n  exit 1\n}\n',
    'fail() { exit 3; }\ndie() { echo "$*" >&2; fail; }\n',  # through another such function
    'die() { exec false; }\n',
]


@pytest.mark.parametrize("die", DIE_FUNCTIONS)
@pytest.mark.parametrize("call", [
    f'if [ -n "$DET" ]; then\n  die "det needs fa3"\n  {ADD_DET}\nfi\n',  # e5b
    '[ -n "$DET" ] && die "det needs fa3"\n' + DET_IF,
    '[ -z "$DET" ] || die "det needs fa3"\n' + DET_IF,
])
def test_a_function_that_always_exits_ends_the_path(tmp_path, capsys, die, call):
    assert sgl101(tmp_path, capsys, die + FA4 + call + RUN) == []


@pytest.mark.parametrize("die", [
    'die() { echo "$*" >&2; }\n',  # no exit
    'die() { [ -n "$FORCE" ] && return 0; exit 1; }\n',  # may return
    'die() ( echo "$*" >&2; exit 1 )\n',  # a subshell: the script goes on
    'die() { if [ -n "$STRICT" ]; then exit 1; fi; }\n',  # exits on some paths only
    'die() { die "$@"; }\n',  # calls itself: never seen to exit
])
def test_a_function_that_may_return_does_not_end_the_path(tmp_path, capsys, die):
    script = die + FA4 + '[ -n "$DET" ] && die "det needs fa3"\n' + DET_IF + RUN
    line = 3 + die.count("\n")
    assert sgl101(tmp_path, capsys, script) == [("warning", line, '`[ -n "$DET" ]` succeeds')]


# -- tests of one variable against different texts exclude each other (e7, rev37 d9) -------------------------

MODE_DET = f'if [ "$MODE" = det ]; then A="$A --enable-deterministic-inference"; fi\n'


@pytest.mark.parametrize("script", [
    'A=""\n' + MODE_DET + 'if [ "$MODE" = fast ]; then A="$A --attention-backend fa4"; fi\n' + RUN,  # e7
    'A=""\n' + MODE_DET + '[[ $MODE == "fast" ]] && A="$A --attention-backend fa4"\n' + RUN,
    'A=""\n' + MODE_DET + 'if [ "${MODE}" != fast ]; then :; else A="$A --attention-backend fa4"; fi\n' + RUN,
    # two variables, each set per path: the launch is run along the paths of both
    'A=""; B=""\n' + MODE_DET + 'if [ "$MODE" = fast ]; then B="--attention-backend fa4"; fi\n' + f"{LAUNCH} $A $B\n",
    # fa4 only when MODE is empty: deterministic inference needs MODE=det
    'A=""\n' + MODE_DET + 'if [ -z "$MODE" ]; then A="$A --attention-backend fa4"; fi\n' + RUN,
    # a guard that requires MODE=fast decides the later test of MODE=det
    FA4 + '[ "$MODE" = fast ] || exit 1\n' + MODE_DET + RUN,
    # a guard after the test drops the path that needed MODE=det
    FA4 + MODE_DET + 'if [ "$MODE" != fast ]; then exit 1; fi\n' + RUN,
])
def test_tests_of_one_variable_against_different_texts_make_no_path_on_which_both_succeed(tmp_path, capsys, script):
    assert sgl101(tmp_path, capsys, script) == []


@pytest.mark.parametrize("script, expected", [
    # both can hold: MODE=det and not fast
    ('A=""\n' + MODE_DET + 'if [ "$MODE" != fast ]; then A="$A --attention-backend fa4"; fi\n' + RUN,
     [("warning", 5, '`[ "$MODE" != fast ]` succeeds and `[ "$MODE" = det ]` succeeds')]),
    # MODE=det is not empty
    ('A=""\n' + MODE_DET + 'if [ -n "$MODE" ]; then A="$A --attention-backend fa4"; fi\n' + RUN,
     [("warning", 5, '`[ -n "$MODE" ]` succeeds and `[ "$MODE" = det ]` succeeds')]),
    # two variables are two subjects
    ('A=""\n' + MODE_DET + 'if [ "$KIND" = fast ]; then A="$A --attention-backend fa4"; fi\n' + RUN,
     [("warning", 5, '`[ "$KIND" = fast ]` succeeds and `[ "$MODE" = det ]` succeeds')]),
    # a guard that requires MODE=det: every path that goes on has it
    (FA4 + '[ "$MODE" = det ] || exit 1\n' + MODE_DET + RUN, [("error", 3, None)]),
])
def test_tests_that_can_both_succeed_still_make_their_path(tmp_path, capsys, script, expected):
    assert sgl101(tmp_path, capsys, script) == expected
