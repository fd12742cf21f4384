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
