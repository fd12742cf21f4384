# The corpus's web2py site: a community tool library, written as web2py's book has its readers write
# one: the framework's `welcome` app copied (layout, Auth with its login/register/profile forms,
# generic views), plus this model and controller. The seed script puts this file in as
# `controllers/catalogue.py` and the model part below as `models/db_tools.py`; everything the pages
# are made of (SQLFORM.grid: its search box, sort links, "n records found", pager, view/edit/delete
# buttons and SQLFORM forms; the Auth forms; the layout) is web2py's own code from the checkout.
#
# MODEL
# db.define_table(
#     "supplier",
#     Field("name", requires=IS_NOT_EMPTY()),
#     Field("town"),
#     Field("website"),
#     format="%(name)s",
# )
# db.define_table(
#     "tool",
#     Field("name", requires=IS_NOT_EMPTY()),
#     Field("category", requires=IS_IN_SET(TOOL_CATEGORIES, zero="")),
#     Field("supplier", "reference supplier"),
#     Field("shelf"),
#     Field("loans", "integer", default=0),
#     Field("last_serviced", "date"),
#     Field("notes", "text"),
#     format="%(name)s",
# )
# END MODEL

# ruff: noqa: F821  (web2py executes controllers with auth, db, request, response and SQLFORM in scope)


def index():
    """The public catalogue: read only, with a View page per tool."""
    grid = SQLFORM.grid(
        db.tool,
        fields=[
            db.tool.name,
            db.tool.category,
            db.tool.supplier,
            db.tool.shelf,
            db.tool.last_serviced,
            db.tool.notes,
        ],
        orderby=db.tool.name,
        create=False,
        editable=False,
        deletable=False,
        csv=False,
        paginate=10,
        maxtextlengths={"tool.notes": 80, "tool.name": 40},
        user_signature=False,
    )
    return dict(title="Tool catalogue", grid=grid)


@auth.requires_login()
def tools():
    """The volunteers' list: create, edit, delete."""
    grid = SQLFORM.grid(
        db.tool,
        fields=[db.tool.name, db.tool.category, db.tool.shelf, db.tool.loans],
        orderby=db.tool.name,
        csv=False,
        paginate=15,
    )
    return dict(title="Tools", grid=grid)


@auth.requires_login()
def suppliers():
    grid = SQLFORM.grid(db.supplier, orderby=db.supplier.name, csv=False, paginate=10)
    return dict(title="Suppliers", grid=grid)
