import { useId, useState } from 'react';
import { SCREENSHOT_MAX_BYTES } from '../../../common/schemas/kit-editor.ts';
import { appUrl } from '../../lib/initial-data.ts';
import { uploadScreenshot } from './kit-editor-api.ts';
import type { SectionProps } from './kit-editor-draft.ts';
import { AreaField, ListEditor, MarkdownField, Section, TextField } from './kit-editor-parts.tsx';
import { errorText } from './ui.tsx';

/** The editor's other sections: FAQ, screenshots, the guides, delivery and visibility. */

export function FaqSection({ draft, edit, errors }: SectionProps) {
  return (
    <Section id="kit-faq" title="FAQ">
      <ListEditor
        items={draft.details.faq}
        noun="question"
        make={() => ({ question: '', answer: '' })}
        error={errors['details.faq']}
        onChange={(items) =>
          edit((d) => {
            d.details.faq = items;
          })
        }
      >
        {(entry, i, set) => (
          <>
            <TextField
              spacing="mb-2"
              id={`kit-faq-question-${i}`}
              label={`Question ${i + 1}`}
              value={entry.question}
              error={errors[`details.faq.${i}.question`]}
              onChange={(v) => set({ ...entry, question: v })}
            />
            <AreaField
              spacing=""
              id={`kit-faq-answer-${i}`}
              label={`Answer ${i + 1}`}
              rows={2}
              value={entry.answer}
              error={errors[`details.faq.${i}.answer`]}
              onChange={(v) => set({ ...entry, answer: v })}
            />
          </>
        )}
      </ListEditor>
    </Section>
  );
}

const ACCEPTED = 'image/png,image/jpeg,image/webp';

export function ScreenshotsSection({ draft, edit, errors, kit }: SectionProps) {
  const inputId = useId();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const upload = async (file: File) => {
    if (file.size > SCREENSHOT_MAX_BYTES) {
      setState({ busy: false, error: 'The image is larger than 5 MB.' });
      return;
    }
    setState({ busy: true, error: null });
    try {
      const stored = await uploadScreenshot(kit.sef_id, file);
      edit((d) => {
        d.details.screenshots.push({ ...stored, alt: '', title: '' });
      });
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error: errorText(error, 'The upload failed.') });
    }
  };
  return (
    <Section id="kit-screenshots" title="Screenshots">
      <TextField
        id="kit-screenshots-heading"
        label="Screenshots heading"
        value={draft.details.screenshotsTitle}
        error={errors['details.screenshotsTitle']}
        onChange={(v) =>
          edit((d) => {
            d.details.screenshotsTitle = v;
          })
        }
      />
      <ListEditor
        items={draft.details.screenshots}
        noun="screenshot"
        error={errors['details.screenshots']}
        onChange={(items) =>
          edit((d) => {
            d.details.screenshots = items;
          })
        }
      >
        {(shot, i, set) => (
          <div className="kit-editor-shot">
            {shot.thumbnail_url ? (
              <img src={appUrl(shot.thumbnail_url)} alt="" className="kit-editor-thumb" />
            ) : (
              <div className="kit-editor-thumb" />
            )}
            <div className="flex-grow-1">
              {errors[`details.screenshots.${i}.url`] && (
                <div className="invalid-feedback d-block">{errors[`details.screenshots.${i}.url`]}</div>
              )}
              <TextField
                spacing="mb-2"
                id={`kit-shot-alt-${i}`}
                label={`Alt text ${i + 1}`}
                value={shot.alt}
                error={errors[`details.screenshots.${i}.alt`]}
                onChange={(v) => set({ ...shot, alt: v })}
              />
              <TextField
                spacing=""
                id={`kit-shot-title-${i}`}
                label={`Caption ${i + 1} (optional)`}
                value={shot.title ?? ''}
                error={errors[`details.screenshots.${i}.title`]}
                onChange={(v) => set({ ...shot, title: v })}
              />
            </div>
          </div>
        )}
      </ListEditor>
      <label htmlFor={inputId} className="form-label">
        Upload screenshot
      </label>
      <input
        id={inputId}
        type="file"
        className="form-control"
        accept={ACCEPTED}
        disabled={state.busy}
        aria-describedby={`${inputId}-hint`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload(file);
        }}
      />
      <div id={`${inputId}-hint`} className="form-text">
        PNG, JPEG or WebP up to 5 MB. It shows on the product page once you save.
      </div>
      {state.busy && (
        <div className="small mt-2" role="status">
          Uploading…
        </div>
      )}
      {state.error && (
        <div className="alert alert-danger mt-2 mb-0" role="alert">
          {state.error}
        </div>
      )}
    </Section>
  );
}

export function GuidesSection({ draft, edit, errors, kit }: SectionProps) {
  return (
    <Section id="kit-guides" title="Docs & Setup guide">
      <MarkdownField
        id="kit-setup"
        label="Setup guide (Markdown)"
        hint='Needs "## Quick Start" and "## How to Modify" sections; buyers read it in their library.'
        rows={10}
        value={draft.setup_markdown}
        error={errors.setup_markdown}
        onChange={(v) =>
          edit((d) => {
            d.setup_markdown = v;
          })
        }
      />
      <h3 className="h6 mt-4">Documentation pages</h3>
      <p className="form-text mt-0">Each page starts with a “# Title” line; none means the kit has no docs.</p>
      <ListEditor
        items={draft.docs}
        noun="page"
        make={() => ({ slug: '', markdown: '# Title\n\n' })}
        error={errors.docs}
        onChange={(items) =>
          edit((d) => {
            d.docs = items;
          })
        }
      >
        {(page, i, set) => (
          <>
            <TextField
              spacing="mb-2"
              id={`kit-doc-slug-${i}`}
              label={`Page ${i + 1} address`}
              hint={page.slug ? `/docs/${kit.sef_id}/${page.slug}` : undefined}
              value={page.slug}
              error={errors[`docs.${i}.slug`]}
              onChange={(v) => set({ ...page, slug: v })}
            />
            <MarkdownField
              id={`kit-doc-markdown-${i}`}
              label={`Page ${i + 1} (Markdown)`}
              rows={8}
              value={page.markdown}
              error={errors[`docs.${i}.markdown`]}
              onChange={(v) => set({ ...page, markdown: v })}
            />
          </>
        )}
      </ListEditor>
    </Section>
  );
}

export function DeliverySection({ draft, edit, errors, kit }: SectionProps) {
  return (
    <Section id="kit-delivery" title="Delivery">
      <p className="mb-2">
        Version <strong>{kit.version}</strong>. Buyers download the newest version’s archive.
      </p>
      {kit.github_delivery ? (
        <TextField
          spacing=""
          id="kit-github"
          label="GitHub repository (optional)"
          hint='"owner/name": buyers are also invited to this private repository.'
          value={draft.github_repository}
          error={errors.github_repository}
          onChange={(v) =>
            edit((d) => {
              d.github_repository = v;
            })
          }
        />
      ) : (
        <p className="form-text mb-0">GitHub delivery is not configured on this shop.</p>
      )}
    </Section>
  );
}

export function VisibilitySection({ draft, edit, errors }: SectionProps) {
  return (
    <Section id="kit-visibility" title="Visibility">
      <fieldset aria-describedby={errors.hidden ? 'kit-visibility-error' : undefined}>
        <legend className="visually-hidden">Visibility</legend>
        {[
          { value: false, label: 'Visible in the store' },
          { value: true, label: 'Hidden (owners keep their downloads)' },
        ].map((option) => (
          <div className="form-check" key={String(option.value)}>
            <input
              id={`kit-hidden-${option.value}`}
              type="radio"
              name="kit-hidden"
              className="form-check-input"
              checked={draft.hidden === option.value}
              onChange={() =>
                edit((d) => {
                  d.hidden = option.value;
                })
              }
            />
            <label htmlFor={`kit-hidden-${option.value}`} className="form-check-label">
              {option.label}
            </label>
          </div>
        ))}
      </fieldset>
      {errors.hidden && (
        <div id="kit-visibility-error" className="invalid-feedback d-block">
          {errors.hidden}
        </div>
      )}
    </Section>
  );
}
