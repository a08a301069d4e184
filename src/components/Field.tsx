import type { InputHTMLAttributes, ReactNode } from 'react';

/**
 * One form field: label, control, hint and error, with the ids that tie them together. The
 * islands' twin of Field.astro (same markup and class names; each area's layout styles `.field`).
 * The control is an <input> built from the remaining props, or the children (a select, say)
 * when the field needs another control.
 */
export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children?: ReactNode;
}

export default function Field({ id, label, hint, error, children, ...input }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children ?? <input id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined} {...input} />}
      {hint && (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
