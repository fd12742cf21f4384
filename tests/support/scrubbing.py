"""The secrets scrubber's plain definition, which the scrubber's shortcuts are tested against."""

from __future__ import annotations

import re

from bughunt.explorer.secrets import REDACTED, _forms


def scrubbed_as_defined(secrets: list[str], text: str) -> str:
    """Every form of every secret replaced, longest first, in one scan."""
    forms = sorted({f for s in secrets if len(s) >= 4 for f in _forms(s)}, key=len, reverse=True)
    if not forms:
        return text
    return re.compile("|".join(re.escape(f) for f in forms)).sub(REDACTED, text)
