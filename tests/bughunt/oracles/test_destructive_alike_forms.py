"""A POST form's button that writes at once where the page's alike buttons (same leading verb) ask
first: the asking sibling says the verb loses data. A confirmation is an onclick/onsubmit calling
confirm(, a data-confirm-like attribute, or a script hook named for it (a class or id with
"confirm"); a page whose buttons never ask reports nothing."""

from __future__ import annotations

import pytest

from bughunt.oracles.destructive import check_unconfirmed_destructive
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://jobs.test", "<html><head><title>Failed</title></head><body><div id=main>", "</div></body></html>"
)

ASKS_BY_HOOK = "<form method=POST action='/failed/clear'><input type=submit value='Clear Failed Jobs' class=confirmSubmission></form>"
RETRY = "<form method=POST action='/failed/requeue/all'><input type=submit value='Retry Failed Jobs' class=confirmSubmission></form>"


def failed(retried_button: str) -> FetchedPage:
    return SITE.page(
        f"<h1>Failed Jobs</h1>{ASKS_BY_HOOK}<form method=POST action='/failed/clear_retried'>{retried_button}</form>"
        f"{RETRY}<ul class=failed><li>job 1</li><li>job 2</li></ul>",
        "/failed",
    )


def test_a_button_that_writes_at_once_beside_an_alike_one_that_asks_is_reported() -> None:
    found = check_unconfirmed_destructive(failed("<input type=submit value='Clear Retried Jobs'>"))
    assert [(f.kind, f.route, f.suspected) for f in found] == [
        ("unconfirmed_destructive", "/failed/clear_retried", False)
    ]


@pytest.mark.parametrize(
    "button",
    [
        """<input type=submit value='Clear Retried Jobs' onclick='return confirm("Sure?");'>""",
        "<button data-confirm='Sure?'>Clear Retried Jobs</button>",
        "<button class='btn js-confirm'>Clear Retried Jobs</button>",
        "<input type=submit value='Archive Retried Jobs'>",  # another verb: nothing said about it
    ],
)
def test_a_button_that_asks_or_has_no_alike_one_is_not(button: str) -> None:
    assert check_unconfirmed_destructive(failed(button)) == []


def test_a_page_whose_buttons_never_ask_says_nothing() -> None:
    page = SITE.page(
        "<form method=POST action='/a/clear'><button>Clear A</button></form>"
        "<form method=POST action='/b/clear'><button>Clear B</button></form>",
        "/jobs",
    )
    assert check_unconfirmed_destructive(page) == []
