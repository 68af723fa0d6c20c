<?php

namespace App\Http\Controllers;

use App\Enums\DealStage;
use App\Models\Deal;
use Illuminate\Http\RedirectResponse;
use Illuminate\Http\Request;
use Illuminate\Validation\Rule;
use Inertia\Inertia;
use Inertia\Response;

class DealController extends Controller
{
    public function board(Request $request): Response
    {
        $this->authorize('viewAny', Deal::class);

        $deals = Deal::query()
            ->with(['company:id,name', 'owner:id,name'])
            ->whereIn('stage', DealStage::open())
            ->orderBy('position')
            ->get()
            ->groupBy(fn (Deal $deal) => $deal->stage->value);

        return Inertia::render('Deals/Board', [
            'columns' => collect(DealStage::open())->map(fn (DealStage $stage) => [
                'stage' => $stage->value,
                'label' => $stage->label(),
                'total_cents' => $deals->get($stage->value, collect())->sum('value_cents'),
                'deals' => $deals->get($stage->value, collect())->values(),
            ]),
            // Loaded after the first paint (Inertia 2 deferred prop).
            'activity' => Inertia::defer(fn () => \App\Models\Activity::with('user:id,name')->latest()->limit(20)->get()),
        ]);
    }

    public function move(Request $request, Deal $deal): RedirectResponse
    {
        $this->authorize('move', $deal);

        $data = $request->validate([
            'stage' => ['required', Rule::enum(DealStage::class)],
            'position' => ['required', 'integer', 'min:0'],
        ]);

        $deal->moveTo(DealStage::from($data['stage']), $data['position'], $request->user());

        return back();
    }
}
