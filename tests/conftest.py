import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: builds a virtual environment or runs external tools (deselect with -m 'not slow')")


@pytest.fixture(autouse=True)
def _no_result_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests lint as a first run does: the result cache (linter/cache) is off unless a test turns it on
    (tests/test_cache.py), so a test that changes the linter's behaviour never reads another's results."""
    monkeypatch.setenv("LINT_CONFIGS_NO_CACHE", "1")
