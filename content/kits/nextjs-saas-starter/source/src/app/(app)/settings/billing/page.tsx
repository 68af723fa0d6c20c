import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { auth } from '@/auth';
import { can } from '@/lib/permissions';
import { createCheckoutSession, createPortalSession, getTeamPlan, type PlanKey, stripeConfigured } from '@/lib/stripe';
import { getCurrentTeam } from '@/lib/teams';

export const metadata: Metadata = { title: 'Billing' };

/** The signed-in owner's team, or a redirect: only owners manage billing. */
async function billingTeam() {
  const session = await auth();
  if (!session?.user?.id) redirect('/sign-in?callbackUrl=%2Fsettings%2Fbilling');
  const current = await getCurrentTeam(session.user.id);
  if (!current || !can(current.role, 'billing:manage')) redirect('/dashboard');
  return current.team;
}

async function origin() {
  const list = await headers();
  return `${list.get('x-forwarded-proto') ?? 'http'}://${list.get('host')}`;
}

async function upgrade(plan: PlanKey) {
  'use server';
  const team = await billingTeam();
  redirect(await createCheckoutSession(team, plan, await origin()));
}

async function manage() {
  'use server';
  const team = await billingTeam();
  redirect(await createPortalSession(team, await origin()));
}

export default async function BillingPage({ searchParams }: { searchParams: Promise<{ checkout?: string }> }) {
  const team = await billingTeam();
  const [plan, { checkout }] = await Promise.all([getTeamPlan(team.id), searchParams]);

  return (
    <main className="mx-auto max-w-3xl space-y-6 p-8">
      <h1 className="text-2xl font-semibold">Billing</h1>
      {checkout === 'success' && (
        <p role="status" className="rounded-lg bg-green-50 p-4 text-sm text-green-900">
          Thank you! The plan changes as soon as Stripe&apos;s webhook arrives.
        </p>
      )}
      <p>
        {team.name} is on the <strong>{plan.name}</strong> plan ({plan.seats} seats).
      </p>
      {!stripeConfigured() ? (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          Stripe is not configured: set <code>STRIPE_SECRET_KEY</code>, <code>STRIPE_PRICE_PRO_MONTHLY</code> and{' '}
          <code>STRIPE_PRICE_PRO_YEARLY</code> in <code>.env.local</code> (see setup.md).
        </p>
      ) : plan.subscription ? (
        <form action={manage}>
          <button type="submit" className="btn-primary">
            Manage subscription
          </button>
        </form>
      ) : (
        <div className="flex gap-3">
          <form action={upgrade.bind(null, 'pro_monthly')}>
            <button type="submit" className="btn-primary">
              Upgrade monthly
            </button>
          </form>
          <form action={upgrade.bind(null, 'pro_yearly')}>
            <button type="submit" className="btn-primary">
              Upgrade yearly
            </button>
          </form>
        </div>
      )}
    </main>
  );
}
