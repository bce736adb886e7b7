"""The project's tests keep what mtrain caches (spec/cache.py) in a folder of their own
run, never in the user's cache; commands the tests start inherit it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from mtrain.spec.cache import CACHE_ENV


@pytest.fixture(autouse=True, scope="session")
def _cache_of_this_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    saved = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("mtrain-cache"))
    yield
    if saved is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = saved
