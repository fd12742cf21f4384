"""No one page type takes the click budget (`bughunt.sim.activity_share`, issue 25): on a small
expense list written here, the members' pages wait behind thirty records' edit forms that all differ."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from bughunt.sim.activity_share import MIN_INSTANCES, over_share
from tests.support.loopback import QuietHandler, serving
from tests.support.walks import planner_walk

RECORDS = 30
TAGS = ("section", "pre", "dl", "aside", "figure")


def _record(i: int) -> str:
    # each record's form differs in markup with its data (a field more or less): no two alike
    extra = "".join(f"<{t}>{t}</{t}>" for bit, t in enumerate(TAGS) if i >> bit & 1)
    return (
        "<html><head><title>edit</title></head><body><a href='/list'>list</a>"
        f"<form method='post' action='/edit/{i}'><input name='what' value='bill {i}'>{extra}"
        "<button>Save</button></form></body></html>"
    )


MEMBERS = [f"/members/{i}" for i in range(1, 7)]
NAV = "<nav>" + "".join(f"<a href='{m}'>{m}</a> " for m in MEMBERS) + "</nav>"
LIST = (
    f"<html><head><title>bills</title></head><body><a href='/'>home</a>{NAV}<ul>"
    + "".join(f"<li><a href='/edit/{i}'>bill {i}</a></li>" for i in range(1, RECORDS + 1))
    + "</ul></body></html>"
)
PAGES = {
    "/": f"<html><head><title>home</title></head><body><a href='/list'>bills</a>{NAV}</body></html>",
    "/list": LIST,
    **{
        m: f"<html><head><title>m</title></head><body><a href='/list'>bills</a><{t}>{m}</{t}></body></html>"
        for m, t in zip(MEMBERS, (*TAGS, "table"), strict=True)
    },
    **{f"/edit/{i}": _record(i) for i in range(1, RECORDS + 1)},
}


class _Bills(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlsplit(self.path)
        body = PAGES.get(url.path + (f"?{url.query}" if url.query else ""))
        self.reply(200 if body else 404, body or "<html><body>no</body></html>")


def _walk(url: str, store_dir: Path, budget: int, seed: int) -> list[str]:
    return [route for route, _final in planner_walk(url, store_dir, budget, seed)]


def test_a_template_waits_once_its_instances_took_their_share_of_the_budget():
    assert over_share({"/e/<n>": 19, "/p/<n>": 20}, 100) == {"/p/<n>"}
    assert over_share({"/e/<n>": MIN_INSTANCES}, 10) == {"/e/<n>"}, "never fewer than the minimum"
    assert over_share({"/e/<n>": MIN_INSTANCES - 1}, 10) == frozenset()
    assert over_share({"/e/<n>": 50}, 0) == frozenset(), "no budget given: no share"


def test_a_second_section_is_not_left_behind_every_record_of_a_long_list(tmp_path):
    # Before: once two members were seen, every record's edit form (each a page worth a visit by its
    # markup, listed on the page the walk comes back to) came before the other members' pages,
    # which waited behind the thirtieth record.
    budget = 40
    cap = max(MIN_INSTANCES, budget // 5)
    with serving(_Bills) as url:
        for seed in range(1000, 1004):
            walk = _walk(url + "/", tmp_path / f"s{seed}", budget=budget, seed=seed)
            assert set(MEMBERS) <= set(walk), walk
            last = max(walk.index(m) for m in MEMBERS)
            edits_before = sum(r.startswith("/edit/") for r in walk[:last])
            assert edits_before <= cap, f"the last member after {edits_before} records: {walk}"
