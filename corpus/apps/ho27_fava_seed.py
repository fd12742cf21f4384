"""Seed for ho27_fava (ours, not the app's): a fresh Beancount ledger, its documents and import folder.

Usage: python ho27_fava_seed.py ROOT

Writes ROOT/.corpus-ledger/ (rewritten on every seed, so each run starts from the same books):
main.beancount (title "Corpus Household", 2024-2025: monthly salary and rent, weekly groceries,
restaurants, transport and utilities: ~230 transactions over 16 accounts, one of them closed; one
balance assertion that fails, one event whose description holds a pasted <img onerror>, notes and a stored query),
document files for three accounts (5, 3 and 1 statements, as `document` directives), and an import
folder with six bank CSV files read by importers.py (a small beangulp CSV importer of ours, the
app's documented import-config hook). Then rebuilds the Svelte front end (frontend/, esbuild, into
src/fava/static) when frontend/src differs from the last build (a hash kept beside the ledger), so
the served bundle is the build's own.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

IMPORTERS = '''"""Bank CSV importer for the corpus ledger (beangulp)."""
import csv
import datetime
from decimal import Decimal

import beangulp
from beancount.core import amount, data, flags


class BankCSV(beangulp.Importer):
    def __init__(self, account):
        self._account = account

    def identify(self, filepath):
        if not filepath.endswith(".csv"):
            return False
        with open(filepath, encoding="utf-8") as fh:
            return fh.readline().strip() == "Date,Payee,Narration,Amount"

    def account(self, filepath):
        return self._account

    def filename(self, filepath):
        return "bank-statement.csv"

    def date(self, filepath):
        with open(filepath, encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        return max(datetime.date.fromisoformat(r["Date"]) for r in rows)

    def extract(self, filepath, existing):
        entries = []
        with open(filepath, encoding="utf-8") as fh:
            for index, row in enumerate(csv.DictReader(fh)):
                units = amount.Amount(Decimal(row["Amount"]), "EUR")
                entries.append(data.Transaction(
                    data.new_metadata(filepath, index), datetime.date.fromisoformat(row["Date"]),
                    flags.FLAG_OKAY, row["Payee"], row["Narration"], data.EMPTY_SET, data.EMPTY_SET,
                    [data.Posting(self._account, units, None, None, None, None)]))
        return entries


CONFIG = [BankCSV("Assets:Bank:Checking")]
'''


def ledger_text(docs: list[tuple[str, str, str]]) -> str:
    out = [
        'option "title" "Corpus Household"',
        'option "operating_currency" "EUR"',
        '2023-01-01 custom "fava-option" "import-config" "importers.py"',
        '2023-01-01 custom "fava-option" "import-dirs" "import"',
        "",
    ]
    accounts = [
        "Assets:Bank:Checking",
        "Assets:Bank:Savings",
        "Assets:Cash",
        "Liabilities:CreditCard",
        "Income:Salary",
        "Income:Interest",
        "Expenses:Food:Groceries",
        "Expenses:Food:Restaurants",
        "Expenses:Rent",
        "Expenses:Transport",
        "Expenses:Utilities:Power",
        "Expenses:Utilities:Internet",
        "Expenses:Health",
        "Expenses:Books",
        "Equity:Opening-Balances",
        "Expenses:Travel",
    ]
    out += [f"2023-01-01 open {a} EUR" for a in accounts]
    out += [
        "",
        '2024-01-01 * "Opening" "Opening balances"',
        "  Assets:Bank:Checking  4200.00 EUR",
        "  Assets:Bank:Savings  12000.00 EUR",
        "  Assets:Cash  300.00 EUR",
        "  Equity:Opening-Balances",
        "",
    ]
    day = date(2024, 1, 3)
    shops = ["Corner Market", "Green Grocer", "Bio Laden", "Super Save"]
    restaurants = ["Trattoria Roma", "Noodle Bar", "Cafe Central"]
    n = 0
    while day < date(2025, 11, 1):
        if day.day <= 7 and day.weekday() == 0:
            out += [
                f'{day} * "Employer GmbH" "Salary {day:%B %Y}"',
                "  Assets:Bank:Checking  3150.00 EUR",
                "  Income:Salary",
                "",
            ]
            out += [
                f'{day} * "Landlord" "Rent {day:%B %Y}"',
                "  Expenses:Rent  1100.00 EUR",
                "  Assets:Bank:Checking",
                "",
            ]
            out += [
                f'{day} * "City Power" "Electricity"',
                f"  Expenses:Utilities:Power  {48 + day.month}.40 EUR",
                "  Assets:Bank:Checking",
                "",
            ]
            out += [
                f'{day} * "NetCom" "Internet"',
                "  Expenses:Utilities:Internet  34.99 EUR",
                "  Liabilities:CreditCard",
                "",
            ]
        shop = shops[n % len(shops)]
        out += [
            f'{day} * "{shop}" "Weekly groceries"',
            f"  Expenses:Food:Groceries  {40 + (n * 7) % 35}.{n % 100:02d} EUR",
            "  Assets:Cash" if n % 3 == 0 else "  Liabilities:CreditCard",
            "",
        ]
        if n % 2 == 0:
            out += [
                f'{day + timedelta(days=2)} * "{restaurants[n % 3]}" "Dinner"',
                f"  Expenses:Food:Restaurants  {22 + n % 30}.50 EUR",
                "  Liabilities:CreditCard",
                "",
            ]
        if n % 4 == 1:
            out += [
                f'{day + timedelta(days=1)} * "Transit Authority" "Monthly pass"',
                "  Expenses:Transport  49.00 EUR",
                "  Assets:Bank:Checking",
                "",
            ]
        n += 1
        day += timedelta(days=7)
    out += [
        '2024-06-14 * "Pharmacy" "Prescription" #health',
        "  Expenses:Health  18.20 EUR",
        "  Assets:Cash",
        "",
        '2024-09-20 * "Bookshop" "Novels" ^gift-2024',
        "  Expenses:Books  42.00 EUR",
        "  Liabilities:CreditCard",
        "",
        '2025-03-02 * "Rail" "Trip to Hamburg" #trip-hamburg',
        "  Expenses:Travel  129.00 EUR",
        "  Assets:Bank:Checking",
        "",
        '2025-06-30 * "Bank" "Interest"',
        "  Assets:Bank:Savings  61.12 EUR",
        "  Income:Interest",
        "",
        "2025-09-30 close Expenses:Travel",
        "2024-07-01 balance Assets:Bank:Savings  12000.00 EUR",
        "2025-07-01 balance Assets:Cash  999.00 EUR",
        "",
        '2024-01-01 event "location" "Berlin"',
        '2025-03-01 event "location" "Hamburg"',
        '2024-01-01 event "employer" "Employer GmbH"',
        '2024-05-01 event "doctor" "Dr. Weber, Praxis am Park"',
        '2025-02-01 event "doctor" "Pasted from the clinic site: <img src=x onerror=alert(1)>"',
        "",
        '2024-02-10 note Assets:Bank:Checking "Called the bank about the new card"',
        '2025-01-15 note Liabilities:CreditCard "Limit raised to 3000"',
        '2024-01-01 query "groceries-by-month" "SELECT month, sum(position) WHERE account ~ \'Groceries\' GROUP BY month"',
        "",
    ]
    out += [f'{d} document {acc} "{path}"' for d, acc, path in docs]
    return "\n".join(out) + "\n"


def build_frontend(root: Path, ledger_dir: Path) -> None:
    digest = hashlib.sha256()
    for path in sorted((root / "frontend" / "src").rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    stamp = root / ".corpus-frontend-hash"
    if (
        stamp.exists()
        and stamp.read_text() == digest.hexdigest()
        and (root / "src/fava/static/app.js").exists()
    ):
        return
    subprocess.run(["npm", "run", "build"], cwd=root / "frontend", check=True)
    stamp.write_text(digest.hexdigest())


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    ledger_dir = root / ".corpus-ledger"
    shutil.rmtree(ledger_dir, ignore_errors=True)
    (ledger_dir / "import").mkdir(parents=True)
    (ledger_dir / "docs").mkdir()
    docs: list[tuple[str, str, str]] = []
    plan = {"Assets:Bank:Checking": 5, "Liabilities:CreditCard": 3, "Expenses:Utilities:Power": 1}
    for account, count in plan.items():
        for i in range(count):
            name = f"docs/{account.replace(':', '-').lower()}-statement-{i + 1}.pdf"
            (ledger_dir / name).write_bytes(b"%PDF-1.4\n% corpus placeholder statement\n%%EOF\n")
            docs.append((f"2025-{i + 1:02d}-28", account, name))
    (ledger_dir / "main.beancount").write_text(ledger_text(docs), encoding="utf-8")
    (ledger_dir / "importers.py").write_text(IMPORTERS, encoding="utf-8")
    for i in range(6):
        rows = ["Date,Payee,Narration,Amount"]
        rows += [f"2025-11-{d + 1:02d},Shop {i}-{d},Card payment {d},-{10 + d}.{i}0" for d in range(4)]
        (ledger_dir / "import" / f"bank-export-{i + 1}.csv").write_text(
            "\n".join(rows) + "\n", encoding="utf-8"
        )
    build_frontend(root, ledger_dir)
    print(f"seeded {ledger_dir}")


if __name__ == "__main__":
    main()
