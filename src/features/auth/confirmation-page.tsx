import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { EmailSchema } from '#machines/auth/credentials.ts';
import { EmailField } from '#src/components/ui/account-fields.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { confirmRegistration } from '#src/features/auth/api/confirmation.ts';
import * as styles from '#src/features/auth/auth.css.ts';
import { ResendConfirmation } from '#src/features/auth/resend-confirmation.tsx';
import { BRAND_NAME } from '#src/features/layout/navigation.ts';
import { textOf, validate } from '#src/lib/form.ts';
import { notify } from '#src/lib/notifications.ts';
import { useSessionStore } from '#src/lib/use-session.ts';

const route = getRouteApi('/connexion/confirmation');

const ProofSchema = v.object({ email: EmailSchema, password: v.pipe(v.string(), v.minLength(1, 'Saisissez votre mot de passe')) });

type Outcome = { kind: 'pending' } | { kind: 'password'; message: string } | { kind: 'failed'; message: string };

// One automatic attempt per link and page load: a link works once, so a second call (React's
// development double effect, a re-render) must reuse the first answer.
const attempts = new Map<string, ReturnType<typeof confirmRegistration>>();

/**
 * `/connexion/confirmation` (no layout, spec §2). With the registration's link (`?token_hash=…`,
 * decision 187) it confirms the address: in the browser that registered at once, elsewhere with
 * the address and password chosen then; the member is then signed in and goes on to `/mon-compte`.
 * A link that no longer works says why, with a way to have a new one sent. Without a link, a plain
 * confirmation.
 */
export function ConfirmationPage() {
  const { token_hash: token, type } = route.useSearch();
  if (token && (type === undefined || type === 'signup')) return <ConfirmRegistration token={token} />;
  return <Confirmed />;
}

function Confirmed() {
  const mainRef = useRef<HTMLElement>(null);
  useEffect(() => mainRef.current?.focus(), []);
  return (
    <main ref={mainRef} id="contenu" tabIndex={-1} className={styles.standalone}>
      <p>{BRAND_NAME}</p>
      <h1 className={styles.title}>C’est confirmé !</h1>
      <p className={styles.intro}>
        Votre demande a bien été prise en compte. Vous pouvez maintenant vous connecter à votre espace personnel.
      </p>
      <div className={styles.standaloneActions}>
        <Link to="/connexion" className={buttonClass.primary}>
          Se connecter
        </Link>
        <Link to="/" className={buttonClass.secondary}>
          Retour à l’accueil
        </Link>
      </div>
    </main>
  );
}

function ConfirmRegistration({ token }: { token: string }) {
  const router = useRouter();
  const session = useSessionStore();
  const mainRef = useRef<HTMLElement>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'pending' });
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const welcome = useCallback(async () => {
    await session.refresh();
    notify({ title: 'Adresse e-mail confirmée', description: 'Bienvenue : votre espace personnel est ouvert.', variant: 'success' });
    await router.navigate({ to: '/mon-compte' });
  }, [router, session]);

  useEffect(() => {
    let running = attempts.get(token);
    if (!running) {
      running = confirmRegistration({ tokenHash: token });
      attempts.set(token, running);
    }
    let live = true;
    void running.then(async (result) => {
      if (!live) return;
      if (result.ok) await welcome();
      else if (result.error.code === 'CONFIRMATION_PASSWORD_REQUIRED') setOutcome({ kind: 'password', message: result.error.message });
      else setOutcome({ kind: 'failed', message: result.error.message });
    });
    return () => {
      live = false;
    };
  }, [token, welcome]);

  useEffect(() => {
    if (outcome.kind !== 'pending') mainRef.current?.focus();
  }, [outcome.kind]);

  const onSubmit = handleSubmit(async (data) => {
    const checked = validate(ProofSchema, { email: textOf(data, 'email'), password: textOf(data, 'password') });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await confirmRegistration({ tokenHash: token, ...checked.output });
    if (result.ok) {
      await welcome();
      return undefined;
    }
    if (result.error.code === 'INVALID_CREDENTIALS' || result.error.code === 'INVALID_EMAIL' || result.error.status === 429) {
      return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    }
    setOutcome({ kind: 'failed', message: result.error.message });
    return undefined;
  });

  const title =
    outcome.kind === 'pending'
      ? 'Confirmation en cours…'
      : outcome.kind === 'password'
        ? 'Confirmez votre adresse e-mail'
        : 'Confirmation impossible';
  return (
    <main ref={mainRef} id="contenu" tabIndex={-1} className={styles.standalone} aria-busy={outcome.kind === 'pending'}>
      <p>{BRAND_NAME}</p>
      <h1 className={styles.title}>{title}</h1>
      {outcome.kind === 'pending' ? (
        <p className={styles.intro} role="status">
          Nous vérifions votre lien…
        </p>
      ) : null}
      {outcome.kind === 'password' ? (
        <div className={styles.standaloneForm}>
          <p className={styles.intro}>{outcome.message}</p>
          <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
            <FormAlert tone="error">{formError}</FormAlert>
            <EmailField error={fieldErrors.email} />
            <TextField
              name="password"
              type="password"
              label="Mot de passe"
              autoComplete="current-password"
              required
              error={fieldErrors.password}
            />
            <Button type="submit" block loading={submitting} loadingText="Confirmation…">
              Confirmer et accéder à mon espace
            </Button>
          </form>
        </div>
      ) : null}
      {outcome.kind === 'failed' ? (
        <div className={styles.standaloneForm}>
          <FormAlert tone="error">{outcome.message}</FormAlert>
          <ResendConfirmation variant="primary" />
          <div className={styles.links}>
            <p>
              Pas encore de compte ? <Link to="/connexion/nouveau-compte">Créer un compte</Link>
            </p>
            <p>
              Adresse déjà confirmée ? <Link to="/connexion">Se connecter</Link>
            </p>
          </div>
        </div>
      ) : null}
    </main>
  );
}
