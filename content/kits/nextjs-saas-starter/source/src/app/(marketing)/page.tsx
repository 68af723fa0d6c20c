import Link from 'next/link';
import { setupStatus } from '@/lib/setup-status';

const APP_NAME = process.env.NEXT_PUBLIC_APP_NAME ?? 'Acme';

// The checklist reads the environment and the database on every request in development.
export const dynamic = 'force-dynamic';

export default async function LandingPage() {
  const checks = process.env.NODE_ENV === 'production' ? [] : await setupStatus();
  return (
    <main className="mx-auto max-w-3xl space-y-10 px-6 py-16">
      <section className="space-y-4">
        <h1 className="text-4xl font-semibold tracking-tight">{APP_NAME}</h1>
        <p className="text-lg text-zinc-600 dark:text-zinc-400">
          Team workspaces with roles, invitations and subscriptions. Replace this page with your product&apos;s landing
          page in <code>src/app/(marketing)/page.tsx</code>.
        </p>
        <div className="flex gap-3">
          <Link href="/dashboard" className="btn-primary">
            Open the dashboard
          </Link>
          <Link href="/sign-in" className="inline-flex items-center rounded-lg border border-zinc-300 px-4 py-2 text-sm">
            Sign in
          </Link>
        </div>
      </section>

      {checks.length > 0 && (
        <section aria-labelledby="setup" className="rounded-xl border border-zinc-200 p-6 dark:border-zinc-800">
          <h2 id="setup" className="text-lg font-semibold">
            Setup checklist
          </h2>
          <p className="mt-1 text-sm text-zinc-500">Shown in development only; see setup.md for each step.</p>
          <ul className="mt-4 space-y-2">
            {checks.map((check) => (
              <li key={check.name} className="flex gap-3 text-sm">
                <span aria-hidden className={check.ok ? 'text-green-600' : check.optional ? 'text-zinc-400' : 'text-amber-600'}>
                  {check.ok ? '✓' : check.optional ? '○' : '!'}
                </span>
                <span>
                  <strong>{check.name}</strong>: {check.detail}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
