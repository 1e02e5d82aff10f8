import * as v from 'valibot';
import { questionnaireSchema } from '#machines/onboarding/forms.ts';
import { maritalStatusLabels, professionalSituationLabels, regionLabels, soughtPracticeLabels } from '#machines/onboarding/labels.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { CheckboxGroup, optionsOf, TextAreaField } from '#src/features/onboarding/fields.tsx';
import { flattenFieldErrors, topLevelFieldErrors } from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useDraft } from '#src/features/onboarding/drafts.ts';
import { useSession } from '#src/lib/use-session.ts';
import { textOf } from '#src/lib/form.ts';

function numberOf(data: FormData, name: string): number | undefined {
  const text = textOf(data, name).trim();
  return text === '' ? undefined : Number(text);
}

const YES_NO = [
  { value: 'true', label: 'Oui' },
  { value: 'false', label: 'Non' },
];

/** Step 2: the matchmaking questionnaire (the contract's annex): the qualities sought. */
export function QuestionnairePage() {
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const { update } = useOnboardingUpdate();
  const { user } = useSession();
  // Unsaved answers survive a reload (kept on this device for this member), removed once saved.
  const discardDraft = useDraft(formRef, user?.id, 'questionnaire-profil');

  const onSubmit = handleSubmit(async (data) => {
    const accepts = data.get('acceptsChildren');
    const input = {
      soughtPractice: data.get('soughtPractice') ?? undefined,
      soughtAgeMin: numberOf(data, 'soughtAgeMin'),
      soughtAgeMax: numberOf(data, 'soughtAgeMax'),
      soughtRegions: data.getAll('soughtRegions'),
      soughtFamilySituations: data.getAll('soughtFamilySituations'),
      acceptsChildren: accepts === null ? undefined : accepts === 'true',
      soughtProfessionalSituation: data.get('soughtProfessionalSituation') ?? undefined,
      otherQualities: textOf(data, 'otherQualities'),
    };
    const parsed = v.safeParse(questionnaireSchema, input);
    if (!parsed.success) {
      return { fieldErrors: flattenFieldErrors(v.flatten(parsed.issues)), formError: 'Certaines réponses sont à compléter.' };
    }
    const saved = await update({ context: 'questionnaire', ...input }, { navigate: false });
    if (!saved.ok) return { fieldErrors: topLevelFieldErrors(saved.error.fieldErrors), formError: saved.error.message };
    const completed = await update({ context: 'form_per_inf', completed: true });
    if (!completed.ok) return { formError: completed.error.message };
    discardDraft();
    return undefined;
  });

  return (
    <StepPage
      step="questionnaire-profil"
      title="Questionnaire de rencontre"
      intro="Décrivez la personne que vous souhaitez rencontrer. Ce questionnaire sera annexé à votre contrat."
    >
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        <RadioGroup
          name="soughtPractice"
          legend="Pratique de la prière recherchée"
          options={optionsOf(soughtPracticeLabels)}
          required
          error={fieldErrors.soughtPractice}
        />
        <div className={styles.twoColumns}>
          <TextField
            name="soughtAgeMin"
            type="number"
            min={18}
            max={99}
            inputMode="numeric"
            label="Âge minimum"
            required
            error={fieldErrors.soughtAgeMin}
          />
          <TextField
            name="soughtAgeMax"
            type="number"
            min={18}
            max={99}
            inputMode="numeric"
            label="Âge maximum"
            required
            error={fieldErrors.soughtAgeMax}
          />
        </div>
        <CheckboxGroup
          name="soughtRegions"
          legend="Régions recherchées"
          hint="Une ou plusieurs."
          options={optionsOf(regionLabels)}
          error={fieldErrors.soughtRegions}
        />
        <CheckboxGroup
          name="soughtFamilySituations"
          legend="Situations familiales acceptées"
          hint="Une ou plusieurs."
          options={optionsOf(maritalStatusLabels)}
          error={fieldErrors.soughtFamilySituations}
        />
        <RadioGroup
          name="acceptsChildren"
          legend="Acceptez-vous une personne ayant des enfants ?"
          options={YES_NO}
          required
          error={fieldErrors.acceptsChildren}
        />
        <RadioGroup
          name="soughtProfessionalSituation"
          legend="Situation professionnelle recherchée"
          options={optionsOf(professionalSituationLabels)}
          required
          error={fieldErrors.soughtProfessionalSituation}
        />
        <TextAreaField
          name="otherQualities"
          label="Autres qualités essentielles"
          hint="En quelques phrases : caractère, valeurs, projet de vie…"
          maxLength={1000}
          rows={5}
          required
          error={fieldErrors.otherQualities}
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
