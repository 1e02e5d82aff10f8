import { Link, useRouter } from '@tanstack/react-router';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { checkPreSubscription, preSubscribe } from '#src/features/public-site/api/public-forms.ts';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { textOf } from '#src/lib/form-data.ts';

const genderOptions = [
  { value: 'femme', label: 'Je suis une femme' },
  { value: 'homme', label: 'Je suis un homme' },
] as const;

/** The pre-registration form (gender, e-mail, age, postcode, city, consent) → `/pre-inscription/merci`. */
export function PreRegistrationForm({ defaultGender }: { defaultGender?: 'femme' | 'homme' | undefined }) {
  const router = useRouter();
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const onSubmit = handleSubmit(async (data) => {
    const input = {
      gender: textOf(data, 'gender'),
      email: textOf(data, 'email'),
      age: textOf(data, 'age'),
      zip_code: textOf(data, 'zip_code'),
      city: textOf(data, 'city'),
      consent: data.get('consent') === 'true',
    };
    const checked = await checkPreSubscription(input);
    if (!checked.success) return { fieldErrors: checked.fieldErrors, formError: 'Certaines informations sont à corriger.' };
    const result = await preSubscribe(checked.output);
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    await router.navigate({ to: '/pre-inscription/merci' });
    return undefined;
  });

  return (
    <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-describedby="pre-registration-alert">
      <FormAlert tone="error" id="pre-registration-alert">
        {formError}
      </FormAlert>
      <RadioGroup
        name="gender"
        legend="Vous êtes"
        options={genderOptions}
        defaultValue={defaultGender}
        required
        error={fieldErrors.gender}
      />
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
      <div className={styles.twoFields}>
        <TextField
          name="age"
          type="number"
          label="Âge"
          inputMode="numeric"
          min={18}
          max={99}
          hint="Entre 18 et 99 ans"
          required
          error={fieldErrors.age}
        />
        <TextField
          name="zip_code"
          type="text"
          label="Code postal"
          autoComplete="postal-code"
          inputMode="numeric"
          maxLength={5}
          hint="5 chiffres"
          required
          error={fieldErrors.zip_code}
        />
      </div>
      <TextField name="city" type="text" label="Ville" autoComplete="address-level2" required error={fieldErrors.city} />
      <CheckboxField
        name="consent"
        required
        error={fieldErrors.consent}
        label={
          <>
            J’accepte que mes informations soient utilisées par Union Sincère pour me recontacter au sujet de mon inscription, selon la{' '}
            <Link to="/politique-de-confidentialite">politique de confidentialité</Link>.
          </>
        }
      />
      <Button type="submit" block loading={submitting} loadingText="Envoi en cours…">
        Je me pré-inscris
      </Button>
      <p className={styles.formFootnote}>
        Gratuit et sans engagement. Vous pourrez demander la suppression de ces informations à tout moment.
      </p>
    </form>
  );
}
