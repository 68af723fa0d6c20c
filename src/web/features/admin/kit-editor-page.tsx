import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { type EditableKit, fieldMessages, KitEditSchema } from '../../../common/schemas/kit-editor.ts';
import { useToast } from '../../components/toasts.tsx';
import { recordId } from './format.ts';
import { KitFormError, useEditableKit, useSaveKit } from './kit-editor-api.ts';
import { BasicsSection } from './kit-editor-basics.tsx';
import { type Draft, draftOf, type Edit, fieldName, inputOf } from './kit-editor-draft.ts';
import { PageSection } from './kit-editor-sections.tsx';
import {
  DeliverySection,
  FaqSection,
  GuidesSection,
  ScreenshotsSection,
  VisibilitySection,
} from './kit-editor-sections-more.tsx';
import { KitVersions } from './kit-versions.tsx';
import { errorText, PageHeader, QueryState } from './ui.tsx';

const SECTIONS = [
  ['kit-basics', 'Basics'],
  ['kit-page', 'Page'],
  ['kit-faq', 'FAQ'],
  ['kit-screenshots', 'Screenshots'],
  ['kit-guides', 'Docs & Setup guide'],
  ['kit-delivery', 'Delivery'],
  ['kit-visibility', 'Visibility'],
] as const;

/**
 * `/admin/kits/{sef_id}`: everything a kit's product page shows, in one form. Save checks the
 * whole form with the schema the server uses, then the server saves all of it or nothing; a
 * refusal marks each field with its message.
 */
function KitForm({ kit }: { kit: EditableKit }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(kit));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveKit(kit.sef_id);
  const toast = useToast();
  const summary = useRef<HTMLDivElement>(null);

  const edit: Edit = (change) =>
    setDraft((current) => {
      const next = structuredClone(current);
      change(next);
      return next;
    });

  // After a refused save, the marks follow the owner's corrections as they type (the schema's
  // checks; the server's own come back with the next Save).
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (!live) return;
    const parsed = KitEditSchema.safeParse(inputOf(draft));
    setErrors(parsed.success ? {} : fieldMessages(parsed.error));
  }, [draft, live]);

  const refuse = (fields: Record<string, string>, message: string, fromServer = false) => {
    setErrors(fields);
    setLive(!fromServer);
    setFailure(message);
    // The summary is announced and in view; each field below says what to fix.
    requestAnimationFrame(() => summary.current?.focus());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = inputOf(draft);
    const parsed = KitEditSchema.safeParse(input);
    if (!parsed.success) {
      const fields = fieldMessages(parsed.error);
      refuse(fields, `Nothing was saved: correct the ${Object.keys(fields).length} field(s) marked below.`);
      return;
    }
    save.mutate(input, {
      onSuccess: (saved) => {
        setDraft(draftOf(saved));
        setLive(false);
        setErrors({});
        setFailure(null);
        toast({ title: 'Kit saved', body: `${saved.title} is saved; the store shows it now.` });
      },
      onError: (error) => {
        if (error instanceof KitFormError)
          refuse(
            error.fields,
            `Nothing was saved: correct the ${Object.keys(error.fields).length} field(s) marked below.`,
            true,
          );
        else refuse({}, errorText(error, 'The save failed. Try again.'), true);
      },
    });
  };

  const props = { draft, edit, errors, kit };
  return (
    <form noValidate onSubmit={submit} aria-label={`Edit ${kit.title}`}>
      <nav className="kit-editor-toc mb-3" aria-label="Sections">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#${id}-title`} className="btn btn-sm btn-outline-secondary">
            {label}
          </a>
        ))}
      </nav>
      {failure && (
        <div className="alert alert-danger" role="alert" tabIndex={-1} ref={summary}>
          {failure}
          {Object.keys(errors).length > 0 && (
            <ul className="mb-0 mt-2 small">
              {Object.entries(errors)
                .slice(0, 8)
                .map(([field, message]) => (
                  <li key={field}>
                    {fieldName(field)}: {message}
                  </li>
                ))}
            </ul>
          )}
        </div>
      )}
      <BasicsSection {...props} />
      <PageSection {...props} />
      <FaqSection {...props} />
      <ScreenshotsSection {...props} />
      <GuidesSection {...props} />
      <DeliverySection {...props} />
      <VisibilitySection {...props} />
      <div className="kit-editor-save">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {!kit.hidden && (
          <Link className="btn btn-link" to={`/product/${kit.sef_id}`}>
            View product page
          </Link>
        )}
      </div>
    </form>
  );
}

export default function KitEditorPage() {
  const sefId = recordId(useLocation().pathname);
  const kit = useEditableKit(sefId);
  return (
    <>
      <p className="mb-2">
        <Link to="/admin/kits">← Kits</Link>
      </p>
      <PageHeader title={kit.data ? `Edit ${kit.data.title}` : 'Edit kit'} />
      <QueryState query={kit} label="the kit" />
      {/* Keyed by the kit: another kit's page starts from its own saved state. */}
      {kit.data && <KitForm key={kit.data.sef_id} kit={kit.data} />}
      {/* Outside the form: publishing a version is its own action, not part of the kit's Save. */}
      {kit.data && <KitVersions sefId={kit.data.sef_id} />}
    </>
  );
}
