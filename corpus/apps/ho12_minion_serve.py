"""Serve the corpus's Minion: its admin UI (Mojolicious::Plugin::Minion::Admin, from the checkout's
lib/) mounted at /minion in the few lines of Mojolicious::Lite its documentation shows, over the job
queue the seed script filled (Minion::Backend::SQLite, Debian's package, a file in the checkout),
with Debian's Perl and Mojolicious, on loopback. The task names are registered (no-ops) so the
search form lists them, as the application that enqueued them would. Usage: ho12_minion_serve.py ROOT PORT
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HOST_APP = r"""
use Mojolicious::Lite -signatures;
plugin Minion => {SQLite => 'sqlite:' . $ENV{CORPUS_MINION_DB}};
app->minion->add_task($_ => sub ($job, @args) { $job->finish }) for qw(resize_image send_mail import_feed rebuild_index);
plugin 'Minion::Admin' => {return_to => '/minion'};
get '/' => sub ($c) { $c->redirect_to('minion_dashboard') };
app->start;
"""


def database(root: Path) -> Path:
    return root / ".corpus-minion.db"


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    port = sys.argv[2]
    env = dict(os.environ, CORPUS_MINION_DB=str(database(root)))
    argv = ["perl", f"-I{root / 'lib'}", "-e", HOST_APP, "daemon", "-l", f"http://127.0.0.1:{port}"]
    os.chdir(root)
    os.execvpe("perl", argv, env)


if __name__ == "__main__":
    main()
