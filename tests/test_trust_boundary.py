"""The run's root (linter/boundary.py): what a linted file names outside the repository is never read,
quoted or written, and a link out of the tree is not followed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import FOLDED_H100, chdir, write_tree

from linter.boundary import find_root
from linter.cli import main

SECRET = "hunter2-do-not-print"
BAD_ENV = "# " + SECRET + "\nATTENTION_BACKEND=fa4\n"

COMPOSE_WITH = """\
# lint-configs: target-gpu=H100
services:
  sglang:
    image: lmsysorg/sglang:v0.5.23-cu129
    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3
{extra}"""


def repo_and_outside(tmp_path: Path, files: dict, outside: dict) -> tuple[Path, Path]:
    repo, out = tmp_path / "repo", tmp_path / "outside"
    (repo / ".git").mkdir(parents=True)
    write_tree(repo, files)
    write_tree(out, outside)
    return repo, out


def lint(repo: Path, capsys, *args: str, cwd: Path | None = None) -> tuple[int, list[dict], str]:
    capsys.readouterr()
    with chdir(cwd or repo):
        code = main(["--format", "json", *args])
    got = capsys.readouterr()
    return code, json.loads(got.out), got.err


def codes(diags: list[dict]) -> list[tuple[str, int, str]]:
    return sorted((d["path"], d["line"], d["code"]) for d in diags)


# --- the root ---------------------------------------------------------------------------------------

def test_the_root_is_the_repository_holding_the_paths(tmp_path):
    repo, _ = repo_and_outside(tmp_path, {"deploy/compose.yaml": "x"}, {})
    real = Path(os.path.realpath(repo))
    assert find_root([Path("deploy")], repo) == real
    assert find_root([Path("compose.yaml")], repo / "deploy") == real  # from a sub-folder too
    assert find_root([repo / "deploy"], tmp_path / "outside") == real  # wherever the run starts
    # no repository: the current folder when it holds the paths, else the folder they share
    plain = tmp_path / "plain"
    (plain / "a").mkdir(parents=True)
    assert find_root([Path("a")], plain) == Path(os.path.realpath(plain))
    assert find_root([plain / "a"], tmp_path / "outside") == Path(os.path.realpath(plain / "a"))
    assert find_root([Path(".")], plain, given=Path("a")) == Path(os.path.realpath(plain / "a"))


def test_a_worktree_git_file_marks_a_repository(tmp_path):
    (tmp_path / "wt").mkdir()
    (tmp_path / "wt" / ".git").write_text("gitdir: /elsewhere/.git/worktrees/wt\n")
    assert find_root([Path(".")], tmp_path / "wt") == Path(os.path.realpath(tmp_path / "wt"))


# --- reads refused ------------------------------------------------------------------------------------

@pytest.mark.parametrize("reference", ["../outside/prod.env", "ABSOLUTE"])
def test_an_env_file_outside_the_root_is_not_read_and_is_reported(tmp_path, capsys, reference):
    env_text = BAD_ENV
    repo, out = repo_and_outside(tmp_path, {}, {"prod.env": env_text})
    ref = str(out / "prod.env") if reference == "ABSOLUTE" else reference
    write_tree(repo, {"compose.yaml": COMPOSE_WITH.format(extra=f"    env_file: {ref}\n")})
    code, diags, err = lint(repo, capsys, ".")
    assert codes(diags) == [("compose.yaml", 6, "SGL005")]
    d = diags[0]
    assert d["column"] == 15 and "outside the repository root: not read" in d["message"]
    assert SECRET not in json.dumps(diags) + err
    code, diags, _ = lint(repo, capsys, "--allow-outside-root", ".")
    assert [d["code"] for d in diags] == []  # read when the user widens the root


def test_a_compose_include_outside_the_root_is_not_read_nor_fixed(tmp_path, capsys):
    repo, out = repo_and_outside(tmp_path, {"compose.yaml": "include:\n  - ../outside/compose.yaml\nservices:\n"
                                                            "  web:\n    image: lmsysorg/sglang:v0.5.23\n"},
                                 {"compose.yaml": FOLDED_H100.replace("# lint-configs", f"# {SECRET}\n# lint-configs")})
    before = (out / "compose.yaml").read_bytes()
    code, diags, err = lint(repo, capsys, ".")
    assert codes(diags) == [("compose.yaml", 2, "SGL005")]
    assert diags[0]["column"] == 5 and "../outside/compose.yaml" in diags[0]["message"]
    assert SECRET not in json.dumps(diags) + err
    # --allow-outside-root reads it (its launch is reported), but --fix never writes outside the root
    code, diags, err = lint(repo, capsys, "--allow-outside-root", ".")
    assert [d["code"] for d in diags] == ["SGL101"]
    capsys.readouterr()
    with chdir(repo):
        code = main(["--allow-outside-root", "--fix", "."])
    err = capsys.readouterr().err
    assert (out / "compose.yaml").read_bytes() == before
    assert "outside the repository root" in err and code == 1


def test_a_config_file_outside_the_root_is_never_quoted(tmp_path, capsys):
    secret_yaml = f"attention-backend: fa4\n{SECRET}: 1\nnot-an-option-{SECRET}: true\n"
    repo, out = repo_and_outside(tmp_path, {"serve.sh": (
        "#!/bin/bash\n# lint-configs: target-gpu=H100\n"
        "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --config ../outside/cfg.yaml\n")},
        {"cfg.yaml": secret_yaml})
    for fmt in ("text", "json", "github", "concise"):
        capsys.readouterr()
        with chdir(repo):
            main(["--format", fmt, "."])
        got = capsys.readouterr()
        assert SECRET not in got.out + got.err, fmt
        assert "SGL005" in got.out, fmt
    code, diags, _ = lint(repo, capsys, ".")
    d = next(d for d in diags if d["code"] == "SGL005")
    assert (d["line"], d["column"], d["end_column"]) == (3, 79, 98)  # at the --config path
    # the same file inside the repository is read (and its unknown keys reported)
    write_tree(repo, {"cfg.yaml": secret_yaml, "serve.sh": (
        "#!/bin/bash\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --config cfg.yaml\n")})
    code, diags, _ = lint(repo, capsys, "serve.sh")
    assert "SGL005" not in [d["code"] for d in diags] and "SGL201" in [d["code"] for d in diags]


def test_an_absolute_config_or_model_path_in_a_launch_is_not_read_and_not_reported(tmp_path, capsys):
    repo, out = repo_and_outside(tmp_path, {}, {"cfg.yaml": f"{SECRET}: 1\n",
                                                "model/config.json": '{"architectures": ["DeepseekV3ForCausalLM"]}'})
    write_tree(repo, {"serve.sh": (
        "#!/bin/bash\n# lint-configs: target-gpu=H100\n"
        f"python3 -m sglang.launch_server --model-path {out}/model --config {out}/cfg.yaml "
        "--attention-backend fa4 --enable-deterministic-inference\n")})
    code, diags, err = lint(repo, capsys, ".")
    # the model's config.json on this machine is not read: the architecture is unknown, not DeepseekV3
    assert [d["code"] for d in diags] == ["SGL901"]
    assert SECRET not in json.dumps(diags) + err


def test_a_python_import_from_outside_the_root_is_refused(tmp_path, capsys):
    repo, out = repo_and_outside(tmp_path, {"pkg/__init__.py": "", "pkg/serve.py": (
        "import subprocess\nfrom .shared import ARGS\n"
        "subprocess.Popen(['python3', '-m', 'sglang.launch_server', *ARGS])\n")},
        {"shared.py": f"# {SECRET}\nARGS = ['--model-path', 'x', '--bogus']\n"})
    (repo / "pkg" / "shared.py").symlink_to(out / "shared.py")
    code, diags, err = lint(repo, capsys, ".")
    # the outside module's values were not read; the finding is at the import that names it (was 1:1)
    assert codes(diags) == [("pkg/serve.py", 2, "SGL005")]
    assert "pkg/shared.py is a symbolic link to a file outside the repository root" in diags[0]["message"]
    assert SECRET not in json.dumps(diags) + err
    assert "pkg/shared.py: skipped: a symbolic link" in err
    code, diags, err = lint(repo, capsys, "--allow-outside-root", ".")
    assert [d["code"] for d in diags] == ["SGL201"] and "skipped" not in err



@pytest.mark.parametrize("main_py, line", [
    # the file names no SGLang: it is looked at only to learn whether its imports launch
    ("import subprocess\nimport os\nfrom ext import CMD\nsubprocess.run(CMD)\n", 3),
    ("import os\n\n\nfrom ext import serve\nserve()\n", 4),
    ("import os, subprocess\nimport ext\nsubprocess.run(ext.CMD)\n", 2),
])
def test_a_refused_import_of_a_file_that_names_no_sglang_is_reported_at_the_import(tmp_path, capsys, main_py, line):
    """The import of a module linked out of the root is SGL005 at the import, also when the importing
    file does not mention SGLang (fresh review rev38 e8: at 1:1)."""
    repo, out = repo_and_outside(tmp_path, {"main.py": main_py}, {
        "ext.py": f"# {SECRET}\nimport subprocess\nCMD = ['python3', '-m', 'sglang.launch_server']\n"
                  "def serve():\n    subprocess.run(CMD)\n"})
    (repo / "ext.py").symlink_to(out / "ext.py")
    code, diags, err = lint(repo, capsys, "main.py")
    assert codes(diags) == [("main.py", line, "SGL005")]
    assert diags[0]["column"] == 1
    assert SECRET not in json.dumps(diags) + err

def test_a_symlinked_values_file_outside_the_root_is_reported(tmp_path, capsys):
    repo, out = repo_and_outside(tmp_path, {
        "chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n",
        "chart/templates/deploy.yaml": (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: s\n          image: lmsysorg/sglang:v0.5.23\n"
            "          command: [python3, -m, sglang.launch_server, --model-path, {{ .Values.model }}]\n")},
        {"values.yaml": f"model: {SECRET}\n"})
    (repo / "chart" / "values.yaml").symlink_to(out / "values.yaml")
    code, diags, err = lint(repo, capsys, ".")
    assert ("chart/templates/deploy.yaml", 1, "SGL005") in codes(diags)
    assert SECRET not in json.dumps(diags) + err


# --- links and writes ---------------------------------------------------------------------------------

def test_a_walked_link_out_of_the_tree_is_neither_read_nor_written(tmp_path, capsys):
    repo, out = repo_and_outside(tmp_path, {}, {"compose.yaml": FOLDED_H100})
    (repo / "compose.yaml").symlink_to(out / "compose.yaml")
    code, diags, err = lint(repo, capsys, ".")
    assert diags == [] and "compose.yaml: skipped: a symbolic link to a file outside the repository root" in err
    with chdir(repo):
        main(["--fix", "."])
    assert (out / "compose.yaml").read_text() == FOLDED_H100
    assert (repo / "compose.yaml").is_symlink()


def test_a_link_inside_the_tree_is_fixed_in_its_target_and_stays_a_link(tmp_path, capsys):
    repo, _ = repo_and_outside(tmp_path, {"real/compose.yaml": FOLDED_H100}, {})
    (repo / "compose.yaml").symlink_to(repo / "real" / "compose.yaml")
    with chdir(repo):
        code = main(["--fix", "compose.yaml"])
    assert code == 0
    assert "--attention-backend fa3" in (repo / "real" / "compose.yaml").read_text()
    assert (repo / "compose.yaml").is_symlink()


def test_a_named_file_outside_the_root_is_read_but_never_written(tmp_path, capsys):
    repo, out = repo_and_outside(tmp_path, {}, {"compose.yaml": FOLDED_H100})
    code, diags, err = lint(repo, capsys, "--root", ".", str(out / "compose.yaml"))
    assert [d["code"] for d in diags] == ["SGL101"]  # the user named it: read
    capsys.readouterr()
    with chdir(repo):
        code = main(["--root", ".", "--fix", str(out / "compose.yaml")])
    err = capsys.readouterr().err
    assert (out / "compose.yaml").read_text() == FOLDED_H100 and "outside the repository root" in err


def test_the_configuration_search_stops_at_the_root(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text('[tool.lint-configs]\ntarget-gpus = ["B200"]\n')
    repo, _ = repo_and_outside(tmp_path, {"compose.yaml": FOLDED_H100.replace("# lint-configs: target-gpu=H100\n",
                                                                              "")}, {})
    code, diags, _ = lint(repo, capsys, ".")
    assert [d["code"] for d in diags] == ["SGL901"]  # B200 from above the repository is not the target


def test_a_configuration_that_links_out_of_the_root_is_not_read(tmp_path, capsys):
    repo, out = repo_and_outside(tmp_path, {"compose.yaml": FOLDED_H100}, {"lc.toml": 'ignore = ["SGL101"]\n'})
    (repo / ".lint-configs.toml").symlink_to(out / "lc.toml")
    code, diags, _ = lint(repo, capsys, ".")
    assert [d["code"] for d in diags] == ["SGL101"]


# --- standard input, unreadable folders, file names after -- -----------------------------------------

def test_standard_input_is_read_only_up_to_the_file_limit(tmp_path, capsys, monkeypatch):
    from linter import limits

    class Endless:
        read_bytes = 0

        def read(self, n=-1):
            assert n > 0  # never "everything"
            Endless.read_bytes += n
            return b"x" * n

    class Stdin:
        buffer = Endless()

    monkeypatch.setattr("sys.stdin", Stdin())
    with chdir(tmp_path):
        code = main(["--stdin-filename", "serve.sh", "-"])
    assert code == 2 and "standard input is larger than" in capsys.readouterr().err
    assert Endless.read_bytes <= limits.MAX_FILE_BYTES + 1


def test_a_folder_that_cannot_be_read_exits_2(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"a/compose.yaml": FOLDED_H100.replace("fa4", "fa3"), "locked/x.sh": "echo\n"})
    real = os.scandir

    def scandir(path):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr("linter.discover.os.scandir", scandir)
    capsys.readouterr()
    with chdir(tmp_path):
        code = main(["--exit-zero", "."])
    err = capsys.readouterr().err
    assert code == 2 and "locked: cannot read the folder (Permission denied); nothing in it was checked" in err


@pytest.mark.parametrize("name", ["--exit-zero", "--output-file=compose.yaml", "-", "--fix"])
def test_after_a_double_dash_every_argument_is_a_file(tmp_path, capsys, name):
    launch = "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --bogus 1"
    text = f"services:\n  s:\n    command: {launch}\n" if name.endswith(".yaml") else f"#!/bin/sh\n{launch}\n"
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100, name: text})
    with chdir(tmp_path):
        code = main(["--format", "json", "--", name, "compose.yaml"])
    diags = json.loads(capsys.readouterr().out)
    line = 3 if name.endswith(".yaml") else 2
    assert code == 1 and codes(diags) == sorted([(name, line, "SGL201"), ("compose.yaml", 9, "SGL101")])
    assert (tmp_path / "compose.yaml").read_text() == FOLDED_H100


@pytest.mark.parametrize(("argv", "why"), [
    (["--fail-on", "error", "a.sh"], "no '--' among the arguments"),
    (["--exit-zero", "--", "a.sh"], "also the name of a file"),
])
def test_the_hook_refuses_arguments_it_cannot_split(tmp_path, capsys, argv, why):
    from linter.hook import main as hook

    write_tree(tmp_path, {"a.sh": "echo\n", "--exit-zero": "echo\n"})
    with chdir(tmp_path):
        assert hook(argv) == 2
    assert why in capsys.readouterr().err


def test_the_hook_lints_what_follows_the_double_dash(tmp_path, capsys):
    from linter.hook import main as hook

    write_tree(tmp_path, {"compose.yaml": FOLDED_H100, "--exit-zero": "echo sglang\n"})
    with chdir(tmp_path):
        code = hook(["--fix", "--", "--exit-zero", "compose.yaml"])
    assert code == 0 and "--attention-backend fa3" in (tmp_path / "compose.yaml").read_text()


# --- links named on the command line, and the configuration's own references (review) ----------------

def test_a_named_link_out_of_the_tree_neither_widens_the_root_nor_is_read_or_written(tmp_path, capsys):
    """`lint-configs $(git ls-files)` names committed links: one pointing out of the repository must not
    pull the root up to the folder both share, nor be read or fixed through."""
    victim = FOLDED_H100.replace("# lint-configs", "# " + SECRET + "\n# lint-configs")
    repo, out = repo_and_outside(tmp_path, {"compose.yaml": COMPOSE_WITH.format(extra="    env_file: ../outside/x.env\n")},
                                 {"victim.yml": victim, "x.env": BAD_ENV})
    os.symlink(out / "victim.yml", repo / "docker-compose.yml")
    assert find_root([Path("compose.yaml"), Path("docker-compose.yml")], repo) == Path(os.path.realpath(repo))
    code, diags, err = lint(repo, capsys, "compose.yaml", "docker-compose.yml")
    assert codes(diags) == [("compose.yaml", 6, "SGL005")]
    assert "docker-compose.yml: skipped: a symbolic link to a file outside the repository root" in err
    assert SECRET not in json.dumps(diags) + err
    with chdir(repo):
        main(["--fix", "compose.yaml", "docker-compose.yml"])
    assert (out / "victim.yml").read_text() == victim


def test_a_committed_configuration_cannot_point_the_baseline_out_of_the_tree(tmp_path, capsys):
    repo, out = repo_and_outside(tmp_path, {".lint-configs.toml": 'baseline = "../outside/b.json"\n',
                                            "a.sh": "echo\n"},
                                 {"b.json": '{"version": "' + SECRET + '"}'})
    capsys.readouterr()
    with chdir(repo):
        code = main(["."])
    err = capsys.readouterr().err
    assert code == 2 and "outside the repository root: not read" in err and SECRET not in err


def test_a_baseline_is_read_up_to_the_file_size_limit(tmp_path, capsys):
    from linter.baseline import BaselineError, load

    (tmp_path / "big.json").write_text('{"version": 1, "x": "' + "a" * (9 << 20) + '"}')
    with pytest.raises(BaselineError, match="larger than the 8388608 bytes"):
        load(tmp_path / "big.json")
    if os.path.exists("/dev/zero"):
        with pytest.raises(BaselineError, match="not a regular file"):
            load(Path("/dev/zero"))


def test_the_findings_do_not_depend_on_the_working_directory(tmp_path, capsys):
    """Run from outside the repository, a Hugging Face id is not looked up under the working directory
    (which is outside the root): no SGL005 for ``deepseek-ai/DeepSeek-V3/config.json``, the same
    findings as from inside."""
    write_tree(tmp_path, {"t/c/.git/HEAD": "", "t/c/compose.yaml": FOLDED_H100})
    got = []
    for where, target in ((tmp_path / "t" / "c", "."), (tmp_path, "t/c")):
        with chdir(where):
            main(["--output-format", "json", "--no-cache", target])
        got.append(sorted((d["code"], d["line"]) for d in json.loads(capsys.readouterr().out)))
    assert got[0] == got[1] and [c for c, _ in got[0]] == ["SGL101"]


@pytest.mark.parametrize("asked, missing", [
    ("gone/deeper/config.json", True),  # below a missing folder: known without looking
    ("here/config.json", True),
    ("here/file", False),
    ("here/file/below", False),  # below a file: not "missing" (ENOTDIR), only not known
    ("dangling/config.json", True),  # through a link whose target is missing
    ("here", False),
])
def test_the_root_check_remembers_what_it_found_missing(tmp_path, asked, missing):
    """Boundary.real finds a path's real location as os.path.realpath does, and remembers the missing
    folders on the way (no lstat of anything below them): known_missing answers from that alone."""
    from linter.boundary import Boundary

    write_tree(tmp_path, {"here/file": "x"})
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    b = Boundary(tmp_path)
    path = str(tmp_path / asked)
    assert b.real(path) == os.path.realpath(path)
    assert b.known_missing(path) is missing
    assert b.known_missing(str(tmp_path / "here")) is False


@pytest.mark.parametrize("line", [
    "from shared import ARGS",
    "import shared\nARGS = shared.ARGS",
    "from shared import ARGS as A\nARGS = A",
])
def test_a_refused_python_import_is_reported_at_the_import(tmp_path, capsys, line):
    """An import of a module that is a link out of the root: SGL005 at the import statement that names
    it, not at the top of the file (fresh review of issue 35, d14)."""
    text = f"import subprocess\n{line}\nsubprocess.Popen(['python3', '-m', 'sglang.launch_server', *ARGS])\n"
    repo, out = repo_and_outside(tmp_path, {"serve.py": text}, {"shared.py": "ARGS = ['--bogus']\n"})
    (repo / "shared.py").symlink_to(out / "shared.py")
    code, diags, err = lint(repo, capsys, "serve.py")
    assert codes(diags) == [("serve.py", 2, "SGL005")]
