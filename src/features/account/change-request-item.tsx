import { answerSectionLabels, changeRequestStatusLabels, profileFields, questionnaireFields } from '#machines/onboarding/labels.ts';
import type { ChangeRequest } from '#src/features/account/answers-api.ts';
import { formatDateTime, profileRows, questionnaireRows } from '#src/features/dashboard/member-view.ts';

type Section = 'profil' | 'questionnaire';

/** One stored value in French (the label table, through the dashboard's formatters). */
export function valueText(section: Section, field: string, value: unknown, now: number): string {
  const rows = section === 'profil' ? profileRows({ [field]: value }, now) : questionnaireRows({ [field]: value }, now);
  return rows?.[0]?.value ?? '—';
}
const labelOf = (section: Section, field: string) =>
  (section === 'profil' ? profileFields : questionnaireFields).find((f) => f.key === field)?.label ?? 'Champ';

/** A change request as the member reads it: what, old → new, note, status. */
/** Shared by « Mon profil » and the staff's member page (decision 123). */
export function RequestItem({ request, now }: { request: ChangeRequest; now: number }) {
  return (
    <li data-testid="change-request">
      <p>
        <strong>{answerSectionLabels[request.section]}</strong> — demande du {formatDateTime(request.createdAt)} :{' '}
        <strong>{changeRequestStatusLabels[request.status]}</strong>
      </p>
      <ul>
        {request.changes.map((c) => (
          <li key={c.field}>
            {labelOf(request.section, c.field)} : {valueText(request.section, c.field, c.old, now)} →{' '}
            {valueText(request.section, c.field, c.new, now)}
          </li>
        ))}
      </ul>
      {request.note ? <p>Votre message : {request.note}</p> : null}
      {request.decisionNote ? <p>Réponse de l’équipe : {request.decisionNote}</p> : null}
    </li>
  );
}
