import { z } from 'zod';
import { CONTACT_TOPICS } from '../constants.ts';

export { CONTACT_TOPICS };

const email = z
  .string({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email is too long.')
  .pipe(z.email('Enter a valid email address.'));

/** Both variants of the spec: with a topic (contact page) and without one. */
export const ContactSchema = z.object({
  topic: z.enum(CONTACT_TOPICS, { error: 'Choose one of the topics.' }).optional(),
  name: z.string({ error: 'Name is required.' }).trim().min(1, 'Name is required.').max(100, 'Name is too long.'),
  email,
  message: z
    .string({ error: 'Message is required.' })
    .trim()
    .min(1, 'Message is required.')
    .max(5000, 'Message is too long (5000 characters at most).'),
});

export const SubscribeSchema = z.object({ email });
