import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { db, schema } from '@/db';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

// Created on first use, so the app starts (on the free plan) before Stripe is configured.
let client: Stripe | undefined;
export function stripe(): Stripe {
  client ??= new Stripe(env('STRIPE_SECRET_KEY'), { apiVersion: '2024-12-18.acacia' });
  return client;
}

/** Whether checkout can run: the secret key and both price ids are set. */
export const stripeConfigured = () =>
  Boolean(process.env.STRIPE_SECRET_KEY && process.env.STRIPE_PRICE_PRO_MONTHLY && process.env.STRIPE_PRICE_PRO_YEARLY);

export const PLANS = {
  pro_monthly: { priceId: process.env.STRIPE_PRICE_PRO_MONTHLY ?? '', name: 'Pro', interval: 'month', seats: 10 },
  pro_yearly: { priceId: process.env.STRIPE_PRICE_PRO_YEARLY ?? '', name: 'Pro', interval: 'year', seats: 10 },
} as const;
export type PlanKey = keyof typeof PLANS;

export const FREE_SEATS = 3;
const ACTIVE = new Set(['active', 'trialing', 'past_due']);

type Team = typeof schema.teams.$inferSelect;

async function ensureCustomer(team: Team): Promise<string> {
  if (team.stripeCustomerId) return team.stripeCustomerId;
  const customer = await stripe().customers.create({ name: team.name, metadata: { teamId: team.id } });
  await db.update(schema.teams).set({ stripeCustomerId: customer.id }).where(eq(schema.teams.id, team.id));
  return customer.id;
}

export async function createCheckoutSession(team: Team, plan: PlanKey, origin: string) {
  const session = await stripe().checkout.sessions.create({
    mode: 'subscription',
    customer: await ensureCustomer(team),
    line_items: [{ price: PLANS[plan].priceId, quantity: 1 }],
    allow_promotion_codes: true,
    client_reference_id: team.id,
    subscription_data: { metadata: { teamId: team.id } },
    success_url: `${origin}/settings/billing?checkout=success`,
    cancel_url: `${origin}/settings/billing`,
  });
  return session.url!;
}

export async function createPortalSession(team: Team, origin: string) {
  const session = await stripe().billingPortal.sessions.create({
    customer: await ensureCustomer(team),
    return_url: `${origin}/settings/billing`,
  });
  return session.url;
}

/** Upserts the team's subscription row. Events older than the stored one are ignored. */
export async function syncSubscription(subscription: Stripe.Subscription, eventCreated: number) {
  const teamId = subscription.metadata.teamId;
  if (!teamId) throw new Error(`Subscription ${subscription.id} has no teamId metadata`);
  const eventAt = new Date(eventCreated * 1000);

  const [current] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.teamId, teamId));
  if (current && current.lastEventAt > eventAt) return;

  const row = {
    teamId,
    stripeSubscriptionId: subscription.id,
    priceId: subscription.items.data[0].price.id,
    status: subscription.status as typeof schema.subscriptions.$inferInsert.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end ? 1 : 0,
    currentPeriodEnd: new Date(subscription.current_period_end * 1000),
    lastEventAt: eventAt,
  };
  await db.insert(schema.subscriptions).values(row).onConflictDoUpdate({ target: schema.subscriptions.teamId, set: row });
}

export async function getTeamPlan(teamId: string) {
  const [sub] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.teamId, teamId));
  const plan = sub && ACTIVE.has(sub.status) ? Object.values(PLANS).find((p) => p.priceId !== '' && p.priceId === sub.priceId) : undefined;
  return plan ? { name: plan.name, seats: plan.seats, subscription: sub } : { name: 'Free', seats: FREE_SEATS, subscription: sub };
}
