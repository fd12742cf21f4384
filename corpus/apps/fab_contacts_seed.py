"""Seed Flask-AppBuilder's quickhowto example (dpgaspar/Flask-AppBuilder) for the corpus.

Run by `python -m corpus run` before every start, with the app's own virtualenv:
`{venv}/bin/python corpus/apps/fab_contacts_seed.py {root}`. A fresh database (the example's
app.db is replaced) made by the app itself (tables, roles, permissions of its views), then: a
role "Editor" with every permission on the contacts' views and menus (not the security views),
the user alice in it, an admin, 6 groups and 70 contacts (25 a page, so the list has three pages;
no group has more than 25, so each group's related list is one page). One contact in five has no
birthday, a few have no personal phone, one name holds pasted markup. The text is ours and fixed,
so every run explores the same site.
"""

import datetime
import os
import sys

ROOT = sys.argv[1]
EXAMPLE = os.path.join(ROOT, "examples", "quickhowto")
sys.path.insert(0, EXAMPLE)
os.chdir(EXAMPLE)
if os.path.exists("app.db"):
    os.remove("app.db")

from app import create_app  # noqa: E402
from app.extensions import appbuilder, db  # noqa: E402
from app.models import Contact, ContactGroup, Gender  # noqa: E402

VIEWS = {
    "ContactModelView",
    "GroupModelView",
    "ContactTimeChartView",
    "Contacts",
    "List Groups",
    "List Contacts",
    "Contacts Birth Chart",
}
FIRST = "Ada Basil Cora Dmitri Elena Farid Greta Hugo Ines Jonas Kira Liam Mara Nils Olga".split()
LAST = "Pewter Walnut Heron Fennel Saffron Cobble Lichen Quill Basalt Tinder".split()
GROUPS = ["Friends", "Family", "Work", "Neighbours", "Club", "Suppliers"]

app = create_app()
with app.app_context():
    sm = appbuilder.sm
    editor = sm.add_role("Editor")
    for pvm in sm.session.query(sm.permissionview_model).all():
        if pvm.view_menu.name in VIEWS:
            sm.add_permission_role(editor, pvm)
    sm.add_user("alice", "Alice", "Editor", "alice@example.test", editor, password="corpus-alice-pw")
    sm.add_user(
        "admin", "Ada", "Admin", "admin@example.test", sm.find_role("Admin"), password="corpus-admin-pw"
    )

    groups = [ContactGroup(name=name) for name in GROUPS]
    db.session.add_all(groups)
    genders = db.session.query(Gender).order_by(Gender.id).all()
    for n in range(70):
        name = f"{FIRST[n % len(FIRST)]} {LAST[(n * 3) % len(LAST)]}"
        if n >= len(FIRST):
            name += f" {n // len(FIRST) + 1}"
        if n == 40:
            # a contact imported from a web form with markup in the name; it must show as text
            name = "<script>alert('corpus-xss')</script> Imported"
        db.session.add(
            Contact(
                name=name,
                address=f"{10 + n} {LAST[n % len(LAST)]} Street",
                birthday=None
                if n % 5 == 3
                else datetime.date(1950 + (n * 7) % 55, 1 + n % 12, 1 + (n * 5) % 28),
                personal_phone=None if n % 9 == 4 else f"0{200 + n} 555 {1000 + n * 37}",
                personal_celphone=f"07{700 + n} {300000 + n * 4111}",
                contact_group=groups[(n * 7) % len(groups)],
                gender=genders[n % len(genders)],
            )
        )
    db.session.commit()
    print("fab_contacts seeded:", db.session.query(Contact).count(), "contacts")
