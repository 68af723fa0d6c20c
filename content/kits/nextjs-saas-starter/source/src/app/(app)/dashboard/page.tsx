import { count, eq } from 'drizzle-orm';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { auth } from '@/auth';
import { db, schema } from '@/db';
import { can } from '@/lib/permissions';
import { getTeamPlan } from '@/lib/stripe';
import { getCurrentTeam } from '@/lib/teams';

export default async function DashboardPage() {
  const session = await auth();
  if (!session?.user?.id) redirect('/sign-in');

  const current = await getCurrentTeam(session.user.id);
  if (!current) redirect('/onboarding');

  const [plan, [{ members }]] = await Promise.all([
    getTeamPlan(current.team.id),
    db.select({ members: count() }).from(schema.memberships).where(eq(schema.memberships.teamId, current.team.id)),
  ]);

  return (
    <main className="mx-auto max-w-5xl space-y-8 p-8">
      <header className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold">{current.team.name}</h1>
        {can(current.role, 'billing:manage') && plan.name === 'Free' && (
          <Link href="/settings/billing" className="btn-primary">
            Upgrade to Pro
          </Link>
        )}
      </header>
      <section className="grid gap-4 sm:grid-cols-3">
        <Stat label="Plan" value={plan.name} />
        <Stat label="Seats used" value={`${members} / ${plan.seats}`} />
        <Stat
          label="Renews"
          value={plan.subscription ? plan.subscription.currentPeriodEnd.toLocaleDateString('en-US') : '—'}
        />
      </section>
    </main>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
      <p className="text-sm text-zinc-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums">{value}</p>
    </div>
  );
}
