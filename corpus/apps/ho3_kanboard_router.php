<?php
// Router for PHP's built-in web server (ours, not Kanboard's): what Kanboard's .htaccess does under
// Apache with mod_rewrite. Existing files (assets) are served as files; every other path goes to
// index.php, which reads the pretty URL itself (ENABLE_URL_REWRITE in the seeded config.php).
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$root = $_SERVER['DOCUMENT_ROOT'];
if ($path !== '/' && is_file($root.$path) && substr($path, -4) !== '.php') {
    return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $root.'/index.php';
chdir($root);
require $root.'/index.php';
