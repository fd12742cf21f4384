"""Set Redmine 5.0 up from the checkout on Debian's Ruby gems (no RubyGems download), once per commit.

Redmine's own Gemfile pins gem versions Debian does not have; `Gemfile.corpus` (written here, untracked,
named by BUNDLE_GEMFILE in the app file) asks for the same gems unpinned and `bundle lock --local`
resolves it against the installed Debian packages (`ruby-rails` 6.1 and the `ruby-*` packages the
Debian `redmine` package depends on, installed here with apt-get). Then the migrations (a minute
here), Redmine's default data (trackers, statuses, roles) and our seed (`ho11_redmine_seed.rb`) build
`db/corpus-template.sqlite3`; each build's seed step copies it (`ho11_redmine_seed.py`), so the slow
part runs once. Usage: ho11_redmine_setup.py ROOT
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

DEBIAN_PACKAGES = [
    "ruby",
    "ruby-rails",
    "ruby-sqlite3",
    "ruby-webrick",
    "sqlite3",
    "ruby-actionpack-action-caching",
    "ruby-actionpack-xml-parser",
    "ruby-addressable",
    "ruby-bundler",
    "ruby-coderay",
    "ruby-commonmarker",
    "ruby-csv",
    "ruby-task-list",
    "ruby-html-pipeline",
    "ruby-i18n",
    "ruby-jquery-rails",
    "ruby-mail",
    "ruby-marcel",
    "ruby-mini-magick",
    "ruby-mini-mime",
    "ruby-net-ldap",
    "ruby-nokogiri",
    "ruby-rack",
    "ruby-rails-observers",
    "ruby-rbpdf",
    "ruby-redcarpet",
    "ruby-request-store",
    "ruby-roadie",
    "ruby-roadie-rails",
    "ruby-rotp",
    "ruby-rouge",
    "ruby-rqrcode",
    "ruby-sanitize",
    "ruby-zip",
]

GEMFILE = """source 'https://rubygems.org'

gem 'rails', '~> 6.1.7'
gem 'rouge'
gem 'request_store'
gem 'mini_mime'
gem 'actionpack-xml_parser'
gem 'roadie-rails'
gem 'marcel'
gem 'mail'
gem 'csv'
gem 'nokogiri'
gem 'i18n'
gem 'rbpdf'
gem 'addressable'
gem 'rubyzip'
gem 'rotp'
gem 'rqrcode'
gem 'net-ldap'
gem 'redcarpet'
gem 'html-pipeline'
gem 'commonmarker'
gem 'sanitize'
gem 'deckar01-task_list'
gem 'sqlite3'
gem 'webrick'
"""

CONFIGURATION_YML = """production:
  email_delivery:
    delivery_method: :test
"""

DATABASE_YML = """production:
  adapter: sqlite3
  database: db/corpus.sqlite3
  timeout: 5000
"""


def run(argv: list[str], root: Path, env: dict[str, str]) -> None:
    print("$", " ".join(argv), flush=True)
    subprocess.run(argv, cwd=root, env=env, check=True)


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if shutil.which("bundle") is None or not Path("/usr/share/rubygems-integration").exists():
        run(["apt-get", "update", "-q"], root, env)
    run(
        [
            "apt-get",
            "install",
            "-y",
            "-q",
            "-o",
            "DPkg::Lock::Timeout=600",
            "--no-install-recommends",
            *DEBIAN_PACKAGES,
        ],
        root,
        env,
    )
    (root / "Gemfile.corpus").write_text(GEMFILE, encoding="utf-8")
    (root / "config" / "database.yml").write_text(DATABASE_YML, encoding="utf-8")
    (root / "config" / "configuration.yml").write_text(CONFIGURATION_YML, encoding="utf-8")
    env.update(
        BUNDLE_GEMFILE=str(root / "Gemfile.corpus"),
        RAILS_ENV="production",
        REDMINE_LANG="en",
        SECRET_KEY_BASE=env.get("SECRET_KEY_BASE", "corpus-redmine-" + "0" * 64),
    )
    run(["bundle", "lock", "--local"], root, env)
    db = root / "db" / "corpus.sqlite3"
    db.unlink(missing_ok=True)
    run(["bundle", "exec", "rake", "db:migrate"], root, env)
    run(["bundle", "exec", "rake", "redmine:load_default_data"], root, env)
    seed = Path(__file__).resolve().with_name("ho11_redmine_seed.rb")
    run(["bundle", "exec", "rails", "runner", str(seed)], root, env)
    shutil.copyfile(db, root / "db" / "corpus-template.sqlite3")


if __name__ == "__main__":
    main()
