"""Framework command lines: what ``swift infer …``, ``ns eval …``, ``llamafactory-cli api …``,
``lm_eval --model sglang …``, ``python -m skyrl_train.entrypoints.main_base …`` and
``python3 [-m areal.infra.launcher.local] SCRIPT.py --config X.yaml …`` start.

The recognition step (:mod:`linter.recognize`) hands every carrier — a shell script, a Markdown fence,
a compose command, a Python ``subprocess`` call — the same launch for such a command, with the
framework's own words as its arguments; once a file's launches are known, this step reads those
words as the framework does (:func:`linter.sglang.frameworks.parse_cli`), reads the config file the
command names (a YAML beside it, in the repository), and replaces the command with the SGLang
launches it makes — or with none, when it picks another engine (an engine chosen at run time is noted
for ``--explain``). A value written in the config file keeps its origin there, so a finding and its
fix land in the file that holds it; the config then is a related file of the command's.
"""

from __future__ import annotations

from linter import records
from linter.launch import Extraction, KwArg, Launch
from linter.workspace import Workspace


def resolve_framework_commands(extraction: Extraction, ws: Workspace | None) -> None:
    """Replace each framework command launch of ``extraction`` (in place) with the SGLang launches it
    makes (see the module docstring)."""
    from linter.sglang.frameworks import CONFIG_COMMAND, by_program

    if not any(launch.program == CONFIG_COMMAND or (by_program(launch.program) is not None
                                                    and launch.framework is None) for launch in extraction.launches):
        return
    out: list[Launch] = []
    for launch in extraction.launches:
        fw = by_program(launch.program)
        if launch.program == CONFIG_COMMAND:
            out.extend(_config_command(launch, ws, extraction))
        elif fw is not None and launch.framework is None and launch.style == "cli":
            out.extend(_command(fw, launch, ws, extraction))
        else:
            out.append(launch)
    extraction.launches = out


def _with_parents(settings: dict) -> dict:
    """Hydra overrides name nested keys (``sglang.attention_backend``): their mappings exist."""
    from linter.sglang.frameworks import MAPPING

    out = dict(settings)
    for key, kw in settings.items():
        parts = key.split(".")
        for n in range(1, len(parts)):
            parent = ".".join(parts[:n])
            if parent not in out:
                out[parent] = KwArg(parent, MAPPING, kw.where, name_span=kw.name_span)
    return out


def _read(path_tok, launch: Launch, ws: Workspace | None, extraction: Extraction, overrides: dict) -> dict:
    """The settings of the config file a command names (joined to the file's related files) with the
    command's ``overrides`` applied before interpolation (:func:`read_config`); the overrides alone
    when no such file is read."""
    from linter.extract.framework_config import find_config, read_config

    if path_tok is None or ws is None:
        return dict(overrides)
    path, _tok = path_tok
    source = find_config(path, launch, ws)
    if source is None:
        return dict(overrides)
    if source not in extraction.related:
        extraction.related.append(source)
    from linter.extract import yamltree

    with yamltree.walk(source):
        if source.path.suffix == ".json":
            return dict(overrides)
        return read_config(source, ws, Extraction(), overrides=overrides)


def _launches(names, settings: dict, launch: Launch) -> list[Launch]:
    from linter.extract.framework_config import framework_launches
    from linter.recognize import note_passed_over

    made, passed = framework_launches(_with_parents(settings), launch.source, launch.span, names=names,
                                      key_prefix=(launch.key + ":") if launch.key else "", in_config=False)
    for p in passed:
        note_passed_over(p.span, p.message)
    return [records.replace(m, image=m.image if m.image is not None else launch.image,
                                gpu_decls=list(launch.gpu_decls), workdir=launch.workdir, mounts=launch.mounts,
                                gpu_counts=m.gpu_counts or list(launch.gpu_counts))
            for m in made]


def _value_keys(fw) -> frozenset[str]:
    keys = {s for r in fw.fields for s in r.sources}
    if fw.selector:
        keys.add(fw.selector[0])
    if fw.server_args:
        keys.add(fw.server_args)
    for extra in ("server_address", "server_nodes", "server_container", "config", "cluster", "output_dir"):
        keys.add(extra)
    if fw.judge:
        keys |= {fw.judge + k for k in list(keys)}
    return frozenset(keys)


def _command(fw, launch: Launch, ws: Workspace | None, extraction: Extraction) -> list[Launch]:
    from linter.recognize import note_passed_over
    from linter.sglang.frameworks import parse_cli

    words = launch.args
    positional, settings, _unread = parse_cli(fw, words, _value_keys(fw))
    subs = fw.cli.get("subcommands")
    config = None
    if subs:
        sub = positional[0] if positional else None
        if sub not in subs:
            why = fw.cli.get("passed_over", {}).get(sub or "")
            if why is not None and fw.selector and fw.selector[0] in settings:
                note_passed_over(launch.span, f"not an SGLang launch: {why}")
            return []
        if fw.cli.get("config_positional") and len(positional) > 1 and \
                positional[1].endswith((".yaml", ".yml", ".json")):
            tok = next((w for w in words if w.raw == positional[1]), None)
            config = (positional[1], tok)
    elif fw.cli.get("config_option"):
        from linter.extract.framework_config import config_path

        config = config_path(words, fw.cli["config_option"])
    return _launches([fw.name], _read(config, launch, ws, extraction, settings), launch)


def _config_command(launch: Launch, ws: Workspace | None, extraction: Extraction) -> list[Launch]:
    """``python SCRIPT.py --config FILE [overrides]``: the framework whose config ``FILE`` is (AReaL,
    NeMo-RL) with the overrides on top; nothing when the file is neither and the overrides do not say."""
    from linter.extract.framework_config import config_path
    from linter.sglang.frameworks import parse_cli

    words = launch.args
    _positional, settings, _unread = parse_cli(None, words)
    settings.pop("config", None)
    return _launches(("areal", "nemo-rl"), _read(config_path(words), launch, ws, extraction, settings), launch)
