import { Link, useRouter, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { CredentialsSchema, GenderSchema } from '#machines/auth/credentials.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { EmailField, NewPasswordFields } from '#src/components/ui/account-fields.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { createAccount, readInvitation } from '#src/features/auth/api/create-account.ts';
import * as styles from '#src/features/auth/auth.css.ts';
import { ResendConfirmation } from '#src/features/auth/resend-confirmation.tsx';
import { renameFields, textOf, validate } from '#src/lib/form.ts';
import { useSessionStore } from '#src/lib/use-session.ts';

const GENDERS = [
  { value: 'homme', label: 'Un homme' },
  { value: 'femme', label: 'Une femme' },
] as const;

const genderText = { homme: 'un homme', femme: 'une femme' } as const;

/** The token of the pre-registration's link, read here (not by the route) to keep it off the public entry. */
const INVITATION = /^[A-Za-z0-9_-]{43}$/;

type Invitation =
  | { status: 'none' }
  | { status: 'loading'; token: string }
  | { status: 'ok'; token: string; email: string; gender: 'homme' | 'femme' }
  | { status: 'invalid'; message: string };

/** The pre-registration behind `?invitation=…`, as the BFF reads it (the browser never decides). */
function useInvitation(): Invitation {
  const search = useSearch({ strict: false }) as { invitation?: unknown };
  const token = typeof search.invitation === 'string' && INVITATION.test(search.invitation) ? search.invitation : null;
  const [state, setState] = useState<Invitation>(token ? { status: 'loading', token } : { status: 'none' });
  useEffect(() => {
    if (!token) return;
    let live = true;
    void readInvitation(token).then((result) => {
      if (!live) return;
      setState(
        result.ok
          ? { status: 'ok', token, email: result.data.email, gender: result.data.gender }
          : { status: 'invalid', message: result.error.message },
      );
    });
    return () => {
      live = false;
    };
  }, [token]);
  return state;
}

/**
 * `/connexion/nouveau-compte`: gender, email, password and its repeat. The account is then
 * confirmed from the mail sent to the address (decision 187): the page says so, and can send it
 * again. From the pre-registration's mail (`?invitation=…`, decision 127) the address is filled in,
 * the gender is not asked again, and with that address the member is signed in at once.
 */
export function NewAccountPage() {
  const invitation = useInvitation();
  if (invitation.status === 'loading') {
    return (
      <>
        <h1 className={styles.title}>Créer un compte</h1>
        <p className={styles.intro} role="status">
          Chargement de votre pré-inscription…
        </p>
      </>
    );
  }
  return <NewAccountForm invitation={invitation} />;
}

function NewAccountForm({ invitation }: { invitation: Exclude<Invitation, { status: 'loading' }> }) {
  const router = useRouter();
  const session = useSessionStore();
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const known = invitation.status === 'ok' ? invitation : null;
  const [awaiting, setAwaiting] = useState<{ email: string; message: string } | null>(null);

  const onSubmit = handleSubmit(async (data) => {
    const gender = known ? ({ success: true, output: known.gender } as const) : validate(GenderSchema, textOf(data, 'gender'));
    const credentials = validate(CredentialsSchema, {
      email: textOf(data, 'email'),
      password: textOf(data, 'password'),
      passwordRepeat: textOf(data, 'passwordRepeat'),
    });
    if (!gender.success || !credentials.success) {
      return {
        fieldErrors: {
          ...(gender.success ? {} : { gender: Object.values(gender.fieldErrors)[0] ?? 'Choisissez « homme » ou « femme »' }),
          ...(credentials.success ? {} : credentials.fieldErrors),
        },
      };
    }
    const result = await createAccount({
      gender: known ? undefined : gender.output,
      email: credentials.output.email,
      password: credentials.output.password,
      invitation: known?.token,
    });
    if (!result.ok) return { fieldErrors: renameFields(result.error.fieldErrors, { role: 'gender' }), formError: result.error.message };
    // Without the pre-registration's link, the address is confirmed from the mail first (decision 187).
    if ('confirmation' in result.data) {
      setAwaiting({ email: result.data.email, message: result.data.message });
      return undefined;
    }
    await session.refresh();
    await router.navigate({ to: '/mon-compte' });
    return undefined;
  });

  if (awaiting) return <ConfirmationSent email={awaiting.email} message={awaiting.message} />;

  return (
    <>
      <h1 className={styles.title}>Créer un compte</h1>
      <p className={styles.intro}>
        {known
          ? 'Vos informations de pré-inscription sont reprises : choisissez seulement votre mot de passe.'
          : 'Quelques informations suffisent pour ouvrir votre espace personnel.'}
      </p>
      {invitation.status === 'invalid' ? (
        <div className={styles.note}>
          <FormAlert tone="info">{invitation.message}</FormAlert>
        </div>
      ) : null}
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        {known ? (
          <p className={styles.intro} data-testid="known-gender">
            Vous êtes {genderText[known.gender]} (indiqué lors de votre pré-inscription).
          </p>
        ) : (
          <RadioGroup name="gender" legend="Vous êtes" options={GENDERS} required error={fieldErrors.gender} />
        )}
        <EmailField defaultValue={known?.email} error={fieldErrors.email} />
        <NewPasswordFields label="Mot de passe" errors={fieldErrors} />
        <p className={styles.legal}>
          En créant un compte, vous acceptez nos <Link to="/conditions-generales-de-vente">conditions générales de vente</Link> et notre{' '}
          <Link to="/politique-de-confidentialite">politique de confidentialité</Link>.
        </p>
        <Button type="submit" block loading={submitting} loadingText="Création du compte…">
          Créer mon compte
        </Button>
      </form>
      <div className={styles.links}>
        <p>
          Déjà un compte ? <Link to="/connexion">Se connecter</Link>
        </p>
      </div>
    </>
  );
}

/** After registering: the mail to open, and a way to have it sent again. */
function ConfirmationSent({ email, message }: { email: string; message: string }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <>
      <h1 ref={headingRef} tabIndex={-1} className={styles.title}>
        Confirmez votre adresse e-mail
      </h1>
      <div className={styles.note}>
        <FormAlert tone="success">{message}</FormAlert>
      </div>
      <p className={styles.intro}>
        Le lien est valable 1 heure. Vous ne trouvez pas l’e-mail ? Regardez dans les courriers indésirables, ou demandez-en un nouveau.
      </p>
      <ResendConfirmation email={email} />
      <div className={styles.links}>
        <p>
          Adresse déjà confirmée ? <Link to="/connexion">Se connecter</Link>
        </p>
      </div>
    </>
  );
}
