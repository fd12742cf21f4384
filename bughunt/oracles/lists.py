"""Finding the lists on a page: repeated items, their identities, and pagination links.

A list container is a `ul`/`ol`/`table`, or any element with two or more element children that all
share one tag and class set (the way server-side templates render a loop). Real templates mix their
loop's items with tabs and a pager in one container, so `item_runs` also finds the repeated items
*among* mixed siblings. An item is identified by its permalink — its own link to a page of a detail
template, which no other item of the list shares — never by its first link (the first link of a
feed preview is its author); without one, by a label unique in its list that is neither a count
("0 Comments") nor an action word ("Reply"). A pager counts as paging only when it leads to another
page (`other_pages`): « 1 » with disabled arrows pages nothing.

The readings live in modules named for what they do: `list_finding` (containers, items, runs,
pagers), `item_identity` (`ItemFacts`, `identities`), `pager_reading` (a pager's controls, the
list's other pages) and `link_targets` (`targets`). The names other modules import from here stay
importable.
"""

from __future__ import annotations

from bughunt.oracles.item_identity import ItemFacts as ItemFacts
from bughunt.oracles.item_identity import ItemMemo as ItemMemo
from bughunt.oracles.item_identity import holds_link as holds_link
from bughunt.oracles.item_identity import identities as identities
from bughunt.oracles.item_identity import item_facts as item_facts
from bughunt.oracles.item_identity import item_title as item_title
from bughunt.oracles.item_identity import label_like as label_like
from bughunt.oracles.link_targets import targets as targets
from bughunt.oracles.list_finding import find_lists as find_lists
from bughunt.oracles.list_finding import is_pager as is_pager
from bughunt.oracles.list_finding import item_runs as item_runs
from bughunt.oracles.list_finding import item_signature as item_signature
from bughunt.oracles.list_finding import list_items as list_items
from bughunt.oracles.list_finding import spanning as spanning
from bughunt.oracles.pager_reading import clicked_previous_page as clicked_previous_page
from bughunt.oracles.pager_reading import first_page_number as first_page_number
from bughunt.oracles.pager_reading import has_pagination as has_pagination
from bughunt.oracles.pager_reading import other_pages as other_pages
from bughunt.oracles.pager_reading import pager_nodes as pager_nodes
from bughunt.oracles.pager_reading import pager_ways_on as pager_ways_on
from bughunt.oracles.pager_reading import reads_way_on as reads_way_on
