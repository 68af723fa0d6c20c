import { useMutation } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { signIn, TOKEN_KEY } from '../lib/api';

export const Route = createFileRoute('/sign-in')({
  validateSearch: z.object({ redirect: z.string().optional() }),
  component: SignInPage,
});

function SignInPage() {
  const { redirect } = Route.useSearch();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: (form: FormData) => signIn(String(form.get('email')), String(form.get('password'))),
    onSuccess: ({ token }) => {
      localStorage.setItem(TOKEN_KEY, token);
      void navigate({ to: redirect ?? '/' });
    },
  });

  return (
    <div className="grid min-h-screen place-items-center">
      <form action={(form) => mutation.mutate(form)} className="w-full max-w-sm space-y-4 rounded-card bg-white p-8 shadow">
        <h1 className="text-xl font-semibold">Sign in to {import.meta.env.VITE_APP_NAME}</h1>
        <label className="block text-sm">
          Email
          <input name="email" type="email" required autoComplete="email" className="input mt-1" />
        </label>
        <label className="block text-sm">
          Password
          <input name="password" type="password" required autoComplete="current-password" className="input mt-1" />
        </label>
        {mutation.isError && <p className="text-sm text-red-600">{mutation.error.message}</p>}
        <button type="submit" disabled={mutation.isPending} className="w-full rounded-lg bg-accent py-2 text-white">
          {mutation.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
