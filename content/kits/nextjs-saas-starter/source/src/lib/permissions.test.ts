import { describe, expect, it } from 'vitest';
import { assertCan, can } from './permissions';

describe('can', () => {
  it('lets only owners manage billing', () => {
    expect(can('owner', 'billing:manage')).toBe(true);
    expect(can('admin', 'billing:manage')).toBe(false);
    expect(can('member', 'billing:manage')).toBe(false);
  });

  it('lets admins invite but not delete the team', () => {
    expect(can('admin', 'members:invite')).toBe(true);
    expect(can('admin', 'team:delete')).toBe(false);
  });

  it('throws a ForbiddenError from assertCan', () => {
    expect(() => assertCan('member', 'members:remove')).toThrow(/members:remove/);
  });
});
