import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type DiscountCreate, DiscountCreateSchema } from '../common/schemas/discounts.ts';
import { dayIn, lastDayIn } from '../common/shop-days.ts';
import type { Config } from './config.ts';
import type { Database } from './db/open.ts';
import { AppError } from './http/errors.ts';
import { allKits } from './modules/catalog/catalog.owner.service.ts';
import {
  createDiscount,
  importCatalogDiscounts,
  listDiscounts,
  ownerDiscount,
  setDiscountActive,
} from './modules/orders/discounts.service.ts';

export const DISCOUNTS_USAGE = `  npm run discounts -- create CODE (--percent N | --amount DOLLARS) [--kits SEF_ID,...]
                    [--starts DATE] [--ends DATE] [--max N] [--once] [--paddle dsc_...]
                                    a discount code (dates ISO, e.g. 2026-12-01: days in
                                    SHOP_TIME_ZONE, the end day included)
  npm run discounts -- list         every code with its uses
  npm run discounts -- pause CODE   pause a code (resume CODE: use it again)`;

/** A parsed command; `kits` are slugs, looked up when it runs. */
type DiscountArgs = { sub: string; code?: string; input?: DiscountCreate; kits?: string };

/** `npm run discounts -- create|list|pause|resume`: parsed, or the line saying what is wrong. */
export function parseDiscountArgs(args: string[]): DiscountArgs | string {
  const [sub, code] = args;
  if (sub === 'list' && args.length === 1) return { sub };
  if ((sub === 'pause' || sub === 'resume') && code && args.length === 2) return { sub, code };
  if (sub !== 'create' || !code) return DISCOUNTS_USAGE;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: args.slice(2),
      options: {
        percent: { type: 'string' },
        amount: { type: 'string' },
        kits: { type: 'string' },
        starts: { type: 'string' },
        ends: { type: 'string' },
        max: { type: 'string' },
        once: { type: 'boolean' },
        paddle: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    return (error as Error).message;
  }
  const number = (v: unknown) => (v === undefined ? undefined : Number(v));
  return {
    sub,
    code,
    input: {
      code,
      percent_off: number(values.percent),
      amount_off: number(values.amount),
      starts_at: values.starts as string | undefined,
      ends_at: values.ends as string | undefined,
      max_redemptions: number(values.max),
      once_per_customer: Boolean(values.once),
      paddle_discount_id: values.paddle as string | undefined,
    },
    kits: values.kits as string | undefined,
  };
}

/**
 * One code in a line; its dates are days in the shop's zone, the end the last day it works; its
 * kits by the names `--kits` takes (`kitNames`: id -> sef_id).
 */
const describe = (d: ReturnType<typeof ownerDiscount>, timeZone: string, kitNames: Map<number, string>) =>
  [
    d.code.padEnd(16),
    (d.percent_off !== null ? `${d.percent_off}% off` : `USD ${d.amount_off?.toFixed(2)} off`).padEnd(16),
    `${d.redemptions}${d.max_redemptions !== null ? `/${d.max_redemptions}` : ''} used`.padEnd(12),
    (d.active ? 'active' : 'paused').padEnd(7),
    d.kit_ids ? `kits ${d.kit_ids.map((id) => kitNames.get(id) ?? `#${id}`).join(',')}` : 'every kit',
    d.starts_at ? `from ${dayIn(d.starts_at, timeZone)}` : '',
    d.ends_at ? `until ${lastDayIn(d.ends_at, timeZone)}` : '',
    d.once_per_customer ? 'once per customer' : '',
  ]
    .filter(Boolean)
    .join('  ');

/** Runs a parsed discounts command; a refused input prints its message and answers 1. */
export async function runDiscounts(db: Database, config: Config, parsed: DiscountArgs): Promise<number> {
  try {
    const kitNames = async () => new Map((await allKits(db)).map((k) => [k.id, k.sef_id]));
    if (parsed.sub === 'list') {
      const codes = (await listDiscounts(db)).map(ownerDiscount);
      if (codes.length === 0) console.log('No discount codes yet: npm run discounts -- create CODE --percent 20');
      const names = await kitNames();
      for (const d of codes) console.log(describe(d, config.shopTimeZone, names));
      return 0;
    }
    if (parsed.sub === 'pause' || parsed.sub === 'resume') {
      const row = await setDiscountActive(db, parsed.code!, parsed.sub === 'resume');
      if (!row) {
        console.error(`No discount code ${parsed.code}.`);
        return 1;
      }
      console.log(`${row.code} is ${row.active ? 'active' : 'paused'}.`);
      return 0;
    }
    let kitIds: number[] | undefined;
    if (parsed.kits) {
      const bySef = new Map((await allKits(db)).map((k) => [k.sef_id, k.id]));
      const slugs = parsed.kits.split(',').map((s) => s.trim());
      const unknown = slugs.filter((s) => !bySef.has(s));
      if (unknown.length > 0) {
        console.error(`--kits: no kit ${unknown.join(', ')}.`);
        return 1;
      }
      kitIds = slugs.map((s) => bySef.get(s)!);
    }
    const input = DiscountCreateSchema.safeParse({ ...parsed.input, kit_ids: kitIds });
    if (!input.success) {
      const issue = input.error.issues[0]!;
      console.error(`${issue.path.join('.') || 'input'}: ${issue.message}`);
      return 1;
    }
    const created = ownerDiscount(
      await createDiscount(db, input.data, {
        paddle: config.paymentProvider === 'paddle',
        timeZone: config.shopTimeZone,
      }),
    );
    console.log(`Created ${describe(created, config.shopTimeZone, await kitNames())}`);
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

/**
 * The catalog's discount codes (`CATALOG_DIR/discounts.json`, optional), created when missing:
 * by `npm run catalog` and by the first start's import. Answers lines for the log.
 */
export async function importDiscountsFile(db: Database, config: Config): Promise<string[]> {
  let entries: unknown;
  try {
    entries = JSON.parse(await fs.readFile(path.join(config.catalogDir, 'discounts.json'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    return [`discounts.json: not valid JSON (${(error as Error).message})`];
  }
  const { created, skipped } = await importCatalogDiscounts(db, entries, {
    paddle: config.paymentProvider === 'paddle',
    timeZone: config.shopTimeZone,
  });
  return [...(created.length > 0 ? [`discount codes created: ${created.join(', ')}`] : []), ...skipped];
}
