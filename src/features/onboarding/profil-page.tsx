import { type RefObject, useEffect } from 'react';
import * as v from 'valibot';
import { personalInfoSchema } from '#machines/onboarding/forms.ts';
import { maritalStatusLabels, prayerPracticeLabels } from '#machines/onboarding/labels.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import { optionsOf, TextAreaField } from '#src/features/onboarding/fields.tsx';
import { flattenFieldErrors, topLevelFieldErrors } from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useDraft } from '#src/features/onboarding/drafts.ts';
import { useSession } from '#src/lib/use-session.ts';
import { textOf } from '#src/lib/form.ts';
import { api, send } from '#src/lib/api-client.ts';
import { currentConsentText } from '#machines/privacy/consent-texts.ts';

const SENSITIVE_DATA_CONSENT = currentConsentText('sensitive_data');
/** A consent is given by a tick each time: never kept in a draft. */
const CONSENT_FIELDS = ['sensitiveDataConsent'];

function numberOf(data: FormData, name: string): number | undefined {
  const text = textOf(data, name).trim();
  return text === '' ? undefined : Number(text);
}

/**
 * Nothing is asked twice (decision 127): the postcode and city of the pre-registration linked to
 * this account fill the empty fields (a draft or what the member typed is never overwritten).
 */
function usePrefill(formRef: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    let live = true;
    void send(api.user.prefill.$get()).then((result) => {
      const form = formRef.current;
      if (!live || !result.ok || !result.data.profile || !form) return;
      for (const [name, value] of Object.entries(result.data.profile)) {
        const input = form.elements.namedItem(name);
        if (input instanceof HTMLInputElement && input.value === '') input.value = value;
      }
    });
    return () => {
      live = false;
    };
  }, [formRef]);
}

/** Step 1: personal information, with the explicit consent to the processing of sensitive data. */
export function ProfilPage() {
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const { update } = useOnboardingUpdate();
  const { user } = useSession();
  // Unsaved answers survive a reload (kept on this device for this member), removed once saved.
  const discardDraft = useDraft(formRef, user?.id, 'profil', CONSENT_FIELDS);
  usePrefill(formRef);

  const onSubmit = handleSubmit(async (data) => {
    const input = {
      firstName: textOf(data, 'firstName'),
      lastName: textOf(data, 'lastName'),
      birthDate: textOf(data, 'birthDate'),
      phone: textOf(data, 'phone'),
      postcode: textOf(data, 'postcode'),
      city: textOf(data, 'city'),
      maritalStatus: data.get('maritalStatus') ?? undefined,
      childrenCount: numberOf(data, 'childrenCount'),
      profession: textOf(data, 'profession'),
      prayerPractice: data.get('prayerPractice') ?? undefined,
      practiceDetails: textOf(data, 'practiceDetails'),
      sensitiveDataConsent: data.get('sensitiveDataConsent') === 'true',
    };
    const parsed = v.safeParse(personalInfoSchema(Date.now()), input);
    if (!parsed.success) {
      return { fieldErrors: flattenFieldErrors(v.flatten(parsed.issues)), formError: 'Certaines informations sont à corriger.' };
    }
    // The raw input is sent; the server normalises it with the same schema.
    const result = await update({ context: 'profil', ...input });
    if (!result.ok) return { fieldErrors: topLevelFieldErrors(result.error.fieldErrors), formError: result.error.message };
    discardDraft();
    return undefined;
  });

  return (
    <StepPage
      step="profil"
      title="Vos informations personnelles"
      intro="Ces informations nous permettent d’étudier votre dossier et de vous présenter des profils compatibles. Tous les champs sont obligatoires, sauf mention contraire."
    >
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        <div className={styles.twoColumns}>
          <TextField name="firstName" label="Prénom" autoComplete="given-name" required error={fieldErrors.firstName} />
          <TextField name="lastName" label="Nom" autoComplete="family-name" required error={fieldErrors.lastName} />
        </div>
        <TextField
          name="birthDate"
          type="date"
          label="Date de naissance"
          autoComplete="bday"
          required
          error={fieldErrors.birthDate}
          hint="Vous devez être majeur(e)."
        />
        <TextField
          name="phone"
          type="tel"
          label="Téléphone"
          autoComplete="tel"
          inputMode="tel"
          required
          error={fieldErrors.phone}
          hint="Par exemple 06 12 34 56 78."
        />
        <div className={styles.twoColumns}>
          <TextField
            name="postcode"
            label="Code postal"
            autoComplete="postal-code"
            inputMode="numeric"
            required
            error={fieldErrors.postcode}
          />
          <TextField name="city" label="Ville" autoComplete="address-level2" required error={fieldErrors.city} />
        </div>
        <RadioGroup
          name="maritalStatus"
          legend="Situation familiale"
          options={optionsOf(maritalStatusLabels)}
          required
          error={fieldErrors.maritalStatus}
        />
        <TextField
          name="childrenCount"
          type="number"
          min={0}
          max={20}
          label="Nombre d’enfants"
          inputMode="numeric"
          defaultValue="0"
          required
          error={fieldErrors.childrenCount}
        />
        <TextField name="profession" label="Profession" autoComplete="organization-title" required error={fieldErrors.profession} />
        <RadioGroup
          name="prayerPractice"
          legend="Votre pratique de la prière"
          options={optionsOf(prayerPracticeLabels)}
          required
          error={fieldErrors.prayerPractice}
        />
        <TextAreaField
          name="practiceDetails"
          label="Précisions sur votre pratique (facultatif)"
          maxLength={1000}
          rows={4}
          error={fieldErrors.practiceDetails}
        />
        <CheckboxField
          name="sensitiveDataConsent"
          required
          error={fieldErrors.sensitiveDataConsent}
          // The exact text whose hash is stored with the consent (machines/privacy/consent-texts.ts).
          description={<p>{SENSITIVE_DATA_CONSENT.description}</p>}
          label={SENSITIVE_DATA_CONSENT.label}
        />
        <div className={styles.actions}>
          <Button type="submit" loading={submitting} loadingText="Enregistrement…">
            Enregistrer et continuer
          </Button>
        </div>
      </form>
    </StepPage>
  );
}
