import * as v from 'valibot';
import { loadFormRules, useFormRulesOnFirstUse } from '#src/features/onboarding/form-rules.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { QuestionnaireFields, questionnaireInputOf } from '#src/features/onboarding/step-fields.tsx';
import { flattenFieldErrors, topLevelFieldErrors } from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useDraft } from '#src/features/onboarding/drafts.ts';
import { useSession } from '#src/lib/use-session.ts';

/** Step 2: the matchmaking questionnaire (the contract's annex): the qualities sought. */
export function QuestionnairePage() {
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  useFormRulesOnFirstUse(formRef);
  const { update } = useOnboardingUpdate();
  const { user } = useSession();
  // Unsaved answers survive a reload (kept on this device for this member), removed once saved.
  const discardDraft = useDraft(formRef, user?.id, 'questionnaire-profil');

  const onSubmit = handleSubmit(async (data) => {
    const input = questionnaireInputOf(data);
    const { questionnaireSchema } = await loadFormRules();
    const parsed = v.safeParse(questionnaireSchema, input);
    if (!parsed.success) {
      return {
        fieldErrors: flattenFieldErrors(v.flatten(parsed.issues)),
        formError: 'Certaines réponses sont à compléter.',
      };
    }
    const saved = await update({ context: 'questionnaire', ...input }, { navigate: false });
    if (!saved.ok)
      return {
        fieldErrors: topLevelFieldErrors(saved.error.fieldErrors),
        formError: saved.error.message,
      };
    const completed = await update({
      context: 'form_per_inf',
      completed: true,
    });
    if (!completed.ok) return { formError: completed.error.message };
    discardDraft();
    return undefined;
  });

  return (
    <StepPage step="questionnaire-profil" {...STEP_FRAMES['questionnaire-profil']}>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        <QuestionnaireFields errors={fieldErrors} />
        <div className={styles.actions}>
          <Button type="submit" loading={submitting} loadingText="Enregistrement…">
            Enregistrer et continuer
          </Button>
        </div>
      </form>
    </StepPage>
  );
}
