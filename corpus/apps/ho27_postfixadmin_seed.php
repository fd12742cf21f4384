<?php
/*
 * Seed for ho27_postfixadmin (ours, not the app's): a fresh SQLite database built by the app's own
 * upgrade.php, then rows written through the app's own handlers (the same path as its CLI).
 * Usage: php ho27_postfixadmin_seed.php ROOT
 * Accounts: superadmin alice@admin.example / corpus-alice-pw (the explorer's),
 *           domain admin bob@admin.example / corpus-bob-pw (two domains).
 * Data: 17 domains; example.com (the first, shown by default) with 34 mailboxes and 27 aliases (four
 *       and three pages of 10), one mailbox whose name holds a pasted <script>; example.net with 4
 *       mailboxes and 3 aliases; mail.example.com (no quota limit) with 2 mailboxes, one of unlimited
 *       quota; 3 alias domains of example.com; used quota
 *       rows (quota2, as Dovecot's quota dict writes them) for every mailbox.
 */
$root = rtrim($argv[1], '/');
$db = "$root/corpus-postfixadmin.sqlite";
@unlink($db);
touch($db);
@mkdir("$root/templates_c", 0777, true);
file_put_contents("$root/config.local.php", <<<PHPCONF
<?php
\$CONF['configured'] = true;
\$CONF['database_type'] = 'sqlite';
\$CONF['database_name'] = '$db';
\$CONF['encrypt'] = 'php_crypt:SHA512';
\$CONF['emailcheck_resolve_domain'] = 'NO';
\$CONF['sendmail'] = 'NO';
\$CONF['show_footer_text'] = 'NO';
\$CONF['footer_link'] = '';
\$CONF['page_size'] = '10';
\$CONF['password_validation'] = array('/.{5}/' => 'password_too_short 5');
\$CONF['quota'] = 'YES';
\$CONF['vacation'] = 'NO';
\$CONF['used_quotas'] = 'YES';
\$CONF['new_quota_table'] = 'YES';
PHPCONF);

define('POSTFIXADMIN_CLI', 1);
chdir("$root/public");
ob_start();
require "$root/public/upgrade.php";
ob_end_clean();

function put($class, $new, $id, $values) {
    $h = new $class($new);
    if (!$h->init($id) || !$h->set($values) || !$h->save()) {
        fwrite(STDERR, "$class $id: " . print_r($h->errormsg, true) . "\n");
        exit(1);
    }
}

$domains = ['example.com', 'example.net', 'mail.example.com'];
for ($i = 1; $i <= 11; $i++) {
    $domains[] = sprintf('shop%02d.example.org', $i);
}
foreach ($domains as $n => $d) {
    put('DomainHandler', 1, $d, ['description' => "Corpus domain $n", 'aliases' => 100, 'mailboxes' => 100,
        'maxquota' => $d == 'mail.example.com' ? 0 : 200, 'quota' => $d == 'mail.example.com' ? 0 : 2000, 'transport' => 'virtual', 'backupmx' => 0, 'active' => 1,
        'default_aliases' => 0]);
}
put('AdminHandler', 1, 'alice@admin.example', ['password' => 'corpus-alice-pw', 'password2' => 'corpus-alice-pw',
    'superadmin' => 1, 'domains' => ['ALL'], 'active' => 1]);
put('AdminHandler', 1, 'bob@admin.example', ['password' => 'corpus-bob-pw', 'password2' => 'corpus-bob-pw',
    'superadmin' => 0, 'domains' => ['example.net', 'mail.example.com'], 'active' => 1]);

$first = ['anna', 'ben', 'carla', 'dan', 'eva', 'finn', 'greta', 'hugo', 'ida', 'jonas', 'kim', 'lena'];
for ($i = 0; $i < 34; $i++) {
    $local = $first[$i % 12] . ($i >= 12 ? intdiv($i, 12) : '');
    $name = ucfirst($first[$i % 12]) . ' Member ' . ($i + 1);
    if ($i == 0) {
        $name = 'Anna <script>alert(1)</script> Pasted';
    }
    put('MailboxHandler', 1, "$local@example.com", ['name' => $name, 'password' => "mbox-pw-$i",
        'password2' => "mbox-pw-$i", 'quota' => 10 + $i, 'active' => 1, 'welcome_mail' => 0]);
}
for ($i = 0; $i < 4; $i++) {
    put('MailboxHandler', 1, "user$i@example.net", ['name' => "Net User $i", 'password' => "mbox-pw-n$i",
        'password2' => "mbox-pw-n$i", 'quota' => 10, 'active' => 1, 'welcome_mail' => 0]);
}
for ($i = 0; $i < 2; $i++) {
    put('MailboxHandler', 1, "post$i@mail.example.com", ['name' => "Post Office $i", 'password' => "mbox-pw-p$i",
        'password2' => "mbox-pw-p$i", 'quota' => $i == 1 ? 0 : 50, 'active' => 1, 'welcome_mail' => 0]);
}
for ($i = 0; $i < 3; $i++) {
    put('AliasHandler', 1, "team$i@example.net", ['goto' => ['user0@example.net', 'user1@example.net'], 'active' => 1]);
}
for ($i = 0; $i < 27; $i++) {
    put('AliasHandler', 1, "list$i@example.com", ['goto' => ['anna@example.com', 'ben@example.com'], 'active' => 1]);
}
foreach (['mirror-de.example', 'mirror-fr.example', 'mirror-it.example'] as $d) {
    put('DomainHandler', 1, $d, ['description' => "Alias target $d", 'aliases' => 10, 'mailboxes' => 10,
        'maxquota' => 10, 'quota' => 100, 'transport' => 'virtual', 'backupmx' => 0, 'active' => 1,
        'default_aliases' => 0]);
    put('AliasdomainHandler', 1, $d, ['target_domain' => 'example.com', 'active' => 1]);
}
foreach (db_query_all('SELECT username, quota FROM mailbox') as $n => $row) {
    $used = $row['quota'] > 0 ? intdiv((int) $row['quota'] * (($n * 7) % 10), 10) : 5242880;
    db_execute('INSERT INTO quota2 (username, bytes, messages) VALUES (?, ?, ?)', [$row['username'], $used, 3 + $n]);
}
echo "seeded $db\n";
