import * as styles from '#src/features/dashboard/dashboard.css.ts';

export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled select of the dashboard (filters and dialogs): the label wraps the control. */
export function SelectField({
  id,
  label,
  value,
  options,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  return (
    <label className={styles.control} htmlFor={id}>
      {label}
      <select id={id} className={styles.input} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Staff as options, the signed-in person first named « Moi (…) » where they stand. */
export function staffOptions(staff: readonly { id: string; name: string; self: boolean }[]): SelectOption[] {
  return staff.map((s) => ({ value: s.id, label: s.self ? `Moi (${s.name})` : s.name }));
}
