"""The verbs that lose data when a request runs them, apart from their readings (`destructive_words`), so
that the reading of an action key's value (`request_action`), which `destructive_words` builds on, can ask
them too."""

from __future__ import annotations

VERBS = frozenset(
    "delete remove destroy deactivate uninstall unsubscribe erase purge wipe terminate drop trash unlink".split()
)
"""Verbs that lose data when a GET runs them: a hint of what to defer and to suspect unopened, and the
only reading of a verb in a path (`/files/3/unlink`). An action the query marks on a record under
another verb (`?@action=detach&msg=7`) is deferred all the same (`marked_action`) and judged by its
effect alone."""

ABBREVIATED = {"del": "delete", "rm": "remove"}
"""Short forms of the verbs that scripts written by hand name their actions with (a PHP or CGI tool's
row link `?p=docs&del=a.txt`, a file manager connector's `?cmd=rm&target=x`, a CRUD page's `?del=7`).
Read only where a word is a verb by its place — a query key given a value, an action key's value —
never in a path or a label, where "del" or "rm" may be anything (a language code, a unit)."""


def unabbreviated(word: str) -> str:
    """The verb a short form stands for (`del` → `delete`), else the word itself."""
    return ABBREVIATED.get(word.lower(), word)
