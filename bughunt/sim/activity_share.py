"""No one activity takes the click budget: a page type whose instances took a fixed share of the
budget waits like a saturated one (issue 25, the session-19 synthesis's rank 4).

A list of sixty records, each with its own edit form whose markup differs a little with the data
(another payer, another set of checkboxes), never looks saturated: every instance is a page worth a
visit by the DOM alone, and the walk opens them one after another while the list's next pages, a
sibling section or a search form wait behind them. Once the visited instances of one template reach
`ACTIVITY_SHARE` of the budget (and never fewer than `MIN_INSTANCES`), the template waits behind
every page type sampled less — it is still taken when nothing else is left.

Stated on templates (URL shape and DOM structure) alone: it applies to every family whose records
are many (admin lists, trackers' tickets, blogs' posts, expense lists), in both engines.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from .template_sampling import TEMPLATE_SAMPLE

ACTIVITY_SHARE = 0.2
"""The share of the budget one template's instances may take while other page types wait."""
MIN_INSTANCES = TEMPLATE_SAMPLE + 3
"""Never fewer: a short budget still samples a listed template (`TEMPLATE_SAMPLE` + 1) and a few more."""


def over_share(instances: Mapping[str, int], budget: int) -> frozenset[str]:
    """The templates whose visited `instances` reached their share of a `budget` of clicks."""
    if budget <= 0:
        return frozenset()
    cap = max(MIN_INSTANCES, math.ceil(ACTIVITY_SHARE * budget))
    return frozenset(t for t, n in instances.items() if n >= cap)
