import * as styles from '#src/features/dashboard/dashboard.css.ts';

/** The search box of a dashboard list (members, leads): labelled, as its filters are (`SelectField`). */
export function SearchField({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className={styles.control} htmlFor={id}>
      {label}
      <input
        id={id}
        type="search"
        className={styles.input}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
