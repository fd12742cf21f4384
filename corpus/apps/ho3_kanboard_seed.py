"""Seed Kanboard (kanboard/kanboard) for the corpus: held-out set 3.

Run by `python -m corpus run` before every start: `python3 ho3_kanboard_seed.py {root}` removes the
SQLite database, writes the checkout's `config.php` (pretty URLs as under Apache's rewrite, nothing
sent off the machine) and creates the data through Kanboard's own models (`php` with `app/common.php`,
so the schema, the board columns, the activity stream and the positions are the app's own).
The data is ours and fixed: alice (`corpus-alice-pw`, the explorer's account) manages "Website
relaunch" (64 tasks: the list view pages at 30) and is a member of 24 more projects (the project list
pages at 20); 12 users; 3-7 comments a task; some tasks closed, some with time spent but no estimate,
some projects empty; one comment and one task title pasted with markup.
"""

import subprocess
import sys
from pathlib import Path

root = Path(sys.argv[1])
for name in ("db.sqlite", "db.sqlite-journal"):
    (root / "data" / name).unlink(missing_ok=True)
(root / "config.php").write_text(
    """<?php
// corpus: pretty URLs (the router script stands in for mod_rewrite); mail and the plugin
// directory point at a closed loopback port, so nothing leaves the machine.
define('ENABLE_URL_REWRITE', true);
define('PLUGIN_API_URL', 'http://127.0.0.1:9/plugins.json');
define('PLUGIN_INSTALLER', false);
define('MAIL_TRANSPORT', 'smtp');
define('MAIL_SMTP_HOSTNAME', '127.0.0.1');
define('MAIL_SMTP_PORT', 9);
define('BRUTEFORCE_CAPTCHA', 1000);
define('BRUTEFORCE_LOCKDOWN', 1000);
""",
    encoding="utf-8",
)

PHP = r"""
require 'app/common.php';
use Kanboard\Core\Security\Role;

$c = $container;
$c['userModel']->update(['id' => 1, 'password' => 'corpus-admin-pw']);
$people = [
    ['alice', 'Alice Moreau'], ['bob', 'Bob Lind'], ['carol', 'Carol Eze'], ['dmitri', 'Dmitri Novak'],
    ['elif', 'Elif Kaya'], ['farah', 'Farah Haddad'], ['goran', 'Goran Horvat'], ['hana', 'Hana Ito'],
    ['ines', 'Ines Costa'], ['jonas', 'Jonas Berg'], ['kaito', 'Kaito Sato'], ['lena', 'Lena Fischer'],
];
$uid = [];
foreach ($people as [$login, $name]) {
    $uid[$login] = $c['userModel']->create([
        'username' => $login, 'password' => 'corpus-'.$login.'-pw', 'name' => $name,
        'email' => $login.'@corpus.example', 'role' => Role::APP_USER,
    ]);
}
$members = array_values($uid);

$verbs = ['Fix', 'Review', 'Update', 'Write', 'Test', 'Design', 'Migrate', 'Document', 'Refactor', 'Plan'];
$things = ['login page', 'search results', 'footer links', 'newsletter form', 'pricing table', 'image gallery',
           'contact form', 'sitemap', 'cookie banner', 'blog archive', 'press kit', 'job board', 'FAQ',
           'team page', 'release notes', 'checkout flow'];
$remarks = ['Looks good to me.', 'I can take this one next week.', 'Blocked until the copy is final.',
            'Moved to the next sprint.', 'Tested on mobile, works.', 'Please add screenshots.',
            'Same issue on staging.', 'Done, waiting for review.', 'Customer asked about this again.'];

function seed_task($c, $project_id, $n, $title, $owner, $creator, $extra = []) {
    global $remarks, $members;
    $values = array_merge([
        'project_id' => $project_id, 'title' => $title, 'owner_id' => $owner, 'creator_id' => $creator,
        'description' => "Task $n of the plan.\n\n- check the current state\n- agree on the change",
        'reference' => 'REF-'.(1000 + $n), 'priority' => $n % 4, 'time_estimated' => ($n % 5) * 2,
    ], $extra);
    $task_id = $c['taskCreationModel']->create($values);
    for ($k = 0; $k < 3 + $n % 5; $k++) {
        $c['commentModel']->create([
            'task_id' => $task_id, 'user_id' => $members[($n + $k) % count($members)],
            'comment' => $remarks[($n * 3 + $k) % count($remarks)],
        ]);
    }
    return $task_id;
}

// the main project: alice manages it, 64 tasks, the list view shows 30 a page
$main = $c['projectModel']->create(['name' => 'Website relaunch', 'description' => 'The new public website, launch in spring.', 'identifier' => 'WEB'], $uid['alice'], true);
foreach (['bob', 'carol', 'dmitri', 'elif'] as $m) {
    $c['projectUserRoleModel']->addUser($main, $uid[$m], Role::PROJECT_MEMBER);
}
$team = [$uid['alice'], $uid['bob'], $uid['carol'], $uid['dmitri'], $uid['elif']];
for ($n = 1; $n <= 64; $n++) {
    $title = $verbs[$n % count($verbs)].' '.$things[$n % count($things)].' #'.$n;
    $extra = [];
    if ($n % 7 == 3) {
        // time logged by hand, never estimated
        $extra = ['time_estimated' => 0, 'time_spent' => 1.5];
    } elseif ($n % 4 == 0) {
        $extra = ['time_spent' => 1];
    }
    $task_id = seed_task($c, $main, $n, $title, $team[$n % count($team)], $uid['alice'], $extra);
    if ($n % 9 == 0) {
        $c['taskStatusModel']->close($task_id);
    }
}
// a title pasted from an e-mail client, markup and all
seed_task($c, $main, 65, "Broken embed <script>alert('corpus-xss')</script> on partner page", $uid['alice'], $uid['bob'], ['priority' => 3]);
$c['commentModel']->create(['task_id' => 2, 'user_id' => $uid['carol'],
    'comment' => "The widget code they sent: <script>alert('corpus-xss-comment')</script>"]);

// 24 more projects alice belongs to (the project list shows 20 a page); every fourth is still empty
$areas = ['Mobile app', 'Intranet', 'Data warehouse', 'Customer portal', 'Onboarding', 'Billing', 'Support desk',
          'Design system', 'Analytics', 'Security audit', 'Office move', 'Hiring', 'Partner API', 'Docs site',
          'Load testing', 'Accessibility', 'Translations', 'Newsletter', 'Trade fair', 'Budget 2027',
          'Archive cleanup', 'Podcast', 'Webshop', 'Helpdesk bot'];
$n = 100;
foreach ($areas as $i => $area) {
    $owner = $members[($i + 1) % count($members)];
    $pid = $c['projectModel']->create(['name' => $area, 'description' => "Project $area."], $owner, true);
    if ($owner != $uid['alice']) {
        $c['projectUserRoleModel']->addUser($pid, $uid['alice'], $i % 3 == 0 ? Role::PROJECT_MANAGER : Role::PROJECT_MEMBER);
    }
    $c['projectUserRoleModel']->addUser($pid, $members[($i + 5) % count($members)], Role::PROJECT_MEMBER);
    if ($i % 4 == 3) {
        continue;
    }
    for ($t = 0; $t < 3 + $i % 6; $t++) {
        $n++;
        $task_id = seed_task($c, $pid, $n, $verbs[$n % count($verbs)].' '.$things[$n % count($things)], $t % 2 ? $uid['alice'] : $owner, $owner);
        if ($t % 3 == 2) {
            $c['taskStatusModel']->close($task_id);
        }
    }
}
echo "kanboard seeded: ".count($uid)." users, 25 projects, ".$c['db']->table('tasks')->count()." tasks, ".$c['db']->table('comments')->count()." comments\n";
"""
subprocess.run(["php", "-r", PHP], cwd=root, check=True)
