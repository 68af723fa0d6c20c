import { DrizzleAdapter } from '@auth/drizzle-adapter';
import NextAuth, { type NextAuthConfig } from 'next-auth';
import GitHub from 'next-auth/providers/github';
import Google from 'next-auth/providers/google';
import Resend from 'next-auth/providers/resend';
import { db, schema } from '@/db';
import { createPersonalTeam } from '@/lib/teams';

const providers: NextAuthConfig['providers'] = [];
if (process.env.RESEND_API_KEY) providers.push(Resend({ from: process.env.EMAIL_FROM }));
if (process.env.AUTH_GITHUB_ID) providers.push(GitHub);
if (process.env.AUTH_GOOGLE_ID) providers.push(Google);

/** The configured providers as the sign-in page lists them. */
export const providerList = providers.map((provider) => {
  const { id, name, type } = typeof provider === 'function' ? provider() : provider;
  return { id, name, type };
});

export const { handlers, auth, signIn, signOut } = NextAuth({
  adapter: DrizzleAdapter(db, {
    usersTable: schema.users,
    accountsTable: schema.accounts,
    sessionsTable: schema.sessions,
    verificationTokensTable: schema.verificationTokens,
  }),
  providers,
  session: { strategy: 'database', maxAge: 30 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
  pages: { signIn: '/sign-in', verifyRequest: '/sign-in/check-email' },
  events: {
    // Invited users join the inviting team instead (see acceptInvitation in lib/teams.ts).
    async createUser({ user }) {
      if (user.id) await createPersonalTeam(user.id, user.name ?? user.email ?? 'My team');
    },
  },
  callbacks: {
    session({ session, user }) {
      session.user.id = user.id;
      return session;
    },
  },
});
