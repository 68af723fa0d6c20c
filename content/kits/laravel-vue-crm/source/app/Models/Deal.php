<?php

namespace App\Models;

use App\Enums\DealStage;
use Illuminate\Database\Eloquent\Factories\HasFactory;
use Illuminate\Database\Eloquent\Model;
use Illuminate\Database\Eloquent\Relations\BelongsTo;
use Illuminate\Database\Eloquent\Relations\MorphMany;

class Deal extends Model
{
    use HasFactory;

    protected $fillable = ['title', 'value_cents', 'stage', 'position', 'expected_close_on', 'company_id', 'contact_id', 'owner_id'];

    protected function casts(): array
    {
        return [
            'stage' => DealStage::class,
            'expected_close_on' => 'date',
            'value_cents' => 'integer',
        ];
    }

    public function company(): BelongsTo
    {
        return $this->belongsTo(Company::class);
    }

    public function contact(): BelongsTo
    {
        return $this->belongsTo(Contact::class);
    }

    public function owner(): BelongsTo
    {
        return $this->belongsTo(User::class, 'owner_id');
    }

    public function activities(): MorphMany
    {
        return $this->morphMany(Activity::class, 'subject')->latest();
    }

    public function moveTo(DealStage $stage, int $position, User $by): void
    {
        $from = $this->stage;
        $this->update(['stage' => $stage, 'position' => $position]);

        if ($from !== $stage) {
            $this->activities()->create([
                'user_id' => $by->id,
                'type' => 'stage_changed',
                'properties' => ['from' => $from->value, 'to' => $stage->value],
            ]);
        }
    }
}
