import { z } from 'zod';
import { type AccountUser, AccountUserSchema } from './accounts.ts';

/** Account security calls: sessions, two-step sign-in, passkeys. */

/** A TOTP code (6 digits, spaces allowed) or a recovery code (xxxxx-xxxxx). */
export const SignInCodeSchema = z.object({
  code: z
    .string({ error: 'Code is required.' })
    .trim()
    .min(1, 'Code is required.')
    .max(40, 'Code is too long.')
    .transform((v) => v.replace(/\s+/g, '')),
});

export const TotpConfirmSchema = z.object({
  code: z
    .string({ error: 'Code is required.' })
    .trim()
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.')),
});

/** Turning two-step sign-in off asks for the password again (or a passkey, in `passkey`). */
export const TotpDisableSchema = z.object({
  password: z.string().max(128, 'Password is too long.').optional(),
  passkey: z.unknown().optional(),
});

export const PasskeyNameSchema = z.object({
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Give the passkey a name.')
    .max(60, 'The name is at most 60 characters.'),
});

/** The browser's WebAuthn answer, checked in full by @simplewebauthn/server. */
const WebAuthnResponse = z.object({ id: z.string().max(1400), rawId: z.string().max(1400) }).passthrough();

export const PasskeyRegisterSchema = PasskeyNameSchema.extend({ response: WebAuthnResponse });
export const PasskeySignInSchema = z.object({
  response: WebAuthnResponse,
  remember: z.boolean().optional().default(false),
});

export const SessionIdSchema = z.object({ id: z.uuid('Unknown session.') });
export const PasskeyIdSchema = z.object({ id: z.coerce.number().int().positive('Unknown passkey.') });

export type AccountSession = {
  id: string;
  device: string;
  ip: string | null;
  method: string | null;
  created_at: string;
  last_seen_at: string;
  current: boolean;
};
export type AccountPasskey = { id: number; name: string; created_at: string; last_used_at: string | null };
/** Why an owner's session reaches no owner call yet (the console shows the same words). */
export const OWNER_SETUP_MESSAGE =
  'Owners must add a passkey or turn on two-step sign-in before using the owner console: open your Profile.';
export const OWNER_STEP_UP_MESSAGE =
  'The owner console needs a sign-in with your passkey or your two-step code: a password alone is not enough. Please sign in with your passkey or code.';

export type AccountSecurity = {
  two_step: boolean;
  recovery_codes_left: number;
  passkeys: AccountPasskey[];
  has_password: boolean;
  /** An owner of a production shop without a passkey or two-step sign-in: the console waits for one. */
  setup_required: boolean;
  /**
   * An owner whose account has a passkey or two-step sign-in, in a session that signed in without
   * it: the console and changes to how the account signs in wait for a sign-in with one of them.
   */
  step_up_required: boolean;
};
export type TotpSetup = { secret: string; uri: string; qr: string };

/** `POST /api/login` for an account with two-step sign-in: no session yet, a code comes next. */
export const SecondStepResponseSchema = z.object({ second_step: z.literal(true), message: z.string() });
export type SecondStepResponse = z.output<typeof SecondStepResponseSchema>;
export const SignedInResponseSchema = z.object({
  user: AccountUserSchema,
  message: z.string(),
  setup_required: z.boolean().optional(),
});
export type SignedInResponse = { user: AccountUser; message: string; setup_required?: boolean };

export type SignInCodeRequest = z.input<typeof SignInCodeSchema>;
export type TotpConfirmRequest = z.input<typeof TotpConfirmSchema>;
export type TotpDisableRequest = z.input<typeof TotpDisableSchema>;
