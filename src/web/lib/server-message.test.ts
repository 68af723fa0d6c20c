import { describe, expect, it } from 'vitest';
import { messageForPeople } from './server-message.ts';

describe('messageForPeople', () => {
  it('drops the field name the API puts before a sentence', () => {
    expect(messageForPeople('password: Password must include a number.')).toBe('Password must include a number.');
    expect(messageForPeople('password_confirmation: Passwords are not matching.')).toBe('Passwords are not matching.');
    expect(messageForPeople('details.email: Enter a valid email address.')).toBe('Enter a valid email address.');
  });

  it('keeps messages that are not a field name and a sentence', () => {
    for (const message of [
      'Email and Password fields are required.',
      'from: must not be after to.',
      'Note: this is not a field.',
      'These credentials do not match our records.',
    ])
      expect(messageForPeople(message)).toBe(message);
  });
});
