"""Copies of one control whose items look alike: besides the few sampled, the copy whose own text shows
markup written as text (a card whose tag reads `<script>…`) is clicked too — the record a user stored
markup in is the one whose opened view may print it unescaped (`alike_controls`, corpus ho29_tasksmd).
A plain title, and a `<` in words ("a < b"), mark no copy. Pages here are made up."""

from __future__ import annotations

from bughunt.dom import Selectors, parse_html
from bughunt.explorer.alike_controls import alike_groups, alike_sample


def _cards(tags: list[str]) -> str:
    return "".join(
        f"<div class='card' role='button' tabindex='0'><p>Task {i}</p><ul><li>{tag}</li></ul></div>"
        for i, tag in enumerate(tags)
    )


def _clicked(tags: list[str]) -> list[str]:
    root = parse_html(f"<html><body><div class='lane'>{_cards(tags)}</div></body></html>")
    selectors = Selectors()
    candidates = {selectors.of(n): n for n in root.find_all("div") if n.get("role") == "button"}
    return [n.find_all("p")[0].text() for group in alike_groups(candidates) for n in alike_sample(group)]


def test_the_card_whose_tag_shows_a_script_is_clicked_besides_the_sample() -> None:
    tags = ["infra"] * 6 + ["&lt;script&gt;alert(1)&lt;/script&gt;"] + ["docs"] * 3
    assert _clicked(tags) == ["Task 0", "Task 1", "Task 6"]


def test_plain_cards_and_a_less_than_in_words_mark_none() -> None:
    assert _clicked(["infra"] * 6 + ["a &lt; b"] + ["docs"] * 3) == ["Task 0", "Task 1"]
