import type { SectionProps } from './kit-editor-draft.ts';
import { AreaField, ListEditor, Section, TextField } from './kit-editor-parts.tsx';

/** The editor's first section: what a kit card shows, its price and its Paddle price. */

export function BasicsSection({ draft, edit, errors, kit }: SectionProps) {
  return (
    <Section id="kit-basics" title="Basics">
      <TextField
        id="kit-title"
        label="Title"
        value={draft.title}
        error={errors.title}
        onChange={(v) =>
          edit((d) => {
            d.title = v;
          })
        }
      />
      <AreaField
        id="kit-spot"
        label="Spot"
        hint="The short text under the title, on the card and the product page."
        rows={2}
        value={draft.spot}
        error={errors.spot}
        onChange={(v) =>
          edit((d) => {
            d.spot = v;
          })
        }
      />
      <div className="row g-3">
        <TextField
          spacing="col-6 col-md-3"
          id="kit-price"
          label="Price (USD)"
          inputMode="decimal"
          value={draft.price}
          error={errors.price}
          onChange={(v) =>
            edit((d) => {
              d.price = v;
            })
          }
        />
        <TextField
          spacing="col-6 col-md-3"
          id="kit-discounted-from"
          label="Discounted from (USD)"
          hint="Optional: the struck-through price."
          inputMode="decimal"
          value={draft.discounted_from}
          error={errors.discounted_from}
          onChange={(v) =>
            edit((d) => {
              d.discounted_from = v;
            })
          }
        />
        <TextField
          spacing="col-6 col-md-3"
          id="kit-position"
          label="Position"
          hint="Lower comes first."
          inputMode="numeric"
          value={draft.position}
          error={errors.position}
          onChange={(v) =>
            edit((d) => {
              d.position = v;
            })
          }
        />
        <TextField
          spacing="col-12 col-md-3"
          id="kit-paddle-price"
          label="Paddle price id"
          hint={kit.paddle ? 'A new price needs a new Paddle price.' : undefined}
          value={draft.paddle_price_id}
          error={errors.paddle_price_id}
          onChange={(v) =>
            edit((d) => {
              d.paddle_price_id = v;
            })
          }
        />
      </div>
      <h3 className="h6 mt-4">Features</h3>
      <p className="form-text mt-0">The card shows the first three.</p>
      <ListEditor
        items={draft.features}
        noun="feature"
        make={() => ''}
        error={errors.features}
        onChange={(items) =>
          edit((d) => {
            d.features = items;
          })
        }
      >
        {(feature, i, set) => (
          <TextField
            spacing=""
            id={`kit-feature-${i}`}
            label={`Feature ${i + 1}`}
            value={feature}
            error={errors[`features.${i}`]}
            onChange={set}
          />
        )}
      </ListEditor>
    </Section>
  );
}
