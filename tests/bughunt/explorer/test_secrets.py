"""The secret scrubber: every encoded form of a value, and the store's write boundary."""

from __future__ import annotations

import base64
import html
import json
import re
from urllib.parse import quote, quote_plus

import pytest

from bughunt.explorer.login import credentials_from_args
from bughunt.explorer.secrets import REDACTED, Scrubber
from bughunt.explorer.store import ExplorerStore
from memgpt_lite.errors import UsageError

SECRET = "s3cr&t <pw>/+=?"


@pytest.mark.parametrize(
    "shown",
    [
        SECRET,
        quote(SECRET, safe=""),
        quote(SECRET, safe="").lower(),
        quote_plus(SECRET),
        html.escape(SECRET),
        json.dumps(SECRET)[1:-1],
        base64.b64encode(SECRET.encode()).decode(),
        base64.urlsafe_b64encode(SECRET.encode()).decode(),
    ],
)
def test_every_form_of_a_secret_is_scrubbed(shown):
    scrubbed = Scrubber([SECRET]).text(f"before {shown} after")
    assert scrubbed.startswith("before ") and scrubbed.endswith(" after") and REDACTED in scrubbed
    assert "s3cr" not in scrubbed


def test_without_secrets_text_is_untouched_and_a_short_value_is_not_matched():
    assert Scrubber().text("anything") == "anything" and not Scrubber()
    assert Scrubber(["ab"]).text("a table") == "a table"  # would mangle every text
    assert Scrubber().add(["ab", "long-enough", ""]) == 1


def test_data_is_scrubbed_inside_and_the_store_writes_no_secret(tmp_path):
    scrubber = Scrubber(["tok-123456"])
    assert scrubber.data({"a": ["x tok-123456", ("tok-123456",)], "n": 3}) == {
        "a": ["x [secret]", ("[secret]",)],
        "n": 3,
    }
    store = ExplorerStore(tmp_path / "s")
    store.add_secrets(["tok-123456"])
    with store.transaction():
        store.meta.set("base_url", "http://a.test/?t=tok-123456")
        store.db.executemany(
            "INSERT INTO meta(key, value) VALUES (?, ?)", [("k1", "tok-123456"), ("k2", "x")]
        )
    assert store.meta.get("base_url") == "http://a.test/?t=[secret]"
    store.close()
    assert b"tok-123456" not in b"".join(p.read_bytes() for p in (tmp_path / "s").iterdir())


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a JSON storage-state file"),
        ("[1, 2]", "expected Playwright's storage state"),
        ('{"cookies": {"a": 1}}', "expected Playwright's storage state"),
        ('{"cookies": [{"name": "a", "value": 7}]}', "every cookie needs a string name and value"),
        ('{"cookies": [], "origins": [{"localStorage": "x"}]}', "every origin needs a localStorage list"),
        ("\udcff", "not a JSON storage-state file"),
    ],
)
def test_a_malformed_storage_state_is_one_line_naming_the_option(tmp_path, content, message):
    path = tmp_path / "state.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    with pytest.raises(UsageError, match=message) as err:
        credentials_from_args(
            login_url=None, username=None, password_env=None, cookies=None, headers=None,
            storage_state=path, base_url="http://127.0.0.1:1/",
        )  # fmt: skip
    assert str(err.value).startswith(f"--storage-state {path}: ") and "\n" not in str(err.value)


def test_a_storage_states_values_are_secrets(tmp_path):
    path = tmp_path / "state.json"
    state = {
        "cookies": [{"name": "sid", "value": "sid-value-1"}],
        "origins": [{"origin": "http://a.test", "localStorage": [{"name": "jwt", "value": "jwt-value-2"}]}],
    }
    path.write_text(json.dumps(state))
    creds = credentials_from_args(
        login_url=None, username=None, password_env=None, cookies=None, headers=None,
        storage_state=path, base_url="http://127.0.0.1:1/",
    )  # fmt: skip
    assert set(creds.secrets()) == {"sid-value-1", "jwt-value-2"} and "-value-" not in repr(creds)


def test_the_log_patcher_scrubs_every_message_before_a_sink_sees_it():
    from loguru import logger

    out: list[str] = []
    logger.configure(patcher=Scrubber(["tok-123456"]).patch_record)
    sink = logger.add(out.append, format="{message}", level="DEBUG")
    try:
        logger.debug("cookie tok-123456 and {}", quote("tok-123456") + "/")
    finally:
        logger.remove(sink)
        logger.configure(patcher=None)
    assert [line.strip() for line in out] == ["cookie [secret] and [secret]/"]


@pytest.mark.parametrize("values", [1, 2, 40], ids=["one-secret", "two-secrets", "forty-secrets"])
def test_a_text_without_a_secret_is_not_scanned_and_one_with_any_form_is_scrubbed(values, monkeypatch):
    secrets = [f"{SECRET}-{i}" for i in range(values)]
    scrubber = Scrubber(secrets)
    scanned = _Scans(scrubber._pattern)
    monkeypatch.setattr(scrubber, "_pattern", scanned)
    clean = "an ordinary page " * 200
    assert scrubber.text(clean) is clean
    # a few secrets' forms are looked for one by one, the alternation run only on a find
    assert scanned.texts == ([] if values <= 2 else [clean])
    for secret in (secrets[0], secrets[-1]):
        for shown in (
            secret,
            quote(secret, safe="").lower(),
            base64.b64encode(secret.encode()).decode().rstrip("="),
        ):
            assert scrubber.text(f"{clean} {shown} end") == f"{clean} {REDACTED} end", shown


class _Scans:
    """A compiled pattern that remembers the texts it scanned."""

    def __init__(self, pattern: re.Pattern[str] | None) -> None:
        assert pattern is not None
        self._pattern, self.texts = pattern, list[str]()

    def sub(self, repl: str, text: str) -> str:
        self.texts.append(text)
        return self._pattern.sub(repl, text)
