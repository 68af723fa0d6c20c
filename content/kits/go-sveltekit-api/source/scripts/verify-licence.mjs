#!/usr/bin/env node
// Checks this copy's licence key with the shop that sold it (Kitshop's licence API, shaped like
// Lemon Squeezy's). Activates this machine on first use, then validates it.
//   KITSHOP_URL=https://shop.example node scripts/verify-licence.mjs YOUR-LICENCE-KEY
// Node 18+, no dependencies. The instance id is kept in .licence.json beside the project.
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

const shop = (process.env.KITSHOP_URL ?? '').replace(/\/$/, '');
const key = process.argv[2] ?? process.env.KITSHOP_LICENCE_KEY;
if (!shop || !key) {
  console.error('Usage: KITSHOP_URL=https://shop.example node scripts/verify-licence.mjs LICENCE-KEY');
  process.exit(2);
}
const FILE = '.licence.json';

async function call(verb, body) {
  const res = await fetch(`${shop}/api/v1/licenses/${verb}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, ...(await res.json()) };
}

let saved;
try {
  saved = JSON.parse(readFileSync(FILE, 'utf8'));
} catch {}

let answer;
if (saved?.key === key) {
  answer = await call('validate', { license_key: key, instance_id: saved.instance_id });
  if (!answer.valid && answer.status === 404 && answer.license_key) answer = undefined; // this machine was deactivated
}
if (!answer) {
  answer = await call('activate', { license_key: key, instance_name: hostname() });
  if (answer.activated) writeFileSync(FILE, `${JSON.stringify({ key, instance_id: answer.instance.id }, null, 2)}\n`);
}
if (answer.valid || answer.activated) {
  const { kit_title, customer_email } = answer.meta;
  const { activation_usage, activation_limit } = answer.license_key;
  console.log(`Licence OK: ${kit_title}, licensed to ${customer_email} (${activation_usage} of ${activation_limit} machines).`);
} else {
  console.error(`Licence not valid: ${answer.error ?? answer.license_key?.status ?? `HTTP ${answer.status}`}`);
  process.exit(1);
}
