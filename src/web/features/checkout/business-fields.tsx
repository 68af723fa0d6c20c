import type { ReactNode } from 'react';
import { COUNTRY_CODES } from '../../../common/countries.ts';
import type { BusinessDetailsInput } from '../../../common/schemas/orders.ts';
import { checkVatId, hasVatFormat } from '../../../common/vat.ts';

/** The business details form's values, as typed. */
export type BusinessForm = {
  company_name: string;
  vat_id: string;
  country: string;
  address_line: string;
  city: string;
  postal_code: string;
};
export type BusinessErrors = Partial<Record<keyof BusinessForm, string>>;

/** The messages left once a field changed (a country's change may make the VAT ID right, too). */
export const errorsAfterChange = (errors: BusinessErrors, changed: keyof BusinessForm): BusinessErrors => {
  const rest: BusinessErrors = { ...errors };
  delete rest[changed];
  if (changed === 'country') delete rest.vat_id;
  return rest;
};

export const EMPTY_BUSINESS: BusinessForm = {
  company_name: '',
  vat_id: '',
  country: '',
  address_line: '',
  city: '',
  postal_code: '',
};

/** The same checks the server makes (a company, a country, the VAT ID's format for it), per field. */
export function checkBusinessForm(form: BusinessForm): BusinessErrors {
  const errors: BusinessErrors = {};
  if (!form.company_name.trim()) errors.company_name = 'Enter the company name.';
  if (!form.country) errors.country = 'Choose the country.';
  else if (form.vat_id.trim()) {
    const vat = checkVatId(form.vat_id, form.country);
    if (!vat.ok) errors.vat_id = vat.message;
  }
  return errors;
}

/** The form as the server takes it (`POST /api/orders/{id}/business`). */
export const businessPayload = (form: BusinessForm): BusinessDetailsInput => ({
  company_name: form.company_name,
  vat_id: form.vat_id || null,
  country: form.country,
  address_line: form.address_line || null,
  city: form.city || null,
  postal_code: form.postal_code || null,
});

/** A server refusal `field: message` on one of the form's fields, or null for another message. */
export function fieldError(message: string): BusinessErrors | null {
  const match = /^(company_name|vat_id|country|address_line|city|postal_code): (.+)$/.exec(message);
  return match ? { [match[1] as keyof BusinessForm]: match[2] } : null;
}

let countries: { value: string; label: string }[] | null = null;
/** Every country by its English name, sorted, named once per page. */
function countryOptions() {
  if (!countries) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    countries = COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) =>
      a.label.localeCompare(b.label, 'en'),
    );
  }
  return countries;
}

function Control({
  id,
  label,
  error,
  hint,
  className = 'col-12',
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  className?: string;
  children: (described: string | undefined) => ReactNode;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {children(described)}
      {hint && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
      {error && (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * Company Name, VAT ID and an Address whose country is required: what an invoice names for a
 * business. Controlled; `errors` shows each field's message under it.
 */
export function BusinessFields({
  idPrefix,
  value,
  errors,
  onChange,
  disabled,
}: {
  idPrefix: string;
  value: BusinessForm;
  errors: BusinessErrors;
  /** The form with one field changed: that field's message no longer applies. */
  onChange: (next: BusinessForm, changed: keyof BusinessForm) => void;
  disabled?: boolean;
}) {
  const id = (field: keyof BusinessForm) => `${idPrefix}-${field.replace('_', '-')}`;
  const text = (field: keyof BusinessForm, autoComplete: string) => (described: string | undefined) => (
    <input
      id={id(field)}
      className={errors[field] ? 'form-control is-invalid' : 'form-control'}
      value={value[field]}
      autoComplete={autoComplete}
      aria-invalid={errors[field] ? true : undefined}
      aria-describedby={described}
      disabled={disabled}
      onChange={(event) => onChange({ ...value, [field]: event.target.value }, field)}
    />
  );
  const vatHint =
    value.country && hasVatFormat(value.country)
      ? 'Checked against the format of the country chosen below.'
      : 'Optional: your VAT or tax number.';
  return (
    <div className="row g-3 business-fields">
      <Control id={id('company_name')} label="Company Name" error={errors.company_name}>
        {text('company_name', 'organization')}
      </Control>
      <Control id={id('vat_id')} label="VAT ID" error={errors.vat_id} hint={vatHint}>
        {text('vat_id', 'off')}
      </Control>
      <fieldset className="col-12">
        <legend className="form-label fs-6 mb-2">Address</legend>
        <div className="row g-3">
          <Control id={id('address_line')} label="Street and number">
            {text('address_line', 'street-address')}
          </Control>
          <Control id={id('postal_code')} label="Postal code" className="col-sm-4">
            {text('postal_code', 'postal-code')}
          </Control>
          <Control id={id('city')} label="City" className="col-sm-8">
            {text('city', 'address-level2')}
          </Control>
          <Control id={id('country')} label="Country" error={errors.country}>
            {(described) => (
              <select
                id={id('country')}
                className={errors.country ? 'form-select is-invalid' : 'form-select'}
                value={value.country}
                autoComplete="country"
                aria-invalid={errors.country ? true : undefined}
                aria-describedby={described}
                aria-required
                disabled={disabled}
                onChange={(event) => onChange({ ...value, country: event.target.value }, 'country')}
              >
                <option value="">Choose the country…</option>
                {countryOptions().map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </Control>
        </div>
      </fieldset>
    </div>
  );
}
