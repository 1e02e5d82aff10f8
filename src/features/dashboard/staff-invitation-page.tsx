import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { matching } from '#src/lib/search-params.ts';
import { useEffect, useState } from 'react';
import { AcceptInvitationSchema, STAFF_PASSWORD_MIN_LENGTH } from '#machines/auth/staff-invitation.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { acceptInvitation, checkInvitation } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { textOf, validate } from '#src/lib/form.ts';
import { useSessionStore } from '#src/lib/use-session.ts';

const route = getRouteApi('/dashboard/invitation');

/** `?token=…` of the invitation mail; the page says when it is missing or malformed. */
function StaffInvitationSearchSchema(search: Record<string, unknown>): { token?: string } {
  return { token: matching(search.token, /^[A-Za-z0-9_-]{43}$/, true) };
}

const INCOMPLETE = 'Ce lien d’invitation est incomplet : ouvrez-le tel qu’il figure dans le message reçu.';

type State = { kind: 'checking' } | { kind: 'refused'; message: string } | { kind: 'ready'; email: string; name: string };

/**
 * `/dashboard/invitation?token=…`: a colleague invited by e-mail chooses a password (step 1 of 2);
 * the server opens their session, and `/dashboard/connexion` resumes at the TOTP enrolment (step 2)
 * before the dashboard opens. A used, revoked or expired link says so in French.
 */
export function StaffInvitationPage() {
  const { token } = StaffInvitationSearchSchema(route.useSearch());
  const router = useRouter();
  const session = useSessionStore();
  const [state, setState] = useState<State>(token ? { kind: 'checking' } : { kind: 'refused', message: INCOMPLETE });
  const form = useForm();

  useEffect(() => {
    if (!token) return;
    let live = true;
    void checkInvitation(token).then((result) => {
      if (!live) return;
      setState(
        result.ok
          ? { kind: 'ready', email: result.data.email, name: result.data.name }
          : { kind: 'refused', message: result.error.message },
      );
    });
    return () => {
      live = false;
    };
  }, [token]);

  const onSubmit = form.handleSubmit(async (data) => {
    const checked = validate(AcceptInvitationSchema, {
      token: token ?? '',
      password: textOf(data, 'password'),
      passwordRepeat: textOf(data, 'passwordRepeat'),
    });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await acceptInvitation(checked.output);
    if (!result.ok) {
      if (result.error.code === 'INVITATION_INVALID' || result.error.code === 'INVITATION_EXPIRED') {
        setState({ kind: 'refused', message: result.error.message });
        return undefined;
      }
      return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    }
    await session.refresh();
    await router.navigate({ to: '/dashboard/connexion' });
    return undefined;
  });

  return (
    <div className={styles.narrow}>
      <h1 className={styles.title}>Rejoindre l’équipe</h1>
      {state.kind === 'checking' ? (
        <p className={styles.muted} role="status">
          Vérification du lien…
        </p>
      ) : state.kind === 'refused' ? (
        <>
          <FormAlert tone="error">{state.message}</FormAlert>
          <p className={styles.muted}>
            Déjà inscrit(e) ? <Link to="/dashboard/connexion">Se connecter au tableau de bord</Link>
          </p>
        </>
      ) : (
        <form ref={form.formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-describedby="invitation-alert">
          <p>
            Bienvenue {state.name}. Votre accès au tableau de bord sera ouvert pour{' '}
            <strong className={styles.breakAnywhere}>{state.email}</strong>.
          </p>
          <p className={styles.muted}>
            Étape 1 sur 2 : choisissez votre mot de passe. Étape 2 : vous enregistrerez votre second facteur (application d’authentification
            sur votre téléphone).
          </p>
          <FormAlert tone="error" id="invitation-alert">
            {form.formError}
          </FormAlert>
          {/* For password managers: the account the new password belongs to. */}
          <input type="email" name="username" autoComplete="username" value={state.email} readOnly hidden />
          <TextField
            name="password"
            type="password"
            label="Mot de passe"
            hint={`${STAFF_PASSWORD_MIN_LENGTH} caractères au moins.`}
            autoComplete="new-password"
            required
            error={form.fieldErrors.password}
          />
          <TextField
            name="passwordRepeat"
            type="password"
            label="Confirmez le mot de passe"
            autoComplete="new-password"
            required
            error={form.fieldErrors.passwordRepeat}
          />
          <Button type="submit" block loading={form.submitting} loadingText="Création de votre accès…">
            Continuer
          </Button>
        </form>
      )}
    </div>
  );
}
