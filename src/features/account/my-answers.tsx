import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { answerSectionLabels } from '#machines/onboarding/labels.ts';
import * as styles from '#src/features/account/account.css.ts';
import { RequestItem } from '#src/features/account/change-request-item.tsx';
import { memberKeys } from '#src/features/account/account-queries.ts';
import { getMyAnswers, postChangeRequest, putMyAnswers } from '#src/features/account/answers-api.ts';
import { ApiError, unwrap } from '#src/lib/query-client.ts';
import { formatDateTime, planName, profileRows, questionnaireRows, type FieldRow } from '#src/features/dashboard/member-view.ts';
import { type Draft, restoreDraft } from '#src/features/onboarding/drafts.ts';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';
import { ProfileFields, profileInputOf, QuestionnaireFields, questionnaireInputOf } from '#src/features/onboarding/step-fields.tsx';
import { topLevelFieldErrors } from '#src/features/onboarding/onboarding-api.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { textOf } from '#src/lib/form.ts';
import { notify } from '#src/lib/notifications.ts';
import { useSession } from '#src/lib/use-session.ts';

type Section = 'profil' | 'questionnaire';

function Facts({ rows }: { rows: FieldRow[] }) {
  return (
    <dl className={styles.facts}>
      {rows.map((row) => (
        <div key={row.label} style={{ display: 'contents' }}>
          <dt className={styles.factLabel}>{row.label}</dt>
          <dd className={styles.factValue}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function inputOf(section: Section, data: FormData): Record<string, unknown> {
  return section === 'profil' ? profileInputOf(data) : questionnaireInputOf(data);
}

/** Stored answers as form values (the same shape as a draft), to fill the form. */
function draftOfAnswers(answers: Record<string, unknown>): Draft {
  const draft: Draft = {};
  for (const [key, value] of Object.entries(answers)) {
    if (Array.isArray(value)) draft[key] = value.map(String);
    else if (value !== null && value !== undefined) draft[key] = [String(value)];
  }
  return draft;
}

/** The section's query: every step's answers and the change requests (decision 123). */
export const myAnswersQuery = { queryKey: memberKeys.answers, queryFn: () => unwrap(getMyAnswers()) };

/**
 * Saving a section: a direct edit before signature, a change request after; the section is asked
 * again once the server took it (decision 214: a write invalidates what it changed).
 */
export function saveAnswersMutation(client: QueryClient, signed: boolean) {
  return {
    mutationFn: (body: Record<string, unknown>) => unwrap<unknown>(signed ? postChangeRequest(body) : putMyAnswers(body)),
    onSuccess: () => client.invalidateQueries({ queryKey: memberKeys.answers }),
  };
}

/** The edit form of one section, filled with the stored answers; a direct edit or, once signed, a request. */
function EditForm({
  section,
  answers,
  signed,
  gender,
  onDone,
}: {
  section: Section;
  answers: Record<string, unknown>;
  signed: boolean;
  gender: string;
  onDone: () => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const client = useQueryClient();
  const saving = useMutation(saveAnswersMutation(client, signed));
  useEffect(() => {
    if (formRef.current) restoreDraft(formRef.current, draftOfAnswers(answers), []);
  }, [answers]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const body = {
      section,
      ...inputOf(section, data),
      ...(signed ? { note: textOf(data, 'note') } : {}),
    };
    setFailure(null);
    try {
      await saving.mutateAsync(body);
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(topLevelFieldErrors(error.failure.fieldErrors));
        setFailure(error.message);
      } else setFailure('Une erreur inattendue est survenue. Veuillez réessayer plus tard.');
      return;
    }
    setErrors({});
    notify({
      title: signed ? 'Votre demande de modification est envoyée à l’équipe.' : 'Vos informations sont enregistrées.',
      variant: 'success',
    });
    onDone();
  }

  return (
    <form ref={formRef} className={styles.form} onSubmit={submit} noValidate aria-label={`Modifier : ${answerSectionLabels[section]}`}>
      <FormAlert tone="error">{failure}</FormAlert>
      {section === 'profil' ? <ProfileFields errors={errors} gender={gender} /> : <QuestionnaireFields errors={errors} />}
      {signed ? (
        <TextAreaField
          name="note"
          label="Message pour l’équipe (facultatif)"
          hint="Expliquez en quelques mots la raison de ce changement."
          maxLength={1000}
          rows={3}
          error={errors.note}
        />
      ) : null}
      <div>
        <Button type="submit" loading={saving.isPending} loadingText="Envoi…">
          {signed ? 'Envoyer la demande' : 'Enregistrer les modifications'}
        </Button>{' '}
        <Button type="button" variant="ghost" onClick={onDone}>
          Annuler
        </Button>
      </div>
    </form>
  );
}

/** « Mes informations » in Mon profil (issue 21, decision 123): every step's data, editable until signature. */
export function MyAnswersSection() {
  const { user } = useSession();
  const answers = useQuery(myAnswersQuery).data;
  const [editing, setEditing] = useState<Section | null>(null);
  const [now] = useState(() => Date.now());
  if (!answers || !user) return null;

  const sub = user.subscription;
  const process: FieldRow[] = [
    {
      label: 'Formule choisie',
      value: user.selectedPlanId ? planName(user.selectedPlanId) : 'Pas encore choisie',
    },
    {
      label: 'Entretien personnalisé',
      value: sub.onboardingMeetingDate ? formatDateTime(sub.onboardingMeetingDate) : 'Pas encore fixé',
    },
    {
      label: 'Contrat signé le',
      value: sub.subscriptionDate ? formatDateTime(sub.subscriptionDate) : 'Pas encore signé',
    },
  ];
  const sections: {
    id: Section;
    rows: FieldRow[] | null;
    data: Record<string, unknown> | null;
  }[] = [
    {
      id: 'profil',
      rows: profileRows(answers.profile, now)?.filter((r) => r.label !== 'Consentement (données sensibles)') ?? null,
      data: answers.profile,
    },
    {
      id: 'questionnaire',
      rows: questionnaireRows(answers.questionnaire, now),
      data: answers.questionnaire,
    },
  ];

  return (
    <section className={styles.panel} aria-labelledby="my-answers" data-testid="my-answers">
      <h2 id="my-answers">Mes informations</h2>
      <p className={styles.text}>
        {answers.signed
          ? 'Votre contrat est signé : pour changer une information, envoyez une demande à l’équipe, qui la vérifie et l’applique.'
          : 'Vous pouvez corriger ces informations jusqu’à la signature de votre contrat.'}
      </p>
      {sections.map((section) => (
        <div key={section.id}>
          <h3>{answerSectionLabels[section.id]}</h3>
          {section.rows && section.data ? (
            editing === section.id ? (
              <EditForm
                section={section.id}
                answers={section.data}
                signed={answers.signed}
                gender={user.role}
                onDone={() => setEditing(null)}
              />
            ) : (
              <>
                <Facts rows={section.rows} />
                <Button type="button" variant="secondary" onClick={() => setEditing(section.id)}>
                  {answers.signed ? 'Demander une modification' : 'Modifier'}
                </Button>
              </>
            )
          ) : (
            <p className={styles.text}>Pas encore rempli : cette étape se complète dans votre inscription.</p>
          )}
        </div>
      ))}
      <h3>Mon parcours</h3>
      <Facts rows={process} />
      {answers.changeRequests.length > 0 ? (
        <>
          <h3>Mes demandes de modification</h3>
          <ul>
            {answers.changeRequests.map((request) => (
              <RequestItem key={request.id} request={request} now={now} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
