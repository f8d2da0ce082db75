"""The command line read without argparse (linter.cli.quick_parse): a plain command line gives exactly
what argparse gives (the parser of build_parser, from the same option table), and anything else is
left to argparse, which reads it or says what is wrong."""

from __future__ import annotations

import random

import pytest

from linter.cli import OPTIONS, build_parser, quick_parse

PARSER = build_parser()


def argparse_reads(argv: list[str]):
    try:
        return vars(PARSER.parse_args(argv))
    except SystemExit:
        return "error"


PLAIN = [
    [],
    ["."],
    ["--force-exclude", "docker-compose.yml", "deploy/values.yaml"],
    ["--format", "concise", "."],
    ["--output-format=json", "--exit-zero", "a", "b"],
    ["--select", "SGL1", "--select=SGL2,SGL3", "--ignore", "SGL101", "-j", "2", "src"],
    ["-q", "-o", "out.txt", "--color", "never", "--fail-on", "error", "."],
    ["--target-gpu", "H100", "--target-gpu", "B200", "--sglang-version", "0.5.23", "x.yaml"],
    ["--jobs", "auto", "--no-cache", "--cache-dir", "/tmp/c", "--root", ".", "--config", "pyproject.toml"],
    ["a.yml", "--fix", "--unsafe-fixes", "--exit-non-zero-on-fix"],
    ["--statistics", "--show-fixes", "--preview", "--extend-select", "SGL4", "--extend-exclude", "build"],
    ["--exclude", "vendor", "--baseline", "b.json", "--no-ignores", "-s", ""],
    ["-"],
    ["--stdin-filename", "compose.yaml"],
]


@pytest.mark.parametrize("argv", PLAIN)
def test_a_plain_command_line_is_read_as_argparse_reads_it(argv):
    got = quick_parse(argv)
    assert got is not None
    assert vars(got) == argparse_reads(argv)


LEFT = [
    ["a", "--fix", "b"],  # paths on both sides of an option: argparse's error
    ["--jobs", "0"],  # a value the option's type refuses
    ["--format", "yaml"],  # not a choice
    ["--fix=1"],  # a flag given a value
    ["--root"],  # a value missing
    ["--root", "--fix"],  # a value that reads as an option
    ["--files-from", "-"],  # a value that starts with "-" (argparse takes this one)
    ["-qs"], ["-j2"], ["-o=out.txt"],  # short options run together or joined
    ["--exlude", "x"],  # misspelt: argparse suggests --exclude
    ["--help"], ["-h"], ["--version"],
    ["-1"],
]


@pytest.mark.parametrize("argv", LEFT)
def test_anything_else_is_left_to_argparse(argv):
    assert quick_parse(argv) is None


def test_random_command_lines_agree_with_argparse():
    words = ["a", "b.yml", "-", "", "-x", "--", "=", "--fix=1", "--format=json", "--format=xml", "-j", "auto", "3",
             "0", "H100", "SGL1", "never", "error", "json"]
    for flags, _ in OPTIONS:
        words.extend(flags)
    rng = random.Random(37)
    quick = 0
    for _ in range(3000):
        argv = [rng.choice(words) for _ in range(rng.randint(0, 6))]
        if "--" in argv or any(w in ("--help", "-h", "--version") for w in argv):
            continue  # (main cuts at "--" first; help and version print and exit)
        got = quick_parse(argv)
        if got is not None:
            quick += 1
            assert vars(got) == argparse_reads(argv), argv
    assert quick > 300  # (the plain ones were read quickly)
