import type { ChangeEvent, InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'> & {
  id: string;
  label: string;
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  /** The wrapper's classes: mb-3 between fields (the default), mb-4 before the button, a grid column. */
  spacing?: string;
  /** A line under the field (`{id}-hint`), read with it. */
  hint?: string;
  /** Beside the label, on its right (the login's "Forgot your password?"). */
  aside?: ReactNode;
  /** A button joined to the field's right side (an input group: Search, Subscribe). */
  addon?: ReactNode;
};

/** One labelled text field of a form. */
export function Field({ id, label, value, onChange, spacing = 'mb-3', hint, aside, addon, ...input }: FieldProps) {
  const labelElement = (
    <label htmlFor={id} className="form-label">
      {label}
    </label>
  );
  const inputElement = (
    <input
      id={id}
      className="form-control"
      aria-describedby={hint ? `${id}-hint` : undefined}
      value={value}
      onChange={(e) => onChange(e.target.value, e)}
      {...input}
    />
  );
  return (
    <div className={spacing || undefined}>
      {aside ? (
        <div className="d-flex justify-content-between align-items-baseline">
          {labelElement}
          {aside}
        </div>
      ) : (
        labelElement
      )}
      {addon ? (
        <div className="input-group">
          {inputElement}
          {addon}
        </div>
      ) : (
        inputElement
      )}
      {hint && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
    </div>
  );
}

/** A labelled choice from a list; `none` is the first option, with the empty value. */
export function SelectField({
  id,
  label,
  spacing,
  none,
  options,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'className'> & {
  id: string;
  label: string;
  spacing: string;
  none: ReactNode;
  options: { value: string; label: string }[];
}) {
  return (
    <div className={spacing}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <select id={id} className="form-select" {...select}>
        {none}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A check box or radio button with its label after it; `wrapper` adds spacing to `form-check`. */
export function Check({
  id,
  label,
  wrapper,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> & {
  id: string;
  label: ReactNode;
  wrapper?: string;
}) {
  return (
    <div className={wrapper ? `form-check ${wrapper}` : 'form-check'}>
      <input id={id} className="form-check-input" {...input} />
      <label htmlFor={id} className="form-check-label">
        {label}
      </label>
    </div>
  );
}
