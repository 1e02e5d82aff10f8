import { useState } from 'react';
import * as v from 'valibot';
import { EmailSchema } from '#machines/auth/credentials.ts';
import { EmailField } from '#src/components/ui/account-fields.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { resendConfirmation } from '#src/features/auth/api/confirmation.ts';
import * as styles from '#src/features/auth/auth.css.ts';
import { textOf, validate } from '#src/lib/form.ts';

const ResendSchema = v.object({ email: EmailSchema });

/**
 * « Renvoyer le mail de confirmation » (decision 187): a button when the address is known (after
 * registering, after a sign-in refused for an address not confirmed yet), otherwise a small form
 * asking for it. The answer is the same for every address; a rate limit or the day's ceiling is
 * said in French.
 */
export function ResendConfirmation({ email, variant = 'secondary' }: { email?: string | undefined; variant?: 'primary' | 'secondary' }) {
  const [sent, setSent] = useState<string | null>(null);
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const onSubmit = handleSubmit(async (data) => {
    setSent(null);
    const checked = validate(ResendSchema, { email: email ?? textOf(data, 'email') });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await resendConfirmation(checked.output.email);
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    setSent(result.data.message);
    return undefined;
  });

  return (
    <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
      <FormAlert tone="error">{formError}</FormAlert>
      <FormAlert tone="success">{sent}</FormAlert>
      {email ? null : <EmailField error={fieldErrors.email} />}
      <Button type="submit" variant={variant} block loading={submitting} loadingText="Envoi en cours…">
        Renvoyer le mail de confirmation
      </Button>
    </form>
  );
}
