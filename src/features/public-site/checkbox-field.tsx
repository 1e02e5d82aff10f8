import { type ReactNode, useId } from 'react';
import * as fieldStyles from '#src/components/ui/field.css.ts';
import * as styles from '#src/features/public-site/public-site.css.ts';

/** A required consent checkbox with its label (may hold links) and its error. */
export function CheckboxField({ name, children, error }: { name: string; children: ReactNode; error?: string | undefined }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={fieldStyles.field}>
      <div className={styles.checkboxRow}>
        <input
          id={id}
          type="checkbox"
          name={name}
          value="true"
          className={styles.checkbox}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <label htmlFor={id}>{children}</label>
      </div>
      {error ? (
        <p id={errorId} className={fieldStyles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
