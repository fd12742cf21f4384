<?php
// Router for PHP's built-in web server (ours, not Bludit's): what Bludit's .htaccess does under
// Apache with mod_rewrite. Existing files (theme and admin assets, uploads) are served as files, the
// installer answers at /install.php, every other path goes to index.php, which reads the pretty URL
// itself. Files under bl-content and bl-kernel are never served as they are (.htaccess denies them).
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$root = $_SERVER['DOCUMENT_ROOT'];
chdir($root);
if ($path === '/install.php') {
    $_SERVER['SCRIPT_NAME'] = '/install.php';
    $_SERVER['PHP_SELF'] = '/install.php';
    $_SERVER['SCRIPT_FILENAME'] = $root.'/install.php';
    require $root.'/install.php';
    return true;
}
$private = preg_match('#^/bl-(content/(databases|workspaces|pages|tmp)|kernel/.*\.php$)#', $path);
if ($path !== '/' && !$private && is_file($root.$path) && substr($path, -4) !== '.php') {
    return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $root.'/index.php';
require $root.'/index.php';
