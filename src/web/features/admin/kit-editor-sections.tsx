import type { SectionProps } from './kit-editor-draft.ts';
import { AreaField, IconField, ListEditor, Section, TextField } from './kit-editor-parts.tsx';

/** The product page's parts: demo, video, header cards, heading, What's Included and Why. */

export function PageSection({ draft, edit, errors }: SectionProps) {
  const details = draft.details;
  return (
    <Section id="kit-page" title="Page">
      <div className="row g-3 mb-3">
        <TextField
          spacing="col-12 col-md-6"
          id="kit-demo"
          label="Demo URL"
          type="url"
          value={details.demo.url}
          error={errors['details.demo.url']}
          onChange={(v) =>
            edit((d) => {
              d.details.demo.url = v;
            })
          }
        />
        <TextField
          spacing="col-12 col-md-6"
          id="kit-video"
          label="Video id (YouTube, optional)"
          value={details.video?.id ?? ''}
          error={errors['details.video.id']}
          onChange={(v) =>
            edit((d) => {
              d.details.video = v || d.details.video?.text ? { id: v, text: d.details.video?.text ?? '' } : null;
            })
          }
        />
      </div>
      {details.video && (
        <TextField
          id="kit-video-text"
          label="Video text"
          value={details.video.text}
          error={errors['details.video.text']}
          onChange={(v) =>
            edit((d) => {
              d.details.video = { id: d.details.video?.id ?? '', text: v };
            })
          }
        />
      )}

      <h3 className="h6 mt-4">Header cards</h3>
      <ListEditor
        items={details.headerCards}
        noun="header card"
        make={() => ({ icon: 'rocket' as const, title: '', text: '' })}
        error={errors['details.headerCards']}
        onChange={(items) =>
          edit((d) => {
            d.details.headerCards = items;
          })
        }
      >
        {(card, i, set) => (
          <div className="row g-2">
            <IconField
              spacing="col-12 col-md-3"
              id={`kit-card-icon-${i}`}
              label={`Card ${i + 1} icon`}
              value={card.icon}
              error={errors[`details.headerCards.${i}.icon`]}
              onChange={(v) => set({ ...card, icon: v as typeof card.icon })}
            />
            <TextField
              spacing="col-12 col-md-9"
              id={`kit-card-title-${i}`}
              label={`Card ${i + 1} title`}
              value={card.title}
              error={errors[`details.headerCards.${i}.title`]}
              onChange={(v) => set({ ...card, title: v })}
            />
            <AreaField
              spacing="col-12"
              id={`kit-card-text-${i}`}
              label={`Card ${i + 1} text`}
              rows={2}
              value={card.text}
              error={errors[`details.headerCards.${i}.text`]}
              onChange={(v) => set({ ...card, text: v })}
            />
          </div>
        )}
      </ListEditor>

      <h3 className="h6 mt-4">Heading</h3>
      <TextField
        id="kit-heading-title"
        label="Heading title"
        value={details.heading.title}
        error={errors['details.heading.title']}
        onChange={(v) =>
          edit((d) => {
            d.details.heading.title = v;
          })
        }
      />
      <AreaField
        id="kit-heading-lead"
        label="Heading lead"
        rows={2}
        value={details.heading.lead}
        error={errors['details.heading.lead']}
        onChange={(v) =>
          edit((d) => {
            d.details.heading.lead = v;
          })
        }
      />
      <ListEditor
        items={details.heading.features}
        noun="heading feature"
        make={() => ''}
        error={errors['details.heading.features']}
        onChange={(items) =>
          edit((d) => {
            d.details.heading.features = items;
          })
        }
      >
        {(feature, i, set) => (
          <TextField
            spacing=""
            id={`kit-heading-feature-${i}`}
            label={`Heading feature ${i + 1} (HTML)`}
            value={feature}
            error={errors[`details.heading.features.${i}`]}
            onChange={set}
          />
        )}
      </ListEditor>
      <AreaField
        id="kit-heading-text"
        label="Heading text (HTML)"
        hint="Sanitised when saved: no scripts, styles or event handlers."
        code
        rows={5}
        value={details.heading.text}
        error={errors['details.heading.text']}
        onChange={(v) =>
          edit((d) => {
            d.details.heading.text = v;
          })
        }
      />

      <h3 className="h6 mt-4">What’s Included</h3>
      <ListEditor
        items={details.included}
        noun="included item"
        make={() => ''}
        error={errors['details.included']}
        onChange={(items) =>
          edit((d) => {
            d.details.included = items;
          })
        }
      >
        {(item, i, set) => (
          <TextField
            spacing=""
            id={`kit-included-${i}`}
            label={`Included ${i + 1}`}
            value={item}
            error={errors[`details.included.${i}`]}
            onChange={set}
          />
        )}
      </ListEditor>

      <h3 className="h6 mt-4">Why choose this kit</h3>
      <ListEditor
        items={details.why}
        noun="reason"
        make={() => ({ icon: 'check' as const, text: '' })}
        error={errors['details.why']}
        onChange={(items) =>
          edit((d) => {
            d.details.why = items;
          })
        }
      >
        {(reason, i, set) => (
          <div className="row g-2">
            <IconField
              spacing="col-12 col-md-3"
              id={`kit-why-icon-${i}`}
              label={`Reason ${i + 1} icon`}
              value={reason.icon}
              error={errors[`details.why.${i}.icon`]}
              onChange={(v) => set({ ...reason, icon: v as typeof reason.icon })}
            />
            <TextField
              spacing="col-12 col-md-9"
              id={`kit-why-text-${i}`}
              label={`Reason ${i + 1}`}
              value={reason.text}
              error={errors[`details.why.${i}.text`]}
              onChange={(v) => set({ ...reason, text: v })}
            />
          </div>
        )}
      </ListEditor>
    </Section>
  );
}
