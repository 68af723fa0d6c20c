import { describe, expect, it } from 'vitest';
import { ContactSchema, CONTACT_TOPICS as SERVER_TOPICS } from '../../../common/schemas/messages.ts';
import { blankMessage, CONTACT_LIMITS, CONTACT_TOPICS, failedToast, sentToast, THANK_YOU } from './contact-form.ts';

describe('contact form', () => {
  it('offers exactly the topics the server accepts, in the spec order', () => {
    expect([...CONTACT_TOPICS]).toEqual([...SERVER_TOPICS]);
    expect(CONTACT_TOPICS[0]).toBe('Pre-sales (pricing, license, usage)');
    expect(CONTACT_TOPICS.at(-1)).toBe('Other');
  });

  it('limits each field to what the server schema accepts', () => {
    const message = {
      topic: 'Other',
      name: 'n'.repeat(CONTACT_LIMITS.name),
      email: `${'a'.repeat(CONTACT_LIMITS.email - 12)}@example.com`,
      message: 'm'.repeat(CONTACT_LIMITS.message),
    };
    expect(ContactSchema.safeParse(message).success).toBe(true);
    expect(ContactSchema.safeParse({ ...message, name: `${message.name}n` }).success).toBe(false);
    expect(ContactSchema.safeParse({ ...message, message: `${message.message}m` }).success).toBe(false);
  });

  it('uses the spec texts for the outcome', () => {
    expect(sentToast()).toEqual({
      title: 'Message sent',
      body: "Your message was sent successfully. We'll get back to you shortly.",
      variant: 'success',
    });
    expect(failedToast('help@example.com')).toEqual({
      title: 'Error sending message',
      body: 'Your message could not be delivered. Please try again later or e-mail help@example.com.',
      variant: 'danger',
    });
    expect(THANK_YOU).toBe("Thank you for reaching out! We'll get back to you shortly.");
  });

  it('treats a value of spaces as missing, and an empty one as the browser does', () => {
    expect(blankMessage('   ')).not.toBe('');
    expect(blankMessage('')).toBe('');
    expect(blankMessage(' a ')).toBe('');
  });
});
