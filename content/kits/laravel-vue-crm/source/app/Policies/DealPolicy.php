<?php

namespace App\Policies;

use App\Models\Deal;
use App\Models\User;

class DealPolicy
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

    public function update(User $user, Deal $deal): bool
    {
        return $user->role === 'manager' || $deal->owner_id === $user->id;
    }

    public function move(User $user, Deal $deal): bool
    {
        return $this->update($user, $deal);
    }

    public function delete(User $user, Deal $deal): bool
    {
        return false;
    }
}
