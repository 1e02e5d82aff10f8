import { useQuery } from '@tanstack/react-query';
import { type RefObject, useEffect } from 'react';
import * as v from 'valibot';
import { loadFormRules, useFormRulesOnFirstUse } from '#src/features/onboarding/form-rules.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import { ProfileFields, profileInputOf } from '#src/features/onboarding/step-fields.tsx';
import { flattenFieldErrors, topLevelFieldErrors } from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useDraft } from '#src/features/onboarding/drafts.ts';
import { useSession } from '#src/lib/use-session.ts';
import { prefillQuery } from '#src/features/onboarding/onboarding-queries.ts';
import { currentConsentText } from '#machines/privacy/consent-texts.ts';

const SENSITIVE_DATA_CONSENT = currentConsentText('sensitive_data');
/** A consent is given by a tick each time: never kept in a draft. */
const CONSENT_FIELDS = ['sensitiveDataConsent'];

/**
 * Nothing is asked twice (decision 127): the postcode and city of the pre-registration linked to
 * this account fill the empty fields (a draft or what the member typed is never overwritten).
 */
function usePrefill(formRef: RefObject<HTMLFormElement | null>) {
  const profile = useQuery(prefillQuery).data;
  // Fills the form's empty fields once the answer is here (a DOM write; the read is the query's).
  useEffect(() => {
    const form = formRef.current;
    if (!profile || !form) return;
    for (const [name, value] of Object.entries(profile)) {
      const input = form.elements.namedItem(name);
      if (input instanceof HTMLInputElement && input.value === '') input.value = value;
    }
  }, [formRef, profile]);
}

/** Step 1: personal information, with the explicit consent to the processing of sensitive data. */
export function ProfilPage() {
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  useFormRulesOnFirstUse(formRef);
  const { update } = useOnboardingUpdate();
  const { user } = useSession();
  // Unsaved answers survive a reload (kept on this device for this member), removed once saved.
  const discardDraft = useDraft(formRef, user?.id, 'profil', CONSENT_FIELDS);
  usePrefill(formRef);

  const onSubmit = handleSubmit(async (data) => {
    const input = {
      ...profileInputOf(data),
      sensitiveDataConsent: data.get('sensitiveDataConsent') === 'true',
    };
    const { personalInfoSchema } = await loadFormRules();
    const parsed = v.safeParse(personalInfoSchema(Date.now()), input);
    if (!parsed.success) {
      return {
        fieldErrors: flattenFieldErrors(v.flatten(parsed.issues)),
        formError: 'Certaines informations sont à corriger.',
      };
    }
    // The raw input is sent; the server normalises it with the same schema.
    const result = await update({ context: 'profil', ...input });
    if (!result.ok)
      return {
        fieldErrors: topLevelFieldErrors(result.error.fieldErrors),
        formError: result.error.message,
      };
    discardDraft();
    return undefined;
  });

  return (
    <StepPage step="profil" {...STEP_FRAMES.profil}>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        <ProfileFields errors={fieldErrors} gender={user?.role} />
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
