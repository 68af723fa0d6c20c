import { expect, githubUrl, grantKits, loadCatalog, payAtSandboxCheckout, test } from './fixtures.ts';

/**
 * Kits delivered as private GitHub repositories, on the root shop, whose GITHUB_* point
 * at the stand-in of tests/setup/github-stand-in.ts: pay, connect GitHub, see the invitation,
 * lose it on a refund, and disconnect.
 */

type StandInState = {
  invitations: { repository: string; login: string }[];
  collaborators: Record<string, string[]>;
  problems: string[];
};
const standIn = {
  async state(): Promise<StandInState> {
    return (await fetch(`${githubUrl()}/_stand-in/state`)).json();
  },
  async post(path: string, body: object) {
    const res = await fetch(`${githubUrl()}/_stand-in/${path}`, { method: 'POST', body: JSON.stringify(body) });
    expect(res.ok).toBe(true);
  },
};

/** A signed-in buyer whose GitHub account (signed in at the stand-in in this browser) is new, and the demo kits. */
const githubBuyer = test.extend<{ buyer: { id: number; login: string; kits: { nextjs: Kit; laravel: Kit } } }>({
  buyer: async ({ signIn, request, context }, use, testInfo) => {
    const { find } = await loadCatalog(request);
    const user = await signIn('Gita Hub');
    const login = `gita-${testInfo.project.name}-${user.id}`;
    // This browser is signed in to the stand-in's "GitHub" as that account, so tests running at the
    // same time (desktop and mobile) each authorise as their own.
    await standIn.post('user', { id: 500_000 + user.id, login });
    await context.addCookies([{ name: 'stand_in_user', value: login, url: githubUrl() }]);
    const kits = {
      nextjs: find((k) => k.sef_id === 'nextjs-saas-starter'),
      laravel: find((k) => k.sef_id === 'laravel-vue-crm'),
    };
    await use({ id: user.id, login, kits });
  },
});
type Kit = { id: number; title: string };

githubBuyer(
  'a buyer connects GitHub, is invited, loses a refunded repository and disconnects @stack',
  async ({ page, db, buyer, snap }) => {
    test.setTimeout(60_000);
    const { nextjs, laravel } = buyer.kits;
    const { login } = buyer;
    const user = buyer;

    await page.goto('/');
    await payAtSandboxCheckout(page, [nextjs.id, laravel.id]);
    await page.goto('/user-panel');
    const card = page.getByRole('region', { name: 'GitHub repositories' });
    await expect(card.getByRole('link', { name: 'Connect GitHub' })).toBeVisible();
    const nextjsItem = page.getByTestId('purchase').filter({ hasText: nextjs.title });
    await expect(nextjsItem.getByTestId('repository-access')).toContainText('connect GitHub above');
    await snap('github-connect');

    await card.getByRole('link', { name: 'Connect GitHub' }).click();
    await expect(page).toHaveURL(/\/user-panel$/);
    await expect(card.getByRole('status')).toContainText('GitHub connected');
    await expect(card.getByTestId('github-login')).toContainText(`@${login}`);
    // Invited within seconds of connecting: the worker runs the grant jobs the connection queued.
    const accept = nextjsItem.getByRole('link', { name: 'Accept the invitation on GitHub' });
    await expect(accept).toBeVisible({ timeout: 5000 });
    await expect(accept).toHaveAttribute('href', `${githubUrl()}/kitshop-dev/nextjs-saas-starter/invitations`);
    expect((await standIn.state()).invitations.filter((i) => i.login === login)).toHaveLength(2);
    await snap('github-invited');

    // The item page tells how to clone.
    await nextjsItem.getByRole('link', { name: 'Setup guide' }).click();
    const clone = page.getByRole('region', { name: 'Clone the repository' });
    await expect(clone).toContainText(`git clone ${githubUrl()}/kitshop-dev/nextjs-saas-starter.git`);
    await expect(clone.getByRole('link', { name: 'open your invitation' })).toBeVisible();
    await snap('github-clone');

    // A refund (by an owner, through the sandbox's signed webhook) removes the invitation.
    await db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [user.id]);
    const { rows } = await db.query('SELECT email FROM users WHERE id = $1', [user.id]);
    await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [rows[0].email]);
    try {
      const order = await db.query('SELECT public_id FROM orders WHERE user_id = $1 AND status = $2', [
        user.id,
        'paid',
      ]);
      const csrf = await page.evaluate(() => JSON.parse(document.getElementById('initial-data')!.textContent!).csrf);
      const refund = await page.request.post(`api/admin/orders/${order.rows[0].public_id}/refund`, {
        data: { kit_ids: [laravel.id], reason: 'GitHub e2e' },
        headers: { 'x-csrf-token': csrf },
      });
      expect(refund.status()).toBe(200);
    } finally {
      await db.query('DELETE FROM owners WHERE email = lower($1)', [rows[0].email]);
    }
    await expect
      .poll(async () => (await standIn.state()).invitations.filter((i) => i.login === login).map((i) => i.repository))
      .toEqual(['kitshop-dev/nextjs-saas-starter']);
    await page.goto('/user-panel');
    await expect(page.getByTestId('purchase').filter({ hasText: laravel.title })).toHaveCount(0);
    await expect(card.getByTestId('github-revoked')).toContainText('kitshop-dev/laravel-vue-crm');

    // Accepted on GitHub: the panel says so and links the repository.
    await standIn.post('accept', { repository: 'kitshop-dev/nextjs-saas-starter', login });
    await page.reload();
    await expect(nextjsItem.getByRole('link', { name: 'Open the repository' })).toBeVisible();

    await card.getByRole('button', { name: 'Disconnect GitHub' }).click();
    await expect(card.getByRole('link', { name: 'Connect GitHub' })).toBeVisible();
    await expect(nextjsItem.getByTestId('repository-access')).toContainText('connect GitHub above');
    await expect
      .poll(async () => (await standIn.state()).collaborators['kitshop-dev/nextjs-saas-starter'])
      .not.toContain(login.toLowerCase());
    expect((await standIn.state()).problems).toEqual([]);
    await snap('github-disconnected');
  },
);

githubBuyer(
  "a repository GitHub refuses shows as failed to the buyer and on the owner's customer page",
  async ({ page, db, buyer, snap }) => {
    const { nextjs } = buyer.kits;
    const { login } = buyer;
    const user = buyer;
    await standIn.post('fail', {
      method: 'PUT',
      path: `/collaborators/${login}`,
      status: 422,
      body: { message: 'Validation Failed', errors: [{ field: 'username', code: 'invalid' }] },
    });
    await grantKits(db, user.id, [nextjs.id]);

    await page.goto('/user-panel');
    await page.getByRole('link', { name: 'Connect GitHub' }).click();
    const item = page.getByTestId('purchase').filter({ hasText: nextjs.title });
    await expect(item.getByTestId('repository-access')).toContainText('GitHub refused the invitation', {
      timeout: 5000,
    });

    await db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [user.id]);
    const { rows } = await db.query('SELECT email FROM users WHERE id = $1', [user.id]);
    await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [rows[0].email]);
    try {
      await page.goto(`/admin/customers/${user.id}`);
      await expect(page.getByText('GitHub access that failed')).toBeVisible();
      const row = page.getByRole('row').filter({ hasText: 'kitshop-dev/nextjs-saas-starter' });
      await expect(row).toContainText(`@${login}`);
      await expect(row).toContainText('Validation Failed');
      await snap('github-failed-owner');
    } finally {
      await db.query('DELETE FROM owners WHERE email = lower($1)', [rows[0].email]);
    }
  },
);
