import { getRouteApi, Link } from '@tanstack/react-router';
import { useId } from 'react';
import { NOTE_MAX_LENGTH, PLACE_MAX_LENGTH } from '#machines/introductions/events.ts';
import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { declineReasonLabel, eventLabel, type Side, stateLabel, timelineSentence } from '#machines/introductions/labels.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import * as own from '#src/features/introductions/introductions.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { type StaffEventBody, type StaffIntroductionDetail, sendStaffEvent } from '#src/features/introductions/introductions-api.ts';
import {
  answerLabel,
  localInputToIso,
  ofName,
  type StaffEventType,
  sideNames,
  staffActionsFor,
} from '#src/features/introductions/introductions-view.ts';
import { CloseDialog, PhoneFeedbackDialog } from '#src/features/introductions/staff-ending-dialogs.tsx';
import { feedbackDeadlineText } from '#machines/introductions/feedback-deadline.ts';
import { notify } from '#src/lib/notifications.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { introductionKeys, staffIntroductionQuery } from '#src/features/introductions/introduction-queries.ts';
import { errorMessage } from '#src/lib/query-client.ts';

const route = getRouteApi('/dashboard/_staff/mises-en-relation/$id');

type Run = (body: StaffEventBody) => Promise<string | null>;

/** `/dashboard/mises-en-relation/{id}`: both sides, their answers, the notes, the log and the staff actions. */
export function IntroductionDetailPage() {
  const { id } = route.useParams();
  const query = useQuery(staffIntroductionQuery(id));
  const data = query.data ?? null;
  const error = errorMessage(query.error);
  const client = useQueryClient();
  // After a staff event or a feedback heard by phone: this file and every list of introductions.
  const load = () => client.invalidateQueries({ queryKey: introductionKeys.staff });
  const answer = data as StaffIntroductionDetail | { introduction: StaffIntroductionDetail } | null;
  const detail = answer !== null && 'introduction' in answer ? answer.introduction : answer;

  const run: Run = async (body) => {
    const result = await sendStaffEvent(id, body);
    await load();
    if (!result.ok) return result.error.message;
    notify({ title: `${eventLabel(body.type)} : c’est fait.`, variant: 'success' });
    return null;
  };

  if (!detail) {
    return (
      <div className={styles.page}>
        <h1 className={styles.title}>Mise en relation</h1>
        <FormAlert tone="error">{error}</FormAlert>
        {error ? null : <p className={styles.muted}>Chargement…</p>}
        <Link to="/dashboard/mises-en-relation">Toutes les mises en relation</Link>
      </div>
    );
  }

  const names = sideNames(detail.members);
  const meeting = detail.context.meeting ?? null;
  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <h1 className={styles.title}>
          {names.a} et {names.b}
        </h1>
        <span className={own.stateBadge}>{detail.stateLabel}</span>
      </div>
      <Link to="/dashboard/mises-en-relation">Toutes les mises en relation</Link>
      <FormAlert tone="error">{error}</FormAlert>

      <div className={styles.grid}>
        {(['a', 'b'] as const).map((side) => (
          <SideCard key={side} detail={detail} side={side} name={names[side]} />
        ))}
      </div>

      <div className={styles.grid}>
        <section className={styles.card} aria-labelledby="follow-title">
          <h2 id="follow-title" className={styles.cardTitle}>
            Suivi
          </h2>
          <dl className={styles.definitions}>
            <dt>Proposée le</dt>
            <dd>{formatDateTime(detail.proposedAt)}</dd>
            <dt>Réponse attendue avant</dt>
            <dd>{detail.state.startsWith('proposee') ? formatDateTime(detail.deadlineAt) : '—'}</dd>
            <dt>Première rencontre</dt>
            <dd>{meeting ? `${formatDateTime(meeting.at)}, ${meeting.place}` : 'non planifiée'}</dd>
            {detail.context.reopenNote ? (
              <>
                <dt>Rouverte parce que</dt>
                <dd className={styles.pre}>{detail.context.reopenNote}</dd>
              </>
            ) : null}
            {detail.context.closeNote ? (
              <>
                <dt>Note de clôture</dt>
                <dd className={styles.pre}>{detail.context.closeNote}</dd>
              </>
            ) : null}
            {detail.context.closeMessage ? (
              <>
                <dt>
                  Message envoyé à{' '}
                  {detail.context.closeMessage.askedBy === null
                    ? `${names.a} et ${names.b}`
                    : names[detail.context.closeMessage.askedBy === 'a' ? 'b' : 'a']}
                </dt>
                <dd className={styles.pre} data-testid="close-message">
                  {detail.context.closeMessage.text}
                </dd>
              </>
            ) : null}
          </dl>
          <StaffActions detail={detail} names={names} meetingAt={meeting?.at ?? null} run={run} reload={load} />
          <EarlierRounds rounds={detail.context.history ?? []} />
        </section>
        <section className={styles.card} aria-labelledby="log-title">
          <h2 id="log-title" className={styles.cardTitle}>
            Historique
          </h2>
          {detail.events.length === 0 ? (
            <p className={styles.muted}>Aucun événement.</p>
          ) : (
            <ol className={styles.timeline} aria-label="Historique de la mise en relation">
              {detail.events.map((e) => (
                <li key={e.version} className={styles.timelineItem}>
                  <time dateTime={e.at}>{formatDateTime(e.at)}</time> — {e.sentence}
                  <br />
                  <span className={styles.muted}>→ {e.toStateLabel}</span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}

function SideCard({ detail, side, name }: { detail: StaffIntroductionDetail; side: Side; name: string }) {
  const answer = detail.context.answers?.[side];
  const feedback = detail.context.feedback?.[side];
  const contact = detail.contact?.[side];
  const recordedBy = detail.feedbackRecordedBy?.[side] ?? null;
  const titleId = `side-${side}`;
  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.cardTitle}>
        {name}
      </h2>
      <Link to="/dashboard/member/$memberId" params={{ memberId: detail.members[side].id }}>
        Fiche {ofName(name)}
      </Link>
      <dl className={styles.definitions}>
        <dt>Réponse</dt>
        <dd>
          {answerLabel(detail.answers[side])}
          {answer?.at ? ` le ${formatDateTime(answer.at)}` : ''}
        </dd>
        {answer?.reason ? (
          <>
            <dt>Motif</dt>
            <dd>{declineReasonLabel(answer.reason)}</dd>
          </>
        ) : null}
        {answer?.comment ? (
          <>
            <dt>Commentaire</dt>
            <dd className={styles.pre}>{answer.comment}</dd>
          </>
        ) : null}
        {feedback ? (
          <>
            <dt>Retour</dt>
            <dd data-testid={`feedback-${side}`}>
              {timelineSentence({ type: 'FEEDBACK', actor: { kind: 'member', side }, side, ...feedback }, { a: name, b: name })}
              {recordedBy ? ` — recueilli par téléphone par ${recordedBy.name} le ${formatDateTime(recordedBy.at)}` : ''}
            </dd>
          </>
        ) : detail.state === 'retours' && detail.context.meetingHeldAt ? (
          <>
            <dt>Retour</dt>
            <dd>Attendu {feedbackDeadlineText(detail.context.meetingHeldAt)}</dd>
          </>
        ) : null}
        <dt>Mot de l’équipe</dt>
        <dd className={styles.pre}>{detail.notes[side] ?? 'Aucun mot'}</dd>
        <dt>Walī</dt>
        <dd>
          {contact?.guardian
            ? `${contact.guardian.name} (${contact.guardian.relation.toLowerCase()})${contact.guardian.phone ? `, ${formatPhone(contact.guardian.phone)}` : ''}${contact.guardian.email ? `, ${contact.guardian.email}` : ', sans adresse e-mail'}`
            : 'Aucun walī indiqué'}
        </dd>
        <dt>Contact transmis</dt>
        <dd data-testid={`contact-via-${side}`}>
          {contact ? `${contact.label}${contact.fromSettings ? ' (réglage du profil)' : ' (choisi pour cette mise en relation)'}` : '—'}
        </dd>
      </dl>
    </section>
  );
}

/** The staff events the chart allows in this state, each in a dialog ("held" only once the meeting has started). */
function StaffActions({
  detail,
  names,
  meetingAt,
  run,
  reload,
}: {
  detail: StaffIntroductionDetail;
  names: Record<Side, string>;
  meetingAt: string | null;
  run: Run;
  reload: () => Promise<void>;
}) {
  const state = detail.state;
  const actions = staffActionsFor(state);
  // Decision 205: whose feedback staff may record as heard by phone (the first one in `retours`, any later one).
  const phoneSides = (['a', 'b'] as const).filter((s) => (state === 'retours' ? !detail.context.feedback?.[s] : state === 'poursuivie'));
  if (actions.length === 0) return <p className={styles.muted}>Aucune action possible dans cet état.</p>;
  const notStarted = meetingAt !== null && Date.parse(meetingAt) > Date.now();
  return (
    <>
      <div className={styles.actions}>
        <PhoneFeedbackDialog introductionId={detail.id} names={names} sides={phoneSides} reload={reload} />
        {actions.map((type) =>
          type === 'RECORD_MEETING_HELD' && notStarted ? null : type === 'CLOSE' ? (
            <CloseDialog key={type} names={names} members={detail.members} run={run} />
          ) : (
            <StaffEventDialog key={type} type={type} moving={type === 'PLAN_MEETING' && meetingAt !== null} run={run} />
          ),
        )}
      </div>
      {actions.includes('RECORD_MEETING_HELD') && notStarted && meetingAt ? (
        <p className={styles.muted}>La rencontre pourra être notée comme faite à partir du {formatDateTime(meetingAt)}.</p>
      ) : null}
    </>
  );
}

const movingText = {
  button: 'Déplacer la rencontre',
  description:
    'La nouvelle date, le lieu et l’accompagnement sont envoyés par e-mail aux deux membres (et à leur walī quand ils l’ont choisi).',
};

const actionTexts: Record<StaffEventType, { button: string; description: string }> = {
  PLAN_MEETING: {
    button: 'Planifier la rencontre',
    description:
      'La date, le lieu et l’accompagnement sont envoyés par e-mail aux deux membres (et à leur walī quand ils l’ont choisi), avec un rappel la veille.',
  },
  CANCEL_MEETING: {
    button: 'Annuler la rencontre',
    description:
      'Les deux membres (et leur walī quand ils l’ont choisi) sont prévenus par e-mail ; le rappel de la veille n’est pas envoyé.',
  },
  RECORD_MEETING_HELD: {
    button: 'La rencontre a eu lieu',
    description: 'Les deux membres pourront alors donner leur retour. Confirmez-vous ?',
  },
  CLOSE: { button: 'Clore', description: 'La mise en relation est close ; la note reste sur cette page, pour l’équipe.' },
  REOPEN: { button: 'Rouvrir', description: 'Une nouvelle proposition est faite aux deux membres, avec un nouveau délai de 7 jours.' },
};

function StaffEventDialog({ type, moving = false, run }: { type: StaffEventType; moving?: boolean; run: Run }) {
  const ids = { when: useId(), place: useId(), note: useId(), with: useId() };
  const text = moving ? movingText : actionTexts[type];

  async function submit(data: FormData): Promise<string | null> {
    if (type === 'PLAN_MEETING') {
      const meetingAt = localInputToIso(String(data.get('meetingAt') ?? ''));
      const place = String(data.get('place') ?? '').trim();
      const accompaniedBy = String(data.get('accompaniedBy') ?? '').trim();
      if (!meetingAt || !place) return 'Veuillez indiquer la date, l’heure et le lieu de la rencontre.';
      return run({ type, meetingAt, place, ...(accompaniedBy ? { accompaniedBy } : {}) });
    }
    if (type === 'CLOSE' || type === 'REOPEN') {
      const note = String(data.get('note') ?? '').trim();
      if (!note) return 'Une note est demandée.';
      return run({ type, note });
    }
    return run({ type });
  }

  return (
    <ActionDialog
      trigger={<Button variant={type === 'CLOSE' || type === 'CANCEL_MEETING' ? 'dangerOutline' : 'primary'}>{text.button}</Button>}
      title={moving ? 'Déplacer la première rencontre' : eventLabel(type)}
      description={text.description}
      submitLabel={type === 'RECORD_MEETING_HELD' ? 'Confirmer' : text.button}
      busyLabel="En cours…"
      tone={type === 'CLOSE' ? 'danger' : 'normal'}
      onSubmit={submit}
    >
      {type === 'PLAN_MEETING' ? (
        <>
          <label className={styles.control} htmlFor={ids.when}>
            Date et heure
            <input id={ids.when} name="meetingAt" type="datetime-local" className={styles.input} required />
          </label>
          <label className={styles.control} htmlFor={ids.place}>
            Lieu
            <input id={ids.place} name="place" className={styles.input} maxLength={PLACE_MAX_LENGTH} required />
          </label>
          <label className={styles.control} htmlFor={ids.with}>
            Accompagnée par
            <input
              id={ids.with}
              name="accompaniedBy"
              className={styles.input}
              maxLength={PLACE_MAX_LENGTH}
              placeholder="Votre conseillère"
            />
          </label>
        </>
      ) : null}
      {type === 'CLOSE' || type === 'REOPEN' ? (
        <label className={styles.control} htmlFor={ids.note}>
          Note (obligatoire)
          <textarea id={ids.note} name="note" className={styles.textarea} maxLength={NOTE_MAX_LENGTH} required />
        </label>
      ) : null}
    </ActionDialog>
  );
}

/** The pair's earlier proposals, before a re-opening: when, how each ended, and the team's notes. */
function EarlierRounds({ rounds }: { rounds: StaffIntroductionDetail['context']['history'] }) {
  if (rounds.length === 0) return null;
  return (
    <>
      <h3 className={styles.cardTitle}>Propositions précédentes</h3>
      <ol className={styles.timeline} aria-label="Propositions précédentes">
        {rounds.map((round) => (
          <li key={round.proposedAt} className={styles.timelineItem}>
            Proposée le <time dateTime={round.proposedAt}>{formatDateTime(round.proposedAt)}</time> — {stateLabel(round.endedIn)}
            {round.reopenNote ? <span className={styles.pre}>{`\nRouverte parce que : ${round.reopenNote}`}</span> : null}
            {round.closeNote ? <span className={styles.pre}>{`\nNote de clôture : ${round.closeNote}`}</span> : null}
          </li>
        ))}
      </ol>
    </>
  );
}
