"""In the browser too, a link followed sends the page it was on as `Referer` and the start page none
(`bughunt.explorer.referrer`): the engine loads a link's target itself (`goto`), which would send none."""

from __future__ import annotations

import shutil

import pytest

from tests.bughunt.explorer.test_click_referer import _Site
from tests.support.engines import explored_in_browser

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


def test_a_followed_link_sends_its_page_in_the_browser(tmp_path) -> None:
    handler = type("Site", (_Site,), {"seen": {}, "deleted": []})
    with explored_in_browser(handler, tmp_path / "s", 6) as (_store, engine):
        origin = engine.origin
    seen = handler.seen
    assert seen["/"][0] is None
    assert seen["/files/a"][0] == origin + "/"
    assert seen["/private/notes"] == [None] * len(seen["/private/notes"])
