import { describe, expect, it } from 'vitest';
import { mailboxKey } from './mailbox.ts';

describe('mailboxKey: addresses that reach one mailbox share one key', () => {
  it('ignores case and the spaces around an address', () => {
    expect(mailboxKey('Jane@Example.COM')).toBe('jane@example.com');
    expect(mailboxKey('  jane@example.com ')).toBe('jane@example.com');
  });

  it('drops a +tag (plus-addressing) at any domain, from the first +', () => {
    expect(mailboxKey('jane+shop@example.com')).toBe('jane@example.com');
    expect(mailboxKey('Jane+Shop+2@Example.com')).toBe('jane@example.com');
    expect(mailboxKey('jane+@example.com')).toBe('jane@example.com');
    // Nothing before the '+': no name to keep, the address is its own mailbox.
    expect(mailboxKey('+jane@example.com')).toBe('+jane@example.com');
  });

  it('keeps dots outside Gmail: j.doe and jdoe are different people elsewhere', () => {
    expect(mailboxKey('j.doe@example.com')).toBe('j.doe@example.com');
    expect(mailboxKey('j.doe@example.com')).not.toBe(mailboxKey('jdoe@example.com'));
    expect(mailboxKey('jane@mail.example.com')).toBe('jane@mail.example.com');
  });

  it('at Gmail drops dots in the local part and reads googlemail.com as gmail.com', () => {
    const key = 'janedoe@gmail.com';
    for (const address of [
      'janedoe@gmail.com',
      'jane.doe@gmail.com',
      'J.a.N.e.D.o.E@GMAIL.com',
      'janedoe@googlemail.com',
      'Jane.Doe+x@gmail.com',
      'jane.doe+shop.news@googlemail.com',
    ])
      expect(mailboxKey(address), address).toBe(key);
    // Only the local part: the domain keeps its dots, and a look-alike domain is not Gmail.
    expect(mailboxKey('jane.doe@gmail.co')).toBe('jane.doe@gmail.co');
    expect(mailboxKey('jane.doe@notgmail.com')).toBe('jane.doe@notgmail.com');
  });

  it('keeps different mailboxes apart', () => {
    expect(mailboxKey('jane@example.com')).not.toBe(mailboxKey('jane@example.org'));
    expect(mailboxKey('jane@gmail.com')).not.toBe(mailboxKey('janet@gmail.com'));
    expect(mailboxKey('jane@example.com')).not.toBe(mailboxKey('jane.x@example.com'));
  });

  it('splits at the last @ and leaves a text without @ as it is, in lower case', () => {
    expect(mailboxKey('"a@b"+x@Example.com')).toBe('"a@b"@example.com');
    expect(mailboxKey('Not-An-Address')).toBe('not-an-address');
  });
});
