import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import * as v from 'valibot';
import { EmailSchema } from '#machines/auth/credentials.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { EmailField } from '#src/components/ui/account-fields.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { requestRecovery } from '#src/features/auth/api/password-recovery.ts';
import * as styles from '#src/features/auth/auth.css.ts';
import { textOf, validate } from '#src/lib/form.ts';

const RECOVERY_SENT_MESSAGE = 'Si un compte existe pour cette adresse, un e-mail vient d’être envoyé';

const RecoverySchema = v.object({ email: EmailSchema });

/**
 * `/connexion/recovery`: asks for a reset link. The answer is the same whether or not the account
 * exists (no account enumeration); only a bad email shape, a rate limit (429) or an outage show an
 * error.
 */
export function RecoveryPage() {
  const [sent, setSent] = useState(false);
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const onSubmit = handleSubmit(async (data) => {
    setSent(false);
    const checked = validate(RecoverySchema, { email: textOf(data, 'email') });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await requestRecovery(checked.output.email);
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    setSent(true);
    return undefined;
  });

  return (
    <>
      <h1 className={styles.title}>Mot de passe oublié</h1>
      <p className={styles.intro}>Indiquez votre adresse e-mail : nous vous enverrons un lien pour choisir un nouveau mot de passe.</p>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        <FormAlert tone="success">{sent ? `${RECOVERY_SENT_MESSAGE}.` : null}</FormAlert>
        <EmailField error={fieldErrors.email} />
        <Button type="submit" block loading={submitting} loadingText="Envoi en cours…">
          Recevoir le lien
        </Button>
      </form>
      <div className={styles.links}>
        <Link to="/connexion">Retour à la connexion</Link>
      </div>
    </>
  );
}
