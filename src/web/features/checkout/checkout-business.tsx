import { ApiError } from '../../lib/api.ts';
import {
  type BusinessErrors,
  BusinessFields,
  type BusinessForm,
  businessPayload,
  checkBusinessForm,
  EMPTY_BUSINESS,
  errorsAfterChange,
  fieldError,
} from './business-fields.tsx';
import { clearBusinessDetails, saveBusinessDetails } from './orders-api.ts';
import type { CheckoutBusiness as PaymentBusiness } from './payments/index.ts';

/** The checkout's `Buying for a business`: off, or the company's details as typed and their messages. */
export type BusinessChoice = {
  on: boolean;
  form: BusinessForm;
  errors: BusinessErrors;
  problem: string | null;
  /** The order the details were kept on, so that turning the switch off takes them off again. */
  keptOn?: string;
};
export const NO_BUSINESS: BusinessChoice = { on: false, form: EMPTY_BUSINESS, errors: {}, problem: null };

/**
 * Before the payment frame opens: a business buying has its details checked (as the server checks
 * them) and kept on the order, and answers them in the payment provider's terms. Answers the choice
 * with its messages instead when something is wrong, and nothing to pay with.
 */
export async function prepareBusiness(
  orderId: string,
  choice: BusinessChoice,
): Promise<{ ok: true; business?: PaymentBusiness; choice: BusinessChoice } | { ok: false; choice: BusinessChoice }> {
  if (!choice.on) {
    if (choice.keptOn !== orderId) return { ok: true, choice };
    try {
      await clearBusinessDetails(orderId);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : 'Network error. Please try again.';
      return { ok: false, choice: { ...choice, problem: message } };
    }
    return { ok: true, choice: { ...choice, keptOn: undefined } };
  }
  const errors = checkBusinessForm(choice.form);
  if (Object.keys(errors).length > 0) return { ok: false, choice: { ...choice, errors, problem: null } };
  const payload = businessPayload(choice.form);
  try {
    await saveBusinessDetails(orderId, payload);
  } catch (error) {
    const message = error instanceof ApiError ? error.message : 'Network error. Please try again.';
    const onField = fieldError(message);
    return { ok: false, choice: { ...choice, errors: onField ?? {}, problem: onField ? null : message } };
  }
  return {
    ok: true,
    choice: { ...choice, keptOn: orderId },
    business: {
      name: payload.company_name,
      taxIdentifier: payload.vat_id ?? null,
      countryCode: payload.country,
      postalCode: payload.postal_code ?? null,
      city: payload.city ?? null,
      firstLine: payload.address_line ?? null,
    },
  };
}

/** The switch and, once on, the company's fields: below the order's lines, above nothing the spec names. */
export function CheckoutBusinessSection({
  choice,
  onChange,
  busy,
}: {
  choice: BusinessChoice;
  onChange: (next: BusinessChoice) => void;
  busy: boolean;
}) {
  return (
    <div className="card checkout-card checkout-business mt-4">
      <div className="card-body">
        <div className="form-check form-switch mb-0">
          <input
            id="checkout-business-switch"
            className="form-check-input"
            type="checkbox"
            role="switch"
            aria-checked={choice.on}
            checked={choice.on}
            disabled={busy}
            aria-controls="checkout-business-fields"
            onChange={(event) => onChange({ ...choice, on: event.target.checked, errors: {}, problem: null })}
          />
          <label htmlFor="checkout-business-switch" className="form-check-label fw-semibold">
            Buying for a business
          </label>
        </div>
        <p className="small text-body-secondary mb-0 mt-1">
          Your invoice then names your company, its VAT ID and address.
        </p>
        {choice.problem && (
          <div className="alert alert-warning mt-3 mb-0" role="alert">
            {choice.problem}
          </div>
        )}
        {choice.on && (
          <div id="checkout-business-fields" className="mt-3">
            <BusinessFields
              idPrefix="checkout-business"
              value={choice.form}
              errors={choice.errors}
              disabled={busy}
              onChange={(form, changed) =>
                onChange({ ...choice, form, errors: errorsAfterChange(choice.errors, changed) })
              }
            />
          </div>
        )}
      </div>
    </div>
  );
}
