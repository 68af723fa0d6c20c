import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { fieldMessages, KitCreateSchema } from '../../../common/schemas/kit-editor.ts';
import { useToast } from '../../components/toasts.tsx';
import { KitFormError, useCreateKit } from './kit-editor-api.ts';
import { Section, TextField } from './kit-editor-parts.tsx';
import { errorText, PageHeader } from './ui.tsx';

const EMPTY = { sef_id: '', title: '', spot: '', price: '', paddle_price_id: '' };

/**
 * `/admin/kits/new`: what a kit needs to exist. It starts hidden; the editor it opens then
 * completes its page (features, screenshots, FAQ, guides) before the owner shows it.
 */
export default function NewKitPage() {
  const [draft, setDraft] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateKit();
  const navigate = useNavigate();
  const toast = useToast();
  const field = (key: keyof typeof EMPTY) => ({
    value: draft[key],
    error: errors[key],
    onChange: (value: string) => {
      setDraft((d) => ({ ...d, [key]: value }));
      // A corrected field stops saying what was wrong with it.
      setErrors(({ [key]: _fixed, ...rest }) => rest);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { ...draft, price: draft.price.trim() === '' ? Number.NaN : Number(draft.price) };
    const parsed = KitCreateSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      setFailure('Correct the fields marked below.');
      return;
    }
    create.mutate(input, {
      onSuccess: (kit) => {
        toast({ title: 'Kit created', body: `${kit.title} is hidden until you complete its page and show it.` });
        navigate(`/admin/kits/${kit.sef_id}`);
      },
      onError: (error) => {
        setErrors(error instanceof KitFormError ? error.fields : {});
        setFailure(error instanceof KitFormError ? 'Correct the fields marked below.' : errorText(error));
      },
    });
  };

  return (
    <>
      <p className="mb-2">
        <Link to="/admin/kits">← Kits</Link>
      </p>
      <PageHeader title="New Kit" />
      <form noValidate onSubmit={submit} aria-label="New Kit">
        {failure && (
          <div className="alert alert-danger" role="alert">
            {failure}
          </div>
        )}
        <Section id="new-kit-basics" title="Basics">
          <TextField
            id="new-kit-sef"
            label="Address"
            hint="The product page's address, /product/<address>: lowercase words with dashes. It cannot change later."
            {...field('sef_id')}
          />
          <TextField id="new-kit-title" label="Title" {...field('title')} />
          <TextField id="new-kit-spot" label="Spot" {...field('spot')} />
          <div className="row g-3">
            <TextField
              spacing="col-12 col-md-4"
              id="new-kit-price"
              label="Price (USD)"
              inputMode="decimal"
              {...field('price')}
            />
            <TextField
              spacing="col-12 col-md-8"
              id="new-kit-paddle"
              label="Paddle price id"
              hint="The Paddle price buyers pay (pri_...), with the same amount."
              {...field('paddle_price_id')}
            />
          </div>
        </Section>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create Kit'}
        </button>
      </form>
    </>
  );
}
