<?php

namespace App\Policies;

use App\Models\Contact;
use App\Models\User;

class ContactPolicy
{
    /** Admins may do everything; returning null falls through to the methods below. */
    public function before(User $user, string $ability): ?bool
    {
        return $user->role === 'admin' ? true : null;
    }

    public function viewAny(User $user): bool
    {
        return true;
    }

    public function update(User $user, Contact $contact): bool
    {
        return $user->role === 'manager' || $contact->owner_id === $user->id;
    }

    public function import(User $user): bool
    {
        return $user->role === 'manager';
    }

    public function delete(User $user, Contact $contact): bool
    {
        return $user->role === 'manager';
    }
}
