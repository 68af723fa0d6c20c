import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { and, eq, ne, sql } from 'drizzle-orm';
import { centsToDollars, parseDollarsToCents } from '../../../common/money.ts';
import type {
  EditableKit,
  KitCreateInput,
  KitEditInput,
  UploadedScreenshot,
} from '../../../common/schemas/kit-editor.ts';
import type { Database } from '../../db/open.ts';
import { type KitDetails, type KitDocPage, kits } from '../../db/schema/catalog.ts';
import { AppError } from '../../http/errors.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import { renderMarkdown, sanitizeHtml } from '../../lib/html.ts';
import { archiveRoot, guideUnpackCommand } from './catalog.read.ts';
import { CATALOG_CHANNEL, CONSOLE_CONTENT_HASH } from './catalog.service.ts';

/**
 * The owner console's kit editor: a kit as the form edits it, saving it (all of it or nothing),
 * creating one, and storing its screenshots. Markdown goes through the same renderer and sanitiser
 * as the import; every save NOTIFYs the catalog channel in its transaction, so every server drops its
 * cached catalog (and the pages kept with it) at commit.
 */

/** A save the form must correct: a message per field, by the schema's dotted paths. */
export class KitEditRefused extends Error {
  constructor(readonly fields: Record<string, string>) {
    super(Object.entries(fields).map(([field, message]) => `${field}: ${message}`)[0] ?? 'Invalid input.');
    this.name = 'KitEditRefused';
  }
}

type KitRow = typeof kits.$inferSelect;
/** The database or a transaction on it. */
type Db = Pick<Database, 'select' | 'update' | 'insert' | 'execute'>;

const dollars = (cents: number) => centsToDollars(cents);
const cents = (amount: number) => parseDollarsToCents(String(amount))!;

/** The kit as the editor's form holds it (what `PUT` takes back), from its row. */
export function editableFields(row: KitRow) {
  const { video, ...details } = row.details;
  return {
    id: row.id,
    sef_id: row.sefId,
    version: row.version,
    in_content: row.active,
    console_changed_at: row.consoleChangedAt?.toISOString() ?? null,
    title: row.title,
    spot: row.spot,
    price: dollars(row.priceCents),
    discounted_from: row.discountedFromCents === null ? null : dollars(row.discountedFromCents),
    position: row.position,
    paddle_price_id: row.paddlePriceId,
    features: row.features,
    // Icons are stored as the import checked them (names of ICON_NAMES).
    details: { ...details, video: video ?? null } as EditableKit['details'],
    setup_markdown: row.setupMarkdown ?? '',
    docs: row.docsMarkdown ?? [],
    github_repository: row.githubRepository,
    hidden: row.hiddenAt !== null,
    updated_at: row.updatedAt.toISOString(),
  } satisfies Omit<EditableKit, 'github_delivery' | 'paddle'>;
}

/** A kit by slug; `lock` holds its row until the transaction ends (a save checks, then writes). */
export async function findEditableKit(
  db: Db,
  sefId: string,
  options: { lock?: boolean } = {},
): Promise<KitRow | undefined> {
  const query = db.select().from(kits).where(eq(kits.sefId, sefId)).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Where a kit's screenshots are stored: their URLs must point there. */
const screenshotPrefix = (sefId: string) => `media/screenshots/${sefId}/`;

/** The docs pages the store serves, from their Markdown. */
function renderDocs(pages: KitEditInput['docs']): KitDocPage[] {
  return pages.map((page) => ({
    slug: page.slug,
    title: /^# (.+)$/m.exec(page.markdown)![1]!.trim(),
    html: renderMarkdown(page.markdown),
  }));
}

/** What changed, in the activity log's words (`price $49 -> $59, faq, screenshots`). */
export function describeKitChanges(before: ReturnType<typeof editableFields>, after: KitEditInput): string {
  const changed: string[] = [];
  // Stored JSON comes back with its keys in PostgreSQL's order: compare values, not text.
  const same = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);
  const money = (v: number | null) => (v === null ? 'none' : `$${v}`);
  if (before.price !== after.price) changed.push(`price ${money(before.price)} -> ${money(after.price)}`);
  if (before.discounted_from !== after.discounted_from)
    changed.push(`discounted from ${money(before.discounted_from)} -> ${money(after.discounted_from)}`);
  if (before.hidden !== after.hidden) changed.push(after.hidden ? 'hidden' : 'shown');
  for (const key of ['title', 'spot', 'position', 'paddle_price_id', 'features', 'github_repository'] as const)
    if (!same(before[key], after[key])) changed.push(key.replace(/_/g, ' '));
  for (const key of Object.keys(after.details) as (keyof KitEditInput['details'])[])
    if (!same(before.details[key], after.details[key])) changed.push(key === 'faq' ? 'FAQ' : key);
  if (before.setup_markdown !== after.setup_markdown) changed.push('setup guide');
  if (!same(before.docs, after.docs)) changed.push('documentation');
  return changed.length > 0 ? changed.join(', ') : 'saved without changes';
}

/**
 * Saves every field of a kit, or nothing: the rules the shared schema cannot know (the kit's own
 * screenshots, its guide's unpack line, prices that Paddle must agree with, a price id no other kit
 * has) refuse the save with field messages first. Runs in the caller's transaction.
 */
export async function saveKit(
  tx: Db,
  row: KitRow,
  input: KitEditInput,
  options: { paddle: boolean; githubDelivery: boolean },
): Promise<KitRow> {
  if (input.updated_at !== undefined && input.updated_at !== row.updatedAt.toISOString())
    throw new AppError(
      'conflict',
      'This kit was changed since you opened it (by another owner, an import or another tab): reload it, then make your change again.',
    );
  const fields: Record<string, string> = {};
  const prefix = screenshotPrefix(row.sefId);
  input.details.screenshots.forEach((shot, i) => {
    if (!shot.url.startsWith(prefix) || !shot.thumbnail_url.startsWith(prefix))
      fields[`details.screenshots.${i}.url`] = 'Upload the image again (it belongs to another kit).';
  });
  const unpack = guideUnpackCommand(input.setup_markdown);
  const root = archiveRoot(row.sefId, row.version);
  if (unpack && (unpack.zip !== `${root}.zip` || unpack.folder !== root))
    fields.setup_markdown = `The unzip line must read "unzip ${root}.zip && cd ${root}" (version ${row.version} unpacks into ${root}/).`;
  const priceCents = cents(input.price);
  if (options.paddle && priceCents !== row.priceCents && input.paddle_price_id === row.paddlePriceId)
    fields.paddle_price_id =
      'A new price needs its own Paddle price: create one with the new amount in Paddle and paste its id.';
  if (input.github_repository !== null && input.github_repository !== row.githubRepository && !options.githubDelivery)
    fields.github_repository = 'GitHub delivery is not configured on this shop.';
  if (!input.hidden && !row.active)
    fields.hidden = 'The kit was removed from the catalog content: add it back and run npm run catalog to show it.';
  const [taken] = await tx
    .select({ sefId: kits.sefId })
    .from(kits)
    .where(and(eq(kits.paddlePriceId, input.paddle_price_id), ne(kits.id, row.id)))
    .limit(1);
  if (taken) fields.paddle_price_id = `Already the price of ${taken.sefId}.`;
  if (Object.keys(fields).length > 0) throw new KitEditRefused(fields);

  const { video, heading, screenshots, ...rest } = input.details;
  const details: KitDetails = {
    ...rest,
    ...(video ? { video } : {}),
    heading: { ...heading, features: heading.features.map(sanitizeHtml), text: sanitizeHtml(heading.text) },
    screenshots: screenshots.map((shot) => ({ ...shot, title: shot.title || shot.alt })),
  };
  // A kit imported before Markdown sources were kept has no docs source yet: an empty list then
  // means "not edited", not "delete the documentation".
  const keepDocs = row.docsMarkdown === null && input.docs.length === 0;
  const [saved] = await tx
    .update(kits)
    .set({
      title: input.title,
      spot: input.spot,
      priceCents,
      discountedFromCents: input.discounted_from === null ? null : cents(input.discounted_from),
      position: input.position,
      paddlePriceId: input.paddle_price_id,
      features: input.features,
      details,
      setupHtml: renderMarkdown(input.setup_markdown),
      setupMarkdown: input.setup_markdown,
      ...(keepDocs ? {} : { docs: renderDocs(input.docs), docsMarkdown: input.docs }),
      githubRepository: input.github_repository,
      hiddenAt: input.hidden ? sql`COALESCE(${kits.hiddenAt}, now())` : null,
      consoleChangedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(kits.id, row.id))
    .returning();
  await tx.execute(sql`SELECT pg_notify(${CATALOG_CHANNEL}, 'editor')`);
  return saved!;
}

/**
 * A new kit, hidden until its page is complete and the owner shows it: its slug and price id must
 * be free. Its page starts empty; the editor's Save then asks for every part.
 */
export async function createKit(tx: Db, input: KitCreateInput): Promise<KitRow> {
  const clash = await tx
    .select({ sefId: kits.sefId, paddlePriceId: kits.paddlePriceId })
    .from(kits)
    .where(sql`${kits.sefId} = ${input.sef_id} OR ${kits.paddlePriceId} = ${input.paddle_price_id}`);
  const fields: Record<string, string> = {};
  for (const kit of clash) {
    if (kit.sefId === input.sef_id) fields.sef_id = 'Another kit has this address.';
    if (kit.paddlePriceId === input.paddle_price_id) fields.paddle_price_id = `Already the price of ${kit.sefId}.`;
  }
  if (Object.keys(fields).length > 0) throw new KitEditRefused(fields);
  const [{ next }] = (
    await tx.execute<{ next: number }>(sql`SELECT COALESCE(MAX(position) + 1, 0)::int AS next FROM kits`)
  ).rows as [{ next: number }];
  const [created] = await tx
    .insert(kits)
    .values({
      sefId: input.sef_id,
      title: input.title,
      spot: input.spot,
      features: [],
      priceCents: cents(input.price),
      paddlePriceId: input.paddle_price_id,
      version: '0.0.0',
      details: {
        demo: { url: '' },
        headerCards: [],
        heading: { title: '', lead: '', features: [], text: '' },
        screenshotsTitle: '',
        screenshots: [],
        included: [],
        why: [],
        faq: [],
      },
      setupHtml: '',
      setupMarkdown: '',
      docs: [],
      docsMarkdown: [],
      position: next,
      hiddenAt: sql`now()`,
      contentHash: CONSOLE_CONTENT_HASH,
      consoleChangedAt: sql`now()`,
    })
    .returning();
  return created!;
}

/**
 * Whether a kit made with New Kit still lacks the parts its product page needs (its editor's Save
 * asks for them all): such a kit must not be shown from the Kits list either.
 */
export async function kitPageIncomplete(db: Db, id: number): Promise<boolean> {
  const [row] = await db
    .select({ features: kits.features, details: kits.details, setupHtml: kits.setupHtml })
    .from(kits)
    .where(eq(kits.id, id));
  if (!row) return false;
  const { details } = row;
  return (
    row.features.length < 3 ||
    row.setupHtml === '' ||
    details.demo.url === '' ||
    [
      details.headerCards,
      details.heading.features,
      details.screenshots,
      details.included,
      details.why,
      details.faq,
    ].some((list) => list.length === 0)
  );
}

/** An image's type by its first bytes (what it is, whatever the upload claimed). */
export function imageTypeOf(bytes: Uint8Array): 'png' | 'jpg' | 'webp' | null {
  const starts = (...values: number[]) => values.every((v, i) => bytes[i] === v);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpg';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

/**
 * Stores an uploaded screenshot under a content-addressed key in the kit's folder, in the form
 * the import gives its own (`<16 hex>-<file>`), so an export writes it back as `<file>`. Refuses
 * anything that is not a PNG, JPEG or WebP by its bytes.
 */
export async function storeScreenshot(
  storage: Storage,
  sefId: string,
  bytes: Uint8Array,
): Promise<UploadedScreenshot | null> {
  const type = imageTypeOf(bytes);
  if (!type) return null;
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const key = `screenshots/${sefId}/${hash}-shot-${hash}.${type}`;
  await storage.writeObject('public', key, bytes);
  return { url: `media/${key}`, thumbnail_url: `media/${key}` };
}
