import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { SignInSchema } from '#machines/auth/credentials.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { signIn } from '#src/features/auth/api/sign-in.ts';
import { enrollTotp, getMfa, verifyTotp } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { textOf, validate } from '#src/lib/form.ts';
import { redirectTarget } from '#src/lib/safe-redirect.ts';
import { useSession, useSessionStore } from '#src/lib/use-session.ts';

const route = getRouteApi('/dashboard/connexion');

interface Enrolment {
  qrCode: string;
  secret: string;
}

type Step = { kind: 'password' } | { kind: 'loading' } | { kind: 'code'; factorId: string; enrolment: Enrolment | null };

/**
 * The enrolment's QR code as an image source. Supabase Auth answers `data:image/svg+xml;utf-8,<svg…>`
 * (not URL-encoded); raw `<svg…>` markup is accepted too. The SVG is re-encoded into a `data:` URL for
 * an `<img>`, where it cannot run scripts; anything else is not shown.
 */
function qrImageSrc(qrCode: string): string | null {
  const svg = qrCode.startsWith('data:image/svg+xml') ? qrCode.slice(qrCode.indexOf(',') + 1) : qrCode;
  if (!svg.trimStart().startsWith('<svg')) return null;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

const NOT_STAFF = 'Cet espace est réservé à l’équipe de l’agence.';

/**
 * `/dashboard/connexion`: password, then the TOTP second factor. At the first sign-in the factor is
 * enrolled here: QR code (the server's SVG, shown as an image, never injected as markup) and the
 * secret for manual entry; then the 6-digit code of the authenticator app gives an aal2 session.
 */
export function StaffSignInPage() {
  const { redirect } = route.useSearch();
  const router = useRouter();
  const session = useSessionStore();
  const current = useSession();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const passwordForm = useForm();
  const codeForm = useForm();

  /** After the password: enrol a factor when there is none, else ask for the code. */
  async function secondFactor(): Promise<string | undefined> {
    setStep({ kind: 'loading' });
    const mfa = await getMfa();
    if (!mfa.ok) {
      setStep({ kind: 'password' });
      return mfa.error.message;
    }
    if (mfa.data.aal === 'aal2') {
      await finish();
      return undefined;
    }
    const factor = mfa.data.factors[0];
    if (factor) {
      setStep({ kind: 'code', factorId: factor.id, enrolment: null });
      return undefined;
    }
    const enrolled = await enrollTotp();
    if (!enrolled.ok) {
      setStep({ kind: 'password' });
      return enrolled.error.message;
    }
    setStep({ kind: 'code', factorId: enrolled.data.factorId, enrolment: { qrCode: enrolled.data.qrCode, secret: enrolled.data.secret } });
    return undefined;
  }

  async function finish() {
    await session.refresh();
    await router.navigate({ href: redirectTarget(redirect, '/dashboard') });
  }

  // A staff member who reloads between the two steps resumes at the second factor.
  const resumable = current.status === 'signed-in' && current.user?.role === 'staff' && current.aal === 'aal1';
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the session becomes known, not on every step change
  useEffect(() => {
    if (resumable && step.kind === 'password') void secondFactor();
  }, [resumable]);

  const onPassword = passwordForm.handleSubmit(async (data) => {
    const checked = validate(SignInSchema, { email: textOf(data, 'email'), password: textOf(data, 'password') });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await signIn(checked.output);
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    if (result.data.user.role !== 'staff') {
      await session.refresh();
      return { formError: NOT_STAFF };
    }
    const error = await secondFactor();
    return error ? { formError: error } : undefined;
  });

  const onCode = codeForm.handleSubmit(async (data) => {
    if (step.kind !== 'code') return undefined;
    const code = textOf(data, 'code').replace(/\s+/g, '');
    if (!/^\d{6}$/.test(code)) return { fieldErrors: { code: 'Saisissez les 6 chiffres affichés par votre application' } };
    const result = await verifyTotp(step.factorId, code);
    if (!result.ok) return { fieldErrors: { code: result.error.message } };
    await finish();
    return undefined;
  });

  return (
    <div className={styles.narrow}>
      <h1 className={styles.title}>Connexion de l’équipe</h1>
      {current.status === 'signed-in' && current.user?.role === 'staff' && current.aal === 'aal2' ? (
        <FormAlert tone="info">
          Vous êtes déjà connecté(e). <Link to="/dashboard">Accéder au tableau de bord</Link>
        </FormAlert>
      ) : null}
      {step.kind === 'password' || step.kind === 'loading' ? (
        <form
          key="password"
          ref={passwordForm.formRef}
          className={styles.form}
          onSubmit={onPassword}
          noValidate
          aria-describedby="staff-signin-alert"
        >
          <p className={styles.muted}>Étape 1 sur 2 : votre mot de passe.</p>
          <FormAlert tone="error" id="staff-signin-alert">
            {passwordForm.formError}
          </FormAlert>
          <TextField
            name="email"
            type="email"
            label="Adresse e-mail"
            autoComplete="username"
            spellCheck={false}
            required
            error={passwordForm.fieldErrors.email}
          />
          <TextField
            name="password"
            type="password"
            label="Mot de passe"
            autoComplete="current-password"
            required
            error={passwordForm.fieldErrors.password}
          />
          <Button type="submit" block loading={passwordForm.submitting || step.kind === 'loading'} loadingText="Connexion en cours…">
            Continuer
          </Button>
        </form>
      ) : (
        <form key="code" ref={codeForm.formRef} className={styles.form} onSubmit={onCode} noValidate aria-describedby="staff-code-alert">
          <p className={styles.muted}>Étape 2 sur 2 : le code à usage unique de votre application d’authentification.</p>
          {step.enrolment ? (
            <section className={styles.card} aria-labelledby="enrol-title">
              <h2 id="enrol-title" className={styles.cardTitle}>
                Enregistrez votre second facteur
              </h2>
              <p>Scannez ce QR code avec votre application d’authentification (Google Authenticator, Microsoft Authenticator, FreeOTP…).</p>
              {qrImageSrc(step.enrolment.qrCode) ? (
                <img
                  className={styles.qr}
                  src={qrImageSrc(step.enrolment.qrCode) ?? ''}
                  alt="QR code du second facteur"
                  width={192}
                  height={192}
                />
              ) : null}
              <TextField
                name="secret"
                label="Clé secrète (saisie manuelle)"
                hint="Si vous ne pouvez pas scanner le QR code, saisissez cette clé dans votre application."
                readOnly
                value={step.enrolment.secret}
                spellCheck={false}
              />
            </section>
          ) : null}
          <FormAlert tone="error" id="staff-code-alert">
            {codeForm.formError}
          </FormAlert>
          <TextField
            name="code"
            label="Code à 6 chiffres"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={7}
            required
            error={codeForm.fieldErrors.code}
          />
          <Button type="submit" block loading={codeForm.submitting} loadingText="Vérification…">
            Valider
          </Button>
        </form>
      )}
    </div>
  );
}
