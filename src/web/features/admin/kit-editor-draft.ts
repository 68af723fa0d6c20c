import type { EditableKit, KitEdit } from '../../../common/schemas/kit-editor.ts';

/** The form as typed: numbers and optional values as the strings their fields hold, read on Save. */
export type Draft = Omit<KitEdit, 'price' | 'discounted_from' | 'position' | 'github_repository'> & {
  price: string;
  discounted_from: string;
  position: string;
  github_repository: string;
};

/** Changes the draft by mutating a copy (the form's many nested lists stay simple to edit). */
export type Edit = (change: (draft: Draft) => void) => void;

export type SectionProps = { draft: Draft; edit: Edit; errors: Record<string, string>; kit: EditableKit };

export function draftOf(kit: EditableKit): Draft {
  return {
    title: kit.title,
    spot: kit.spot,
    price: String(kit.price),
    discounted_from: kit.discounted_from === null ? '' : String(kit.discounted_from),
    position: String(kit.position),
    paddle_price_id: kit.paddle_price_id,
    features: kit.features,
    details: kit.details,
    setup_markdown: kit.setup_markdown,
    docs: kit.docs,
    github_repository: kit.github_repository ?? '',
    hidden: kit.hidden,
    updated_at: kit.updated_at,
  };
}

/** An empty field is no number (the schema then names it); anything else is read as typed. */
const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

export function inputOf(draft: Draft): KitEdit {
  return {
    ...draft,
    price: number(draft.price),
    discounted_from: draft.discounted_from.trim() === '' ? null : number(draft.discounted_from),
    position: number(draft.position),
    github_repository: draft.github_repository.trim() === '' ? null : draft.github_repository,
  };
}

const FIELD_WORDS: Record<string, string> = {
  details: '',
  demo: 'Demo',
  url: 'URL',
  headerCards: 'Header card',
  heading: 'Heading',
  screenshotsTitle: 'Screenshots heading',
  screenshots: 'Screenshot',
  included: 'Included',
  why: 'Reason',
  faq: 'Question',
  question: '',
  answer: 'answer',
  alt: 'alt text',
  setup_markdown: 'Setup guide',
  docs: 'Page',
  markdown: 'text',
  slug: 'address',
  paddle_price_id: 'Paddle price id',
  discounted_from: 'Discounted from',
  github_repository: 'GitHub repository',
  hidden: 'Visibility',
};

/** A field's path as the form's labels say it: `details.faq.1.answer` -> "Question 2 answer". */
export function fieldName(path: string): string {
  const words = path
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : (FIELD_WORDS[part] ?? part.replace(/_/g, ' '))))
    .filter(Boolean)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
