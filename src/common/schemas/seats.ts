import { z } from 'zod';
import { EmailField } from './fields.ts';

/** `POST /api/seats/{sefid}/invite`: the colleague's address. */
export const SeatInviteSchema = z.object({ email: EmailField });
export type SeatInvite = z.input<typeof SeatInviteSchema>;

export const SeatParamsSchema = z.object({
  sefid: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Unknown kit')
    .max(100, 'Unknown kit'),
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

export const InvitationParamsSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This invitation link is not valid.'),
});

/** One seat of a Team licence: the buyer's own (`owner`), a member's (`active`), an invitation (`pending`). */
export const SeatSchema = z.object({
  /** Null for the buyer's own seat, which cannot be freed. */
  id: z.number().int().nullable(),
  status: z.enum(['owner', 'active', 'pending']),
  name: z.string().nullable(),
  email: z.string(),
  /** When invited (the buyer: when paid), and when accepted. */
  invited_at: z.string(),
  accepted_at: z.string().nullable(),
});

/**
 * `GET /api/seats/{sefid}`: for the buyer of a Team licence of the kit, its seats; for a member of
 * someone's team, who manages their seat. Both null for a Solo owner.
 */
export const SeatsResponseSchema = z.object({
  team: z
    .object({
      licence: z.string(),
      seats: z.number().int(),
      used: z.number().int(),
      members: z.array(SeatSchema),
    })
    .nullable(),
  managed_by: z.object({ name: z.string(), email: z.string(), licence: z.string() }).nullable(),
});

/** `GET /api/seat-invitations/{token}`: what the invitation offers and to which address. */
export const InvitationResponseSchema = z.object({
  sef_id: z.string(),
  kit_title: z.string(),
  licence: z.string(),
  manager_name: z.string(),
  email: z.string(),
  status: z.enum(['pending', 'active', 'cancelled', 'removed']),
});

export type Seat = z.output<typeof SeatSchema>;
export type SeatsResponse = z.output<typeof SeatsResponseSchema>;
export type InvitationResponse = z.output<typeof InvitationResponseSchema>;
