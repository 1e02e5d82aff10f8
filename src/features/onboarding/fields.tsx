import { type TextareaHTMLAttributes, useId } from 'react';
import * as fieldStyles from '#src/components/ui/field.css.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';

/** Several checkboxes in a fieldset (multiple choice). */
export function CheckboxGroup({
  name,
  legend,
  options,
  error,
  hint,
}: {
  name: string;
  legend: string;
  options: readonly { value: string; label: string }[];
  error?: string | undefined;
  hint?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className={fieldStyles.fieldset} aria-describedby={describedBy}>
      <legend className={fieldStyles.legend}>{legend}</legend>
      {hint ? (
        <p id={hintId} className={fieldStyles.hint}>
          {hint}
        </p>
      ) : null}
      <div className={fieldStyles.options}>
        {options.map((option) => (
          <label key={option.value} className={fieldStyles.option}>
            <input
              type="checkbox"
              className={fieldStyles.radio}
              name={name}
              value={option.value}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
            {option.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className={fieldStyles.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'> {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string;
}

export function TextAreaField({ name, label, error, hint, required, ...rest }: TextAreaFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
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
      {error ? (
        <p id={errorId} className={fieldStyles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Options of a French label map, for RadioGroup / CheckboxGroup. */
export function optionsOf(labels: Record<string, string>): { value: string; label: string }[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}
