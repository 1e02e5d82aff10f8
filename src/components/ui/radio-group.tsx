import { useId } from 'react';
import * as styles from '#src/components/ui/field.css.ts';

export interface RadioOption {
  value: string;
  label: string;
}

export interface RadioGroupProps {
  name: string;
  legend: string;
  options: readonly RadioOption[];
  defaultValue?: string;
  required?: boolean;
  error?: string | undefined;
  disabled?: boolean;
}

/** Native radios in a fieldset/legend: arrow keys move between options, the legend names the group. */
export function RadioGroup({ name, legend, options, defaultValue, required, error, disabled }: RadioGroupProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset className={styles.fieldset} aria-describedby={error ? errorId : undefined} disabled={disabled}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={styles.options}>
        {options.map((option) => (
          <label key={option.value} className={styles.option}>
            <input
              type="radio"
              className={styles.radio}
              name={name}
              value={option.value}
              defaultChecked={defaultValue === option.value}
              required={required}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
            {option.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
