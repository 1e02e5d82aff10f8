import { TextField, type TextFieldProps } from '#src/components/ui/text-field.tsx';

/**
 * The fields of a person's own account: the e-mail address and a new password (sign-in, new account,
 * recovery, e-mail and password changes).
 * In its own module, out of the public forms' chunk, whose first load has no byte to spare: the
 * contact and pre-registration forms write the same e-mail field with `TextField`.
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
        hint="12 caractères minimum, ni courant ni tiré de votre nom ou de votre adresse e-mail."
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
