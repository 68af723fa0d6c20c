import type Stripe from 'stripe';
import { stripe, syncSubscription } from '@/lib/stripe';

const HANDLED = new Set<Stripe.Event.Type>([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
]);

export async function POST(request: Request) {
  if (!process.env.STRIPE_SECRET_KEY || !process.env.STRIPE_WEBHOOK_SECRET)
    return new Response('Stripe is not configured: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET', { status: 503 });
  const signature = request.headers.get('stripe-signature');
  if (!signature) return new Response('Missing stripe-signature header', { status: 400 });

  let event: Stripe.Event;
  try {
    // The raw body is required for signature verification: do not parse it first.
    event = stripe().webhooks.constructEvent(await request.text(), signature, process.env.STRIPE_WEBHOOK_SECRET!);
  } catch (error) {
    return new Response(`Webhook signature verification failed: ${(error as Error).message}`, { status: 400 });
  }

  if (!HANDLED.has(event.type)) return Response.json({ received: true, ignored: event.type });

  const object = event.data.object as Stripe.Subscription | Stripe.Invoice;
  const subscriptionId = object.object === 'subscription' ? object.id : (object.subscription as string | null);
  if (subscriptionId) {
    // Re-fetch so we always store the latest state, whatever the event payload contained.
    const subscription = await stripe().subscriptions.retrieve(subscriptionId);
    await syncSubscription(subscription, event.created);
  }

  return Response.json({ received: true });
}
