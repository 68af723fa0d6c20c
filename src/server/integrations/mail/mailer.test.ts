import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGoogleSignIn } from '../oidc/google.ts';
import { createFileMailer } from './mailer.ts';
import { verificationMail } from './templates.ts';

describe('file mailer (no SMTP_URL)', () => {
  it('writes each mail as an .eml file with its text and HTML parts', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-mail-'));
    try {
      const mailer = createFileMailer(dir, 'Kitshop <no-reply@kitshop.dev>');
      const mail = verificationMail(
        { publicUrl: 'http://localhost:3000', supportEmail: 'help@kitshop.dev' },
        { name: 'Ada <script>', email: 'ada@example.com' },
        'tok',
      );
      await mailer.send(mail);
      const [file] = readdirSync(dir);
      expect(file).toMatch(/ada@example\.com\.eml$/);
      const eml = readFileSync(path.join(dir, file!), 'utf8');
      expect(eml).toContain('To: ada@example.com');
      expect(eml).toContain('Content-Type: text/plain');
      expect(eml).toContain('Content-Type: text/html');
      expect(mail.link).toBe('http://localhost:3000/email/verify?token=tok&email=ada%40example.com');
      expect(mail.html).toContain('Ada &lt;script&gt;');
      expect(mail.html).not.toContain('<script>');
      // A whole document: its language, character set and title (the subject) in a head.
      expect(mail.html).toMatch(
        /^<!doctype html><html lang="en"><head><meta charset="utf-8">.*<title>Activate your Kitshop account<\/title><\/head><body/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Google issuer', () => {
  it('accepts plain http only on a loopback address', () => {
    const settings = { clientId: 'id', clientSecret: 'secret', redirectUri: 'https://shop.example/google/callback' };
    expect(() => createGoogleSignIn({ ...settings, issuer: 'http://accounts.example.com' })).toThrow(/https/);
    expect(() => createGoogleSignIn({ ...settings, issuer: 'http://127.0.0.1:9000' })).not.toThrow();
    expect(() => createGoogleSignIn({ ...settings, issuer: 'https://accounts.google.com' })).not.toThrow();
  });
});
