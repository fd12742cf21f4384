# Seed the corpus's web2py tool library, step 2 of 2: run by web2py's shell with the app's models
# loaded (`web2py.py -S tools -M -R ho8_web2py_fill.py`), so db and auth are the app's own. A fresh
# database: volunteers alice and bob (`corpus-<name>-pw`), 8 suppliers, 64 tools (7 catalogue pages
# of 10, 5 pages of 15 in the volunteers' list), three never serviced (the catalogue's fourth page by
# name), three whose name holds "test", one whose notes hold pasted markup (second page).
# ruff: noqa: F821
import datetime
import random

rng = random.Random(8)
for name in ("alice", "bob"):
    db.auth_user.insert(
        first_name=name.title(),
        last_name="Volunteer",
        email=f"{name}@example.test",
        password=db.auth_user.password.validate(f"corpus-{name}-pw")[0],
    )
SUPPLIERS = [
    ("Anvil and Sons", "Leeds"),
    ("Bench Supply Co", "Derby"),
    ("Cobble Hardware", "Ripon"),
    ("Dale Tool Hire", "Settle"),
    ("Elm Street Ironmongers", "Frome"),
    ("Forge Lane Tools", "Stroud"),
    ("Garden Gate Supplies", "Wells"),
    ("Harbour Chandlery", "Whitby"),
]
suppliers = [
    db.supplier.insert(name=n, town=t, website=f"https://{n.split()[0].lower()}.example.test")
    for n, t in SUPPLIERS
]
TOOLS = {
    "Hand tools": [
        "Claw hammer",
        "Club hammer",
        "Tenon saw",
        "Hacksaw",
        "Chisel set",
        "Spirit level",
        "Socket set",
        "Pipe wrench",
        "Mole grips",
        "Bolt cutters",
        "Wood plane",
        "Tile cutter",
    ],
    "Power tools": [
        "Cordless drill",
        "Hammer drill",
        "Jigsaw",
        "Circular saw",
        "Orbital sander",
        "Belt sander",
        "Angle grinder",
        "Router",
        "Heat gun",
        "Nail gun",
        "Wallpaper steamer",
    ],
    "Garden": [
        "Hedge trimmer",
        "Lawn mower",
        "Strimmer",
        "Leaf blower",
        "Lawn aerator",
        "Pruning saw",
        "Loppers",
        "Wheelbarrow",
        "Post hole digger",
        "Pressure washer",
        "Log splitter",
    ],
    "Ladders": [
        "Step ladder",
        "Extension ladder",
        "Roof ladder",
        "Platform steps",
        "Combination ladder",
        "Scaffold tower",
        "Loft ladder",
        "Tripod ladder",
    ],
    "Kitchen": [
        "Pasta machine",
        "Stand mixer",
        "Jam pan",
        "Dehydrator",
        "Pressure canner",
        "Ice cream maker",
        "Bread maker",
        "Juicer",
        "Chocolate fountain",
        "Cake tins set",
    ],
    "Sewing": [
        "Sewing machine",
        "Overlocker",
        "Dress form",
        "Embroidery hoop set",
        "Quilting frame",
        "Knitting machine",
        "Rotary cutter",
        "Steam iron",
        "Button maker",
    ],
}
TOOLS["Power tools"].append("Voltage tester")
TOOLS["Hand tools"].append("Contest trophy engraver")
TOOLS["Ladders"].append("Latest safety ladder")
rows = sorted((n, c) for c, names in TOOLS.items() for n in names)
rows = rows[:64]
assert len(rows) == 64, len(rows)
day0 = datetime.date(2025, 2, 1)
for n, (name, category) in enumerate(rows):
    notes = f"{category} kit, checked on return; borrowed {n % 9 + 1} times last year."
    if n == 13:  # second catalogue page: someone pasted markup into the notes
        notes = "<script>alert('tools')</script> Spare blades in the box."
    db.tool.insert(
        name=name,
        category=category,
        supplier=suppliers[n % len(suppliers)],
        shelf=f"{'ABCDEF'[n % 6]}{n % 5 + 1}",
        loans=rng.randint(0, 40),
        # tools 31-33 (the catalogue's fourth page by name) have never been serviced
        last_serviced=None if n in (31, 32, 33) else day0 + datetime.timedelta(days=n * 4),
        notes=notes,
    )
db.commit()
print("seeded", db(db.tool).count(), "tools")
