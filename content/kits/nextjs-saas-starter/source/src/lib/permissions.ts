import type { Role } from '@/db/schema';

export type Action =
  | 'team:update'
  | 'team:delete'
  | 'members:invite'
  | 'members:remove'
  | 'members:change-role'
  | 'billing:manage'
  | 'projects:write';

const ROLE_PERMISSIONS: Record<Role, readonly Action[]> = {
  owner: ['team:update', 'team:delete', 'members:invite', 'members:remove', 'members:change-role', 'billing:manage', 'projects:write'],
  admin: ['team:update', 'members:invite', 'members:remove', 'projects:write'],
  member: ['projects:write'],
};

export function can(role: Role, action: Action): boolean {
  return ROLE_PERMISSIONS[role].includes(action);
}

export class ForbiddenError extends Error {
  constructor(action: Action) {
    super(`Your role does not allow ${action}`);
    this.name = 'ForbiddenError';
  }
}

export function assertCan(role: Role, action: Action): void {
  if (!can(role, action)) throw new ForbiddenError(action);
}
