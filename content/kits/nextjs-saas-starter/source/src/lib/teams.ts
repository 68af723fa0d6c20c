import { createHash } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { cookies } from 'next/headers';
import { db, schema } from '@/db';

export const TEAM_COOKIE = 'acme-team';

function slugify(name: string): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'team';
  return `${base}-${crypto.randomUUID().slice(0, 6)}`;
}

export async function createPersonalTeam(userId: string, name: string) {
  return db.transaction(async (tx) => {
    const [team] = await tx.insert(schema.teams).values({ name, slug: slugify(name) }).returning();
    await tx.insert(schema.memberships).values({ teamId: team.id, userId, role: 'owner' });
    return team;
  });
}

/** The team selected in the cookie, or the user's first team. Null if the user has none. */
export async function getCurrentTeam(userId: string) {
  const selected = (await cookies()).get(TEAM_COOKIE)?.value;
  const rows = await db
    .select({ team: schema.teams, role: schema.memberships.role })
    .from(schema.memberships)
    .innerJoin(schema.teams, eq(schema.teams.id, schema.memberships.teamId))
    .where(eq(schema.memberships.userId, userId));
  return rows.find((row) => row.team.id === selected) ?? rows[0] ?? null;
}

export async function acceptInvitation(userId: string, email: string, token: string) {
  const tokenHash = createHash('sha256').update(token).digest('hex');
  const [invite] = await db
    .select()
    .from(schema.invitations)
    .where(
      and(
        eq(schema.invitations.tokenHash, tokenHash),
        eq(schema.invitations.email, email.toLowerCase()),
        gt(schema.invitations.expiresAt, new Date()),
      ),
    );
  if (!invite) return null;
  await db.transaction(async (tx) => {
    await tx.insert(schema.memberships).values({ teamId: invite.teamId, userId, role: invite.role }).onConflictDoNothing();
    await tx.delete(schema.invitations).where(eq(schema.invitations.id, invite.id));
  });
  return invite.teamId;
}
