import { z } from 'zod';

/**
 * Where a kit's private GitHub repository stands for its buyer: `connect` (no GitHub account
 * connected yet), `pending` (queued or being retried), `invited` (an invitation to accept on
 * GitHub: `url` is the repository's invitations page), `active` (a collaborator: `url` is the
 * repository), `failed` (GitHub refused for good; the shop owner sees why) or `revoked`.
 */
export const RepositoryStatusSchema = z.enum(['connect', 'pending', 'invited', 'active', 'failed', 'revoked']);

export const PurchaseRepositorySchema = z.object({
  name: z.string(),
  status: RepositoryStatusSchema,
  url: z.string().nullable(),
});

export const GithubRepositoryStatusSchema = PurchaseRepositorySchema.extend({ kit_id: z.number().int() });

/** `POST /api/github`: the connected account and every repository the buyer's kits give (or gave). */
export const GithubResponseSchema = z.object({
  connected: z.boolean(),
  login: z.string().nullable(),
  repositories: z.array(GithubRepositoryStatusSchema),
});

export type RepositoryStatus = z.output<typeof RepositoryStatusSchema>;
export type PurchaseRepository = z.output<typeof PurchaseRepositorySchema>;
export type GithubRepositoryStatus = z.output<typeof GithubRepositoryStatusSchema>;
export type GithubResponse = z.output<typeof GithubResponseSchema>;
