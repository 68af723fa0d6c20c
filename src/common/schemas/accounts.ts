import { z } from 'zod';
import { EmailField as email, NameField } from './fields.ts';

/**
 * Account calls: one schema validates the form in the browser and the body on the server.
 * Passwords: 8 to 128 characters, no composition rules (a list of common passwords is refused
 * on the server).
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const password = z
  .string({ error: 'Password is required.' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

export const RegisterSchema = z.object({
  name: NameField,
  email,
  password,
});

export const LoginSchema = z.object({
  email,
  password: z
    .string({ error: 'Password is required.' })
    .min(1, 'Password is required.')
    .max(PASSWORD_MAX, 'Password is too long.'),
  remember: z.boolean().optional().default(false),
});

export const ForgotPasswordSchema = z.object({ email });

export const ResetPasswordSchema = z
  .object({
    token: z.string({ error: 'Reset token is missing.' }).min(1, 'Reset token is missing.').max(200),
    email,
    password,
    password_confirmation: z.string({ error: 'Confirm the new password.' }).max(PASSWORD_MAX),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: 'Passwords are not matching.',
    path: ['password_confirmation'],
  });

export const ChangePasswordSchema = z
  .object({
    password,
    password_confirmation: z.string({ error: 'Confirm the new password.' }).max(PASSWORD_MAX),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: 'Passwords are not matching.',
    path: ['password_confirmation'],
  });

export const VerifyEmailQuerySchema = z.object({
  token: z.string().min(1).max(200),
  email: z.string().max(254),
});

/** A route path relative to the base, without a leading slash (`checkout`, `product/x`). */
export const ReturnPathSchema = z
  .string()
  .max(300)
  .regex(/^(?!\/)(?!.*\/\/)[A-Za-z0-9\-._~/?=&%#]*$/, 'Invalid return path.');

/** `owner` is true for a shop owner (issue 11), absent otherwise. */
export type AccountUser = { id: number; name: string; owner?: boolean };
export type LoginResponse = { user: AccountUser; message: string };
export type MessageResponse = { message: string };
export type VerifyEmailResponse = {
  user: AccountUser | Record<string, never>;
  data: { result: 'success' | 'failed'; message: string };
};
export type PurchaseItem = {
  id: number;
  sef_id: string;
  title: string;
  spot: string;
  /** The version a download gives now, and its release day (YYYY-MM-DD). */
  version: string | null;
  released_on: string | null;
  /** A newer version came out since the user's last download of this kit. */
  updated: boolean;
};
export type PurchasesResponse = { items: PurchaseItem[] };
