import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORDS_NOT_MATCHING } from '../constants.ts';
import { EmailField as email, NameField } from './fields.ts';
import { PurchaseRepositorySchema } from './github.ts';

export { PASSWORD_MAX, PASSWORD_MIN };

/** Account calls: one schema validates the form in the browser and the body on the server. */

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

/** A new password typed twice: the confirmation must match (checked once the fields are valid). */
const confirmation = z.string({ error: 'Confirm the new password.' }).max(PASSWORD_MAX);
const confirmed: [(v: { password: string; password_confirmation: string }) => boolean, z.core.$ZodCustomParams] = [
  (v) => v.password === v.password_confirmation,
  { message: PASSWORDS_NOT_MATCHING, path: ['password_confirmation'] },
];

export const ResetPasswordSchema = z
  .object({
    token: z.string({ error: 'Reset token is missing.' }).min(1, 'Reset token is missing.').max(200),
    email,
    password,
    password_confirmation: confirmation,
  })
  .refine(...confirmed);

/** The Profile tab's rule, which its hint states: at least 8 characters, including a number and a symbol. */
const profilePassword = password
  .regex(/\p{N}/u, 'Password must include a number.')
  .regex(/[^\p{L}\p{N}]/u, 'Password must include a symbol (such as - ! ? or #).');

export const ChangePasswordSchema = z
  .object({ password: profilePassword, password_confirmation: confirmation })
  .refine(...confirmed);

export const VerifyEmailQuerySchema = z.object({
  token: z.string().min(1).max(200),
  email: z.string().max(254),
});

/** A route path relative to the base, without a leading slash (`checkout`, `product/x`). */
export const ReturnPathSchema = z
  .string()
  .max(300)
  .regex(/^(?!\/)(?!.*\/\/)[A-Za-z0-9\-._~/?=&%#]*$/, 'Invalid return path.');

/** What the browser sends: each form's body as its schema takes it in. */
export type RegisterRequest = z.input<typeof RegisterSchema>;
export type LoginRequest = z.input<typeof LoginSchema>;
export type ForgotPasswordRequest = z.input<typeof ForgotPasswordSchema>;
export type ResetPasswordRequest = z.input<typeof ResetPasswordSchema>;
export type ChangePasswordRequest = z.input<typeof ChangePasswordSchema>;

/** The answers of the account calls. */
/** `owner` is true for a shop owner, absent otherwise. */
export const AccountUserSchema = z.object({ id: z.number().int(), name: z.string(), owner: z.boolean().optional() });
export const MessageResponseSchema = z.object({ message: z.string() });
export const LoginResponseSchema = z.object({ user: AccountUserSchema, message: z.string() });
export const VerifyEmailResponseSchema = z.object({
  user: z.union([AccountUserSchema, z.record(z.string(), z.never())]),
  data: z.object({ result: z.enum(['success', 'failed']), message: z.string() }),
});

export const PurchaseItemSchema = z.object({
  id: z.number().int(),
  sef_id: z.string(),
  title: z.string(),
  spot: z.string(),
  /** The kit is on the store (its product page exists); false once an owner hid it or it left the catalog. */
  listed: z.boolean(),
  /** Its documentation pages exist (`/docs/{sef_id}`): it has docs and is listed. */
  documentation: z.boolean(),
  /** The version a download gives now, and its release day (YYYY-MM-DD). */
  version: z.string().nullable(),
  released_on: z.string().nullable(),
  /** A newer version came out since the user's last download of this kit. */
  updated: z.boolean(),
  /** The kit's private GitHub repository and the buyer's access to it; null without one (or GitHub delivery off). */
  repository: PurchaseRepositorySchema.nullable(),
});
/** `POST /api/purchases`. */
export const PurchasesResponseSchema = z.object({ items: z.array(PurchaseItemSchema) });
/** `POST /api/item/{sefid}` with `{details: true}`: the purchased kit's title, spot and setup guide (sanitised HTML). */
export const ItemDetailSchema = z.object({
  title: z.string(),
  spot: z.string(),
  setup: z.string(),
  /** Present when GitHub delivery is on: the kit's repository and the buyer's access, or null. */
  repository: PurchaseRepositorySchema.nullable().optional(),
});

export type AccountUser = z.output<typeof AccountUserSchema>;
export type MessageResponse = z.output<typeof MessageResponseSchema>;
export type LoginResponse = z.output<typeof LoginResponseSchema>;
export type VerifyEmailResponse = z.output<typeof VerifyEmailResponseSchema>;
export type PurchaseItem = z.output<typeof PurchaseItemSchema>;
export type PurchasesResponse = z.output<typeof PurchasesResponseSchema>;
export type ItemDetail = z.output<typeof ItemDetailSchema>;
