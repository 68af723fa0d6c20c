import addressparser from 'nodemailer/lib/addressparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, signedInClient } from '../../../../tests/setup/client.ts';
import { startSmtpOutage, startSmtpServer } from '../../../../tests/setup/smtp.ts';
import { createTestApp, type TestApp, webRenderer } from '../../../../tests/setup/test-app.ts';
import { CONTACT_TOPICS } from '../../../common/schemas/messages.ts';
import { createSmtpMailer } from '../../integrations/mail/mailer.ts';

let t: TestApp;
beforeAll(async () => {
  // The web app's renderer: the blog's pages are in #root as the browser gets them.
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', SUPPORT_EMAIL: 'help@shop.test' }, { render: webRenderer });
});
afterAll(() => t.close());

const message = {
  topic: CONTACT_TOPICS[1],
  name: 'Linus',
  email: 'linus@example.com',
  message: 'The kit does not start.\n\nDetails follow.',
};

describe('POST /api/contact', () => {
  it('stores the message even while SMTP is down and mails it to support, Reply-To the sender, once it is back', async () => {
    const { smtp, mailer } = await startSmtpOutage();
    const browser = await createClient(t.app);
    const res = await browser.post('/api/contact', message);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Your message was sent successfully. We'll get back to you shortly." });
    const { rows } = await t.pool.query('SELECT topic, name, email, message FROM contact_messages');
    expect(rows).toEqual([
      { topic: message.topic, name: 'Linus', email: 'linus@example.com', message: message.message },
    ]);
    expect(await t.deliverMail(mailer)).toBe(0);
    await smtp.start();
    await t.pool.query('UPDATE mail_outbox SET next_attempt_at = now() WHERE sent_at IS NULL');
    expect(await t.deliverMail(mailer)).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['help@shop.test']);
    expect(smtp.received[0]!.headers).toMatch(/Reply-To: Linus <linus@example\.com>/);
    expect(smtp.received[0]!.text).toContain('The kit does not start.');
    mailer.close();
    await smtp.stop();
  });

  it("puts the sender's name into Reply-To only as a quoted name: a name cannot add an address", async () => {
    await t.deliverMail();
    const smtp = await startSmtpServer();
    const mailer = createSmtpMailer(smtp.url, 'Kitshop <no-reply@kitshop.dev>');
    const names = ['attacker@evil.example,', 'Mallory <attacker@evil.example>, "x\\', 'Jöns, attacker@evil.example'];
    try {
      for (const name of names) {
        const res = await (await createClient(t.app)).post('/api/contact', { ...message, name });
        expect(res.statusCode).toBe(200);
      }
      expect(await t.deliverMail(mailer)).toBe(names.length);
      const replyTos = smtp.received.map((mail) => {
        // The header with its folded continuation lines.
        const header = /^Reply-To:(.*(?:\r\n[ \t].*)*)/im.exec(mail.headers)![1]!;
        return addressparser(header.replace(/\r\n/g, ''), { flatten: true });
      });
      expect(replyTos.map((list) => list.map((a) => a.address))).toEqual(names.map(() => ['linus@example.com']));
      expect(replyTos.slice(0, 2).map((list) => list[0]!.name)).toEqual(names.slice(0, 2));
    } finally {
      mailer.close();
      await smtp.stop();
    }
  });

  it('mails a non-ASCII name, subject and message intact (UTF-8 end to end)', async () => {
    await t.deliverMail();
    const smtp = await startSmtpServer();
    const mailer = createSmtpMailer(smtp.url, 'Kitshop <no-reply@kitshop.dev>');
    try {
      const name = 'Zoë Ångström-Łukasz 山田';
      const text = 'Grüße aus Köln — the kit’s “setup” step fails: 日本語のパス.';
      const res = await (await createClient(t.app)).post('/api/contact', { ...message, name, message: text });
      expect(res.statusCode).toBe(200);
      expect(await t.deliverMail(mailer)).toBe(1);
      const [mail] = smtp.received;
      expect(mail!.subject).toBe(`[Contact] ${message.topic}: ${name}`);
      expect(mail!.text).toContain(`From: ${name} <linus@example.com>`);
      expect(mail!.text).toContain(text);
      expect(mail!.html).toContain('日本語のパス');
    } finally {
      mailer.close();
      await smtp.stop();
    }
  });

  it('accepts the variant without a topic', async () => {
    const res = await (await createClient(t.app)).post('/api/contact', {
      name: 'A',
      email: 'a@example.com',
      message: 'Hi',
    });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    [{ ...message, topic: 'Sales' }, /^topic: /],
    [{ ...message, name: '' }, /^name: /],
    [{ ...message, name: 'x'.repeat(101) }, /^name: Name is too long/],
    [{ ...message, email: 'nope' }, /^email: /],
    [{ ...message, message: ' ' }, /^message: Message is required/],
    [{ ...message, message: 'x'.repeat(5001) }, /^message: Message is too long/],
  ])('answers bad input %# with 422 naming the field and stores nothing', async (body, pattern) => {
    const before = (await t.pool.query('SELECT count(*)::int AS n FROM contact_messages')).rows[0].n;
    const res = await (await createClient(t.app)).post('/api/contact', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(pattern);
    expect((await t.pool.query('SELECT count(*)::int AS n FROM contact_messages')).rows[0].n).toBe(before);
  });

  it('limits messages per IP', async () => {
    const browser = await createClient(t.app, { ip: '10.9.9.9' });
    const codes: number[] = [];
    for (let i = 0; i < 21; i++)
      codes.push(
        (await browser.post('/api/contact', { name: 'Spam', email: 's@example.com', message: `#${i}` })).statusCode,
      );
    expect(codes.filter((c) => c === 200)).toHaveLength(20);
    expect(codes[20]).toBe(429);
  });

  it('needs the CSRF token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/contact', payload: message })).statusCode).toBe(419);
  });
});

describe('newsletter', () => {
  it('subscribes once without regard to case, mails a one-click unsubscribe link, and unsubscribes by POST only', async () => {
    const browser = await createClient(t.app);
    const first = await browser.post('/api/subscribe', { email: 'Reader@Example.com' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: 'You have been registered to our email bulletin' });
    expect((await browser.post('/api/subscribe', { email: 'reader@example.com' })).statusCode).toBe(200);
    await t.deliverMail();
    const welcome = t.mails.filter((m) => m.to === 'Reader@Example.com');
    expect(welcome).toHaveLength(1);
    const link = welcome[0]!.headers!['List-Unsubscribe']!.slice(1, -1);
    expect(link).toMatch(/^http:\/\/shop\.test\/newsletter\/unsubscribe\?token=[\w-]+$/);
    expect(welcome[0]!.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const path = link.replace('http://shop.test', '');

    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('>Unsubscribe</button>');
    expect(
      (await t.pool.query("SELECT unsubscribed_at FROM subscribers WHERE lower(email) = 'reader@example.com'")).rows[0]
        .unsubscribed_at,
    ).toBeNull();

    // One-click, as a mail client sends it: form-encoded, no CSRF token, no session.
    const done = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You are unsubscribed');
    const { rows } = await t.pool.query(
      "SELECT unsubscribed_at FROM subscribers WHERE lower(email) = 'reader@example.com'",
    );
    expect(rows[0].unsubscribed_at).not.toBeNull();

    // Subscribing again is welcome again.
    await browser.post('/api/subscribe', { email: 'reader@example.com' });
    await t.deliverMail();
    expect(t.mails.filter((m) => m.to.toLowerCase() === 'reader@example.com')).toHaveLength(2);
  });

  it('answers an unknown token with 404 and bad input with 422', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/newsletter/unsubscribe?token=nope' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/newsletter/unsubscribe?token=nope' })).statusCode).toBe(404);
    const res = await (await createClient(t.app)).post('/api/subscribe', { email: 'not-an-address' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^email: /);
  });
});

describe('blog', () => {
  it('lists posts newest first, shows one, and 404s an unknown one', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/blog' });
    expect(list.statusCode).toBe(200);
    expect(list.body.indexOf('Newer: what changed &amp; why')).toBeLessThan(list.body.indexOf('The older post'));
    const post = await t.app.inject({ method: 'GET', url: '/blog/older-post' });
    expect(post.body).toContain('<h1>The older post</h1>');
    expect(post.body).toContain('<a href="/product/alpha-kit">link</a>');
    expect(post.body).not.toContain('<script>alert');
    expect((await t.app.inject({ method: 'GET', url: '/blog/nope' })).statusCode).toBe(404);
  });

  it("serves the list and each post inside the shop's page shell, with the text in the page and the blog's head", async () => {
    const rootHtml = (body: string) =>
      /<div id="root">([\s\S]*)<\/div>\s*<script type="application\/json" id="client-config">/.exec(body)?.[1];
    const { client: browser, user } = await signedInClient(t.app, t.pool, { name: 'Ada Reader' });
    const post = await browser.get('/blog/older-post');
    expect(post.statusCode).toBe(200);
    expect(post.headers['cache-control']).toBe('no-store');
    // The app's initial data (the header's account, the newsletter's CSRF token) ...
    const data = JSON.parse(/id="initial-data">(.*?)<\/script>/.exec(post.body)![1]!);
    expect(data).toMatchObject({ path: '/blog/older-post', user: { id: user.id, name: 'Ada Reader' } });
    expect(data.csrf.length).toBeGreaterThan(20);
    // ... and the post itself inside #root, for readers without JavaScript and for crawlers.
    const root = rootHtml(post.body)!;
    expect(root).toContain('<main id="main">');
    expect(root).toContain('<div class="container blog-page"><article><h1>The older post</h1>');
    expect(root).toContain('<a href="/product/alpha-kit">link</a>');
    expect(root).toContain('<code>s.replace(re, &#39;$&amp;&#39;)</code>');
    expect(post.body).toContain('<title>The older post — Kitshop blog</title>');
    expect(post.body).toContain('<meta name="description" content="An older post about the alpha kit.">');
    expect(post.body).toContain('<link rel="canonical" href="http://shop.test/blog/older-post">');
    expect(post.body).toContain('<meta property="og:type" content="article">');

    const list = await browser.get('/blog');
    expect(rootHtml(list.body)).toContain('<ul class="post-list">');
    expect(list.body).toContain('<link rel="canonical" href="http://shop.test/blog">');
    expect(list.body).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Kitshop blog" href="/blog/feed.xml">',
    );

    const missing = await browser.get('/blog/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<meta name="robots" content="noindex">');
    expect(rootHtml(missing.body)).toContain('This post does not exist.');
  });

  it('serves the latest post as an escaped HTML fragment and an RSS feed', async () => {
    const teaser = await t.app.inject({ method: 'GET', url: '/blog/latest.php' });
    expect(teaser.headers['content-type']).toContain('text/html');
    expect(teaser.body).toContain('<a href="/blog/newer-post">Newer: what changed &amp; why</a>');
    expect(teaser.body).toContain('&lt;b&gt;markup&lt;/b&gt;');
    expect(teaser.body).toContain('<time datetime="2025-09-15">15 September 2025</time>');
    const feed = await t.app.inject({ method: 'GET', url: '/blog/feed.xml' });
    expect(feed.headers['content-type']).toContain('application/rss+xml');
    expect(feed.body).toContain('<link>http://shop.test/blog/newer-post</link>');
    expect(feed.body.match(/<item>/g)).toHaveLength(2);
  });
});
