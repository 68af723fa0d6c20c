import { z } from 'zod';
import { PASSWORD_MAX } from '../constants.ts';
import { EmailField } from './fields.ts';

/** The words a person types to confirm deleting their account. */
export const DELETE_CONFIRMATION = 'DELETE';

/**
 * `POST /api/account/delete`: the password (an account with one), and the typed confirmation. A
 * Google-only account has no password: a fresh Google sign-in stands in for it.
 */
export const DeleteAccountSchema = z.object({
  password: z.string().max(PASSWORD_MAX, 'Password is too long.').optional(),
  confirmation: z
    .string({ error: `Type ${DELETE_CONFIRMATION} to confirm.` })
    .refine((value) => value.trim() === DELETE_CONFIRMATION, `Type ${DELETE_CONFIRMATION} to confirm.`),
});

/** `POST /api/account/email`: the new address, which gets the confirmation link. */
export const ChangeEmailSchema = z.object({ email: EmailField });

/** `POST /api/account/email/confirm`: the link's token and new address. */
export const ConfirmEmailChangeSchema = z.object({
  token: z.string({ error: 'The link is incomplete.' }).min(1, 'The link is incomplete.').max(200),
  email: z.string({ error: 'The link is incomplete.' }).max(254),
});

/** What the Profile tab shows before offering deletion: how this account proves it is its owner. */
export type AccountSecurity = { email: string; hasPassword: boolean; google: boolean };
