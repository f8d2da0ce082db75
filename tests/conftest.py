import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: builds a virtual environment or runs external tools (deselect with -m 'not slow')")
