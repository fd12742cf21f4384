"""Seed ICUBAM's back office for the corpus: a fresh SQLite store, config and secrets.

Writes `ROOT/.corpus-data/` anew: `config.toml` (every other ICUBAM server's address, which the
back office pings once a minute, is the discard port on 127.0.0.1, so it reaches nothing),
`icubam.env` (throwaway secrets) and `icubam.db`, then fills the store through ICUBAM's own
`Store` API: an admin (`admin@icubam.test` / `corpus-admin-pw`), 5 regions, 48 ICUs, 60 users
(managers and staff; every tenth one manages two ICUs and works in both; one in seven refused
the SMS consent), a bed-count history per ICU. One ICU name and one user name carry what a
careless importer pastes (`<script>` in a CSV cell).

Usage: ho21_icubam_seed.py ROOT
"""

import shutil
import sys
from pathlib import Path

CONFIG = """default_locale = 'en-us'
[sms]
  origin = "ICUBAM"
  carrier = "FAKE"
[email]
  service = "FAKE"
  use_ssl = false
[db]
  sqlite_path = "{db}"
[server]
  port = 9
  base_url = "http://127.0.0.1:9/"
  upload_dir = "{data}/uploads/"
  consent = 'resources/consent.html'
  disclaimer = 'resources/disclaimer.html'
  num_days_for_stale = 1.0
  max_cluster_size = 10
  display_empty_icu = false
[messaging]
  port = 9
  base_url = "http://127.0.0.1:9/"
  timeout = 2
  telegram_bot = "corpus_bot"
  telegram_updates_every = 10
  token_validity_days = -1
[scheduler]
  max_retries = 3
  reminder_delay = 45
  new_user_delay = 60
  ping = ['12:30', '17:30']
[backoffice]
  port = 9
  ping_every = 60
  root = 'bo'
[analytics]
  port = 9
  base_url = "http://127.0.0.1:9/"
  generate_plots_every = 3600
  extra_plots_dir = "{data}/no-extra-plots"
  timeout = 10
"""

ENV = """SECRET_COOKIE=corpus-cookie-secret
JWT_SECRET=corpus-jwt-secret
DB_SALT=corpus-salt
"""

REGIONS = ["Ile-de-France", "Grand Est", "Hauts-de-France", "Occitanie", "Bretagne"]
CITIES = [
    ("Paris", "75"),
    ("Clamart", "92"),
    ("Bobigny", "93"),
    ("Creteil", "94"),
    ("Strasbourg", "67"),
    ("Mulhouse", "68"),
    ("Lille", "59"),
    ("Amiens", "80"),
    ("Toulouse", "31"),
    ("Montpellier", "34"),
    ("Rennes", "35"),
    ("Brest", "29"),
]
FIRST = ["Alice", "Bruno", "Chloe", "David", "Emma", "Farid", "Gabrielle", "Hugo", "Ines", "Jules"]
LAST = ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard"]


def main(root: Path) -> None:
    data = root / ".corpus-data"
    shutil.rmtree(data, ignore_errors=True)
    (data / "uploads").mkdir(parents=True)
    (data / "config.toml").write_text(CONFIG.format(db=data / "icubam.db", data=data))
    (data / "icubam.env").write_text(ENV)
    sys.path.insert(0, str(root))
    from icubam import config
    from icubam.db import store as db_store
    from icubam.db.store import ICU, BedCount, Region, User

    cfg = config.Config(str(data / "config.toml"), env_path=str(data / "icubam.env"))
    store = db_store.create_store_factory_for_sqlite_db(cfg).create()
    admin = store.add_user(
        User(
            name="Corpus Admin",
            telephone="+33100000000",
            email="admin@icubam.test",
            is_admin=True,
            password_hash=store.get_password_hash("corpus-admin-pw"),
        )
    )
    regions = [store.add_region(admin, Region(name=name)) for name in REGIONS]
    icus = []
    for i in range(48):
        city, dept = CITIES[i % len(CITIES)]
        name = f"CHU {city} {i + 1:02d}"
        if i == 7:
            name = 'CH Lille <script>alert("icu")</script>'
        icu = store.add_icu(
            admin,
            ICU(
                name=name,
                region_id=regions[(i // 3) % len(regions)],
                dept=dept,
                city=city,
                lat=43.0 + i * 0.1,
                long=1.0 + i * 0.1,
                telephone=f"+3314000{i:04d}",
                is_active=i % 11 != 5,
            ),
        )
        icus.append(icu)
        for day in range(3):
            store.update_bed_count_for_icu(
                admin,
                BedCount(
                    icu_id=icu,
                    n_covid_occ=10 + (i * 7 + day) % 13,
                    n_covid_free=(i * 5 + day) % 9,
                    n_ncovid_occ=4 + i % 6,
                    n_ncovid_free=(i + day) % 5,
                    n_covid_deaths=i % 4,
                    n_covid_healed=day + i % 7,
                    n_covid_refused=i % 3,
                    n_covid_transfered=(i + day) % 2,
                ),
            )
    for j in range(60):
        name = f"{FIRST[j % len(FIRST)]} {LAST[j % len(LAST)]} {j + 1}"
        if j == 12:
            name = '<script>alert("user")</script> Dupont'
        user = User(
            name=name,
            telephone=f"+3360000{j:04d}",
            email=f"user{j + 1}@icubam.test",
            description=f"Night shift, unit {j % 4 + 1}",
            consent=False if j % 7 == 3 or j % 20 == 0 else None,
        )
        if j % 10 == 0:
            user.password_hash = store.get_password_hash(f"corpus-user{j + 1}-pw")
        uid = store.add_user_to_icu(admin, icus[j % len(icus)], user)
        if j % 10 == 0:
            store.assign_user_as_icu_manager(admin, uid, icus[j % len(icus)])
            store.assign_user_as_icu_manager(admin, uid, icus[(j + 1) % len(icus)])
            store.assign_user_to_icu(admin, uid, icus[(j + 1) % len(icus)])


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
