<?php

use App\Http\Controllers\ContactController;
use App\Http\Controllers\DashboardController;
use App\Http\Controllers\DealController;
use App\Http\Controllers\ImportController;
use Illuminate\Support\Facades\Route;

Route::redirect('/', '/dashboard');

Route::middleware(['auth', 'verified'])->group(function () {
    Route::get('/dashboard', DashboardController::class)->name('dashboard');

    Route::resource('contacts', ContactController::class);

    Route::get('/deals/board', [DealController::class, 'board'])->name('deals.board');
    Route::patch('/deals/{deal}/stage', [DealController::class, 'move'])->name('deals.move');

    Route::post('/imports', [ImportController::class, 'store'])->name('imports.store');
    Route::get('/imports/{import}', [ImportController::class, 'show'])->name('imports.show');
});

require __DIR__.'/auth.php';
