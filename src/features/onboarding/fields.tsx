import type { TextareaHTMLAttributes } from 'react';
import * as fieldStyles from '#src/components/ui/field.css.ts';
import { FieldError, useFieldIds } from '#src/components/ui/field-parts.tsx';
import * as styles from '#src/features/onboarding/onboarding.css.ts';

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'> {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string;
}

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
        className={styles.textarea}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** Options of a French label map, for RadioGroup / CheckboxGroup (`radio-group.tsx`). */
export function optionsOf(labels: Record<string, string>): { value: string; label: string }[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}
