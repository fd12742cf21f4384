<?php
// Seed the corpus's Cockpit (v1): a fresh storage (the SQLite data files, collection definitions and the
// compiled view and asset caches are wiped, so a build's edited views are compiled anew), the account
// editor / corpus-editor-pw (group admin, the explorer's login), and two collections made with Cockpit's own
// module API: "authors" (12 entries) and "books" (95 entries: five pages of 20 in the entries list), 80 of
// the books published, five with no tags, three with "Test" in the title (the explorer's search word) and
// one whose title is a pasted <img onerror>. Usage: php ho22_cockpit_seed.php ROOT

if ($argc < 2) {
    fwrite(STDERR, "usage: php ho22_cockpit_seed.php ROOT\n");
    exit(2);
}

$root = rtrim($argv[1], '/');
$storage = $root . '/storage';

// wipe what earlier runs left (tracked placeholders such as index.html stay)
foreach (['data' => '/\.(sqlite|sqlite-wal|sqlite-shm|db)$/', 'tmp' => '/\.(js|php|css)$/',
          'cache' => '/\.(php|js|css)$/', 'collections' => '/\.php$/'] as $dir => $pattern) {
    $path = "$storage/$dir";
    if (!is_dir($path)) {
        continue;
    }
    foreach (scandir($path) as $name) {
        if (preg_match($pattern, $name) && is_file("$path/$name")) {
            unlink("$path/$name");
        }
    }
}

require $root . '/bootstrap.php';

$app = cockpit();
$now = time();

$account = [
    'user'      => 'editor',
    'name'      => 'Eda Editor',
    'email'     => 'editor@example.com',
    'active'    => true,
    'group'     => 'admin',
    'password'  => $app->hash('corpus-editor-pw'),
    'i18n'      => 'en',
    '_created'  => $now,
    '_modified' => $now,
];
$app->storage->insert('cockpit/accounts', $account);

$collections = $app->module('collections');

$collections->createCollection('authors', [
    'label' => 'Authors',
    'fields' => [
        ['name' => 'name', 'label' => 'Name', 'type' => 'text', 'required' => true, 'lst' => true],
        ['name' => 'country', 'label' => 'Country', 'type' => 'text', 'lst' => true],
        ['name' => 'bio', 'label' => 'Biography', 'type' => 'textarea', 'lst' => false],
    ],
]);

$collections->createCollection('books', [
    'label' => 'Books',
    'description' => 'The catalogue of the reading room',
    'fields' => [
        ['name' => 'title', 'label' => 'Title', 'type' => 'text', 'required' => true, 'lst' => true, 'options' => []],
        ['name' => 'author', 'label' => 'Author', 'type' => 'text', 'lst' => true, 'options' => []],
        ['name' => 'year', 'label' => 'Year', 'type' => 'text', 'lst' => true, 'options' => []],
        ['name' => 'published', 'label' => 'Published', 'type' => 'boolean', 'lst' => true, 'options' => []],
        ['name' => 'tags', 'label' => 'Tags', 'type' => 'tags', 'lst' => false, 'options' => []],
        ['name' => 'summary', 'label' => 'Summary', 'type' => 'textarea', 'lst' => false, 'options' => []],
    ],
]);

$names = ['Ursula Vance', 'Chidi Okafor', 'Mei Tanaka', 'Lars Eklund', 'Ana Moreira', 'Ravi Menon',
          'Ines Duarte', 'Tomasz Nowak', 'Helen Clarke', 'Kofi Mensah', 'Sofia Rossi', 'Pavel Hruby'];
$countries = ['UK', 'Nigeria', 'Japan', 'Sweden', 'Portugal', 'India'];
foreach ($names as $i => $name) {
    $entry = [
        'name' => $name,
        'country' => $countries[$i % count($countries)],
        'bio' => "$name has written " . (3 + $i) . " books.",
    ];
    $collections->save('authors', $entry);
}

$words = ['River', 'Glass', 'Winter', 'Harbour', 'Lantern', 'Orchard', 'Signal', 'Atlas', 'Meridian',
          'Copper', 'Garden', 'Tide', 'Ember', 'Quarry', 'Echo', 'Hollow', 'Compass', 'Bridge', 'Falcon'];
for ($i = 1; $i <= 95; $i++) {
    $title = $words[$i % count($words)] . ' ' . $words[($i * 7) % count($words)] . " $i";
    if (in_array($i, [17, 42, 71], true)) {
        $title = "Test Pattern $i";
    }
    if ($i === 5) {
        $title = '<img src=x onerror=alert(5)>';
    }
    $entry = [
        'title' => $title,
        'author' => $names[$i % count($names)],
        'year' => (string) (1950 + ($i * 3) % 70),
        'published' => $i % 6 !== 0,
        // a few books were catalogued before tags existed: no tags at all
        'tags' => $i % 19 === 0 ? null : [strtolower($words[$i % count($words)]), $i % 2 ? 'fiction' : 'essays'],
        'summary' => "A story of " . strtolower($words[($i * 5) % count($words)]) . "s and the people who keep them (book $i).",
    ];
    $collections->save('books', $entry);
}

fwrite(STDOUT, "seeded: 1 account, 12 authors, 95 books\n");
