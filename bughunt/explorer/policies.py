"""Exploration policies: which link the explorer clicks next.

`random`, `visited`, `frontier` and any strategy registered with the simulator (such as the planner)
are the simulator's own strategy functions, run over routes: the explorer never re-implements them.
`llm` is a memgpt_lite agent (`bughunt.explorer.llm_policy`). Every policy sees only the view of
memory the configured components allow, and every policy's step is scored in tokens the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Protocol

from bughunt.planning import Planner
from bughunt.record_repr import field_repr
from bughunt.sim.memory import KnownLinks
from bughunt.sim.rng import Rng
from bughunt.sim.strategies import Strategy, get_strategy, strategy_names

if TYPE_CHECKING:
    from .harness import StepOutcome


class Option(NamedTuple):
    """One thing the policy may do on the current page: open `route` by a `kind` of action ("link",
    "hx", "form", "click"); `label` is the page's own text for it — untrusted, for display only."""

    route: str
    kind: str = "link"
    label: str = ""


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class PlannerHints:
    """What only the planner reads besides memory (`bughunt.explorer.hints`)."""

    __repr__ = field_repr

    template_of: Callable[[str], str]
    """Each route's template (URL shape and DOM structure), for covering templates first."""
    probes: frozenset[str] = frozenset()
    """Known routes reached only by a GET form submitted with generated values."""
    samples: Mapping[str, int] = field(default_factory=dict)
    """Visited instances that sample a template, where it is not the planner's default: 1 for a
    fragment (an HTMX partial: a state of a page, not a page type), more for items a page lists."""
    popularity: Mapping[str, int] = field(default_factory=dict)
    """How many elements of the pages seen in this session lead to each route."""
    saturated: frozenset[str] = frozenset()
    """Templates whose visited instances (two or more) all have one DOM structure hash."""
    listed: frozenset[str] = frozenset()
    """The current page's links from the items of its lists (previews, rows), not its navigation."""
    next_pages: frozenset[str] = frozenset()
    """The current page's click states that lead to the next page of its list (`PageFacts.next_pages`)."""
    variants: frozenset[str] = frozenset()
    """When the current page is a structural variant of its template (`templates.variant`): its own
    links to page types already loaded (none of the template's other instances has them), until one
    of them is visited."""
    start: str | None = None
    """The session's start page: a person goes back there when what is left is not linked from here."""
    spent: frozenset[str] = frozenset()
    """Probes of a form learned to answer a page already visited (`bughunt.sim.repeat_answers`)."""
    marked: frozenset[str] = frozenset()
    """Unvisited routes the session's pages linked with markup written in the link's text
    (`bughunt.explorer.markup_links`): taken before the other links of their level."""
    crowded: frozenset[str] = frozenset()
    """Instances of a page type (`/<repo>/`) whose own pages took their share of the budget while
    another instance waits (`bughunt.sim.instance_share`): the pages under them wait."""


@dataclass(repr=False, slots=True, eq=False)
class Decision:
    """Everything a policy may consult for one choice."""

    __repr__ = field_repr

    position: str
    links: Sequence[str]
    view: KnownLinks[str]
    rnd: Rng
    render_context: Callable[[], str]
    """The working context as text: rendered when asked (a model is shown it; a strategy is not)."""
    context_tokens: int
    """Tokens of the working context: what a choice is scored (every policy's the same way)."""
    step: int
    budget_left: int
    last: StepOutcome | None = None
    page_text: str = ""
    actions: Sequence[Option] = ()
    """The same choices as `links`, with each one's kind and (untrusted) label."""
    site_text: Sequence[str] = ()
    """What the last response said besides its page text (header values, labels): untrusted."""
    planner: PlannerHints | None = None
    """Given to policies that read templates (`Policy.reads_templates`)."""

    @property
    def working_context(self) -> str:
        return self.render_context()


@dataclass(repr=False, slots=True, eq=False)
class Choice:
    """The policy's answer: a route to fetch (None = finished) and what the choice cost in tokens."""

    __repr__ = field_repr

    route: str | None
    tokens: int = 0
    notes: list[str] = field(default_factory=list)


class Policy(Protocol):
    name: str
    uses_model: bool
    reads_templates: bool
    """Whether the policy reads `Decision.planner` (computing it costs a pass over memory)."""

    def choose(self, decision: Decision) -> Choice: ...

    def archive(self, site_map: str, bug_lines: list[str]) -> None:
        """At a session's end: the site map and bug history for the policy's long-term store, if any."""


@dataclass(repr=False, slots=True, eq=False)
class StrategyPolicy:
    """A simulator strategy applied to routes. Its token cost is the structured memory it is shown
    (`Decision.context_tokens`)."""

    __repr__ = field_repr

    name: str
    uses_model: bool = False
    strategy: Strategy[str] = field(init=False, repr=False)
    reads_templates: bool = field(init=False)

    def __post_init__(self) -> None:
        self.strategy = get_strategy(self.name)
        self.reads_templates = isinstance(self.strategy, Planner)

    def choose(self, decision: Decision) -> Choice:
        tokens = decision.context_tokens
        if not decision.links:
            return Choice(None, tokens)
        strategy = self.strategy
        hints = decision.planner
        if isinstance(strategy, Planner) and hints is not None:
            strategy = strategy.with_templates(
                hints.template_of,
                hints.probes,
                hints.samples,
                hints.popularity,
                hints.saturated,
                hints.listed,
                hints.variants,
                hints.next_pages,
                hints.start,
                hints.spent,
                hints.marked,
                hints.crowded,
            )
        return Choice(strategy(decision.position, decision.links, decision.view, decision.rnd), tokens)

    def archive(self, site_map: str, bug_lines: list[str]) -> None:
        """A strategy keeps nothing between sessions but the store itself."""


def policy_names() -> tuple[str, ...]:
    """Every policy name `--policy` accepts (the planner registers itself with the simulator)."""
    import bughunt.planning  # noqa: F401

    return (*strategy_names(), "llm")
