import { escapeHtml, scriptJson } from '../../lib/escape.ts';

/** What the sandbox page shows of a pending order. */
export type SandboxOrder = {
  order: { status: string; totalCents: number };
  items: { title: string; priceCents: number }[];
};

const usd = (cents: number) => `USD ${(cents / 100).toFixed(2)}`;

function orderBody(found: SandboxOrder | undefined): string {
  if (!found)
    return '<p class="error" role="alert">This checkout has expired. Close it and press Make Payment again.</p>';
  if (found.order.status !== 'pending') return '<p class="done" role="status">This order is already paid.</p>';
  return `<ul class="lines">${found.items.map((i) => `<li><span>${escapeHtml(i.title)}</span><span>${usd(i.priceCents)}</span></li>`).join('')}</ul>
<p class="total"><span>Total</span><span>${usd(found.order.totalCents)}</span></p>
<form id="pay" novalidate>
  <div class="fields">
  <div class="field card"><label for="card">Card number</label>
  <input id="card" name="card" inputmode="numeric" autocomplete="off" placeholder="4242 4242 4242 4242" required></div>
  <div class="field"><label for="exp">Expiry</label><input id="exp" placeholder="12/34" value="12/34"></div>
  <div class="field"><label for="cvc">CVC</label><input id="cvc" placeholder="123" value="123"></div>
  </div>
  <p id="message" class="error" role="alert" hidden></p>
  <button type="submit">Pay</button>
  <p class="hint">Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.</p>
</form>`;
}

/**
 * The sandbox's page inside the checkout frame (marked as a test payment): the order's lines and a
 * card form, or why it cannot be paid. Its stylesheet and script are `sandbox/checkout.css` and
 * `sandbox/checkout.js`; `data` is what the script reads.
 */
export function renderSandboxPage(
  base: string,
  found: SandboxOrder | undefined,
  data: { csrf: string; orderId: string },
): string {
  const pageData = { ...data, payUrl: `${base}/sandbox/checkout/pay` };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test payment</title><meta name="robots" content="noindex"><link rel="stylesheet" href="${base}/sandbox/checkout.css"></head>
<body><main><p class="badge">Test payment — no money moves</p><h1>Pay by card</h1>${orderBody(found)}</main>
<script type="application/json" id="sandbox-data">${scriptJson(pageData)}</script><script src="${base}/sandbox/checkout.js"></script></body></html>`;
}
