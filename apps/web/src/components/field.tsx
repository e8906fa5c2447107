import type { ReactNode } from 'react';

interface FieldProps {
  id: string;
  label: string;
  /** The server's messages for this field (its dry run or its refusal). */
  errors?: readonly string[];
  hint?: ReactNode;
  children: ReactNode;
}

/** A labelled control with its hint and its validation messages next to it, tied by aria attributes. */
export function Field({ id, label, errors = [], hint, children }: FieldProps) {
  return (
    <div className={errors.length > 0 ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {errors.length > 0 && (
        <ul className="field-errors" id={`${id}-error`} data-field-error={id}>
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The aria attributes of a control whose field may carry a hint and messages. */
export function describedBy(id: string, errors: readonly string[] = [], hint = false) {
  const ids = [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-error` : ''].filter(Boolean);
  return {
    id,
    'aria-invalid': errors.length > 0 ? true : undefined,
    'aria-describedby': ids.length > 0 ? ids.join(' ') : undefined,
  };
}
