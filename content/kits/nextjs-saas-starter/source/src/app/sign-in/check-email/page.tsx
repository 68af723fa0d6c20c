import Link from 'next/link';

export default function CheckEmailPage() {
  return (
    <main className="mx-auto max-w-sm space-y-4 px-6 py-20">
      <h1 className="text-2xl font-semibold">Check your email</h1>
      <p>We sent you a sign-in link. It is valid for 24 hours and can be used once.</p>
      <Link href="/sign-in" className="text-sm underline">
        Use another address
      </Link>
    </main>
  );
}
