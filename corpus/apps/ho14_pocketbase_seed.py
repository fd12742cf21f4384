"""Seed the corpus's PocketBase: a fresh data folder (`.corpus-pb/`) migrated by PocketBase itself with one
JS migration of ours (`.corpus-migrations/`), written here: the superuser admin@example.com /
corpus-admin-pw, a catalogue of 12 authors and 95 books (the records list loads 40 at a time: two "Load
more" steps), three books with "Test" in the title (the explorer's search word), and one book whose
summary holds a pasted <img onerror>. Usage: ho14_pocketbase_seed.py ROOT VENV
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

MIGRATION = r"""
migrate((app) => {
  const authors = new Collection({
    type: "base", name: "authors", listRule: "", viewRule: "",
    fields: [
      { name: "name", type: "text", required: true, presentable: true },
      { name: "country", type: "text" },
      { name: "bio", type: "editor" },
    ],
  });
  app.save(authors);
  const books = new Collection({
    type: "base", name: "books", listRule: "", viewRule: "",
    fields: [
      { name: "title", type: "text", required: true, presentable: true },
      { name: "author", type: "relation", collectionId: authors.id, maxSelect: 1 },
      { name: "year", type: "number" },
      { name: "available", type: "bool" },
      { name: "summary", type: "text" },
      { name: "notes", type: "editor" },
    ],
  });
  app.save(books);

  const su = new Record(app.findCollectionByNameOrId("_superusers"));
  su.set("email", "admin@example.com");
  su.set("password", "corpus-admin-pw");
  app.save(su);

  const names = ["Ursula Vance", "Chidi Okafor", "Mei Tanaka", "Lars Eklund", "Ana Moreira", "Ravi Menon",
                 "Ines Duarte", "Tomasz Nowak", "Helen Clarke", "Kofi Mensah", "Sofia Rossi", "Pavel Hruby"];
  const countries = ["UK", "Nigeria", "Japan", "Sweden", "Portugal", "India"];
  const ids = [];
  names.forEach((name, i) => {
    const a = new Record(authors);
    a.set("name", name);
    a.set("country", countries[i % countries.length]);
    a.set("bio", "<p>" + name + " has written " + (3 + i) + " books.</p>");
    app.save(a);
    ids.push(a.id);
  });

  const words = ["River", "Glass", "Winter", "Harbour", "Lantern", "Orchard", "Signal", "Atlas", "Meridian",
                 "Copper", "Garden", "Tide", "Ember", "Quarry", "Echo", "Hollow", "Compass", "Bridge", "Falcon"];
  for (let i = 1; i <= 95; i++) {
    const b = new Record(books);
    let title = "The " + words[i % words.length] + " " + words[(i * 7) % words.length];
    if (i == 21) title = "Test Pilots of the North";
    if (i == 58) title = "A Test of Loyalty";
    if (i == 83) title = "Field Test";
    b.set("title", title + (i > 38 ? " " + (Math.floor(i / 19) + 1) : ""));
    b.set("author", ids[(i * 5) % ids.length]);
    b.set("year", 1950 + ((i * 13) % 70));
    b.set("available", i % 3 != 0);
    b.set("summary", i == 88 ? 'Reader review pasted from the old site: <img src=x onerror="document.title=\'pwned\'">'
                             : "A story of " + words[(i * 3) % words.length].toLowerCase() + " and " +
                               words[(i * 11) % words.length].toLowerCase() + ".");
    b.set("notes", i % 4 == 0 ? "<p>Second printing, " + (1960 + i % 50) + ".</p>" : "");
    app.save(b);
  }
}, (app) => {});
"""


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    venv = Path(sys.argv[2]).resolve()
    data = root / ".corpus-pb"
    migrations = root / ".corpus-migrations"
    shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(migrations, ignore_errors=True)
    migrations.mkdir()
    (migrations / "1700000000_corpus_seed.js").write_text(MIGRATION)
    subprocess.run(
        [
            str(venv / "bin" / "pocketbase"),
            "migrate",
            "up",
            "--dir",
            str(data),
            "--migrationsDir",
            str(migrations),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )


if __name__ == "__main__":
    main()
