import { expect, test } from '@playwright/test';

test('signed-out visitors are redirected from the dashboard', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fdashboard/);
  await expect(page.getByRole('heading', { name: 'Sign in to Acme' })).toBeVisible();
});

test('sign-in page lists the configured providers', async ({ page }) => {
  await page.goto('/sign-in');
  if (process.env.AUTH_GITHUB_ID) await expect(page.getByRole('button', { name: /GitHub/ })).toBeVisible();
  if (process.env.RESEND_API_KEY) await expect(page.getByLabel('Email')).toBeVisible();
});
