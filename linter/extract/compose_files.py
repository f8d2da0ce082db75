"""The file names ``docker compose`` looks for in a project folder (compose-go ``cli/options.go``).

Names only, importing nothing: discovery and the engine's mention filter read them (an override file
may change a launch without naming SGLang) without loading the compose format.
"""

from __future__ import annotations

__all__ = ["DEFAULT_FILES", "OVERRIDE_FILES"]

DEFAULT_FILES = ("compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml")
OVERRIDE_FILES = ("compose.override.yml", "compose.override.yaml", "docker-compose.override.yml",
                  "docker-compose.override.yaml")
"""The override files docker compose reads beside a base (compose-go ``DefaultOverrideFileNames``): one
may change a launch without naming SGLang (an environment value), so the mention filter lets them pass
and the compose format judges them with their stack."""
