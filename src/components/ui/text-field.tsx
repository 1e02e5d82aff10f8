import type { InputHTMLAttributes } from 'react';
import * as styles from '#src/components/ui/field.css.ts';
import { FieldError, useFieldIds } from '#src/components/ui/field-parts.tsx';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  name: string;
  label: string;
  /** Field error: sets `aria-invalid` and is read with the field (`aria-describedby`). */
  error?: string | undefined;
  hint?: string;
}

/** A labelled input with its hint and error; `required` sets `aria-required` (forms say which fields are optional, not which are required). */
export function TextField({ label, error, hint, required, name, ...rest }: TextFieldProps) {
  const { id, hintId, errorId, describedBy } = useFieldIds({ hint, error });
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <input
        {...rest}
        id={id}
        name={name}
        className={styles.input}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <FieldError id={errorId} error={error} />
    </div>
  );
}
