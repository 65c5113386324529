from pathlib import Path

import pytest

# tests -> python -> frontends -> crates -> the repository
REPO = Path(__file__).resolve().parents[4]


@pytest.fixture
def repo() -> Path:
    """The repository root (checkpoints, scenarios)."""
    return REPO
