"""Seed the Hypermedia Systems contact app (bigskysoftware/contact-app) for the corpus.

Run by `python -m corpus run` before every start: `{venv}/bin/python corpus/apps/contact_app_seed.py
{root}` writes the app's own store, `contacts.json`, with 45 contacts (the list loads ten at a time).
The data is ours and fixed. Like real address books it has gaps: one person goes by one name (an
empty last name) and one has no phone.
"""

import json
import sys
from pathlib import Path

FIRST = "Ada Bruno Chiara Dmitri Elif Farah Goran Hana Ines Jonas Kaito Lena Mateo Nia Oskar".split()
LAST = "Abara Berg Costa Dahl Eze Fischer Gallo Horvat Ito Jansen Kowal Lind Moreau Novak Ortiz".split()

contacts = []
for n in range(45):
    first, last = FIRST[n % 15], LAST[(n * 4) % 15]
    domain = "testbench.example" if n % 6 == 0 else "mail.example"
    contacts.append(
        {
            "id": n + 1,
            "first": first,
            "last": last,
            "phone": f"555-01{n:02d}",
            "email": f"{first.lower()}.{last.lower()}{n}@{domain}",
            "errors": {},
        }
    )
contacts[2].update(first="Zendaya", last="", email="zendaya@mail.example")
contacts[5]["phone"] = ""
# page 2: a name pasted from a web form, markup and all; the app must show it as text
contacts[13]["last"] = "Okafor <script>alert('corpus-xss')</script> (work)"
Path(sys.argv[1], "contacts.json").write_text(json.dumps(contacts, indent=2), encoding="utf-8")
print("contact-app seeded:", len(contacts), "contacts")
