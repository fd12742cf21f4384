"""The next page of a list named by a worded segment (`page2`), by the URLs alone (`next_page`; issue
25, PluXml): a front controller's query written as a path (`/` → `/index.php?page2` → `?page3`, an
author's `?author1/ann` → `?author1/ann/page2`) and a static site's pager path (`/blog/` →
`/blog/page2/`). The planner takes a list's second page from its first: unread, a query-routed blog's
pages were never paired. Another record's address is no next page."""

from __future__ import annotations

import pytest

from bughunt.sim.pager_links import next_page


@pytest.mark.parametrize(
    ("here", "there"),
    [
        ("/", "/index.php?page2"),
        ("/index.php?page2", "/index.php?page3"),
        ("/index.php?author1/ann", "/index.php?author1/ann/page2"),
        ("/index.php?author1/ann/page5", "/index.php?author1/ann/page6"),
        ("/blog/", "/blog/page2/"),
        ("/blog/page2/", "/blog/page3/"),
    ],
)
def test_a_worded_page_segment_is_the_next_page(here: str, there: str) -> None:
    assert next_page(here, there)


@pytest.mark.parametrize(
    ("here", "there"),
    [
        ("/index.php?article2/server-move", "/index.php?page2"),
        ("/index.php?page2", "/index.php?page4"),
        ("/index.php?author1/ann", "/index.php?author2/bob/page2"),
        ("/a/", "/b/page2/"),
        ("/admin/", "/index.php?page2"),
    ],
)
def test_another_list_or_a_skipped_page_is_not(here: str, there: str) -> None:
    assert not next_page(here, there)
