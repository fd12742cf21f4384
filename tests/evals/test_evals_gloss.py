"""`evals.gloss`: Chinese read in memory's own English words through CC-CEDICT."""

from __future__ import annotations

from evals.baseline.agent import plan
from evals.baseline.hits import SEARCH
from evals.baseline.question import read_question
from evals.baseline.reading import read_in_memory_words
from evals.gloss import Vocabulary, cut, gloss


def test_a_chinese_word_becomes_the_first_of_its_senses_that_memory_writes() -> None:
    r = gloss("修改密码", ["change", "password", "form"])
    assert r.text == "□ password"  # 修改 is "amend; alter; modify": memory writes none of them
    assert (r.words, r.understood) == (2, 1)


def test_the_cut_prefers_words_memory_knows_over_a_place_name() -> None:
    # 新密 is a county in Henan; 新 + 密码 is "new password"
    assert [w.text for w in cut("新密码", Vocabulary(["new", "password"]))] == ["新", "密码"]
    assert gloss("新密码", ["new", "password"]).text == "new password"


def test_memory_s_own_form_of_a_stem_is_written() -> None:
    # 修复: "to restore; to renovate; restoration; (computing) to repair (a corrupted file etc)": the
    # first sense memory writes is chosen, in memory's form of its stem
    assert gloss("修复", ["restored", "bug"]).text == "restored"
    assert gloss("修复", ["bug"]).text == "□"


def test_particles_count_for_nothing_and_punctuation_reads_as_ascii() -> None:
    r = gloss("密码吗？BH-7", ["password"])
    assert r.text.startswith("password? BH-7")
    assert r.words == 1  # 吗 is a particle: no sense to understand


def test_text_without_chinese_is_left_as_it_is() -> None:
    assert gloss("Is BH-7 fixed?", ["fixed"]).text == "Is BH-7 fixed?"
    assert gloss("Is BH-7 fixed?", []).words == 0


def test_the_baseline_searches_a_chinese_question_in_memory_s_words() -> None:
    text = "删除账号的根本原因是什么？"
    shown = [
        (
            {"query": text},
            "[2026-06-01 10:00 id=R1 importance=5 similarity=0.10] Delete account: root cause unknown",
        )
    ]
    reading = read_in_memory_words(text, shown)
    assert "delete account" in reading and "root" in reading
    q = read_question(text)
    q.reading = reading
    assert (SEARCH, {"query": reading}) in plan(q, [])
    # an English question is read as it is, and only the first round's results give the vocabulary
    assert read_in_memory_words("Why does delete account fail?", shown) == ""
    assert read_in_memory_words(text, [({"query": reading}, shown[0][1])]) == ""


def test_a_sense_that_spells_one_of_memorys_kinds_of_record_comes_first() -> None:
    # 交接: "to come into contact; to meet; to hand over to; ...": memory writes "meet" and "hand over",
    # and keeps hand-over notes (kind "handover"), so the hand-over is what the word is read as
    words = ["meet", "hand", "over", "to", "note"]
    assert gloss("交接", words).text == "meet"
    assert gloss("交接", words, ["handover", "bug_report"]).text == "handover"
    # a kind of two words is written as words, as memory's labels are read
    vocab = Vocabulary([], ["bug_report", "handover"])
    assert vocab.label_in(("file", "a", "bug", "report")) == "bug report"
    assert vocab.label_in(("hand", "over", "to")) == "handover"
    assert vocab.label_in(("report", "a", "bug")) is None
