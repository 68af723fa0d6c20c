import { type InputHTMLAttributes, type ReactNode, useState } from 'react';
import { ICON_NAMES } from '../../../common/constants.ts';
import { previewMarkdown } from './kit-editor-api.ts';
import { errorText } from './ui.tsx';

/** The editor's building blocks: labelled fields that show their own message, lists, Markdown. */

/** Field messages by the schema's dotted path (`details.faq.0.answer`). */
export type Errors = Record<string, string>;

const describedBy = (id: string, error?: string, hint?: string) =>
  [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

function Feedback({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <>
      {error && (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      )}
      {hint && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
    </>
  );
}

export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  spacing = 'mb-3',
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'> & {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  spacing?: string;
}) {
  return (
    <div className={spacing}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input
        id={id}
        className={`form-control${error ? ' is-invalid' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...input}
      />
      <Feedback id={id} error={error} hint={hint} />
    </div>
  );
}

export function AreaField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  rows = 3,
  spacing = 'mb-3',
  code,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  rows?: number;
  spacing?: string;
  /** Markdown or HTML: a monospace font. */
  code?: boolean;
}) {
  return (
    <div className={spacing}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <textarea
        id={id}
        className={`form-control${error ? ' is-invalid' : ''}${code ? ' font-monospace small' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        rows={rows}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <Feedback id={id} error={error} hint={hint} />
    </div>
  );
}

export function IconField({
  id,
  label,
  value,
  onChange,
  error,
  spacing = 'mb-3',
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  spacing?: string;
}) {
  return (
    <div className={spacing}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <select
        id={id}
        className={`form-select${error ? ' is-invalid' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">Choose…</option>
        {ICON_NAMES.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <Feedback id={id} error={error} />
    </div>
  );
}

/** A titled part of the form, with its own heading for the screen's outline. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card mb-4 kit-editor-section" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="h5 mb-3">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

/**
 * A list the owner adds to, removes from and reorders. Each row's buttons are named after the row
 * (`Remove question 2`), so a person with a screen reader knows which one they press.
 */
export function ListEditor<T>({
  items,
  onChange,
  noun,
  make,
  error,
  children,
}: {
  items: T[];
  onChange: (items: T[]) => void;
  /** What one row is (`question`): the buttons' names. */
  noun: string;
  /** A new empty row (none: rows come from elsewhere, like uploads). */
  make?: () => T;
  /** The message about the list as a whole (too few, too many). */
  error?: string;
  children: (item: T, index: number, set: (item: T) => void) => ReactNode;
}) {
  const move = (from: number, to: number) => {
    const next = [...items];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    onChange(next);
  };
  return (
    <div className="mb-3">
      <ol className="list-unstyled kit-editor-list mb-2">
        {items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own; the index is the row
          <li key={i} className="kit-editor-row">
            <div className="kit-editor-row-fields">
              {children(item, i, (changed) => onChange(items.map((old, j) => (j === i ? changed : old))))}
            </div>
            <div className="kit-editor-row-actions btn-group btn-group-sm">
              <button
                type="button"
                className="btn btn-outline-secondary"
                aria-label={`Move ${noun} ${i + 1} up`}
                disabled={i === 0}
                onClick={() => move(i, i - 1)}
              >
                ↑
              </button>
              <button
                type="button"
                className="btn btn-outline-secondary"
                aria-label={`Move ${noun} ${i + 1} down`}
                disabled={i === items.length - 1}
                onClick={() => move(i, i + 1)}
              >
                ↓
              </button>
              <button
                type="button"
                className="btn btn-outline-danger"
                aria-label={`Remove ${noun} ${i + 1}`}
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </div>
          </li>
        ))}
      </ol>
      {error && <div className="invalid-feedback d-block mb-2">{error}</div>}
      {make && (
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => onChange([...items, make()])}>
          {`Add ${noun}`}
        </button>
      )}
    </div>
  );
}

/** A Markdown text with a `Preview` of it as the store will show it (rendered by the server). */
export function MarkdownField(props: Parameters<typeof AreaField>[0]) {
  const [preview, setPreview] = useState<{ html: string } | { error: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const show = async () => {
    setBusy(true);
    try {
      setPreview(await previewMarkdown(props.value));
    } catch (error) {
      setPreview({ error: errorText(error, 'The preview failed.') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mb-3">
      <AreaField {...props} spacing="mb-2" code />
      <div className="d-flex gap-2">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={busy}
          aria-label={`Preview ${props.label}`}
          onClick={() => void show()}
        >
          Preview
        </button>
        {preview && (
          <button type="button" className="btn btn-sm btn-link" onClick={() => setPreview(null)}>
            Hide preview
          </button>
        )}
      </div>
      {preview && 'error' in preview && (
        <div className="alert alert-danger mt-2" role="alert">
          {preview.error}
        </div>
      )}
      {preview && 'html' in preview && (
        <section
          className="kit-editor-preview mt-2"
          aria-label={`${props.label} preview`}
          // Rendered and sanitised by the server, with the import's own code.
          dangerouslySetInnerHTML={{ __html: preview.html }}
        />
      )}
    </div>
  );
}
