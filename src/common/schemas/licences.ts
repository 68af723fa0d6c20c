import { z } from 'zod';

/** A licence's state, as the API (Lemon Squeezy's words) and the screens show it. */
export type LicenceStatus = 'active' | 'inactive' | 'disabled' | 'expired' | 'revoked';

/** One machine (instance) a key is activated on. */
export type LicenceActivation = { id: string; name: string; created_at: string };

/** The item page's licence: the whole key (its holder's), its state and activations. */
export type HolderLicence = {
  key: string;
  status: LicenceStatus;
  activation_limit: number;
  activations: LicenceActivation[];
};

export const DeactivateInstanceSchema = z.object({
  instance_id: z.string().trim().min(1, 'Choose an activation.').max(100),
});

/** A key as the owner console shows it: masked. */
export type OwnerLicence = {
  id: number;
  kit_id: number;
  kit_title: string;
  /** The key holder's address: the buyer's, or a Team seat holder's. */
  holder: string;
  key: string;
  status: LicenceStatus;
  activation_limit: number;
  activation_usage: number;
  created_at: string;
};
