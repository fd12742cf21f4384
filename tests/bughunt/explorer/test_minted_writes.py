"""Failed writes of one handler filing records by their place in a tree (`oracles/minted_writes.py`):
a board's "New list" POSTs a folder at `/api/store/<uuid>`, a list's "+" a file in it at
`/api/store/<list>/<uuid>.md`, and one broken create handler answers both 500 — one bug, whichever
control wrote. Two collections' handlers, a nested resource, an API's root, two methods or a read stay
two bugs."""

from __future__ import annotations

from bughunt.explorer.inspection import same_root_cause
from bughunt.oracles.base import Finding
from bughunt.oracles.client_errors import check_client_errors
from bughunt.oracles.minted_writes import one_tree
from bughunt.page import ClientError, FetchedPage
from tests.bughunt.oracles.test_oracles_root_causes import as_bug

ORIGIN = "http://board.test"
KEY = "0190a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b"
OTHER = "0190a1b2-9999-7e5f-8a9b-0c1d2e3f4a5b"
HTML = (
    "<html><head><title>Board</title><script src='/app.js'></script></head><body><main></main></body></html>"
)


def _failed(path: str, label: str, method: str = "POST", status: int = 500) -> Finding:
    """The finding of a click state whose click's write to `path` failed with `status`."""
    before = FetchedPage(ORIGIN + "/", "/", 200, {}, "text/html", HTML, 1.0)
    error = ClientError("failed_request", f"{method} {status}", ORIGIN + path, status)
    state = FetchedPage(
        ORIGIN + "/", "/#click-1", 200, {}, "text/html", HTML, 1.0,
        client_errors=(error,), clicked_from=(before, label),
    )  # fmt: skip
    [found] = [f for f in check_client_errors(state) if f.kind == "server_error"]
    return found


def _joined(first: Finding, second: Finding) -> bool:
    [after] = same_root_cause([second], [as_bug(first)])
    return after.fingerprint == first.fingerprint


def test_one_handlers_folder_and_file_writes_are_one_bug() -> None:
    folder = _failed(f"/api/store/{KEY}", "New list")
    file = _failed(f"/api/store/Backlog/{OTHER}.md", "Create new card")
    assert folder.fingerprint != file.fingerprint  # two depths: no route template joins them
    assert _joined(folder, file) and _joined(file, folder)


def test_two_collections_handlers_stay_two_bugs() -> None:
    assert not _joined(_failed(f"/api/lists/{KEY}", "New list"), _failed(f"/api/cards/{OTHER}", "Add"))


def test_a_nested_resource_is_a_handler_of_its_own() -> None:
    assert not _joined(
        _failed(f"/api/boards/{KEY}", "New board"), _failed(f"/api/boards/42/cards/{OTHER}", "Add")
    )


def test_two_methods_or_a_read_stay_two_bugs() -> None:
    folder = _failed(f"/api/store/{KEY}", "New list")
    assert not _joined(folder, _failed(f"/api/store/Backlog/{OTHER}.md", "Save", method="PUT"))
    assert not _joined(folder, _failed(f"/api/store/Backlog/{OTHER}.md", "Open", method="GET"))


def test_an_apis_root_names_no_one_handler() -> None:
    assert not one_tree(f"/api/{KEY}", f"/api/notes/{OTHER}")
    assert one_tree(f"/api/store/{KEY}", f"/api/store/Backlog/{OTHER}.md")
    assert not one_tree(f"/api/store/{KEY}", f"/api/store/Backlog/{OTHER}/raw")
