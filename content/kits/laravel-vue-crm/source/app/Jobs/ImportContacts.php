<?php

namespace App\Jobs;

use App\Models\Company;
use App\Models\Contact;
use App\Models\Import;
use App\Models\User;
use Illuminate\Bus\Queueable;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Bus\Dispatchable;
use Illuminate\Queue\InteractsWithQueue;
use Illuminate\Support\Facades\DB;
use Illuminate\Support\Facades\Validator;
use League\Csv\Reader;

class ImportContacts implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public int $tries = 1;

    public function __construct(public Import $import) {}

    public function handle(): void
    {
        $csv = Reader::createFromPath(storage_path("app/{$this->import->path}"));
        $csv->setHeaderOffset(0);
        $csv->mapHeader(array_map('strtolower', $csv->getHeader()));

        $errors = [];
        $imported = 0;
        $line = 1;

        foreach (array_chunk(iterator_to_array($csv->getRecords()), 500) as $chunk) {
            DB::transaction(function () use ($chunk, &$errors, &$imported, &$line) {
                foreach ($chunk as $row) {
                    $line++;
                    $validator = Validator::make($row, [
                        'email' => ['required', 'email'],
                        'first_name' => ['required', 'string', 'max:100'],
                    ]);
                    if ($validator->fails()) {
                        $errors[] = ['line' => $line, 'messages' => $validator->errors()->all()];
                        continue;
                    }

                    $company = filled($row['company'] ?? null) ? Company::firstOrCreate(['name' => trim($row['company'])]) : null;
                    $owner = User::where('email', $row['owner_email'] ?? '')->value('id') ?? $this->import->user_id;

                    Contact::updateOrCreate(['email' => strtolower($row['email'])], [
                        'first_name' => $row['first_name'],
                        'last_name' => $row['last_name'] ?? null,
                        'phone' => $row['phone'] ?? null,
                        'company_id' => $company?->id,
                        'owner_id' => $owner,
                    ]);
                    $imported++;
                }
            });
        }

        $this->import->update(['status' => 'finished', 'imported' => $imported, 'errors' => $errors]);
    }
}
