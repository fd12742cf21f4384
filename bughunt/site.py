"""The BugHunt site as data: the one definition of the 24 pages, their links and the six bugs.

The simulator walks it, the built-in web application serves it, and the demo page's `sim.js` is
generated from it. Link order is normative (the seed script): a page's links are the navigation
links other than itself, then its local links that are not navigation links.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from bughunt.record_repr import field_repr

BugKind = Literal[
    "server_error",
    "unescaped_script",
    "duplicate_pagination",
    "count_mismatch",
    "form_drops_value",
    "unconfirmed_destructive",
]


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class Page:
    __repr__ = field_repr

    index: int
    name: str
    name_zh: str
    route: str


class Bug(NamedTuple):
    page: int
    kind: BugKind
    description: str
    description_zh: str
    fixed_in: str | None = None
    """App version that fixes it (None: never fixed)."""


PAGES: tuple[Page, ...] = (
    Page(0, "Home", "首页", "/"),
    Page(1, "Login", "登录", "/login"),
    Page(2, "Register", "注册", "/register"),
    Page(3, "Settings", "设置", "/settings"),
    Page(4, "New Article", "写文章", "/editor"),
    Page(5, "My Profile", "我的主页", "/profile/me"),
    Page(6, "My Articles", "我的文章", "/profile/me/articles"),
    Page(7, "My Favorites", "我的收藏", "/profile/me/favorites"),
    Page(8, "Feed page 2", "Feed 第2页", "/feed/2"),
    Page(9, "Feed page 3", "Feed 第3页", "/feed/3"),
    Page(10, "Tag #qa", "标签 #qa", "/tag/qa"),
    Page(11, "Tag #agent", "标签 #agent", "/tag/agent"),
    Page(12, "Article A", "文章 A", "/article/a"),
    Page(13, "A's comments", "A 的评论", "/article/a/comments"),
    Page(14, "Article B", "文章 B", "/article/b"),
    Page(15, "Edit B", "编辑 B", "/editor/b"),
    Page(16, "Article C", "文章 C", "/article/c"),
    Page(17, "C's share page", "C 的分享", "/article/c/share"),
    Page(18, "Author page", "作者页", "/profile/author"),
    Page(19, "Author's followers", "作者的关注者", "/profile/author/followers"),
    Page(20, "Change password", "修改密码", "/settings/password"),
    Page(21, "Delete account", "注销账号", "/settings/delete-account"),
    Page(22, "Search", "搜索", "/search"),
    Page(23, "Search page 2", "搜索第2页", "/search/2"),
)

NAV: tuple[int, ...] = (0, 4, 3, 5)
"""Top navigation on every page: Home, New Article, Settings, My Profile (this order)."""

LOCAL: dict[int, tuple[int, ...]] = {
    0: (1, 2, 8, 10, 11, 12, 14, 22), 1: (2,), 2: (1,), 3: (20,), 4: (14,), 5: (6, 7), 6: (14, 16),
    7: (12,), 8: (9, 16), 9: (8, 16), 10: (12, 14), 11: (16,), 12: (13, 18), 13: (12,), 14: (15, 18),
    15: (14,), 16: (17, 18), 17: (16,), 18: (19, 12), 19: (18,), 20: (21,), 21: (3,), 22: (23, 12),
    23: (22, 16),
}  # fmt: skip

BUGS: tuple[Bug, ...] = (
    Bug(7, "count_mismatch", "favourite count does not refresh", "收藏数不刷新"),
    Bug(9, "duplicate_pagination", "pagination shows a duplicate article", "分页出现重复文章"),
    Bug(13, "unescaped_script", "comment XSS", "评论 XSS"),
    Bug(15, "form_drops_value", "tags lost after editing", "编辑后标签丢失"),
    Bug(21, "unconfirmed_destructive", "no second confirmation", "注销没有二次确认"),
    Bug(23, "server_error", "HTTP 500 on search page 2", "搜索第2页 500", fixed_in="1.3"),
)

N_PAGES = len(PAGES)
START_PAGE = 0
APP_VERSIONS: tuple[str, ...] = ("1.2", "1.3")


def links_of(page: int) -> tuple[int, ...]:
    """Outgoing links of `page` in normative order."""
    return tuple(q for q in NAV if q != page) + tuple(q for q in LOCAL[page] if q not in NAV)


LINKS: dict[int, tuple[int, ...]] = {p.index: links_of(p.index) for p in PAGES}
BUG_PAGES: dict[int, Bug] = {b.page: b for b in BUGS}
ROUTE_TO_PAGE: dict[str, int] = {p.route: p.index for p in PAGES}


def bugs_in_version(version: str) -> tuple[Bug, ...]:
    """Bugs present in an app version (a bug fixed in 1.3 is absent from 1.3 on)."""
    return tuple(b for b in BUGS if b.fixed_in is None or _ver(version) < _ver(b.fixed_in))


def _ver(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def _check() -> None:
    # Guard the data at import: a typo here would silently change every published figure.
    assert [p.index for p in PAGES] == list(range(N_PAGES))
    assert set(LOCAL) == set(range(N_PAGES))
    assert all(0 <= q < N_PAGES for qs in LOCAL.values() for q in qs)
    assert len({p.route for p in PAGES}) == N_PAGES


_check()
