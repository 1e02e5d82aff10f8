import { type InputHTMLAttributes, useId } from 'react';
import * as styles from '#src/components/ui/field.css.ts';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  name: string;
  label: string;
  /** Field error: sets `aria-invalid` and is read with the field (`aria-describedby`). */
  error?: string | undefined;
  hint?: string;
}

/** A labelled input with its hint and error; `required` sets `aria-required` (forms say which fields are optional, not which are required). */
export function TextField({ label, error, hint, required, name, ...rest }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <input
        {...rest}
        id={id}
        name={name}
        className={styles.input}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The visitor's own e-mail address, required: the e-mail keyboard, the browser's autofill and no
 * spell-check. `name` is « email » and `label` « Adresse e-mail » unless given.
 */
export function EmailField({
  name = 'email',
  label = 'Adresse e-mail',
  ...rest
}: Omit<TextFieldProps, 'name' | 'label' | 'type' | 'autoComplete' | 'inputMode' | 'spellCheck' | 'required'> & {
  name?: string;
  label?: string;
}) {
  return <TextField {...rest} name={name} type="email" label={label} autoComplete="email" inputMode="email" spellCheck={false} required />;
}

/**
 * A new password and its confirmation (`password`, `passwordRepeat`), both required, for the
 * browser's password manager (`new-password`). `label` names the first field.
 */
export function NewPasswordFields({
  label,
  errors,
}: {
  label: string;
  errors: { password?: string | undefined; passwordRepeat?: string | undefined };
}) {
  return (
    <>
      <TextField
        name="password"
        type="password"
        label={label}
        hint="6 caractères minimum."
        autoComplete="new-password"
        required
        error={errors.password}
      />
      <TextField
        name="passwordRepeat"
        type="password"
        label="Confirmation du mot de passe"
        autoComplete="new-password"
        required
        error={errors.passwordRepeat}
      />
    </>
  );
}
