"""Fill in (or check) the derived figures of ``linter/sglang/data/model_sizes.json``.

Each entry of the table holds what was read from the model's public files — the ``config.json``
keys the parameter count needs (``config``, from ``config_source``), the storage types when the
config does not state them (``dtypes_override``) and the model card's total parameter count
(``card``) — and the figures derived from them by :mod:`linter.sglang.weights`: ``params`` (by
part, as SGLang shards them), ``dtypes`` (storage per part) and ``kv`` (the KV-cache geometry).

The count is checked against the model card: a derived total more than 4% away from the card's
stops the script (a transcription error in ``config``), as does a count that needs a key the config
lacks.

    python scripts/generate_model_sizes.py          # rewrite the derived figures
    python scripts/generate_model_sizes.py --check  # exit 1 when the file is not what it would write
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from linter.sglang.weights import checkpoint_dtypes, count_parameters  # noqa: E402

DATA = ROOT / "linter" / "sglang" / "data" / "model_sizes.json"
TOLERANCE = 0.04

PROVENANCE = (
    "Weights of well-known checkpoints, by part as SGLang shards them (linter/sglang/weights.py). For each entry: "
    "'config' holds the keys of the repository's config.json (config_source) the count needs, 'card' the model "
    "card's total parameter count; 'params', 'dtypes' and 'kv' are derived by scripts/generate_model_sizes.py "
    "(which stops when the derived total is more than 4% from the card's). Multi-token-prediction layers are "
    "not counted (SGLang loads them only for speculative decoding); block and channel scales are not counted "
    "(a lower bound). 'fp8_variant' names the FP8 checkpoint of the same model, for 'what would fit'.")


def derive(entry: dict) -> dict:
    """The entry with ``params``, ``dtypes`` and ``kv`` derived from its inputs. Raises SystemExit on a
    count that disagrees with the card or a config the count cannot read."""
    cfg = dict(entry["config"])
    cfg["architectures"] = [entry["architecture"]]
    try:
        params, kv = count_parameters(cfg, entry["architecture"])
    except (KeyError, ValueError) as exc:
        raise SystemExit(f"{entry['repos'][0]}: cannot count parameters: {exc}")
    dtypes = checkpoint_dtypes({k: v for k, v in cfg.items() if v is not None}) or {}
    dtypes.update(entry.get("dtypes_override") or {})
    if set(dtypes) != set(params):
        raise SystemExit(f"{entry['repos'][0]}: storage type of {sorted(set(params) - set(dtypes))} unknown")
    total = sum(params.values())
    card = float(entry["card"]["total_params"])
    if abs(total - card) > TOLERANCE * card:
        raise SystemExit(f"{entry['repos'][0]}: {total / 1e9:.2f}B parameters counted from config.json, "
                         f"the model card says {card / 1e9:.2f}B")
    out = {k: v for k, v in entry.items() if k not in ("params", "dtypes", "kv")}
    out["params"] = params
    out["dtypes"] = dtypes
    out["kv"] = dataclasses.asdict(kv) if kv is not None else None
    return out


def render(data: dict) -> str:
    lines = ["{", f' "provenance": {json.dumps(PROVENANCE)},', ' "models": [']
    entries = [derive(e) for e in data["models"]]
    for i, e in enumerate(entries):
        body = json.dumps(e, separators=(", ", ": "))
        lines.append("  " + body + ("," if i + 1 < len(entries) else ""))
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="compare only; exit 1 when the file differs")
    args = p.parse_args(argv)
    data = json.loads(DATA.read_text())
    text = render(data)
    if args.check:
        if DATA.read_text() != text:
            print(f"{DATA.relative_to(ROOT)} is not what scripts/generate_model_sizes.py writes", file=sys.stderr)
            return 1
        print(f"{DATA.relative_to(ROOT)}: {len(data['models'])} entries reproduced")
        return 0
    DATA.write_text(text)
    for e in json.loads(text)["models"]:
        total = sum(e["params"].values())
        print(f"{e['repos'][0]:48s} {total / 1e9:9.2f}B  card {e['card']['total_params'] / 1e9:9.2f}B")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
