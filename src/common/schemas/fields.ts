import { z } from 'zod';
import { FIELD_LIMITS } from '../constants.ts';

/** Fields several forms share, with the same messages in the browser and on the server. */
export const EmailField = z
  .string({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(FIELD_LIMITS.email, 'Email is too long.')
  .pipe(z.email('Enter a valid email address.'));

export const NameField = z
  .string({ error: 'Name is required.' })
  .trim()
  .min(1, 'Name is required.')
  .max(FIELD_LIMITS.name, 'Name is too long.');
