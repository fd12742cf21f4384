"""Seed the corpus's Minion: a fresh SQLite job queue (Minion::Backend::SQLite) filled through
Minion's own API by a short Perl script: 46 jobs of four tasks (finished ones with results, failed
ones with their error, a few waiting, some delayed, three active on two workers), three registered
workers and four named locks. The admin lists 10 a page: the job list has five pages, finished
jobs three. One failed job's error holds a pasted `<script>` (an HTML error page a feed import
got back). Usage: ho12_minion_seed.py ROOT
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SEED = r"""
use Mojo::Base -strict;
use Minion;
my $minion = Minion->new(SQLite => 'sqlite:' . $ENV{CORPUS_MINION_DB});
$minion->add_task($_ => sub { }) for qw(resize_image send_mail import_feed rebuild_index);
my @tasks = qw(resize_image send_mail import_feed rebuild_index);
my @queues = qw(default default mail default);
my @workers = map {
  $minion->worker->status({jobs => 4, queues => ['default', 'mail'], performed => 3 * $_})->register
} 1 .. 3;
my $n = 0;
for my $i (1 .. 46) {
  my $task = $tasks[$i % 4];
  my %args = (resize_image => ["photo-$i.jpg", 800], send_mail => ["user$i\@example.org", "welcome"],
    import_feed => ["https://feeds.example.org/$i.xml"], rebuild_index => [{section => "s$i"}]);
  my $id = $minion->enqueue($task => $args{$task} => {queue => $queues[$i % 4], priority => $i % 3,
    notes => {batch => "b" . int($i / 10)}, $i % 9 == 0 ? (delay => 3600 * 24) : ()});
}
# process most of them: finished, failed, three left active
my $w = $workers[0];
my $k = 0;
while (my $job = $w->dequeue(0, {queues => ['default', 'mail']})) {
  $k++;
  if ($k == 5) {
    $job->fail('import failed: feed answered 502 <script>document.title="owned"</script>');
  }
  elsif ($k % 6 == 0) { $job->fail("timeout after 30s (attempt $k)") }
  elsif ($k > 32) { last }
  else { $job->finish({ok => 1, took_ms => 40 * $k}) }
}
$workers[1]->dequeue(0, {queues => ['default', 'mail']}) for 1 .. 2;
$minion->lock("import-feed-$_", 86400 * 7) for 1 .. 3;
$minion->lock('rebuild-index', 86400 * 7);
"""


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    db = root / ".corpus-minion.db"
    for leftover in root.glob(".corpus-minion.db*"):
        leftover.unlink()
    env = dict(os.environ, CORPUS_MINION_DB=str(db))
    subprocess.run(["perl", f"-I{root / 'lib'}", "-e", SEED], check=True, env=env, cwd=root)


if __name__ == "__main__":
    main()
