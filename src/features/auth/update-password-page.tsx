import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { CredentialsSchema, EMAIL_MESSAGE } from '#machines/auth/credentials.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { changePassword } from '#src/features/auth/api/password-recovery.ts';
import * as styles from '#src/features/auth/auth.css.ts';
import { textOf, validate } from '#src/lib/form.ts';
import { notify } from '#src/lib/notifications.ts';
import { srOnly } from '#src/styles/global.css.ts';

const route = getRouteApi('/_auth/connexion/update-password');

/**
 * `/connexion/update-password?token_hash=…[&email=…]` (the link of the recovery mail): a new
 * password and its repeat. When the link does not carry the address, the member types it (the BFF
 * checks it belongs to the token). Success: a notification and `/connexion`.
 */
export function UpdatePasswordPage() {
  const { token_hash: token, email: emailFromLink } = route.useSearch();
  const router = useRouter();
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const onSubmit = handleSubmit(async (data) => {
    if (!token) return { formError: 'Ce lien est incomplet. Demandez un nouveau lien de réinitialisation.' };
    const checked = validate(CredentialsSchema, {
      email: emailFromLink ?? textOf(data, 'email'),
      password: textOf(data, 'password'),
      passwordRepeat: textOf(data, 'passwordRepeat'),
    });
    if (!checked.success) {
      if (emailFromLink && checked.fieldErrors.email) {
        const { email: _ignored, ...rest } = checked.fieldErrors;
        return { fieldErrors: rest, formError: EMAIL_MESSAGE };
      }
      return { fieldErrors: checked.fieldErrors };
    }
    const result = await changePassword({ email: checked.output.email, password: checked.output.password, token });
    if (!result.ok) {
      const { token: tokenError, ...rest } = result.error.fieldErrors;
      return { fieldErrors: rest, formError: tokenError ?? result.error.message };
    }
    notify({ title: 'Mot de passe modifié', description: 'Connectez-vous avec votre nouveau mot de passe.', variant: 'success' });
    await router.navigate({ to: '/connexion' });
    return undefined;
  });

  if (!token) {
    return (
      <>
        <h1 className={styles.title}>Nouveau mot de passe</h1>
        <div className={styles.note}>
          <FormAlert tone="error">Ce lien est invalide ou incomplet. Demandez un nouveau lien de réinitialisation.</FormAlert>
        </div>
        <div className={styles.links}>
          <Link to="/connexion/recovery">Demander un nouveau lien</Link>
        </div>
      </>
    );
  }

  return (
    <>
      <h1 className={styles.title}>Nouveau mot de passe</h1>
      <p className={styles.intro}>
        {emailFromLink ? `Choisissez le nouveau mot de passe du compte ${emailFromLink}.` : 'Choisissez votre nouveau mot de passe.'}
      </p>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        {emailFromLink ? (
          // For password managers: the account the new password belongs to.
          <input
            type="email"
            name="username"
            autoComplete="username"
            value={emailFromLink}
            readOnly
            tabIndex={-1}
            aria-hidden="true"
            className={srOnly}
          />
        ) : (
          <TextField
            name="email"
            type="email"
            label="Adresse e-mail"
            autoComplete="username"
            inputMode="email"
            spellCheck={false}
            required
            error={fieldErrors.email}
          />
        )}
        <TextField
          name="password"
          type="password"
          label="Nouveau mot de passe"
          hint="6 caractères minimum."
          autoComplete="new-password"
          required
          error={fieldErrors.password}
        />
        <TextField
          name="passwordRepeat"
          type="password"
          label="Confirmation du mot de passe"
          autoComplete="new-password"
          required
          error={fieldErrors.passwordRepeat}
        />
        <Button type="submit" block loading={submitting} loadingText="Enregistrement…">
          Enregistrer le mot de passe
        </Button>
      </form>
      <div className={styles.links}>
        <Link to="/connexion/recovery">Demander un nouveau lien</Link>
      </div>
    </>
  );
}
