"""Fresh Bugzilla for a corpus build (ours): `ho30_bugzilla_seed.py ROOT`.

Removes the last build's state (`localconfig`, `data/`: the SQLite database, compiled templates, the
params), runs Bugzilla's own `checksetup.pl` with an answers file (SQLite, no web server group, the
admin account) — twice, as a first run only writes `localconfig` — then sets the params an offline
corpus build needs (mail goes to `data/mailer.testfile`, no update check) and fills the database with
`ho30_bugzilla_seed.pl` through Bugzilla's own objects.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
ANSWERS = """
$answer{'db_driver'} = 'sqlite';
$answer{'db_name'} = 'bugs';
$answer{'webservergroup'} = '';
$answer{'create_htaccess'} = 0;
$answer{'urlbase'} = 'http://127.0.0.1/';
$answer{'ADMIN_EMAIL'} = 'admin@example.com';
$answer{'ADMIN_PASSWORD'} = 'corpus-admin-pw';
$answer{'ADMIN_REALNAME'} = 'Corpus Admin';
$answer{'NO_PAUSE'} = 1;
"""
PARAMS = {"mail_delivery_method": "Test", "upgrade_notification": "disabled"}


def run(*args: str) -> None:
    subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    (ROOT / "localconfig").unlink(missing_ok=True)
    shutil.rmtree(ROOT / "data", ignore_errors=True)
    answers = ROOT / ".corpus-answers"
    answers.write_text(ANSWERS)
    run("perl", "checksetup.pl", str(answers))
    run("perl", "checksetup.pl", str(answers))
    params_file = ROOT / "data" / "params.json"
    params = json.loads(params_file.read_text())
    params.update(PARAMS)
    params_file.write_text(json.dumps(params, indent=3, sort_keys=True))
    seed = Path(__file__).with_name("ho30_bugzilla_seed.pl")
    subprocess.run(["perl", str(seed)], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
