<?php

namespace App\Http\Middleware;

use App\Models\Contact;
use Illuminate\Http\Request;
use Inertia\Middleware;

class HandleInertiaRequests extends Middleware
{
    protected $rootView = 'app';

    /** Props every page receives; Vue reads them with usePage().props. */
    public function share(Request $request): array
    {
        return [
            ...parent::share($request),
            'auth' => ['user' => $request->user()?->only('id', 'name', 'email', 'role')],
            // Only for showing buttons: the policies still decide every request.
            'can' => [
                'manageUsers' => $request->user()?->can('manage-users'),
                'importContacts' => $request->user()?->can('import', Contact::class),
            ],
            'flash' => ['success' => fn () => $request->session()->get('success')],
        ];
    }
}
