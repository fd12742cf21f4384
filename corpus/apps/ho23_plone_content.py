"""Content of ho23_plone's pristine database, run by `zconsole run zope.conf THIS` (`app` is the Zope root).

A Plone Classic site `Plone` (Barceloneta), author pages open to visitors, no mail server configured.
Members (one whose biography pasted an `<img onerror>`), groups with titles, descriptions and
addresses, three sections of published pages and news items by several authors (one author also has
private drafts), and manual alternative URLs (redirects) so their control panel pages. The explorer logs
in as `siteadmin`, a Plone user with the Manager role.
"""

# ruff: noqa: F821  (`app` is given by zconsole)
from __future__ import annotations

import transaction
from AccessControl.SecurityManagement import newSecurityManager
from DateTime import DateTime
from plone import api
from plone.app.redirector.interfaces import IRedirectionStorage
from Products.CMFPlone.factory import addPloneSite
from Testing.makerequest import makerequest
from zope.component import getUtility
from zope.component.hooks import setSite

# act as a Zope root manager (adding a Manager needs a Manager)
if app.acl_users.getUser("zope-root") is None:
    app.acl_users._doAddUser("zope-root", "corpus-zope-root-pw", ["Manager"], [])
newSecurityManager(None, app.acl_users.getUser("zope-root").__of__(app.acl_users))
root = makerequest(app)
site = addPloneSite(
    root,
    "Plone",
    title="Harbour Town Library",
    extension_ids=["plone.app.contenttypes:default", "plonetheme.barceloneta:default"],
    setup_content=False,
    default_language="en",
)
setSite(site)
api.portal.set_registry_record("plone.allow_anon_views_about", True)
api.portal.set_registry_record("plone.site_title", "Harbour Town Library")

api.user.create(
    email="siteadmin@example.org",
    username="siteadmin",
    password="corpus-admin-pw",
    roles=("Member", "Manager"),
    properties={"fullname": "Site Administrator"},
)
FIRST = ["Ada", "Bela", "Cora", "Dora", "Emil", "Fritz", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Lars"]
LAST = ["Berg", "Holm", "Lind", "Strand", "Dahl", "Nyberg", "Ek", "Wall"]
PLACES = ["Harbour Town", "Riverside", "Old Quarter", "North Pier", "Hillcrest"]
members = []
for n in range(44):
    first, last = FIRST[n % len(FIRST)], LAST[n % len(LAST)]
    username = f"{first.lower()}{last.lower()}{n}"
    api.user.create(
        email=f"{username}@example.org",
        username=username,
        password=f"corpus-{username}-pw",
        properties={
            "fullname": f"{first} {last}",
            "location": PLACES[n % len(PLACES)],
            "description": f"{first} volunteers at the {PLACES[n % len(PLACES)]} branch.",
        },
    )
    members.append(username)
api.user.create(
    email="mallory@example.org",
    username="mallory",
    password="corpus-mallory-pw",
    properties={
        "fullname": "Mallory Quinn",
        "location": "North Pier",
        "description": 'Reads everything. <img src="x" onerror="window.__ho23_xss=1">',
    },
)
api.user.create(
    email="dora@example.org",
    username="dora",
    password="corpus-dora-pw",
    properties={"fullname": "Dora Blom", "location": "Riverside", "description": "Writes the event notes."},
)
authors = ["mallory", "dora", *members[:6]]

for n, (gid, title) in enumerate(
    [
        ("readers", "Readers' circle"),
        ("volunteers", "Volunteers"),
        ("archivists", "Archivists"),
        ("events-team", "Events team"),
        ("children", "Children's corner"),
        ("board", "Library board"),
        ("translators", "Translators"),
        ("makers", "Makerspace"),
    ]
):
    api.group.create(
        groupname=gid,
        title=title,
        description=f"The {title.lower()} of the library, {n + 3} members.",
    )
    api.portal.get_tool("portal_groups").getGroupById(gid).setGroupProperties({"email": f"{gid}@example.org"})
    for member in members[n * 4 : n * 4 + 5]:
        api.group.add_user(groupname=gid, username=member)

TOPICS = [
    "opening hours",
    "reading club",
    "book sale",
    "test results of the new catalogue",
    "map archive",
    "story time",
    "repair cafe",
    "author visit",
    "film night",
    "language exchange",
    "test of the self-checkout",
]
sections = {}
for sid, title in [("news-room", "News room"), ("guides", "Guides"), ("events", "Events")]:
    sections[sid] = api.content.create(container=site, type="Folder", id=sid, title=title)
    api.content.transition(obj=sections[sid], transition="publish")
day = DateTime("2025/03/01 10:00:00 UTC")
for n in range(66):
    sid = ["news-room", "guides", "events"][n % 3]
    kind = "News Item" if sid == "news-room" else "Document"
    topic = TOPICS[n % len(TOPICS)]
    author = authors[n % len(authors)]
    obj = api.content.create(
        container=sections[sid],
        type=kind,
        id=f"{sid}-{n + 1}",
        title=f"{topic.capitalize()} ({n + 1})",
        description=f"Notes on the {topic}, part {n + 1}.",
    )
    obj.setCreators((author,))
    obj.creation_date = day + n
    api.content.transition(obj=obj, transition="publish")
    obj.reindexObject()
for n in range(3):
    draft = api.content.create(
        container=sections["events"],
        type="Document",
        id=f"draft-{n + 1}",
        title=f"Draft programme {n + 1}",
        description="Not published yet.",
    )
    draft.setCreators(("dora",))
    draft.reindexObject()

storage = getUtility(IRedirectionStorage)
base = "/".join(site.getPhysicalPath())
for n in range(52):
    target = f"{base}/{['news-room', 'guides', 'events'][n % 3]}"
    storage.add(f"{base}/old/page-{n + 1:02d}", target, manual=True)

transaction.commit()
print("site, 47 users, 8 groups, 72 items, 52 redirects")
