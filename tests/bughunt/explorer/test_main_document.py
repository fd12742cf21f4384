"""One reading of "a navigation of the tab's own" (`error_answers.main_document`): the answer a load
reads, and the request a page about to be replaced by a refresh has out (`BrowserEngine._document_pending`).
Requests stand in for Playwright's: an iframe's navigation, a script's request and a service worker's
(which has no frame, and says so by raising) are none."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import Error as PlaywrightError

from bughunt.explorer.error_answers import main_document

MAIN, IFRAME = object(), object()


@dataclass
class _Request:
    navigation: bool
    owner: object | None

    def is_navigation_request(self) -> bool:
        return self.navigation

    @property
    def frame(self) -> object:
        if self.owner is None:
            raise PlaywrightError("Service Worker requests do not have an associated frame.")
        return self.owner


@pytest.mark.parametrize(
    ("request_", "own"),
    [
        (_Request(True, MAIN), True),
        (_Request(True, IFRAME), False),  # an iframe's page
        (_Request(False, MAIN), False),  # a script's or a stylesheet's request
        (_Request(True, None), False),  # a service worker's: no frame
    ],
)
def test_only_a_navigation_of_the_tabs_own_frame_is_its_document(request_: _Request, own: bool) -> None:
    assert main_document(request_, MAIN) is own
