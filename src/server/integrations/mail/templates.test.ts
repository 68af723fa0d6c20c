import { describe, expect, it } from 'vitest';
import { messageReplyMail } from './templates.ts';

const ctx = { publicUrl: 'https://shop.test', supportEmail: 'support@shop.test' };
const message = { name: 'Mary Jackson', email: 'mary@example.com', topic: 'Bug report', message: 'Tests?' };

describe('an owner reply to a contact message', () => {
  it('greets the sender when the reply does not', () => {
    const mail = messageReplyMail(ctx, message, 'Yes, it does.');
    expect(mail.text.startsWith('Hi Mary Jackson,\n\nYes, it does.\n')).toBe(true);
    expect(mail.html).toContain('>Hi Mary Jackson,</h1>');
  });

  it.each([
    'Hello Mary,\n\nYes, it does.',
    'Hi Mary, yes it does.',
    '  dear Ms Jackson,\n\nIt does.',
    'Good morning Mary!\n\nIt does.',
  ])('adds no second greeting above the owner’s own: %j', (body) => {
    const mail = messageReplyMail(ctx, message, body);
    expect(mail.text.startsWith(body.split(/\n{2,}/)[0]!)).toBe(true);
    expect(mail.text).not.toContain('Hi Mary Jackson,');
    expect(mail.html).not.toContain('<h1');
    expect(mail.text).toContain('You wrote: “Tests?”');
  });

  it('does not take a word that only starts like a greeting for one', () => {
    expect(messageReplyMail(ctx, message, 'Highly likely: yes.').text).toMatch(/^Hi Mary Jackson,/);
  });
});
