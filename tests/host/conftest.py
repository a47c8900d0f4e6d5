"""Fixtures for the host tests; the boards themselves are in boardkit.py."""

import pytest

from boardkit import virtual_board


@pytest.fixture
def board(tmp_path):
    """A bare virtual board (no firmware running) with its flash at tmp_path/board."""
    root = tmp_path / "board"
    (root / "games").mkdir(parents=True)
    with virtual_board(root, bare=True) as b:
        b.root = root
        yield b


@pytest.fixture
def cache(tmp_path_factory, monkeypatch):
    """One compile cache per test session (mpy-cross runs once per file)."""
    path = tmp_path_factory.getbasetemp() / "pipkeeper-cache"
    monkeypatch.setenv("PIPKEEPER_CACHE", str(path))
    return path


