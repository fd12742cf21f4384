"""Seed the Next.js dashboard (held-out set 24): a fresh PostgreSQL database in the checkout's own
cluster (`.corpus-pg/`, made once with initdb, run as the `postgres` system user because PostgreSQL
refuses root), with the course's schema (`app/seed/route.ts`: users, customers, invoices, revenue),
its six customers and their portraits, three more customers, 44 invoices (eight pages of six) and the
login `user@nextmail.com` / `corpus-user-pw` (hashed by the app's own bcrypt module). Ten more invoices
belong to a customer since deleted (the schema has no foreign key; the app's lists join customers and
never show them).
One customer's name holds a pasted `<script>` (stored as typed; the clean build shows it as text).

With the database up, the seed also makes the production build (`next build` prerenders the pages
that read no request data, so it needs the data): once per distinct source (the clean build's, the
buggy build's), kept in `.corpus-builds/<hash>/` and copied into `.next/` on the next seed of the same
source. The database server is started here only for that and stopped again; ho24_nextdash_serve.py
starts it for the exploration. Usage: ho24_nextdash_seed.py ROOT.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

PG_BIN = Path("/usr/lib/postgresql/15/bin")
DB = "dashboard"
EMAIL = "user@nextmail.com"
PASSWORD = "corpus-user-pw"

CUSTOMERS = [
    ("d6e15727-9fe1-4961-8c5b-ea44a9bd81aa", "Evil Rabbit", "evil@rabbit.com", "evil-rabbit"),
    ("3958dc9e-712f-4377-85e9-fec4b6a6442a", "Delba de Oliveira", "delba@oliveira.com", "delba-de-oliveira"),
    ("3958dc9e-742f-4377-85e9-fec4b6a6442a", "Lee Robinson", "lee@robinson.com", "lee-robinson"),
    ("76d65c26-f784-44a2-ac19-586678f7c2f2", "Michael Novotny", "michael@novotny.com", "michael-novotny"),
    ("cc27c14a-0acf-4f4a-a6c9-d45682c144b9", "Amy Burns", "amy@burns.com", "amy-burns"),
    ("13d07535-c59e-4157-a011-f8d2ef4e0cbb", "Balazs Orban", "balazs@orban.com", "balazs-orban"),
    # three more customers reuse portraits the course ships (no other image is served)
    ("5b1e7c1e-2f0e-4c55-9a8e-1c1f0d6a0a01", "Ngozi Okafor", "ngozi@okafor.example", "amy-burns"),
    (
        "5b1e7c1e-2f0e-4c55-9a8e-1c1f0d6a0a02",
        "Tomas <script>alert('corpus-xss')</script> Weber",
        "tomas@weber.example",
        "michael-novotny",
    ),
    ("5b1e7c1e-2f0e-4c55-9a8e-1c1f0d6a0a03", "Ines Moreau", "ines@moreau.example", "delba-de-oliveira"),
]

REVENUE = [
    ("Jan", 2000), ("Feb", 1800), ("Mar", 2200), ("Apr", 2500), ("May", 2300), ("Jun", 3200),
    ("Jul", 3500), ("Aug", 3700), ("Sep", 2500), ("Oct", 2800), ("Nov", 3000), ("Dec", 4800),
]  # fmt: skip

SCHEMA = """
CREATE EXTENSION IF NOT EXISTS "uuid-ossp";
CREATE TABLE users (id UUID DEFAULT uuid_generate_v4() PRIMARY KEY, name VARCHAR(255) NOT NULL,
  email TEXT NOT NULL UNIQUE, password TEXT NOT NULL);
CREATE TABLE customers (id UUID DEFAULT uuid_generate_v4() PRIMARY KEY, name VARCHAR(255) NOT NULL,
  email VARCHAR(255) NOT NULL, image_url VARCHAR(255) NOT NULL);
CREATE TABLE invoices (id UUID DEFAULT uuid_generate_v4() PRIMARY KEY, customer_id UUID NOT NULL,
  amount INT NOT NULL, status VARCHAR(255) NOT NULL, date DATE NOT NULL);
CREATE TABLE revenue (month VARCHAR(4) NOT NULL UNIQUE, revenue INT NOT NULL);
"""


def q(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def stop_stale(data: Path) -> None:
    """A server left by a seed or serve that was cut short (the corpus's deadlines kill the script, not
    its children) holds the cluster's lock: stop it, bounded, before starting another."""
    if (data / "postmaster.pid").is_file():
        subprocess.run(["runuser", "-u", "postgres", "--", str(PG_BIN / "pg_ctl"), "-D", str(data), "stop",
                        "-m", "immediate", "-t", "30"], capture_output=True, check=False)  # fmt: skip


def start_postgres(data: Path, port: int, own_session: bool) -> subprocess.Popen[bytes]:
    """Start the cluster's server on 127.0.0.1:PORT (after stopping a stale one) and wait, bounded
    (60 s), until it accepts connections."""
    stop_stale(data)
    server = subprocess.Popen(
        ["runuser", "-u", "postgres", "--", str(PG_BIN / "postgres"), "-D", str(data), "-p", str(port),
         "-k", str(data), "-c", "listen_addresses=127.0.0.1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=own_session,
    )  # fmt: skip
    for _ in range(120):
        ready = subprocess.run([str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                               capture_output=True)  # fmt: skip
        if ready.returncode == 0:
            break
        time.sleep(0.5)
    return server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def as_postgres(args: list[str], **kw: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True, **kw)  # type: ignore[call-overload]


def ensure_cluster(root: Path) -> Path:
    data = root / ".corpus-pg"
    if not (data / "PG_VERSION").is_file():
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir()
        shutil.chown(data, "postgres", "postgres")
        as_postgres([str(PG_BIN / "initdb"), "-D", str(data), "--auth=trust", "-U", "postgres", "-E", "UTF8"],
                    stdout=subprocess.DEVNULL)  # fmt: skip
    return data


def bcrypt_hash(root: Path) -> str:
    script = f"process.stdout.write(require('bcrypt').hashSync({PASSWORD!r}, 10))"
    return subprocess.run(["node", "-e", script], cwd=root, check=True, capture_output=True, text=True).stdout


def data_sql(root: Path) -> str:
    lines = [SCHEMA]
    lines.append(
        f"INSERT INTO users VALUES ('410544b2-4001-4271-9855-fec4b6a6442a', 'User', {q(EMAIL)}, {q(bcrypt_hash(root))});"
    )
    for cid, name, email, image in CUSTOMERS:
        lines.append(
            f"INSERT INTO customers VALUES ({q(cid)}, {q(name)}, {q(email)}, '/customers/{image}.png');"
        )
    for i in range(44):
        cid = CUSTOMERS[(i * 5) % len(CUSTOMERS)][0]
        amount = 500 + (i * 7919) % 60000
        status = "pending" if i % 3 == 0 else "paid"
        # distinct dates, newest first: the list is ordered by date, so pages are well defined
        day = 28 - (i % 28)
        month = 12 - (i // 28) * 6 - (i % 6)
        date = f"2024-{month:02d}-{day:02d}"
        iid = uuid.UUID(int=(0x7A1CE000 << 96) + i + 1)
        lines.append(
            f"INSERT INTO invoices VALUES ({q(str(iid))}, {q(cid)}, {amount}, {q(status)}, {q(date)});"
        )
    for i in range(10):
        # invoices of a customer since deleted (the schema has no foreign key): the app's lists join
        # customers, so they never show
        iid = uuid.UUID(int=(0x7A1CE000 << 96) + 1000 + i)
        gone = "5b1e7c1e-2f0e-4c55-9a8e-1c1f0d6a0aff"
        lines.append(
            f"INSERT INTO invoices VALUES ({q(str(iid))}, {q(gone)}, {1200 + i}, 'paid', '2023-01-{10 + i:02d}');"
        )
    for month, value in REVENUE:
        lines.append(f"INSERT INTO revenue VALUES ({q(month)}, {value});")
    return "\n".join(lines) + "\n"


SOURCES = (
    "app",
    "auth.ts",
    "auth.config.ts",
    "proxy.ts",
    "next.config.ts",
    "package.json",
    "tailwind.config.ts",
)


SEED_VERSION = "2"  # the build prerenders pages from the seeded data: a change of data is a change of build


def source_hash(root: Path) -> str:
    digest = hashlib.sha256(SEED_VERSION.encode())
    for name in SOURCES:
        top = root / name
        for path in sorted([top] if top.is_file() else (p for p in top.rglob("*") if p.is_file())):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def build(root: Path, pg_port: int) -> None:
    digest = source_hash(root)
    cache = root / ".corpus-builds" / digest
    stamp = root / ".next" / "corpus-source-hash"
    if not (cache / "BUILD_ID").is_file():
        shutil.rmtree(cache, ignore_errors=True)
        # a finished build of this source whose copy was cut short (the corpus's seed deadline) is reused
        if not (stamp.is_file() and stamp.read_text(encoding="utf-8") == digest):
            shutil.rmtree(root / ".next", ignore_errors=True)
            env = {**os.environ, "POSTGRES_URL": f"postgres://postgres@127.0.0.1:{pg_port}/{DB}"}
            subprocess.run(
                [str(root / "node_modules" / ".bin" / "next"), "build"], cwd=root, check=True, env=env
            )
            stamp.write_text(digest, encoding="utf-8")
        partial = cache.with_name(cache.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(root / ".next", partial, ignore=shutil.ignore_patterns("cache"), symlinks=True)
        partial.rename(cache)  # only a finished build is ever reused
    shutil.rmtree(root / ".next", ignore_errors=True)
    shutil.copytree(cache, root / ".next", symlinks=True)


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    data = ensure_cluster(root)
    port = free_port()
    server = start_postgres(data, port, own_session=True)
    try:
        psql = [
            str(PG_BIN / "psql"),
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-U",
            "postgres",
            "-v",
            "ON_ERROR_STOP=1",
            "-q",
        ]
        subprocess.run([*psql, "-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {DB}"], check=True)
        subprocess.run([*psql, "-d", "postgres", "-c", f"CREATE DATABASE {DB}"], check=True)
        subprocess.run([*psql, "-d", DB], input=data_sql(root).encode(), check=True)
        build(root, port)
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
