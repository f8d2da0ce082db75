"""The GitHub Action (``action.yml`` and ``hooks/github_action.py``): its steps run as a script with
sample inputs, the way the runner runs a composite action, and the rules zizmor checks (no
expression inside ``run:``, actions pinned by commit sha) hold for it and for the workflow template."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FOLDED_H100

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"
HELPER = ROOT / "hooks" / "github_action.py"
SHA_PIN = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")
EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def _load_helper():
    """hooks/github_action.py as a module (hooks/ is not a package: the action runs the file)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("github_action", HELPER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


github_action = _load_helper()


def _yaml(path: Path):
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


# --- a small composite-action runner -----------------------------------------------------------------

class _Ctx(dict):
    """An expression context: attribute access, missing keys are '' (GitHub gives null)."""

    def __getattr__(self, name):
        value = self.get(name, "")
        return _Ctx(value) if isinstance(value, dict) else value


def _evaluate(expr: str, ctx: dict):
    """Evaluate the GitHub expression subset the action uses (==, !=, &&, ||, !, parentheses,
    context properties, 'strings', cancelled()/always()/success()) with Python."""
    py = expr.replace("&&", " and ").replace("||", " or ")
    py = re.sub(r"!(?!=)", " not ", py)
    py = re.sub(r"\b(cancelled|always|success)\(\)", r"_\1", py)
    names = {k: _Ctx(v) if isinstance(v, dict) else v for k, v in ctx.items()}
    names.update(_cancelled=False, _always=True, _success=not ctx["failed"])
    return eval(py.replace("\n", " "), {"__builtins__": {}}, names)  # noqa: S307 - our own action.yml


def _substitute(value: str, ctx: dict) -> str:
    return EXPR.sub(lambda m: str(_evaluate(m.group(1), ctx)), value)


def run_action(workspace: Path, runner_temp: Path, inputs: dict[str, str], event: str = "push",
               fork: bool = False) -> dict:
    """Run action.yml's steps in ``workspace`` as the runner would: ``if:`` evaluated, ``env:`` and
    ``with:`` and ``run:`` expressions substituted, ``run:`` under ``bash --noprofile --norc -eo pipefail``.
    ``python3`` is a stub whose ``-m venv`` makes an environment running this interpreter (pip is
    only recorded, in ``log``). Returns the steps' results, the recorded ``uses:`` steps and the log."""
    action = _yaml(ACTION)
    log = runner_temp / "stub.log"
    stubs = runner_temp / "stubs"
    stubs.mkdir()
    (stubs / "python3").write_text(f"""#!/bin/sh
echo "python3 $*" >> "{log}"
if [ "$1" = -m ] && [ "$2" = venv ]; then
  mkdir -p "$3/bin"
  cat > "$3/bin/python" <<'EOF'
#!/bin/sh
if [ "$1" = -m ] && [ "$2" = pip ]; then echo "venv-python $*" >> "{log}"; exit 0; fi
exec "{sys.executable}" "$@"
EOF
  chmod +x "$3/bin/python"
fi
""")
    (stubs / "python3").chmod(0o755)
    defaults = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    repo = "acme/deploy"
    ctx = {"inputs": {**defaults, **inputs}, "steps": {}, "failed": False,
           "runner": {"temp": str(runner_temp)}, "github": {
               "event_name": event, "repository": repo, "action_path": str(ROOT),
               "event": {"pull_request": {"head": {"repo": {"full_name": "someone/deploy" if fork else repo}}}}}}
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_", "LINT_CONFIGS"))}
    base_env.update(PATH=f"{stubs}{os.pathsep}{os.environ['PATH']}", GITHUB_ACTIONS="true", CI="true",
                    GITHUB_ACTION_PATH=str(ROOT), RUNNER_TEMP=str(runner_temp), GITHUB_WORKSPACE=str(workspace),
                    NO_COLOR="1")
    results, uses = [], []
    for i, step in enumerate(action["runs"]["steps"]):
        cond = step.get("if", "success()")
        if not _evaluate(cond, ctx):
            results.append({"name": step["name"], "skipped": True})
            if "id" in step:
                ctx["steps"][step["id"]] = {"outcome": "skipped", "outputs": {}}
            continue
        if "uses" in step:
            uses.append({"uses": step["uses"], "with": {k: _substitute(str(v), ctx)
                                                        for k, v in step.get("with", {}).items()}})
            results.append({"name": step["name"], "skipped": False})
            continue
        assert step["shell"] == "bash"
        output = runner_temp / f"output-{i}"
        output.write_text("")
        env = {**base_env, "GITHUB_OUTPUT": str(output),
               **{k: _substitute(str(v), ctx) for k, v in step.get("env", {}).items()}}
        script = runner_temp / f"step-{i}.sh"
        script.write_text(_substitute(step["run"], ctx))  # as GitHub does, before the shell runs
        r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                           env=env, capture_output=True, text=True, timeout=120)
        outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        outcome = "success" if r.returncode == 0 else "failure"
        if "id" in step:
            ctx["steps"][step["id"]] = {"outcome": outcome, "outputs": outputs}
        results.append({"name": step["name"], "skipped": False, "code": r.returncode, "stdout": r.stdout,
                        "stderr": r.stderr, "outputs": outputs})
        if r.returncode != 0 and not step.get("continue-on-error"):
            ctx["failed"] = True
    return {"steps": results, "uses": uses, "log": log.read_text().splitlines() if log.exists() else []}


# A file name full of shell metacharacters: quoted in `args`, it must reach lint-configs as one word.
HOSTILE = "x; rm -rf ~ $(touch pwned) `touch pwned2` | & $HOME.yml"


@pytest.fixture
def workspace(tmp_path) -> Path:
    ws = tmp_path / "ws"
    (ws / "deploy").mkdir(parents=True)
    (ws / "deploy" / HOSTILE).write_text(FOLDED_H100, encoding="utf-8")
    return ws


@needs_bash
def test_action_with_sarif_and_annotations_and_a_hostile_argument(workspace, tmp_path):
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    # double quotes: shlex groups the words and expands nothing; a shell would run $(…) and `…`
    args = f'--target-gpu H100 "deploy/{HOSTILE}"'
    res = run_action(workspace, temp, {"args": args, "sarif": "true", "annotations": "true"})
    install, sarif_step, upload, report = res["steps"]

    # the action's own checkout is what gets installed, into its own virtual environment
    assert install["code"] == 0, install["stderr"]
    assert res["log"] == [f"python3 -m venv {temp}/lint-configs",
                          f"venv-python -m pip install --quiet --disable-pip-version-check {ROOT}"]

    # SARIF with --exit-zero, its path as the step's output, uploaded by the pinned upload-sarif
    assert sarif_step["code"] == 0, sarif_step["stderr"]
    sarif_file = temp / "lint-configs.sarif"
    assert sarif_step["outputs"] == {"file": str(sarif_file)}
    results = json.loads(sarif_file.read_text("utf-8"))["runs"][0]["results"]
    uri = results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    from urllib.parse import unquote

    assert [r["ruleId"] for r in results] == ["SGL101"] and unquote(uri) == f"deploy/{HOSTILE}"
    assert upload["skipped"] is False
    assert res["uses"] == [{"uses": "github/codeql-action/upload-sarif@8aad20d150bbac5944a9f9d289da16a4b0d87c1e",
                            "with": {"sarif_file": str(sarif_file), "category": "lint-configs"}}]

    # annotations, and the step fails on the finding
    assert report["code"] == 1
    lines = report["stdout"].splitlines()
    assert lines[0].startswith("::error file=deploy/x; rm -rf ~ $(touch pwned) `touch pwned2` | & $HOME.yml,line=9,")
    assert lines[-1] == "lint-configs: Found 1 error. [*] 1 fixable with `lint-configs --fix`."
    assert "lint-configs --format github --target-gpu H100 'deploy/x; rm -rf ~ $(touch pwned)" in report["stderr"]

    # nothing in the input was executed
    assert not list(tmp_path.rglob("pwned*"))


@needs_bash
def test_action_defaults_print_the_text_report_and_skip_code_scanning(workspace, tmp_path):
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    res = run_action(workspace, temp, {"annotations": "false"})
    install, sarif_step, upload, report = res["steps"]
    assert sarif_step["skipped"] and upload["skipped"] and res["uses"] == []
    assert not (temp / "lint-configs.sarif").exists()
    assert report["code"] == 1
    assert "error[SGL101]: fa4 with deterministic inference" in report["stdout"]
    assert "::error" not in report["stdout"]


@needs_bash
def test_action_on_a_clean_repository_passes_and_skips_the_upload_for_forks(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "docker-compose.yml").write_text(FOLDED_H100.replace("fa4", "fa3"), encoding="utf-8")
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    res = run_action(ws, temp, {"sarif": "true"}, event="pull_request", fork=True)
    install, sarif_step, upload, report = res["steps"]
    assert sarif_step["code"] == 0 and upload["skipped"] and res["uses"] == []
    assert report["code"] == 0
    assert report["stdout"] == "lint-configs: All checks passed!\n"


@needs_bash
def test_action_with_unsplittable_args_is_a_usage_error(workspace, tmp_path):
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    res = run_action(workspace, temp, {"args": "'deploy/unclosed"})
    report = res["steps"][-1]
    assert report["code"] == 2
    assert "lint-configs action: error: args: cannot split" in report["stderr"]


def test_helper_splits_args_as_words_and_evaluates_nothing():
    env = {"LINT_CONFIGS_ARGS": "--select SGL1 'a b.yml' '; rm -rf /' \"$(id)\" `id` $HOME *.yml",
           "LINT_CONFIGS_ANNOTATIONS": "true", "RUNNER_TEMP": "/tmp/rt"}
    words = ["--select", "SGL1", "a b.yml", "; rm -rf /", "$(id)", "`id`", "$HOME", "*.yml"]
    assert github_action.command("report", env) == (["--format", "github", *words], None)
    assert github_action.command("report", {**env, "LINT_CONFIGS_ANNOTATIONS": "False"})[0][:2] == ["--format", "text"]
    assert github_action.command("sarif", env) == (
        [*words, "--format", "sarif", "--output-file", "/tmp/rt/lint-configs.sarif", "--exit-zero"],
        "/tmp/rt/lint-configs.sarif")
    # options go before a "--" that ends the user's options
    assert github_action.command("sarif", {"LINT_CONFIGS_ARGS": "-- -odd.yml", "RUNNER_TEMP": "/t"})[0] == [
        "--format", "sarif", "--output-file", "/t/lint-configs.sarif", "--exit-zero", "--", "-odd.yml"]
    with pytest.raises(github_action.InputError, match="annotations: expected true or false"):
        github_action.command("report", {**env, "LINT_CONFIGS_ANNOTATIONS": "yes please"})


# --- what zizmor checks ------------------------------------------------------------------------------

def test_action_inputs_reach_the_shell_only_through_env():
    action = _yaml(ACTION)
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == {"args", "sarif", "annotations"}
    for step in action["runs"]["steps"]:
        if "run" in step:
            assert "${{" not in step["run"], step["name"]
            for value in step.get("env", {}).values():
                assert re.fullmatch(r"\$\{\{ inputs\.[a-z-]+ \}\}", value)


def _uses(path: Path) -> list[tuple[str, str]]:
    """(reference, trailing comment) of every ``uses:`` line."""
    out = []
    for line in path.read_text("utf-8").splitlines():
        m = re.match(r"^\s*(?:-\s*)?uses:\s*(\S+)\s*(?:#\s*(.*))?$", line)
        if m:
            out.append((m.group(1), m.group(2) or ""))
    return out


def test_actions_are_pinned_by_commit_sha_with_their_version():
    refs = _uses(ACTION) + _uses(ROOT / "hooks" / "github-actions.yml")
    assert len(refs) == 5  # checkout, setup-python, cache, this action; upload-sarif in the action
    for ref, comment in refs:
        if ref.startswith("OWNER/lint-configs@"):
            # this action itself: no release tag exists, so the template names no version it could not
            # be; its comment says what to fill in
            assert ref == "OWNER/lint-configs@COMMIT_SHA" and not re.search(r"v\d+\.\d+", comment)
            assert "no release tag" in comment
            continue
        assert SHA_PIN.match(ref), ref
        assert re.fullmatch(r"v\d+\.\d+\.\d+", comment), (ref, comment)


def test_workflow_template_uses_the_action_with_minimal_permissions():
    wf = _yaml(ROOT / "hooks" / "github-actions.yml")
    assert wf["permissions"] == {}
    job = wf["jobs"]["lint-configs"]
    assert job["permissions"] == {"contents": "read", "security-events": "write", "actions": "read"}
    steps = job["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["persist-credentials"] is False
    ours = [s for s in steps if s.get("uses", "").startswith("OWNER/lint-configs@")]
    assert len(ours) == 1
    action_inputs = _yaml(ACTION)["inputs"]
    assert set(ours[0]["with"]) <= set(action_inputs)
    assert ours[0]["with"] == {"args": ".", "sarif": True, "annotations": True}
    assert not any("run" in s for s in steps), "the template runs lint-configs only through the action"
    # the args reach lint-configs as its parser expects them
    from linter.cli import build_parser

    args = build_parser().parse_args(github_action.command("sarif", {"LINT_CONFIGS_ARGS": ".", "RUNNER_TEMP": "/t"})[0])
    assert (args.format, args.exit_zero, args.paths) == ("sarif", True, ["."])


def test_the_workflow_keeps_the_result_cache_outside_the_checkout():
    steps = _yaml(ROOT / "hooks" / "github-actions.yml")["jobs"]["lint-configs"]["steps"]
    [cache] = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
    [ours] = [s for s in steps if s.get("uses", "").startswith("OWNER/lint-configs@")]
    assert steps.index(cache) < steps.index(ours)
    folder = cache["with"]["path"]
    assert folder.startswith("${{ runner.temp }}/") and ours["env"]["LINT_CONFIGS_CACHE_DIR"] == folder
    assert "github.sha" in cache["with"]["key"] and cache["with"]["restore-keys"]
