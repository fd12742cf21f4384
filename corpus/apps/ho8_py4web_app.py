"""The corpus's py4web site: a community seed library, written the way py4web's documentation has its
users write an app (a copy of the framework's `_scaffold`, a model, and one `Grid` per table). The seed
script copies `_scaffold` to `corpus_apps/seeds` and this file over its `controllers.py`; everything
the pages are made of (the grid, its pager, search and sort, its details/edit/delete forms, the auth
forms, the layout) is py4web's own code from the checkout.

A public catalogue (read only, with details), and behind the login the varieties and suppliers
grids with create, edit and delete."""

from py4web import URL, Field, action, redirect
from py4web.utils.grid import Grid
from pydal.validators import IS_EMPTY_OR, IS_IN_DB, IS_INT_IN_RANGE, IS_NOT_EMPTY

from .common import T, auth, db, session

db.define_table(
    "supplier",
    Field("name", requires=IS_NOT_EMPTY()),
    Field("town"),
    Field("website"),
    format="%(name)s",
)

db.define_table(
    "variety",
    Field("name", requires=IS_NOT_EMPTY()),
    Field("crop", requires=IS_NOT_EMPTY()),
    Field("supplier", "reference supplier", requires=IS_EMPTY_OR(IS_IN_DB(db, "supplier.id", "%(name)s"))),
    Field("days_to_maturity", "integer", requires=IS_EMPTY_OR(IS_INT_IN_RANGE(1, 400))),
    Field("packets", "integer", default=0),
    Field("last_sown", "date"),
    Field("notes", "text"),
    format="%(name)s",
)
db.commit()

MENU = [("Catalogue", "catalogue"), ("Varieties", "varieties"), ("Suppliers", "suppliers")]


def page(title, grid):
    return dict(title=title, grid=grid, menu=[(label, URL(name)) for label, name in MENU])


@action("index")
def index():
    redirect(URL("catalogue"))


@action("catalogue", method=["GET", "POST"])
@action("catalogue/<path:path>", method=["GET", "POST"])
@action.uses("grid.html", session, db, auth, T)
def catalogue(path=None):
    grid = Grid(
        path,
        db.variety.id > 0,
        columns=[
            db.variety.name,
            db.variety.crop,
            db.variety.supplier,
            db.variety.days_to_maturity,
            db.variety.last_sown,
            db.variety.notes,
        ],
        search_queries=[
            ["By name", lambda value: db.variety.name.contains(value)],
            ["By crop", lambda value: db.variety.crop.contains(value)],
        ],
        orderby=db.variety.name,
        create=False,
        editable=False,
        deletable=False,
        rows_per_page=10,
        T=T,
    )
    return page("Seed catalogue", grid)


@action("varieties", method=["GET", "POST"])
@action("varieties/<path:path>", method=["GET", "POST"])
@action.uses("grid.html", session, db, auth.user, T)
def varieties(path=None):
    grid = Grid(
        path,
        db.variety.id > 0,
        columns=[db.variety.name, db.variety.crop, db.variety.supplier, db.variety.packets],
        search_queries=[["By name", lambda value: db.variety.name.contains(value)]],
        orderby=db.variety.name,
        rows_per_page=15,
        T=T,
    )
    return page("Varieties", grid)


@action("suppliers", method=["GET", "POST"])
@action("suppliers/<path:path>", method=["GET", "POST"])
@action.uses("grid.html", session, db, auth.user, T)
def suppliers(path=None):
    grid = Grid(path, db.supplier.id > 0, orderby=db.supplier.name, rows_per_page=10, T=T)
    return page("Suppliers", grid)
