"""Values SGLang checks right after its parser accepted them, on the way to starting the server.

The checks of a release are the table's ``startup_checks`` (``scripts/generate_sglang_options.py``
``find_startup_checks`` reads them from each wheel with ``ast``, each with the ``file:line`` where
SGLang makes it):

* ``log-level``: ``logging.basicConfig(level=getattr(logging, server_args.log_level.upper()))`` in
  ``configure_logger`` (0.4.0 ``sglang/srt/utils.py:653``, called first by the server's launch,
  0.4.0 ``server.py:429``; 0.5.20+ also in ``prepare_server_args``). The value passes when
  ``logging`` has the upper-cased name as an integer level (``debug``, ``Info``, ``warn``,
  ``fatal`` …); otherwise ``getattr`` raises ``AttributeError`` (``verbose``) or ``basicConfig``
  refuses what it got (``basic_format`` names a string: ``ValueError: Unknown level``). The linter asks
  CPython's own ``logging`` module, as SGLang does.
* ``json``: ``json.loads`` of the option's string when the model config is built (0.4.0
  ``sglang/srt/configs/model_config.py:51``); a value that is not JSON raises ``JSONDecodeError``.
  Only where the option is a string for the parser (a release that gives it ``type=json.loads``
  rejects it at parse time: SGL209).

A value the linter cannot see is not judged.
"""

from __future__ import annotations

import json

from linter.records import dataclass
from linter.sglang.options import OptionTable, ParsedArgs, Setting


@dataclass(frozen=True)
class StartupFailure:
    """``setting`` is the occurrence SGLang reads, ``message`` its error, ``where`` the check's source."""

    setting: Setting
    message: str
    where: str


def log_level_error(value: str) -> str | None:
    """The error ``logging.basicConfig(level=getattr(logging, value.upper()))`` raises, or None."""
    import logging  # (only a launch that sets --log-level pays for it: 6 ms at start-up otherwise)

    name = value.upper()
    level = getattr(logging, name, None)
    if level is None or name.startswith("__"):
        return f"AttributeError: module 'logging' has no attribute {name!r}"
    if isinstance(level, bool) or not isinstance(level, (int, str)):
        return "TypeError: Level not an integer or a valid string"
    if isinstance(level, str) and not isinstance(logging.getLevelName(level), int):
        return f"ValueError: Unknown level: {level!r}"
    return None


def startup_failures(parsed: ParsedArgs, table: OptionTable) -> list[StartupFailure]:
    """Each start-up check of ``table``'s release that the launch's values fail (values the parser
    rejected are not judged again)."""
    out = []
    for check in table.startup_checks:
        dest = check.get("dest")
        s = parsed.get(dest)
        if s is None or not isinstance(s.value, (str, list)) or not parsed.judged(dest):
            continue
        where = "; ".join(check.get("sources") or ())
        if isinstance(s.value, list):  # ``--log-level=--``: argparse stores an empty list
            error = "AttributeError: 'list' object has no attribute 'upper'" if check.get("kind") == "log-level" else None
        elif check.get("kind") == "log-level":
            error = log_level_error(s.value)
        elif check.get("kind") == "json":
            opt = table.by_dest.get(dest)
            if opt is None or opt.type not in (None, "str"):
                continue
            try:
                json.loads(s.value)
                error = None
            except ValueError as e:
                error = f"json.decoder.JSONDecodeError: {e} (in {opt.primary} {s.value!r})"
            except RecursionError:
                error = f"RecursionError while reading {opt.primary} as JSON"
        else:
            continue
        if error:
            out.append(StartupFailure(s, error, where))
    return out
