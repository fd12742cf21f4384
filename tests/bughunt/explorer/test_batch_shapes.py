"""One opening judges every row of a list (a plugin manager's Deactivate on each plugin): the first row's
finding and the rows that took its verdict join in one batch (`inspection.same_root_cause`: one
`control_key`), the later ones carrying the first one's fingerprint. The harness then shapes the first
anew with the links memory knows beside it (`harness._template_shaped`); the rows that joined it must
follow it, or one root cause is stored as two bugs (issue 25: a CMS's plugin toggle, twice on its clean
build)."""

from __future__ import annotations

from bughunt.explorer.harness import _template_shaped
from bughunt.explorer.inspection import same_root_cause
from bughunt.explorer.store import ExplorerStore
from bughunt.oracles.base import Finding
from tests.bughunt.oracles.test_oracles_root_causes import as_bug

MESSAGE = "a GET request changed server state"


def _toggle(name: str) -> Finding:
    return Finding(
        "unsafe_get", f"/admin/uninstall-plugin/{name}", MESSAGE, {"control_key": 7, "url": "/admin/plugins"}
    )


def test_rows_that_joined_a_finding_of_their_batch_follow_its_new_shape(tmp_path) -> None:
    first, second = _toggle("pluginAbout"), _toggle("pluginAPI")
    assert first.fingerprint != second.fingerprint  # each row's own address: a word there
    batch = same_root_cause([first, second], [])
    assert batch[1].fingerprint == first.fingerprint  # one control drawn by one template
    beside = [f"/admin/uninstall-plugin/{n}" for n in ("pluginAbout", "pluginAPI", "pluginTags", "pluginRSS")]
    store = ExplorerStore(tmp_path / "s")
    try:
        shaped = _template_shaped(store, batch, beside)
    finally:
        store.close()
    assert shaped[0].shape == "/admin/uninstall-plugin/<slug>"
    assert len({f.fingerprint for f in shaped}) == 1, shaped
    assert [f.route for f in shaped] == [first.route, second.route]


def test_one_edit_view_of_two_models_named_by_their_query_is_one_handler() -> None:
    # a generic admin's edit view: `/admin/<model>/edit/?id=…&url=<the list it came from>`
    message = "edit form leaves stored values empty that the resource page shows"
    post = Finding(
        "form_drops_value", "/admin/post/edit/?id=42&url=/admin/post/?page=1&page_size=20&modal=True", message,
        {"fields_key": 1, "form_key": 2},
    )  # fmt: skip
    user = Finding(
        "form_drops_value",
        "/admin/user/edit/?id=eb192bf2-3387-44a4-97e6-206766f11910&url=/admin/user/?sort=2",
        message,
        {"fields_key": 3, "form_key": 4},
    )
    assert post.fingerprint != user.fingerprint
    [joined] = same_root_cause([user], [as_bug(post)])
    assert joined.fingerprint == post.fingerprint and joined.route == user.route
    # another page of the admin whose query names no record is not the edit view
    index = Finding("form_drops_value", "/admin/user/?sort=2&search=x", message, {"fields_key": 3})
    assert same_root_cause([index], [as_bug(post)]) == [index]
    # nor a view whose path is another template (`/admin/post/edit/` and `/admin/post/details/`)
    details = Finding("form_drops_value", "/admin/post/details/?id=43", message, {"fields_key": 3})
    assert same_root_cause([details], [as_bug(post)]) == [details]
