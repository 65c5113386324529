from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def repo() -> Path:
    """The repository root (checkpoints, scenarios)."""
    return REPO
