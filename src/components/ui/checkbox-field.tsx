import { type ReactNode, useId } from 'react';
import * as styles from '#src/components/ui/checkbox-field.css.ts';
import * as fieldStyles from '#src/components/ui/field.css.ts';

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
  const id = useId();
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = [description ? descriptionId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={fieldStyles.field}>
      {description ? (
        <div id={descriptionId} className={fieldStyles.hint}>
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
      {error ? (
        <p id={errorId} className={fieldStyles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
