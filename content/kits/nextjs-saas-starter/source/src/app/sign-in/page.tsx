import type { Metadata } from 'next';
import { providerList, signIn } from '@/auth';

const APP_NAME = process.env.NEXT_PUBLIC_APP_NAME ?? 'Acme';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  // Only paths of this app: an absolute URL here would be an open redirect.
  const redirectTo = callbackUrl?.startsWith('/') && !callbackUrl.startsWith('//') ? callbackUrl : '/dashboard';

  return (
    <main className="mx-auto max-w-sm space-y-6 px-6 py-20">
      <h1 className="text-2xl font-semibold">Sign in to {APP_NAME}</h1>
      {providerList.length === 0 && (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          No sign-in provider is configured yet. Set <code>RESEND_API_KEY</code> (email links),{' '}
          <code>AUTH_GITHUB_ID</code> or <code>AUTH_GOOGLE_ID</code> with its secret in <code>.env.local</code> and
          restart <code>npm run dev</code>.
        </p>
      )}
      {providerList.map((provider) =>
        provider.type === 'email' ? (
          <form
            key={provider.id}
            className="space-y-3"
            action={async (form) => {
              'use server';
              await signIn(provider.id, { email: String(form.get('email') ?? ''), redirectTo });
            }}
          >
            <label className="block text-sm">
              Email
              <input
                name="email"
                type="email"
                required
                autoComplete="email"
                className="mt-1 block w-full rounded-lg border border-zinc-300 px-3 py-2"
              />
            </label>
            <button type="submit" className="btn-primary w-full justify-center">
              Email me a sign-in link
            </button>
          </form>
        ) : (
          <form
            key={provider.id}
            action={async () => {
              'use server';
              await signIn(provider.id, { redirectTo });
            }}
          >
            <button type="submit" className="w-full rounded-lg border border-zinc-300 px-4 py-2 text-sm font-medium">
              Continue with {provider.name}
            </button>
          </form>
        ),
      )}
    </main>
  );
}
