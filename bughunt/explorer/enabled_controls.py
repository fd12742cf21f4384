"""A control the page's fresh load shows disabled, which a click state enables: made on that state.

A selection enables what acts on it: a toolkit's details tab strip and its toolbar's Remove, Pause
and Options are disabled until a grid row is selected (ExtJS, Dojo dijit, jQuery UI, Kendo), a
Knockout `enable:` or AngularJS `ng-disabled` binding greys a button until a record is chosen. A click
state's controls are replayed from the page's fresh load when the load shows them (`facts.read_page`),
and one the load does not offer is dropped unless the state opened a view — so the tab enabled by
selecting a row was clicked from the load, where it is disabled, or never: the walk never paired the
selection with the tab (a torrent client's Details tab, whose status call failed, two clicks deep).
Such a control is made on the state, replayed after the clicks that reached it (`Action.after`,
`graph.MAX_CHAIN` clicks at most), as a list's next page is.
"""

from __future__ import annotations

from bughunt.actions import acts, disabled, page_clicks
from bughunt.oracles.pager_reading import pager_nodes
from bughunt.page import FetchedPage


def disabled_controls(page: FetchedPage) -> frozenset[str]:
    """The selectors of the controls `page` shows disabled (`actions.disabled`) that would act were
    they enabled (`actions.acts`), made once per page."""
    return page.derived(_disabled_controls)


def _disabled_controls(page: FetchedPage) -> frozenset[str]:
    if not page.is_html:
        return frozenset()
    selectors = page_clicks(page).selectors
    # A pager's disabled arrow ("‹" on the first page) is enabled on the page a way on turned to:
    # clicked there, it leads back to a page seen (the ways on have their own rule, `facts.read_page`).
    paging = {id(n) for pager in pager_nodes(page) for n in pager.iter()}
    return frozenset(
        selectors.of(n)
        for n in page.document.iter()
        if n.attrs and n.tag not in ("script", "style") and id(n) not in paging and disabled(n) and acts(n)
    )


def enabled_here(selector: str, loaded: FetchedPage | None) -> bool:
    """Is `selector` a control the page as loaded (`loaded`, before the clicks that made this state)
    showed disabled, enabled on this state."""
    return loaded is not None and selector in disabled_controls(loaded)


def enabled_by(before: FetchedPage, after: FetchedPage) -> frozenset[str]:
    """The controls `before` showed disabled that `after`, a click state of it, shows enabled: what the
    click enabled (a row selected enables the toolbar's Remove and the details tabs — ExtJS, Dojo
    dijit, jQuery UI, a Knockout `enable:` binding). Such a click changed what the page offers, even
    when its markup is otherwise the page's own (only a class changed): it is no idle click."""
    off = disabled_controls(before)
    if not off or not after.is_html:
        return frozenset()
    selectors = page_clicks(after).selectors
    shown = {selectors.of(n) for n in page_clicks(after).clickables}
    return frozenset(off & shown)
