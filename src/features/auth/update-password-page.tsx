import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { NewPasswordSchema } from '#machines/auth/credentials.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { NewPasswordFields } from '#src/components/ui/account-fields.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { changePassword } from '#src/features/auth/api/password-recovery.ts';
import * as styles from '#src/features/auth/auth.css.ts';
import { textOf, validate } from '#src/lib/form.ts';
import { notify } from '#src/lib/notifications.ts';
import { useSessionStore } from '#src/lib/use-session.ts';
import { srOnly } from '#src/styles/global.css.ts';

const route = getRouteApi('/_auth/connexion/update-password');

function ExpiredLink({ message }: { message: string }) {
  return (
    <>
      <h1 className={styles.title}>Nouveau mot de passe</h1>
      <div className={styles.note}>
        <FormAlert tone="error">{message}</FormAlert>
      </div>
      <div className={styles.links}>
        <Link to="/connexion/recovery">Demander un nouveau lien</Link>
      </div>
    </>
  );
}

/**
 * `/connexion/update-password?token_hash=…` (the link of the recovery mail, decision 127): only the
 * new password and its repeat. The BFF verifies the link's token, sets the password and signs the
 * member in: members land on `/mon-compte`; staff go on to their second factor. An invalid or
 * expired link says so, with « Demander un nouveau lien ».
 */
export function UpdatePasswordPage() {
  const { token_hash: token, email: emailFromLink } = route.useSearch();
  const router = useRouter();
  const session = useSessionStore();
  const [expired, setExpired] = useState<string | null>(null);
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const onSubmit = handleSubmit(async (data) => {
    if (!token) return { formError: 'Ce lien est incomplet. Demandez un nouveau lien de réinitialisation.' };
    const checked = validate(NewPasswordSchema, { password: textOf(data, 'password'), passwordRepeat: textOf(data, 'passwordRepeat') });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await changePassword({ password: checked.output.password, token });
    if (!result.ok) {
      if (result.error.code === 'INVALID_TOKEN') {
        setExpired(result.error.message);
        return undefined;
      }
      const { token: tokenError, email: _email, ...rest } = result.error.fieldErrors;
      return { fieldErrors: rest, formError: tokenError ?? result.error.message };
    }
    await session.refresh();
    const mfa = (result.data as { mfa?: { required?: boolean } }).mfa;
    if (mfa?.required) {
      // Staff: the new password opened an aal1 session; the second factor is asked next.
      notify({
        title: 'Mot de passe modifié',
        description: 'Saisissez le code de votre application d’authentification.',
        variant: 'success',
      });
      await router.navigate({ to: '/dashboard/connexion' });
      return undefined;
    }
    notify({ title: 'Mot de passe modifié', description: 'Vous êtes connecté(e) avec votre nouveau mot de passe.', variant: 'success' });
    await router.navigate({ to: '/mon-compte' });
    return undefined;
  });

  if (!token) return <ExpiredLink message="Ce lien est invalide ou incomplet. Demandez un nouveau lien de réinitialisation." />;
  if (expired) return <ExpiredLink message={expired} />;

  return (
    <>
      <h1 className={styles.title}>Nouveau mot de passe</h1>
      <p className={styles.intro}>Choisissez votre nouveau mot de passe : vous serez connecté(e) aussitôt.</p>
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
        ) : null}
        <NewPasswordFields label="Nouveau mot de passe" errors={fieldErrors} />
        <Button type="submit" block loading={submitting} loadingText="Enregistrement…">
          Enregistrer et me connecter
        </Button>
      </form>
      <div className={styles.links}>
        <Link to="/connexion/recovery">Demander un nouveau lien</Link>
      </div>
    </>
  );
}
