import * as styles from '#src/components/ui/field.css.ts';
import { FieldError, useFieldIds } from '#src/components/ui/field-parts.tsx';

interface RadioOption {
  value: string;
  label: string;
}

export interface ChoiceGroupProps {
  name: string;
  legend: string;
  options: readonly RadioOption[];
  defaultValue?: string;
  required?: boolean;
  error?: string | undefined;
  hint?: string;
  disabled?: boolean;
}

/**
 * Native radios or checkboxes in a fieldset/legend: the legend names the group, arrow keys move
 * between radios; the hint and the error are read with the group, the error with each option.
 */
function ChoiceGroup({
  type,
  name,
  legend,
  options,
  defaultValue,
  required,
  error,
  hint,
  disabled,
}: ChoiceGroupProps & { type: 'radio' | 'checkbox' }) {
  const { hintId, errorId, describedBy } = useFieldIds({ hint, error });
  return (
    <fieldset className={styles.fieldset} aria-describedby={describedBy} disabled={disabled}>
      <legend className={styles.legend}>{legend}</legend>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <div className={styles.options}>
        {options.map((option) => (
          <label key={option.value} className={styles.option}>
            <input
              type={type}
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
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}

/** One choice among several. */
export const RadioGroup = (props: ChoiceGroupProps) => <ChoiceGroup type="radio" {...props} />;

/** Several choices (multiple choice); a checkbox is never required on its own. */
export const CheckboxGroup = (props: Omit<ChoiceGroupProps, 'required'>) => <ChoiceGroup type="checkbox" {...props} />;
