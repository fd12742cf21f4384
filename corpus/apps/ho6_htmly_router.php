<?php
// The PHP built-in server's router for HTMLy, doing what its .htaccess does under Apache: an existing
// file is served as a file, every other path goes to index.php; the data folders are never served.
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (preg_match('#^/(config|content|cache|backup)(/|$)#', $path)) {
    http_response_code(403);
    return true;
}
if ($path !== '/' && is_file($_SERVER['DOCUMENT_ROOT'] . $path)) {
    return false;
}
// HTMLy derives its own URL from the script's path under the document root
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $_SERVER['DOCUMENT_ROOT'] . '/index.php';
chdir($_SERVER['DOCUMENT_ROOT']);
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
