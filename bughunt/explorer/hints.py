"""What the planner reads besides memory: hints gathered from the pages of this session.

Kept by the loop for the session and handed to the planner (`PlannerHints`) with each decision — the
templates memory knows (URL shape and DOM structure, `templates`), GET forms submitted with generated
values, fragments, how often the session's pages link to each route, the places of repeated markup
links sit in (items of a list, whose siblings tell a template), templates that are saturated or broken,
and a structural variant's own links. No other policy reads them.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bughunt.planning import TEMPLATE_SAMPLE, leads_on
from bughunt.record_repr import field_repr
from bughunt.sim.activity_share import over_share
from bughunt.sim.instance_share import InstanceShare
from bughunt.sim.repeat_answers import RepeatAnswers

from .facts import PageFacts
from .graph import ExplorationGraph
from .judged_controls import JudgedControls
from .known_pages import KnownPages
from .policies import PlannerHints
from .templates import TemplateIndex, Templates, below_item

ACTIONS_PAGES = 256
"""Pages whose actions (kind, label) are kept: a bounded cost whatever the site's size."""
MAX_SIBLINGS = 50
"""Routes kept per place of repeated markup: enough to tell a template, bounded on a huge list."""


@dataclass(repr=False, slots=True, eq=False)
class SessionHints:
    """The hints of one session, updated from each page's facts (`absorb`)."""

    __repr__ = field_repr

    actions: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Route → (kind, label) of the last page's actions (labels are untrusted page text)."""
    listed: frozenset[str] = frozenset()
    """Routes the last page links from the items of its lists (not from its navigation)."""
    probes: set[str] = field(default_factory=set)
    partials: set[str] = field(default_factory=set)
    """Routes that answered a fragment (an HTMX partial) in this session."""
    returns: set[str] = field(default_factory=set)
    """Routes clicked in this session that redirected onto a page visited before (`_returning`)."""
    documents: set[str] = field(default_factory=set)
    """Routes clicked in this session that answered no page (a feed, a calendar, a download): nothing
    on them is read but their status, so another instance of their type is worth what a returning
    link's is (`_returning`)."""
    answers: RepeatAnswers = field(default_factory=RepeatAnswers)
    """The probes' forms, and those learned to answer a page already visited (`repeat_answers`)."""
    popularity: Counter[str] = field(default_factory=Counter)
    """Route → how many elements of the pages first seen in this session lead to it."""
    counted: set[str] = field(default_factory=set)
    siblings: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    """(page route, place of a link in the items of a list) → the routes linked from there."""
    listed_at: dict[str, frozenset[str]] = field(default_factory=dict)
    """Page route → the routes it links from the items of its lists, for the pages of this session:
    what a choice asked about a page the explorer is not standing on reads (`Chooser.past_hubs`)."""
    next_pages: frozenset[str] = frozenset()
    """The last page's clicks to the next page of its list (`PageFacts.next_pages`)."""
    marked: set[str] = field(default_factory=set)
    """Routes a page of this session linked with markup written in the link's text
    (`PageFacts.marked`): records whose stored text holds an element, wanted until visited."""
    odd_rows: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Kind of missing value → the own links of the first row of that kind a page of this session showed
    (`PageFacts.odd_rows`): wanted until visited, as marked records are, one per kind (the same
    kind on the list's next page is not wanted again). Opened, it is one sample of its template."""
    next_pages_at: dict[str, frozenset[str]] = field(default_factory=dict)
    """Page route → its clicks to the next page of its list, for the pages of this session that have one."""
    judged: JudgedControls = field(default_factory=JudgedControls)
    # records whose own pages took their share (`instance_share`), kept as pages are visited and found
    instance_share: InstanceShare = field(default_factory=InstanceShare)
    """The destroying controls a click of this session judged (`judged_controls`): their siblings of the
    same view template are not made again."""
    menu_words: dict[str, tuple[frozenset[str], str]] = field(default_factory=dict)
    """Placed click shape → the words its first click in place this session showed with new controls and
    no new link, and the page it was made on (`idle_controls.lessons`: a menu of the page's chrome shows the same words on
    every page)."""

    actions_at: OrderedDict[str, dict[str, tuple[str, str]]] = field(default_factory=OrderedDict)
    """Page route → its actions, for the last `ACTIONS_PAGES` pages: the label of a link followed from
    a page the explorer jumped past (`Chooser.past_hubs`) without loading it again."""

    # What `planner` reads, kept up to date from what changed since its last call rather than rebuilt
    # from all of memory at every choice (issue 28): templates and their loaded instances, and the
    # templates of the pages memory knows.
    index: TemplateIndex = field(default_factory=TemplateIndex)
    grown: set[tuple[str, str]] = field(default_factory=set)
    """Sibling groups that grew since the index last read them."""
    known: KnownPages | None = None
    """The pages memory knows, followed from the store's writes (made at the first choice)."""
    known_template: dict[str, str] = field(default_factory=dict)
    known_templates: Counter[str] = field(default_factory=Counter)
    """How many of the known pages (`known`) are of each template (`known_template`)."""
    followed: tuple[Templates | None, int, int] = (None, 0, 0)
    hashes_read: tuple[object, int, int] = (None, 0, 0)
    """(the visits, their `hash_epoch`, how much of their `hash_log`) `index` was last updated with."""
    """(templates, their `epoch`, how many of their `changed` routes) `known_template` follows."""

    def absorb(self, facts: PageFacts, state: str | None = None) -> None:
        """Take in what a loaded page shows; `state` is the route it was loaded as when that is not its
        own (a click state, `<page>#click-…`: a hub `Chooser.past_hubs` may look past too)."""
        self.actions = dict(facts.actions)
        self.listed = frozenset(facts.places)
        self.next_pages = facts.next_pages
        own = facts.own
        if own is not None:
            for name in dict.fromkeys((own, state or own)):
                self.actions_at[name] = self.actions
                self.actions_at.move_to_end(name)
                if len(self.actions_at) > ACTIONS_PAGES:
                    self.actions_at.popitem(last=False)
                self.listed_at[name] = self.listed
            # A state's ways on are made on the state (`read_page`: page 3 after page 2), not the page's.
            name = state or own
            if facts.next_pages:
                self.next_pages_at[name] = facts.next_pages
            else:
                self.next_pages_at.pop(name, None)
            for route, place in facts.places.items():
                group = self.siblings.setdefault((own, place), [])
                if len(group) < MAX_SIBLINGS:
                    group.append(route)
                    self.grown.add((own, place))
            if own not in self.counted:
                self.counted.add(own)
                self.popularity.update(facts.weight)
        self.probes |= facts.probes
        self.marked |= facts.marked
        first: dict[str, tuple[str, ...]] = {}
        for route, kind in facts.odd_rows.items():
            first[kind] = (*first.get(kind, ()), route)
        for kind, routes in first.items():
            self.odd_rows.setdefault(kind, routes)
        if own is not None and facts.probes:
            self.answers.offered(own, facts.probes)

    def planner(
        self, graph: ExplorationGraph, position: str, links: list[str], *, standing: bool = True,
        start: str | None = None, budget: int = 0,
    ) -> PlannerHints:  # fmt: skip
        """The planner's hints for a choice at `position` among `links`; `standing` False for a page
        the explorer is not on (its list items are those it showed when it was loaded); `start` the
        session's start page; `budget` the session's clicks (0: no share per page type)."""
        visits = graph.store.visits
        hashes = visits.page_hashes()
        log, (read_from, epoch, read) = visits.hash_log, self.hashes_read
        touched = log[read:] if read_from is visits and epoch == visits.hash_epoch else None
        self.hashes_read = (visits, visits.hash_epoch, len(log))
        index = self.index
        # a click state is of its kind of control's template
        template_of = index.update(
            hashes, self.siblings, self.grown, touched, graph.click_of, graph.store.link_table.words_of
        )
        self.grown.clear()
        known = self._known_pages(graph)
        samples = self._samples(template_of, known)
        # A record opened for the markup its stored text holds (`markup_links`) was not chosen as a
        # sample of its template's data: the template still wants as many others.
        for route in self.marked:
            if route in hashes:
                t = template_of(route)
                samples[t] = samples.get(t, TEMPLATE_SAMPLE) + 1
        return PlannerHints(
            template_of=template_of,
            probes=frozenset(self.probes),
            samples=samples,
            popularity=self.popularity,
            saturated=index.saturated()
            | _broken(graph, template_of)
            | _returning(self.returns | self.documents, template_of, index)
            | over_share({t: sum(h.values()) for t, h in index.loaded.items()}, budget),
            listed=self.listed if standing else self.listed_at.get(position, frozenset()),
            next_pages=self.next_pages if standing else self.next_pages_at.get(position, frozenset()),
            variants=_variant_items(graph, position, links, hashes, index),
            marked=frozenset(r for r in self.marked.union(*self.odd_rows.values()) if r not in hashes),
            start=start,
            spent=self.answers.spent(),
            crowded=self.instance_share.crowded(hashes, known.routes, budget),
        )

    def _known_pages(self, graph: ExplorationGraph) -> KnownPages:
        known = self.known
        if known is None or known.graph is not graph:
            known = self.known = KnownPages(graph)
            self.followed = (None, 0, 0)  # the counts were of another memory's pages
        return known

    def _samples(self, template_of: Templates, known: KnownPages) -> dict[str, int]:
        # Items a page lists side by side are where the data varies most: one more instance of
        # those. A page under such an item (its tabs, its sub-pages) is one page of its own template
        # per item: the items' samples already vary the data, one item's view covers the view. A
        # fragment's template is a state of a page, seen once.
        listed = template_of.listed
        samples = {t: TEMPLATE_SAMPLE + 1 for t in listed}
        for t in self._known_templates(template_of, known) - listed:
            if any(below_item(t, item) for item in listed):
                samples[t] = 1
        samples.update((template_of(r), 1) for r in self.partials)
        return samples

    def _known_templates(self, template_of: Templates, known: KnownPages) -> set[str]:
        """The templates of the pages memory knows, from what changed since the last call: routes
        newly known or forgotten, and those whose template changed."""
        counts, of = self.known_templates, self.known_template
        added, removed = known.changes()
        fn, epoch, read = self.followed
        if fn is not template_of or epoch != template_of.epoch:
            # every answer may have changed: each known page's template is asked again
            of.clear()
            counts.clear()
            changed: Iterable[str] = known.routes
        else:
            for route in removed:
                counts[of.pop(route)] -= 1
            routes = known.routes
            again = {r for r in template_of.changed[read:] if r in routes and r not in added}
            changed = again | added
        for route in changed:
            old = of.get(route)
            if old is not None:
                counts[old] -= 1
            of[route] = template = template_of(route)
            counts[template] += 1
        self.followed = (template_of, template_of.epoch, len(template_of.changed))
        return {t for t, n in counts.items() if n > 0}


def _broken(graph: ExplorationGraph, template_of: Templates) -> frozenset[str]:
    # A page type that answers a server error is broken as a type: another instance is most likely
    # the same root cause again (one bug, by its route shape), not a new finding.
    return frozenset(
        template_of(b.route) for b in graph.live_bugs() if b.kind == "server_error" and b.status == "open"
    )


def _returning(returns: Iterable[str], template_of: Templates, index: TemplateIndex) -> frozenset[str]:
    # A link that redirects onto a page already visited (a toggle or a "mark read" that sends the
    # browser back, a `?next=` login bounce, a canonicalising redirect of another address of the same
    # page) is that page again: another instance of its template most likely does the same, so the
    # template waits like a saturated one — unless one of its instances was a page of its own.
    return frozenset(t for t in map(template_of, returns) if t not in index.loaded)


def _variant_items(
    graph: ExplorationGraph, position: str, links: list[str], hashes: Mapping[str, str | None],
    index: TemplateIndex,
) -> frozenset[str]:  # fmt: skip
    """The links a page that breaks its template's structure (`templates.variant`) has of its own:
    to instances of page types already loaded, that none of its template's other loaded instances
    links to (your own articles on your profile, not the navigation) and that are not its own
    views or sub-pages. Until one of them is loaded."""
    if not index.variant(position, hashes.get(position)):
        return frozenset()
    template_of = index.function
    template = template_of(position)
    shared = {q for r in hashes if r != position and template_of(r) == template for q in graph.links_of(r)}
    loaded = set(index.loaded)
    # (its views and sub-pages lead on from it and are ranked so anyway)
    own = [q for q in links if q not in shared and template_of(q) in loaded and not leads_on(position, q)]
    return frozenset() if any(q in hashes for q in own) else frozenset(own)
