import type { TextareaHTMLAttributes } from 'react';
import * as fieldStyles from '#src/components/ui/field.css.ts';
import { FieldError, useFieldIds } from '#src/components/ui/field-parts.tsx';

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'> {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string;
}

/** A labelled text area with its hint and error, as `TextField` for an input. */
export function TextAreaField({ name, label, error, hint, required, ...rest }: TextAreaFieldProps) {
  const { id, hintId, errorId, describedBy } = useFieldIds({ hint, error });
  return (
    <div className={fieldStyles.field}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={fieldStyles.hint}>
          {hint}
        </p>
      ) : null}
      <textarea
        {...rest}
        id={id}
        name={name}
        className={fieldStyles.textarea}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <FieldError id={errorId} error={error} />
    </div>
  );
}
