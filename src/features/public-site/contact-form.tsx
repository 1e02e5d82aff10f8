import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { CONTACT_SUBJECTS, MESSAGE_MAX_LENGTH } from 'virtual:public-form-fields';
import { Button } from '#src/components/ui/button.tsx';
import * as fieldStyles from '#src/components/ui/field.css.ts';
import { FieldError, useFieldIds } from '#src/components/ui/field-parts.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { checkContact, sendContactMessage } from '#src/features/public-site/api/public-forms.ts';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { textOf } from '#src/lib/form-data.ts';

/** The contact form: the agency receives the message by e-mail. */
export function ContactForm() {
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const [sent, setSent] = useState(false);
  const subject = useFieldIds({ error: fieldErrors.subject });
  const message = useFieldIds({ hint: true, error: fieldErrors.message });

  const onSubmit = handleSubmit(async (data) => {
    const input = {
      name: textOf(data, 'name'),
      email: textOf(data, 'email'),
      subject: textOf(data, 'subject'),
      message: textOf(data, 'message'),
      consent: data.get('consent') === 'true',
    };
    const checked = await checkContact(input);
    if (!checked.success) return { fieldErrors: checked.fieldErrors, formError: 'Certaines informations sont à corriger.' };
    const result = await sendContactMessage(checked.output);
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    formRef.current?.reset();
    setSent(true);
    return undefined;
  });

  return (
    <div className={styles.formCard}>
      <h2 className={styles.formTitle}>Écrire à l’agence</h2>
      <FormAlert tone="success">
        {sent ? 'Merci, votre message est bien envoyé. Nous vous répondons personnellement, en général sous deux jours ouvrés.' : null}
      </FormAlert>
      <form
        ref={formRef}
        className={styles.form}
        onSubmit={(event) => {
          setSent(false);
          void onSubmit(event);
        }}
        noValidate
        aria-describedby="contact-alert"
      >
        <FormAlert tone="error" id="contact-alert">
          {formError}
        </FormAlert>
        <TextField name="name" type="text" label="Nom ou prénom" autoComplete="name" required error={fieldErrors.name} />
        <TextField
          name="email"
          type="email"
          label="Adresse e-mail"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          required
          error={fieldErrors.email}
        />
        <div className={fieldStyles.field}>
          <label htmlFor={subject.id} className={fieldStyles.label}>
            Objet
          </label>
          <select
            id={subject.id}
            name="subject"
            className={fieldStyles.input}
            defaultValue=""
            aria-required="true"
            aria-invalid={fieldErrors.subject ? true : undefined}
            aria-describedby={subject.describedBy}
          >
            <option value="" disabled>
              Choisissez un objet
            </option>
            {CONTACT_SUBJECTS.map((subject) => (
              <option key={subject} value={subject}>
                {subject}
              </option>
            ))}
          </select>
          <FieldError id={subject.errorId} error={fieldErrors.subject} />
        </div>
        <div className={fieldStyles.field}>
          <label htmlFor={message.id} className={fieldStyles.label}>
            Message
          </label>
          <p id={message.hintId} className={fieldStyles.hint}>
            Inutile d’y détailler votre vie privée ou votre pratique religieuse.
          </p>
          <textarea
            id={message.id}
            name="message"
            className={`${fieldStyles.input} ${styles.textarea}`}
            maxLength={MESSAGE_MAX_LENGTH}
            aria-required="true"
            aria-invalid={fieldErrors.message ? true : undefined}
            aria-describedby={message.describedBy}
          />
          <FieldError id={message.errorId} error={fieldErrors.message} />
        </div>
        <CheckboxField
          name="consent"
          required
          error={fieldErrors.consent}
          label={
            <>
              J’accepte que ces informations servent uniquement à me répondre (voir la{' '}
              <Link to="/politique-de-confidentialite">politique de confidentialité</Link>).
            </>
          }
        />
        <Button type="submit" block loading={submitting} loadingText="Envoi en cours…">
          Envoyer mon message
        </Button>
      </form>
    </div>
  );
}
