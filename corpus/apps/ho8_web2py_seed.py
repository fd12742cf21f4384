"""Seed the corpus's web2py tool library, step 1 of 2 (run with the app's virtualenv): copy the
framework's `welcome` app to `ROOT/applications/tools` (fresh each time, so the checkout's injected
welcome app is what runs), put in our model and controller (`ho8_web2py_app.py`) and the views, and
point its menu at the three grids. Step 2, `ho8_web2py_fill.py`, runs inside web2py's shell with the
app's models loaded. `python ho8_web2py_seed.py ROOT`."""

import shutil
import sys
from pathlib import Path

root = Path(sys.argv[1])
app = root / "applications" / "tools"
shutil.rmtree(app, ignore_errors=True)
shutil.copytree(
    root / "applications" / "welcome",
    app,
    ignore=shutil.ignore_patterns("databases", "sessions", "errors", "cache", "uploads"),
)
for folder in ("databases", "sessions", "errors", "cache", "uploads"):
    (app / folder).mkdir(exist_ok=True)

source = Path(__file__).with_name("ho8_web2py_app.py").read_text()
model = source.split("# MODEL\n", 1)[1].split("# END MODEL\n", 1)[0]
model = "\n".join(line[2:] for line in model.splitlines())
(app / "models" / "db_tools.py").write_text(
    'TOOL_CATEGORIES = ["Hand tools", "Power tools", "Garden", "Ladders", "Kitchen", "Sewing"]\n'
    + model
    + "\n"
)
(app / "controllers" / "catalogue.py").write_text(source)
views = app / "views" / "catalogue"
views.mkdir()
for name in ("index", "tools", "suppliers"):
    (views / f"{name}.html").write_text("{{extend 'layout.html'}}\n<h2>{{=title}}</h2>\n{{=grid}}\n")
# the welcome app's menu: its Home plus our three grids
(app / "models" / "zz_menu.py").write_text(
    "response.menu = [\n"
    "    (T('Home'), False, URL('default', 'index'), []),\n"
    "    (T('Catalogue'), False, URL('catalogue', 'index'), []),\n"
    "    (T('Tools'), False, URL('catalogue', 'tools'), []),\n"
    "    (T('Suppliers'), False, URL('catalogue', 'suppliers'), []),\n"
    "]\n"
)
print("app in", app)
