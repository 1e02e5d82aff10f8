import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { SignInSchema } from '#machines/auth/credentials.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { EmailField } from '#src/components/ui/account-fields.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { signIn } from '#src/features/auth/api/sign-in.ts';
import * as styles from '#src/features/auth/auth.css.ts';
import { ResendConfirmation } from '#src/features/auth/resend-confirmation.tsx';
import { textOf, validate } from '#src/lib/form.ts';
import { redirectTarget } from '#src/lib/safe-redirect.ts';
import { useSession, useSessionStore } from '#src/lib/use-session.ts';

const route = getRouteApi('/_auth/connexion/');

/** `/connexion`: email + password, then back to `redirect` (same-site paths only) or `/mon-compte`. */
export function SignInPage() {
  const { redirect } = route.useSearch();
  const router = useRouter();
  const session = useSessionStore();
  const { status } = useSession();
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);

  const onSubmit = handleSubmit(async (data) => {
    const checked = validate(SignInSchema, { email: textOf(data, 'email'), password: textOf(data, 'password') });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await signIn(checked.output);
    // An account whose address is not confirmed yet (decision 187): the mail can be sent again.
    setUnconfirmed(!result.ok && result.error.code === 'EMAIL_NOT_CONFIRMED' ? checked.output.email : null);
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    await session.refresh();
    await router.navigate({ href: redirectTarget(redirect, '/mon-compte') });
    return undefined;
  });

  return (
    <>
      <h1 className={styles.title}>Connexion</h1>
      <p className={styles.intro}>Accédez à votre espace personnel.</p>
      {status === 'signed-in' ? (
        <div className={styles.note}>
          <FormAlert tone="info">
            Vous êtes déjà connecté(e). <Link to="/mon-compte">Accéder à mon compte</Link>
          </FormAlert>
        </div>
      ) : null}
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-describedby="signin-alert">
        <FormAlert tone="error" id="signin-alert">
          {formError}
        </FormAlert>
        <EmailField error={fieldErrors.email} />
        <TextField
          name="password"
          type="password"
          label="Mot de passe"
          autoComplete="current-password"
          required
          error={fieldErrors.password}
        />
        <Button type="submit" block loading={submitting} loadingText="Connexion en cours…">
          Se connecter
        </Button>
      </form>
      {unconfirmed ? <ResendConfirmation email={unconfirmed} /> : null}
      <div className={styles.links}>
        <Link to="/connexion/recovery">Mot de passe oublié ?</Link>
        <p>
          Pas encore de compte ? <Link to="/connexion/nouveau-compte">Créer un compte</Link>
        </p>
      </div>
    </>
  );
}
