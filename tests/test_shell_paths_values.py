"""Shell values along every path after the fresh review of issue 35: past the variant cap the
decisions that change what the rules decide are kept (D7), a function called with different
arguments in branches gives one launch per call (D11b), and a finding a loop repeats is reported
once per place (D22). Each case carries DeepSeek-V3 with fa4 on an H100, so a path with deterministic
inference on shows as SGL101."""

from __future__ import annotations

import pytest

from linter import limits
from tests.helpers import lint_json, run, write_tree

HEAD = "#!/bin/bash\n# lint-configs: target-gpu=H100\n"
MODEL = "--model-path deepseek-ai/DeepSeek-V3"


def lint(tmp_path, capsys, script: str) -> list[dict]:
    write_tree(tmp_path, {"run.sh": HEAD + script})
    return lint_json(tmp_path, capsys)[1]


def summary(diags: list[dict], code: str = "SGL101") -> list[tuple[str, str, int]]:
    """(code, severity, line) of the findings of ``code`` (a served name set in two ifs is SGL207 on
    the paths that take both: true, and not what these cases are about)."""
    return [(d["code"], d["severity"], d["line"]) for d in diags if d["code"] == code]


# -- D7: past the cap, the deciding ifs are kept ----------------------------------------------------------

def ifs(n: int, deciding: dict[int, str]) -> str:
    """``A`` built by ``n`` undecided ifs: those in ``deciding`` add their words, the others a served name."""
    lines = [f'A="{MODEL} --attention-backend fa4"']
    for k in range(n):
        var, words = (f"D{k}", deciding[k]) if k in deciding else (f"V{k}", f"--served-model-name m{k}")
        lines.append(f'if [ -n "${var}" ]; then A="$A {words}"; fi')
    return "\n".join(lines) + "\npython -m sglang.launch_server $A\n"


DET = "--enable-deterministic-inference"


@pytest.mark.parametrize("n, at", [(10, 5), (10, 0), (10, 9), (17, 5), (25, 20), (40, 12)])
def test_the_deciding_if_is_kept_past_the_cap(tmp_path, capsys, n, at):
    assert 2 ** n > limits.MAX_PATH_VARIANTS
    diags = lint(tmp_path, capsys, ifs(n, {at: DET}))
    assert summary(diags) == [("SGL101", "warning", 3)]
    message = next(d["message"] for d in diags if d["code"] == "SGL101")
    assert f'(when `[ -n "$D{at}" ]` succeeds; not on every path of this launch)' in message


def test_two_deciding_ifs_among_many_are_both_kept(tmp_path, capsys):
    script = ifs(20, {0: DET}).replace("--attention-backend fa4", "--attention-backend triton")
    script = script.replace('if [ -n "$V13" ]; then A="$A --served-model-name m13"; fi',
                            'if [ -n "$FA" ]; then A="$A --attention-backend fa4"; fi')
    diags = lint(tmp_path, capsys, script)
    assert [(d["code"], d["severity"]) for d in diags if d["code"] == "SGL101"] == [("SGL101", "warning")]
    message = next(d["message"] for d in diags if d["code"] == "SGL101")
    assert '`[ -n "$D0" ]` succeeds' in message and '`[ -n "$FA" ]` succeeds' in message


@pytest.mark.parametrize("n", [6, 12])
def test_irrelevant_ifs_past_the_cap_do_not_hide_an_every_path_finding(tmp_path, capsys, n):
    script = ifs(n, {}).replace("--attention-backend fa4", f"--attention-backend fa4 {DET}")
    assert summary(lint(tmp_path, capsys, script)) == [("SGL101", "error", 3)]


COLON_DET = "${DET:+--enable-deterministic-inference}"


@pytest.mark.parametrize("values, when", [
    # 16 paths of words no rule decides by, and a ${DET:+…}: 32 together, each within the cap
    ("".join(f'if [ -n "$V{k}" ]; then A="$A --served-model-name m{k}"; fi\n' for k in range(4)),
     "`$DET` is set and not empty"),
    # eleven modes of one variable (no path takes two), and a ${DET:+…}: 22 together
    ("".join(f'if [ "$MODE" = m{k} ]; then A="$A --served-model-name m{k}"; fi\n' for k in range(10)),
     "`$DET` is set and not empty"),
    # the if that changes the backend is kept apart, the others merged
    ('if [ -n "$V0" ]; then A="$A --served-model-name m0"; fi\n'
     'if [ -n "$FA3" ]; then A="$A --attention-backend fa3"; fi\n'
     + "".join(f'if [ -n "$V{k}" ]; then A="$A --served-model-name m{k}"; fi\n' for k in range(1, 4)),
     '`[ -n "$FA3" ]` fails and `$DET` is set and not empty'),
])
def test_values_per_path_read_together_past_the_cap_keep_their_deciding_decisions(tmp_path, capsys, values, when):
    script = 'A="--attention-backend fa4"\n' + values + f"python -m sglang.launch_server {MODEL} $A {COLON_DET}\n"
    diags = lint(tmp_path, capsys, script)
    assert summary(diags) == [("SGL101", "warning", 3)]
    message = next(d["message"] for d in diags if d["code"] == "SGL101")
    assert f"(when {when}; not on every path of this launch)" in message


# -- D11b: a function called with different arguments gives one launch per call ------------------------------

FN = f'launch() {{\n  python -m sglang.launch_server {MODEL} "$@"\n}}\n'


@pytest.mark.parametrize("calls, found", [
    # the calls in the branches of an if: each call is its own launch, located at the call (as a Python
    # function's launch per call is), with that branch as its path: the failing one is an error there
    ('if [ "$MODE" = det ]; then\n  launch --attention-backend fa4 ' + DET +
     '\nelse\n  launch --attention-backend fa4\nfi\n',
     [("SGL101", "error", 7, "SGLang 0.5.23 refuses to start on H100 (SM90)")]),
    ('case "$MODE" in\n  det) launch --attention-backend fa4 ' + DET +
     ';;\n  *) launch --attention-backend fa4;;\nesac\n',
     [("SGL101", "error", 7, "SGLang 0.5.23 refuses to start on H100 (SM90)")]),
    ('[ -n "$DET" ] && launch --attention-backend fa4 ' + DET + '\n',
     [("SGL101", "error", 6, "SGLang 0.5.23 refuses to start on H100 (SM90)")]),  # one call: its launch
    # calls one after another: both run, each its own launch
    ('launch --attention-backend fa4 ' + DET + '\nlaunch --attention-backend triton ' + DET + '\n',
     [("SGL101", "error", 6, "SGLang 0.5.23 refuses to start on H100 (SM90)")]),
    ('for b in fa4 triton; do launch --attention-backend "$b" ' + DET + '; done\n',
     [("SGL101", "error", 6, "SGLang 0.5.23 refuses to start on H100 (SM90)")]),
])
def test_function_called_with_different_arguments_gives_a_launch_per_call(tmp_path, capsys, calls, found):
    diags = lint(tmp_path, capsys, FN + calls)
    assert [(d["code"], d["severity"], d["line"]) for d in diags] == [f[:3] for f in found]
    assert all(f[3] in d["message"] for d, f in zip(diags, found))


def test_function_calls_past_the_cap_are_merged(tmp_path, capsys):
    calls = "".join(f'[ -n "$X{k}" ] && launch --attention-backend fa4 --served-model-name m{k}\n'
                    for k in range(limits.MAX_PATH_VARIANTS + 1))
    diags = lint(tmp_path, capsys, FN + calls + f"launch --attention-backend fa4 {DET}\n")
    assert summary(diags) == []  # the served names differ: one merged launch whose arguments are unknown


# -- D22: a finding a loop repeats is said once per place, and every loop alike ------------------------------

LOOP = 'for w in a b c d; do A="$A --served-model-name $w"; done\n'
OVERRIDDEN = "--served-model-name a, b and c are overridden by --served-model-name d later in the command"


@pytest.mark.parametrize("pairs", [0, 4, 12])
def test_a_repeated_option_in_loops_is_said_once_per_loop(tmp_path, capsys, pairs):
    # `pairs` undecided ifs that choose --tp (an option the rules decide by) between the loops: past
    # the cap their paths merge, and every loop's words stay known all the same
    body = "".join(f'if [ -n "$X{k}" ]; then A="$A --tp 1"; else A="$A --tp 2"; fi\n' + LOOP for k in range(pairs))
    script = f'A="{MODEL}"\n' + LOOP + body + "python -m sglang.launch_server $A\n"
    diags = lint(tmp_path, capsys, script)
    loops = [4 + 2 * k for k in range(pairs + 1)]
    served = [d for d in diags if d["code"] == "SGL207" and "--served-model-name" in d["message"]]
    assert [(d["line"], d["column"]) for d in served] == [(line, 28) for line in loops]
    assert all(OVERRIDDEN in d["message"] and "(when" not in d["message"] for d in served)


@pytest.mark.parametrize("args, says", [
    ("--tp 2 --tp 4", ["--tp 2 is overridden by --tp 4"]),
    ("--tp 2 --tp 3 --tp 4", ["--tp 2 is overridden by --tp 4", "--tp 3 is overridden by --tp 4"]),
    ("--tp 4 --tp 4", []),
])
def test_repeated_options_written_in_different_places_are_said_each(tmp_path, capsys, args, says):
    diags = lint(tmp_path, capsys, f"python -m sglang.launch_server {MODEL} {args}\n")
    assert [d["message"].split(" later")[0] for d in diags if d["code"] == "SGL207"] == says


def test_launches_of_a_function_read_per_call_are_headed_by_their_calls(tmp_path, capsys):
    """``--list-launches`` heads each call's launch with the call's line, as it does a Python function's
    launch per call (before: every one headed with the function body's line; fresh review, d13)."""
    calls = "launch --attention-backend fa3\nlaunch --attention-backend fa4\nlaunch --attention-backend triton\n"
    write_tree(tmp_path, {"run.sh": "#!/bin/bash\n" + FN + calls})
    out = run(tmp_path, capsys, "--target-gpu", "H100", "--list-launches", "run.sh")[1]
    assert [line for line in out.splitlines() if line.startswith("run.sh:")] == ["run.sh:5", "run.sh:6", "run.sh:7"]
    explained = run(tmp_path, capsys, "--target-gpu", "H100", "--explain", "run.sh:6")[1]
    assert "attention_backend: 'fa4'" in explained and "'fa3'" not in explained


# -- d8b: a branch that ends the script (exit, return in a function, exec COMMAND) ends its path ------------------

SET_A = 'A="--attention-backend fa4"\n'
ADD_DET = f'A="$A {DET}"'
LAUNCH = f"python -m sglang.launch_server {MODEL} $A\n"


@pytest.mark.parametrize("script", [
    SET_A + f'if [ -n "$DET" ]; then\n  {ADD_DET}\n  echo "needs fa3 on H100" >&2\n  exit 1\nfi\n' + LAUNCH,
    SET_A + f'if [ -n "$DET" ]; then {ADD_DET}; exec false; fi\n' + LAUNCH,
    SET_A + f'if [ -n "$DET" ]; then {ADD_DET}; {{ echo no; exit 2; }}; fi\n' + LAUNCH,
    SET_A + f'[ -n "$DET" ] && {{ {ADD_DET}; echo no; exit 1; }}\n' + LAUNCH,
    SET_A + f'[ -z "$DET" ] || {{ {ADD_DET}; exit 1; }}\n' + LAUNCH,
    SET_A + f'if [ -n "$FAST" ]; then :; elif [ -n "$DET" ]; then {ADD_DET}; exit 1; fi\n' + LAUNCH,
    # the guard in an if of its own, on the same test as the one that turned it on
    SET_A + f'if [ -n "$DET" ]; then {ADD_DET}; fi\nif [ -n "$DET" ]; then exit 1; fi\n' + LAUNCH,
    SET_A + f'[ -n "$DET" ] && {ADD_DET}\n[ -n "$DET" ] && exit 1\n' + LAUNCH,
    # return in a function's body ends the function's path
    SET_A + f'serve() {{\n  if [ -n "$DET" ]; then {ADD_DET}; echo no >&2; return 1; fi\n  {LAUNCH}}}\nserve\n',
])
def test_a_branch_that_ends_the_script_leaves_no_path_after_it(tmp_path, capsys, script):
    assert summary(lint(tmp_path, capsys, script)) == []


@pytest.mark.parametrize("script, found", [
    # not an end of the script: a subshell's exit, exec of redirections only, return outside a function
    (SET_A + f'if [ -n "$DET" ]; then {ADD_DET}; ( exit 1 ); fi\n' + LAUNCH, [("SGL101", "warning", 3)]),
    (SET_A + f'if [ -n "$DET" ]; then {ADD_DET}; exec 2>&1; fi\n' + LAUNCH, [("SGL101", "warning", 3)]),
    (SET_A + f'if [ -n "$DET" ]; then {ADD_DET}; fi\nif [ -n "$X" ]; then exit 1; fi\n' + LAUNCH,
     [("SGL101", "warning", 3)]),
    # the path that goes on is the failing one: an error on every path
    (SET_A + f'if [ -n "$DET" ]; then {ADD_DET}; fi\nif [ -n "$DET" ]; then :; else exit 1; fi\n' + LAUNCH,
     [("SGL101", "error", 3)]),
    (SET_A + f'if [ -z "$DET" ]; then exit 0; fi\n{ADD_DET}\n' + LAUNCH, [("SGL101", "error", 3)]),
    # a launch in the branch before its exit is still there
    (SET_A + f'if [ -n "$DET" ]; then {ADD_DET}; {LAUNCH.strip()}; exit 0; fi\n' + LAUNCH, [("SGL101", "error", 3)]),
])
def test_what_does_not_end_the_script_or_ends_the_other_path(tmp_path, capsys, script, found):
    assert summary(lint(tmp_path, capsys, script)) == found


# -- d2: an array built in ifs past the cap keeps its deciding if and the words every path has -------------------

MIXED = ("--enable-metrics", "--trust-remote-code", "--disable-radix-cache", "--enable-torch-compile")


def array_ifs(n: int, at: int | None, flag: str, start: str = "--attention-backend fa4") -> str:
    """``A=(start)`` then ``n`` undecided ifs each appending ``flag``, the one at ``at`` deterministic inference."""
    lines = [f"A=({start})"]
    for k in range(n):
        var, words = ("TOP", DET) if k == at else (f"O{k}", MIXED[k % len(MIXED)] if flag == "mixed" else flag)
        lines.append(f'if [ -n "${var}" ]; then A+=({words}); fi')
    return "\n".join(lines) + f'\npython -m sglang.launch_server {MODEL} "${{A[@]}}"\n'


@pytest.mark.parametrize("n, at, flag", [
    (5, 2, "--enable-metrics"),  # identical flags
    (5, 2, "mixed"),  # the review's script
    (5, 4, "--trust-remote-code"),
    (8, 0, "--disable-radix-cache"),
    (26, 20, "mixed"),
    (26, 13, "--enable-metrics"),
    (40, 39, "--enable-torch-compile"),
])
def test_array_ifs_past_the_cap_keep_the_deciding_if(tmp_path, capsys, n, at, flag):
    assert 2 ** n > limits.MAX_PATH_VARIANTS
    diags = lint(tmp_path, capsys, array_ifs(n, at, flag))
    assert summary(diags) == [("SGL101", "warning", 3)]
    assert '(when `[ -n "$TOP" ]` succeeds; not on every path of this launch)' in diags[0]["message"]


@pytest.mark.parametrize("n, start, found", [
    # the words written before the ifs stay known on every path
    (8, f"--attention-backend fa4 {DET}", [("SGL101", "error", 3)]),
    (26, f"{DET} --attention-backend fa4", [("SGL101", "error", 3)]),
    (6, f"--attention-backend fa4 {DET}", [("SGL101", "error", 3)]),
    (8, f"--attention-backend fa3 {DET}", []),
])
def test_array_ifs_past_the_cap_keep_the_words_every_path_has(tmp_path, capsys, n, start, found):
    assert summary(lint(tmp_path, capsys, array_ifs(n, None, "mixed", start))) == found


# -- d19: a function printing its command line in several echo/printf commands --------------------------------

ECHO = f'  echo "python -m sglang.launch_server {MODEL} --attention-backend fa4"\n'


def printing(body: str, use: str = "CMD=$(build)\n$CMD\n") -> str:
    return "build() {\n" + body + "}\n" + use


@pytest.mark.parametrize("script, found, conditions", [
    # the review's scripts: the words of every line, split on the line breaks
    (printing(ECHO.replace('fa4"', f'fa4 {DET}"') + '  if [ -n "$VERBOSE" ]; then echo " --log-level debug"; fi\n'),
     [("SGL101", "error", 4)], [['`[ -n "$VERBOSE" ]` succeeds'], ['`[ -n "$VERBOSE" ]` fails']]),
    (printing(ECHO.replace('fa4"', f'fa4 {DET}"') + '  echo "--log-level debug"\n'), [("SGL101", "error", 4)], [[]]),
    # a line in an if: that path's
    (printing(ECHO + f'  if [ -n "$DET" ]; then echo {DET}; fi\n'), [("SGL101", "warning", 4)],
     [['`[ -n "$DET" ]` succeeds'], ['`[ -n "$DET" ]` fails']]),
    # unquoted words starting with a dash are echo's text, not its options
    (printing(ECHO + f'  echo {DET} --log-level debug\n'), [("SGL101", "error", 4)], [[]]),
    (printing('  echo starting >&2\n' + ECHO + f'  printf "%s " {DET}\n', "$(build)\n"), [("SGL101", "error", 5)],
     [[]]),
    # what goes to another stream is not printed
    (printing(ECHO + f'  echo {DET} >&2\n'), [], [[]]),
    # eval runs each line as a command of its own: the second is not the launch's
    (printing(ECHO + f'  echo {DET}\n', 'eval "$(build)"\n'), [], [[]]),
])
def test_a_function_printing_its_command_in_several_lines(tmp_path, capsys, script, found, conditions):
    import json

    from tests.helpers import run

    assert summary(lint(tmp_path, capsys, script)) == found
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json", ".")
    assert [row["conditions"] for row in json.loads(out)] == conditions


@pytest.mark.parametrize("setup, call, when", [
    ("", "serve --port 1 ${DET:+" + DET + "}", "`$DET` is set and not empty"),
    ('E=""\nif [ -n "$DET" ]; then E="' + DET + '"; fi\n', "serve --port 1 $E", '`[ -n "$DET" ]` succeeds'),
])
def test_a_call_whose_arguments_differ_along_paths_is_one_launch_per_path(tmp_path, capsys, setup, call, when):
    """A function's call run along the paths of what it is given: each path's call is that path of one
    launch, with its condition — not three launches (one with the arguments unknown, from the run cut
    short at the decision) each an error on its every path (fresh review, rev38 e10)."""
    script = 'serve() {\n  python -m sglang.launch_server ' + MODEL + ' --attention-backend fa4 "$@"\n}\n' + setup + call
    write_tree(tmp_path, {"run.sh": "#!/bin/bash\n" + script + "\n"})
    diags = lint_json(tmp_path, capsys, "--target-gpu", "H100", "run.sh")[1]
    assert [(d["code"], d["severity"]) for d in diags] == [("SGL101", "warning")]
    assert f"(when {when}; not on every path of this launch)" in diags[0]["message"]
    out = run(tmp_path, capsys, "--target-gpu", "H100", "--list-launches", "run.sh")[1]
    assert out.strip().splitlines()[-1].startswith("1 launch (2 paths) in 1 file")
