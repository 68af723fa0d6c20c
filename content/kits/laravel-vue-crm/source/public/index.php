<?php

use Illuminate\Http\Request;

define('LARAVEL_START', microtime(true));

// The web server's document root: every request enters here.
if (file_exists($maintenance = __DIR__.'/../storage/framework/maintenance.php')) {
    require $maintenance;
}

require __DIR__.'/../vendor/autoload.php';

(require_once __DIR__.'/../bootstrap/app.php')->handleRequest(Request::capture());
