import { z } from 'zod';
import { CONTACT_TOPICS, FIELD_LIMITS } from '../constants.ts';
import { EmailField as email, NameField } from './fields.ts';

export { CONTACT_TOPICS };

/** Both variants of the spec: with a topic (contact page) and without one. */
export const ContactSchema = z.object({
  topic: z.enum(CONTACT_TOPICS, { error: 'Choose one of the topics.' }).optional(),
  name: NameField,
  email,
  message: z
    .string({ error: 'Message is required.' })
    .trim()
    .min(1, 'Message is required.')
    .max(FIELD_LIMITS.message, `Message is too long (${FIELD_LIMITS.message} characters at most).`),
});

export const SubscribeSchema = z.object({ email });

export type ContactRequest = z.input<typeof ContactSchema>;
export type SubscribeRequest = z.input<typeof SubscribeSchema>;
