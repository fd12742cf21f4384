"""Shortcuts on the step's path (issue 28, eighth pass): each answers what the plain definition it
replaces answers, tested on random input against that definition."""

from __future__ import annotations

import random

import pytest

from bughunt.explorer.secrets import REDACTED, Scrubber, _forms

_TEXT_CHARS = "ab-_/%=+ .\u00e9"


def _scrubbed_as_defined(secrets: list[str], text: str) -> str:
    """Every form of every secret replaced, longest first, in one scan."""
    import re

    forms = sorted({f for s in secrets if len(s) >= 4 for f in _forms(s)}, key=len, reverse=True)
    if not forms:
        return text
    return re.compile("|".join(re.escape(f) for f in forms)).sub(REDACTED, text)


@pytest.mark.parametrize("seed", range(4))
def test_a_scrubbed_text_is_the_one_scan_of_every_form(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(300):
        secrets = ["".join(rnd.choice(_TEXT_CHARS) for _ in range(rnd.randint(2, 9))) for _ in range(3)]
        scrubber = Scrubber(secrets)
        for _ in range(20):
            pieces = [rnd.choice((*secrets, "x", "/", "%2F", " ", "ab")) for _ in range(rnd.randint(0, 6))]
            text = "".join(pieces)[: rnd.randint(0, 30)]
            assert scrubber.text(text) == _scrubbed_as_defined(secrets, text), (secrets, text)
