import { useState } from 'react';
import * as v from 'valibot';
import { EmailSchema, PasswordSchema } from '#machines/auth/credentials.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { EmailField } from '#src/components/ui/account-fields.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { changeOwnPassword, fetchEmailStatus, requestEmailChange } from '#src/features/account/account-api.ts';
import * as styles from '#src/features/account/account.css.ts';
import { textOf, validate } from '#src/lib/form.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { memberKeys } from '#src/features/account/account-queries.ts';
import { unwrap } from '#src/lib/query-client.ts';

const REQUIRED_CURRENT = 'Saisissez votre mot de passe actuel';

const EmailChangeForm = v.object({
  newEmail: v.pipe(v.string(), v.trim(), v.minLength(1, 'Saisissez la nouvelle adresse e-mail'), EmailSchema),
  currentPassword: v.pipe(v.string(), v.minLength(1, REQUIRED_CURRENT)),
});

const PasswordChangeForm = v.pipe(
  v.object({
    currentPassword: v.pipe(v.string(), v.minLength(1, REQUIRED_CURRENT)),
    newPassword: PasswordSchema,
    newPasswordRepeat: v.string(),
  }),
  v.forward(
    v.check((input) => input.newPassword === input.newPasswordRepeat, 'Les mots de passe ne correspondent pas'),
    ['newPasswordRepeat'],
  ),
);

/** « Adresse e-mail »: the current address, the one waiting for confirmation, and the form to change it. */
export function EmailSection({ fallbackEmail }: { fallbackEmail: string | undefined }) {
  const { data: status } = useQuery({ queryKey: memberKeys.emailStatus, queryFn: () => unwrap(fetchEmailStatus()) });
  const client = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const onSubmit = handleSubmit(async (data) => {
    setDone(null);
    const checked = validate(EmailChangeForm, { newEmail: textOf(data, 'newEmail'), currentPassword: textOf(data, 'currentPassword') });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await requestEmailChange(checked.output);
    if (!result.ok) {
      const fields = result.error.fieldErrors;
      return Object.keys(fields).length > 0 ? { fieldErrors: fields } : { formError: result.error.message };
    }
    formRef.current?.reset();
    client.setQueryData(memberKeys.emailStatus, { email: result.data.email, pendingEmail: result.data.pendingEmail });
    setDone(result.data.message);
    return undefined;
  });

  const email = status?.email ?? fallbackEmail ?? '—';
  return (
    <section className={styles.section} aria-labelledby="account-email" data-testid="email-section">
      <h2 id="account-email" className={styles.sectionHeading}>
        Adresse e-mail
      </h2>
      <dl className={styles.facts}>
        <dt className={styles.factLabel}>Adresse actuelle</dt>
        <dd className={styles.factValue} data-testid="current-email">
          {email}
        </dd>
        {status?.pendingEmail ? (
          <>
            <dt className={styles.factLabel}>En attente de confirmation</dt>
            <dd className={styles.factValue} data-testid="pending-email">
              {status.pendingEmail}
            </dd>
          </>
        ) : null}
      </dl>
      <p className={styles.sectionText}>
        La nouvelle adresse ne remplace l’actuelle qu’une fois confirmée par le lien que nous y envoyons. Votre adresse actuelle est
        prévenue de la demande.
      </p>
      <FormAlert tone="success">{done}</FormAlert>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-label="Changer d’adresse e-mail">
        <FormAlert tone="error">{formError}</FormAlert>
        <EmailField name="newEmail" label="Nouvelle adresse e-mail" error={fieldErrors.newEmail} />
        <TextField
          name="currentPassword"
          type="password"
          label="Mot de passe actuel"
          hint="Pour vérifier que c’est bien vous."
          autoComplete="current-password"
          required
          error={fieldErrors.currentPassword}
        />
        <div>
          <Button type="submit" loading={submitting} loadingText="Envoi du lien…">
            Changer d’adresse
          </Button>
        </div>
      </form>
    </section>
  );
}

/** « Mot de passe »: the current one, the new one and its repeat. */
export function PasswordSection() {
  const [done, setDone] = useState<string | null>(null);
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const onSubmit = handleSubmit(async (data) => {
    setDone(null);
    const checked = validate(PasswordChangeForm, {
      currentPassword: textOf(data, 'currentPassword'),
      newPassword: textOf(data, 'newPassword'),
      newPasswordRepeat: textOf(data, 'newPasswordRepeat'),
    });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await changeOwnPassword(checked.output);
    if (!result.ok) {
      const fields = result.error.fieldErrors;
      return Object.keys(fields).length > 0 ? { fieldErrors: fields } : { formError: result.error.message };
    }
    formRef.current?.reset();
    setDone(result.data.message);
    return undefined;
  });

  return (
    <section className={styles.section} aria-labelledby="account-password" data-testid="password-section">
      <h2 id="account-password" className={styles.sectionHeading}>
        Mot de passe
      </h2>
      <p className={styles.sectionText}>Après le changement, vos autres appareils sont déconnectés ; celui-ci reste connecté.</p>
      <FormAlert tone="success">{done}</FormAlert>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-label="Changer de mot de passe">
        <FormAlert tone="error">{formError}</FormAlert>
        <TextField
          name="currentPassword"
          type="password"
          label="Mot de passe actuel"
          autoComplete="current-password"
          required
          error={fieldErrors.currentPassword}
        />
        <TextField
          name="newPassword"
          type="password"
          label="Nouveau mot de passe"
          hint="12 caractères minimum, ni courant ni tiré de votre nom ou de votre adresse e-mail."
          autoComplete="new-password"
          required
          error={fieldErrors.newPassword}
        />
        <TextField
          name="newPasswordRepeat"
          type="password"
          label="Confirmation du nouveau mot de passe"
          autoComplete="new-password"
          required
          error={fieldErrors.newPasswordRepeat}
        />
        <div>
          <Button type="submit" loading={submitting} loadingText="Enregistrement…">
            Changer de mot de passe
          </Button>
        </div>
      </form>
    </section>
  );
}
