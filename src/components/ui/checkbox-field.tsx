import type { ReactNode } from 'react';
import * as styles from '#src/components/ui/checkbox-field.css.ts';
import * as fieldStyles from '#src/components/ui/field.css.ts';
import { FieldError, useFieldIds } from '#src/components/ui/field-parts.tsx';

/** A single checkbox (never pre-ticked) with its label, an optional explanation and its error. */
export function CheckboxField({
  name,
  label,
  description,
  error,
  required,
}: {
  name: string;
  label: ReactNode;
  description?: ReactNode;
  error?: string | undefined;
  required?: boolean;
}) {
  const { id, hintId, errorId, describedBy } = useFieldIds({ hint: description, error });
  return (
    <div className={fieldStyles.field}>
      {description ? (
        <div id={hintId} className={fieldStyles.hint}>
          {description}
        </div>
      ) : null}
      <div className={styles.checkboxRow}>
        <input
          id={id}
          type="checkbox"
          name={name}
          value="true"
          className={styles.checkbox}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <FieldError id={errorId} error={error} />
    </div>
  );
}
