"""One Debian chromium per test process for every browser test of the site (a launch costs a few
seconds of CPU; each test opens its own context, so no page state is shared)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.site.helpers import browser_session


@pytest.fixture(scope="session", name="browser")
def browser() -> Iterator[object]:
    yield from browser_session()
