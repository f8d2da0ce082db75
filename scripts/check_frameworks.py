"""Compare ``linter/sglang/data/frameworks.json`` with the frameworks' own source.

    python scripts/check_frameworks.py --areal DIR --nemo-rl DIR --ms-swift DIR --llamafactory DIR --lm-eval DIR

Each DIR is a checkout of the framework at the commit its row follows (``git -C DIR checkout COMMIT``).
The lists a row copies from code are read again with Python's ``ast`` (nothing is imported or run) and
compared: AReaL's ``SGLangConfig`` fields and the defaults ``get_py_cmd`` passes, NeMo-RL's list of
``sglang_cfg`` keys copied into the server arguments, ms-swift's ``SglangArguments`` (option → field and
default), LLaMA-Factory's ``SGLangArguments`` and lm-eval's ``SGLangLM.__init__`` defaults. Prints each
difference and exits 1 when there is one (0 when the data agrees; frameworks not given are skipped).
Facts that are not lists in code (what is fixed, ignored or refused, and why) are read by hand: the
row's ``cite`` gives the file and line.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "linter" / "sglang" / "data" / "frameworks.json"
_MISSING = object()


def _class(tree: ast.Module, name: str) -> ast.ClassDef:
    return next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name)


def _fields(cls: ast.ClassDef) -> dict[str, object]:
    """Annotated class attributes and their literal defaults (a ``field(default=…)`` too)."""
    out = {}
    for s in cls.body:
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
            v = s.value
            if isinstance(v, ast.Call) and getattr(v.func, "id", "") == "field":
                v = next((k.value for k in v.keywords if k.arg == "default"), None)
            try:
                out[s.target.id] = ast.literal_eval(v) if v is not None else _MISSING
            except ValueError:
                out[s.target.id] = _MISSING
    return out


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def check_areal(root: Path, row: dict) -> list[str]:
    fields = _fields(_class(_parse(root / "areal/api/cli_args.py"), "SGLangConfig"))
    out = []
    if set(fields) != set(row["section_fields"]):
        out.append(f"areal section_fields: source {sorted(set(fields) - set(row['section_fields']))} more, "
                   f"{sorted(set(row['section_fields']) - set(fields))} fewer")
    passed = {k: v for k, v in fields.items() if v is not _MISSING and not (v is None or v is False or v == "" or v == [])
              and k not in ("model_path",) and k not in row.get("section_dropped", {})}
    if passed != row["section_defaults"]:
        out.append(f"areal section_defaults differ: source {passed}")
    return out


def check_nemo_rl(root: Path, row: dict) -> list[str]:
    tree = _parse(root / "nemo_rl/models/generation/sglang/sglang_worker.py")
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_compute_server_args")
    loop = next(n for n in ast.walk(fn) if isinstance(n, ast.For) and isinstance(n.iter, ast.List))
    keys = [ast.literal_eval(e) for e in loop.iter.elts]
    return [] if sorted(keys) == sorted(row["section_only"]) else [f"nemo-rl section_only: source {keys}"]


def check_ms_swift(root: Path, row: dict) -> list[str]:
    tree = _parse(root / "swift/arguments/infer_args.py")
    cls = _class(tree, "SglangArguments")
    defaults = _fields(cls)
    fn = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "get_sglang_engine_kwargs")
    mapping = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(v, ast.Attribute):
                    mapping[v.attr] = k.value
    rules = {r["from"][0]: r for r in row["fields"] if r.get("from") and r["from"][0].startswith("sglang_")}
    out = []
    for option, field in mapping.items():
        rule = rules.get(option)
        if rule is None or rule["field"] != field:
            out.append(f"ms-swift: --{option} passes {field}, not in the row")
        elif rule.get("default", _MISSING) != defaults.get(option, _MISSING):
            out.append(f"ms-swift: --{option} defaults to {defaults.get(option)!r}, the row says {rule.get('default')!r}")
    out += [f"ms-swift: the row reads --{o}, which the source does not pass" for o in set(rules) - set(mapping)]
    return out


def check_llamafactory(root: Path, row: dict) -> list[str]:
    fields = _fields(_class(_parse(root / "src/llamafactory/hparams/model_args.py"), "SGLangArguments"))
    out = []
    if set(fields) != set(row["fields_accepted"]):
        out.append(f"llamafactory fields_accepted: source {sorted(fields)}")
    for r in row["fields"]:
        src = (r.get("from") or [""])[0]
        if src in fields and r.get("default", _MISSING) != fields[src]:
            out.append(f"llamafactory: {src} defaults to {fields[src]!r}, the row says {r.get('default')!r}")
    return out


def check_lm_eval(root: Path, row: dict) -> list[str]:
    tree = _parse(root / "lm_eval/models/sglang_causallms.py")
    init = next(n for n in _class(tree, "SGLangLM").body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    args = init.args
    defaults = dict(zip([a.arg for a in args.args[-len(args.defaults):]], args.defaults))
    out = []
    for r in row["fields"]:
        src = (r.get("from") or [""])[0].removeprefix("model_args.")
        if src in defaults and "default" in r and ast.literal_eval(defaults[src]) != r["default"]:
            out.append(f"lm-eval: {src} defaults to {ast.literal_eval(defaults[src])!r}, the row says {r['default']!r}")
    return out


CHECKS = {"areal": check_areal, "nemo-rl": check_nemo_rl, "ms-swift": check_ms_swift,
          "llamafactory": check_llamafactory, "lm-eval": check_lm_eval}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in CHECKS:
        ap.add_argument(f"--{name}", type=Path, metavar="DIR", help=f"a checkout of {name} at the row's commit")
    a = ap.parse_args(argv)
    rows = json.loads(DATA.read_text(encoding="utf-8"))["frameworks"]
    problems, checked = [], []
    for name, check in CHECKS.items():
        root = getattr(a, name.replace("-", "_"))
        if root is None:
            continue
        checked.append(name)
        problems += check(root, rows[name])
    for p in problems:
        print(p)
    print(f"checked {', '.join(checked) or 'nothing'}: {len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
