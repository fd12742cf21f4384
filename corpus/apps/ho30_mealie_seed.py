"""Fresh Mealie for a corpus build (ours): `ho30_mealie_seed.py ROOT`.

Puts the front end in place (`ho30_mealie_bundle.py`: the app's own `nuxt generate`, cached per distinct
`frontend/` source), then removes the last build's data folder and starts Mealie once on a spare loopback
port against an empty one: Mealie runs its migrations and creates its default group, household and admin
(changeme@example.com / MyPassword), and the seed fills it through Mealie's own REST API, as its forms
would: the admin's first-login setup done (admin@example.com / corpus-admin-pw), 6 categories, 8 tags, 4 tools, 70 recipes with a photo each (13 without a category, one description holding a pasted
<script>), 3 cookbooks, 3 shopping lists of 8 items (2 checked), 3 more users. Then it stops that server.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zlib
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
DATA = ROOT / ".corpus-data"
ADMIN = ("changeme@example.com", "MyPassword")
OWNER = {"email": "admin@example.com", "username": "admin", "fullName": "Corpus Admin"}
OWNER_PASSWORD = "corpus-admin-pw"
CATEGORIES = ("Breakfast", "Dinner", "Dessert", "Soup", "Salad", "Baking")
TAGS = ("quick", "vegetarian", "spicy", "kid-friendly", "make-ahead", "one-pot", "gluten-free", "holiday")
TOOLS = ("Oven", "Blender", "Dutch oven", "Skillet")
DISHES = (
    "Lentil Soup",
    "Banana Bread",
    "Shakshuka",
    "Greek Salad",
    "Pancakes",
    "Chili",
    "Apple Crumble",
    "Tomato Risotto",
    "Carrot Cake",
    "Minestrone",
    "Caesar Salad",
    "Granola",
    "Fish Tacos",
    "Brownies",
    "Pumpkin Soup",
    "Focaccia",
)


def png(n: int) -> bytes:
    """A small one-colour PNG (colour from n): every recipe gets a photo, as a used collection has."""
    width = height = 48
    rgb = bytes(((n * 53) % 256, (n * 97) % 256, (n * 151) % 256))
    raw = b"".join(b"\0" + rgb * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes((8, 2, 0, 0, 0))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def die_with_parent() -> None:
    """The seeding server ends with the seed (PR_SET_PDEATHSIG): a runner that kills a seed past its
    time limit kills that process only, and a server left behind would hold the next seed's data."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Api:
    def __init__(self, base: str) -> None:
        self.base = base
        self.token = ""

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        form: dict[str, str] | None = None,
        upload: tuple[str, bytes, dict[str, str]] | None = None,
    ) -> object:
        headers = {"Accept": "application/json"}
        data = None
        if upload is not None:
            field, content, fields = upload
            boundary = "corpus-seed-boundary"
            parts = [
                f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                for k, v in fields.items()
            ]
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="photo.png"\r\n'
                "Content-Type: image/png\r\n\r\n".encode()
                + content
                + b"\r\n"
            )
            data = b"".join(parts) + f"--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as e:
            raise SystemExit(f"{method} {path}: {e.code} {e.read().decode()[:500]}") from None
        return json.loads(text) if text else None


def seed(api: Api) -> None:
    token = api.call("POST", "/api/auth/token", form={"username": ADMIN[0], "password": ADMIN[1]})
    assert isinstance(token, dict)
    api.token = token["access_token"]
    # what the first-login setup asks an owner to do: the default account gets its owner's name, address
    # and password (while the default address exists, every admin login opens that setup page)
    me = api.call("GET", "/api/users/self")
    assert isinstance(me, dict)
    api.call("PUT", f"/api/users/{me['id']}", {**me, **OWNER})
    api.call("PUT", "/api/users/password", {"currentPassword": ADMIN[1], "newPassword": OWNER_PASSWORD})
    cats = [api.call("POST", "/api/organizers/categories", {"name": n}) for n in CATEGORIES]
    tags = [api.call("POST", "/api/organizers/tags", {"name": n}) for n in TAGS]
    for name in TOOLS:
        api.call("POST", "/api/organizers/tools", {"name": name})
    for n in range(70):
        dish = DISHES[n % len(DISHES)]
        name = dish if n < len(DISHES) else f"{dish} No. {n // len(DISHES) + 1}"
        slug = api.call("POST", "/api/recipes", {"name": name})
        description = f"A dependable {dish.lower()} for weeknights (recipe {n + 1})."
        if n == 21:
            description = 'Pasted from a blog: <script>alert("mealie")</script> keeps for three days.'
        patch = {
            "description": description,
            "recipeYield": f"{2 + n % 5} servings",
            "totalTime": f"{20 + 5 * (n % 9)} minutes",
            "recipeCategory": [] if n % 16 in (3, 7, 11) else [cats[n % len(cats)]],
            "tags": [tags[n % len(tags)], tags[(n * 3 + 1) % len(tags)]] if n % 4 else [],
            "recipeIngredient": [
                {
                    "note": f"{k + 1} cup ingredient {k + 1} for {dish.lower()}",
                    "referenceId": str(uuid.uuid5(uuid.NAMESPACE_URL, f"corpus-{n}-{k}")),
                }
                for k in range(3 + n % 3)
            ],
            "recipeInstructions": [
                {"title": "", "text": f"Step {k + 1}: prepare and cook.", "ingredientReferences": []}
                for k in range(3)
            ],
            "notes": [{"title": "Storage", "text": "Keeps two days in the fridge."}] if n % 5 == 0 else [],
        }
        api.call("PATCH", f"/api/recipes/{slug}", patch)
        api.call("PUT", f"/api/recipes/{slug}/image", upload=("image", png(n), {"extension": "png"}))
    for name in ("Weeknight Dinners", "Sweet Things", "Soups and Salads"):
        api.call("POST", "/api/households/cookbooks", {"name": name, "description": f"Our {name.lower()}."})
    for name in ("Groceries", "Farmers Market", "Party Supplies"):
        made = api.call("POST", "/api/households/shopping/lists", {"name": name})
        assert isinstance(made, dict)
        for k in range(8):
            api.call(
                "POST",
                "/api/households/shopping/items",
                {
                    "shoppingListId": made["id"],
                    "note": f"{name} item {k + 1}",
                    "quantity": 1 + k % 3,
                    "checked": k >= 6,
                },
            )
    for user in ("alice", "bob", "carol"):
        api.call(
            "POST",
            "/api/admin/users",
            {
                "username": user,
                "fullName": f"{user.title()} Cook",
                "email": f"{user}@example.com",
                "password": f"corpus-{user}-pw",
                "admin": False,
                "group": "Home",
                "household": "Family",
            },
        )


def main() -> None:
    subprocess.run(
        [sys.executable, str(Path(__file__).with_name("ho30_mealie_bundle.py")), str(ROOT)], check=True
    )
    for attempt in (1, 2):
        # a second try when the first server died before answering (seen once, at load 20)
        shutil.rmtree(DATA, ignore_errors=True)
        DATA.mkdir()
        if seed_once(attempt):
            return
    raise SystemExit("mealie did not start for seeding (see .corpus-seed-server.log)")


def seed_once(attempt: int) -> bool:
    """Start Mealie on a spare port, seed it and stop it; False when it died before answering."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(
        {
            "PRODUCTION": "true",
            "DATA_DIR": str(DATA),
            "BASE_URL": f"http://127.0.0.1:{port}",
            "STATIC_FILES": "",
        }
    )
    log = (ROOT / ".corpus-seed-server.log").open("ab")
    log.write(f"--- seeding server, attempt {attempt}, port {port}\n".encode())
    log.flush()
    server = subprocess.Popen(
        [
            str(ROOT / ".corpus-venv" / "bin" / "python"),
            "-m",
            "uvicorn",
            "mealie.app:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=die_with_parent,  # noqa: PLW1509 (no threads in this script)
    )
    try:
        api = Api(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 240
        while True:
            try:
                api.call("GET", "/api/app/about")
                break
            except (urllib.error.URLError, ConnectionError, SystemExit):
                if server.poll() is not None:
                    return False
                if time.monotonic() > deadline:
                    raise SystemExit("mealie did not answer within 240 s for seeding") from None
                time.sleep(1)
        seed(api)
        return True
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=30)
        log.close()


if __name__ == "__main__":
    main()
