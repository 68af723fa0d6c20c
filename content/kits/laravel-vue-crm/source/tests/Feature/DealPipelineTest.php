<?php

use App\Models\Deal;
use App\Models\User;

it('lets sales users move their own deals and records the change', function () {
    $sales = User::factory()->create(['role' => 'sales']);
    $deal = Deal::factory()->for($sales, 'owner')->create(['stage' => 'lead']);

    $this->actingAs($sales)
        ->patch(route('deals.move', $deal), ['stage' => 'proposal', 'position' => 0])
        ->assertRedirect();

    expect($deal->fresh()->stage->value)->toBe('proposal')
        ->and($deal->activities()->first()->properties)->toBe(['from' => 'lead', 'to' => 'proposal']);
});

it('forbids sales users from moving deals owned by others', function () {
    $deal = Deal::factory()->create(['stage' => 'lead']);

    $this->actingAs(User::factory()->create(['role' => 'sales']))
        ->patch(route('deals.move', $deal), ['stage' => 'won', 'position' => 0])
        ->assertForbidden();
});

it('rejects unknown stages', function () {
    $admin = User::factory()->create(['role' => 'admin']);
    $deal = Deal::factory()->create();

    $this->actingAs($admin)
        ->patch(route('deals.move', $deal), ['stage' => 'archived', 'position' => 0])
        ->assertSessionHasErrors('stage');
});
