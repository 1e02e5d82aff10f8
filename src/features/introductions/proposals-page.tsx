import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { type FormEvent, useId, useState } from 'react';
import { COMMENT_MAX_LENGTH } from '#machines/introductions/events.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import * as accountStyles from '#src/features/account/account.css.ts';
import * as photoStyles from '#src/features/account/photos.css.ts';
import {
  listMyIntroductions,
  type MemberEventBody,
  type MemberIntroduction,
  sendMemberEvent,
} from '#src/features/introductions/introductions-api.ts';
import * as styles from '#src/features/introductions/introductions.css.ts';
import {
  deadlineText,
  declineReasonOptions,
  formatLongDateTime,
  ofName,
  proposalStage,
  sortProposals,
  summaryTitle,
} from '#src/features/introductions/introductions-view.ts';
import { setContactChoice } from '#src/features/introductions/introductions-api.ts';
import { feedbackStep, guardianLines } from '#src/features/introductions/progress-view.ts';
import { notify } from '#src/lib/notifications.ts';
import { useLoaded } from '#src/lib/use-loaded.ts';
import { useSession } from '#src/lib/use-session.ts';
import { isContractEndState } from '#machines/onboarding/steps.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';

type Send = (id: string, body: MemberEventBody, success: string) => Promise<string | null>;

/**
 * `/mon-compte/propositions` ("Mes propositions", issue 22): each proposal of the agency as a card
 * — an anonymised summary, why it fits the member's criteria one by one, the deadline, accept or
 * decline (with a reason); once both accepted, the contact details and the first meeting; after
 * the meeting, the member's feedback.
 */
/**
 * Whether the member's contract has ended (renounced, withdrawn, terminated, at its term): the agency
 * then makes no proposal and plans no meeting, and the page says so instead of promising one.
 */
export const accompanimentEnded = isContractEndState;

/** The page's opening words: what the agency does for the member now. */
export function proposalsIntro(ended: boolean, count: number): string[] {
  if (!ended) return [];
  return [
    count === 0
      ? 'Votre accompagnement a pris fin\u00a0: l’agence ne vous fait plus de proposition et aucune rencontre ne sera organisée. Aucune proposition ne vous a été faite pendant ce contrat.'
      : 'Votre accompagnement a pris fin\u00a0: l’agence ne vous fait plus de proposition et aucune rencontre ne sera organisée. Les propositions ci-dessous restent pour mémoire.',
  ];
}

export function ProposalsPage() {
  const { data, error: failed, reload: load } = useLoaded(listMyIntroductions, []);
  const { user } = useSession();
  const ended = accompanimentEnded(user?.state);
  const items = data?.introductions ?? null;

  const send: Send = async (id, body, success) => {
    const result = await sendMemberEvent(id, body);
    if (!result.ok) {
      await load();
      return result.error.message;
    }
    notify({ title: success, variant: 'success' });
    await load();
    return null;
  };

  const now = Date.now();
  return (
    <>
      <h1 className={accountStyles.title}>Mes propositions</h1>
      <p className={accountStyles.text}>
        Les personnes que l’agence vous présente, choisies d’après vos critères. Rien de vous n’est montré à l’autre personne au-delà d’un
        résumé anonyme ; vos coordonnées ne sont transmises que si vous acceptez tous les deux.
      </p>
      <div aria-live="polite" aria-busy={items === null && failed === null}>
        {failed && items === null ? (
          <p className={accountStyles.text}>Vos propositions n’ont pas pu être chargées. Réessayez dans un instant.</p>
        ) : null}
        {items
          ? proposalsIntro(ended, items.length).map((line) => (
              <p key={line} className={accountStyles.text} data-testid="accompaniment-ended">
                {line}
              </p>
            ))
          : null}
        {items?.length === 0 && !ended ? (
          <p className={accountStyles.text}>
            Vous n’avez pas encore de proposition. Votre conseillère vous écrira dès qu’une personne correspondant à vos critères aura été
            trouvée.
          </p>
        ) : null}
        {items && items.length > 0 ? (
          <ol className={styles.list}>
            {sortProposals(items, now).map((item) => (
              <li key={item.id}>
                <ProposalCard proposal={item} now={now} send={send} onChanged={load} ended={ended} />
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </>
  );
}

const stageBadges = {
  answer: { text: 'Réponse attendue', tone: 'warning' },
  waiting: { text: 'Vous avez accepté', tone: 'neutral' },
  declined: { text: 'Sans suite', tone: 'neutral' },
  expired: { text: 'Délai passé', tone: 'neutral' },
  accepted: { text: 'Acceptée des deux côtés', tone: 'success' },
  meeting: { text: 'Rencontre planifiée', tone: 'success' },
  feedback: { text: 'Après la rencontre', tone: 'success' },
  ended: { text: 'Terminée', tone: 'neutral' },
} as const;

/** One proposal. Exported for the component test (rendered without a server). */
export function ProposalCard({
  proposal,
  now,
  send,
  onChanged,
  ended = false,
}: {
  proposal: MemberIntroduction;
  now: number;
  send: Send;
  onChanged?: () => Promise<void> | void;
  /** The member's contract has ended: nothing more is done on any proposal (the server refuses it too). */
  ended?: boolean;
}) {
  const titleId = useId();
  const stage = ended && proposal.state.split('.')[0] !== 'fiancailles' ? 'ended' : proposalStage(proposal, now);
  // Once the member has answered (or it has moved on), what happens next comes first; the reasons fold away.
  const decided = stage !== 'answer';
  const badge = stageBadges[stage];
  const other = proposal.other;
  const [error, setError] = useState<string | null>(null);
  const [accepting, setAccepting] = useState(false);

  async function accept() {
    setAccepting(true);
    setError(null);
    setError(await send(proposal.id, { type: 'ACCEPT' }, 'Vous avez accepté la proposition.'));
    setAccepting(false);
  }

  return (
    <article className={styles.card} aria-labelledby={titleId} data-testid="proposal">
      <div className={styles.cardHeader}>
        <h2 id={titleId} className={styles.cardTitle}>
          {summaryTitle(other ?? (proposal.otherFirstName ? { firstName: proposal.otherFirstName, age: null } : null))}
        </h2>
        <span className={styles.badge[badge.tone]}>{badge.text}</span>
      </div>
      <p className={styles.muted}>Proposée le {formatLongDateTime(proposal.proposedAt)}</p>
      {decided ? <StageBody proposal={proposal} stage={stage} now={now} /> : null}

      {other ? (
        <dl className={styles.summaryFacts} aria-label="Résumé anonymisé">
          <dt className={styles.factLabel}>Âge</dt>
          <dd className={styles.summaryValue}>{other.age === null ? '—' : `${other.age} ans`}</dd>
          <dt className={styles.factLabel}>Région</dt>
          <dd className={styles.summaryValue}>{other.region}</dd>
          <dt className={styles.factLabel}>Pratique religieuse</dt>
          <dd className={styles.summaryValue}>{other.practice}</dd>
          <dt className={styles.factLabel}>Profession</dt>
          <dd className={styles.summaryValue}>{other.profession}</dd>
          <dt className={styles.factLabel}>Situation familiale</dt>
          <dd className={styles.summaryValue}>{other.familySituation}</dd>
        </dl>
      ) : (
        <p className={styles.muted}>Le résumé de ce profil n’est plus disponible.</p>
      )}

      {proposal.reasons.length > 0 || proposal.outsideCriteria ? (
        decided ? (
          <details className={styles.details}>
            <summary className={styles.sectionTitle}>Pourquoi cette proposition</summary>
            <Reasons proposal={proposal} />
          </details>
        ) : (
          <div className={styles.details}>
            <h3 className={styles.sectionTitle}>Pourquoi cette proposition</h3>
            <Reasons proposal={proposal} />
          </div>
        )
      ) : null}

      {proposal.note && !proposal.outsideCriteria ? (
        <div>
          <h3 className={styles.sectionTitle}>Le mot de votre conseillère</h3>
          <p className={styles.note}>{proposal.note}</p>
        </div>
      ) : null}

      {stage === 'answer' ? (
        <div className={styles.answerBar} data-testid="answer-bar">
          <StageBody proposal={proposal} stage={stage} now={now} />
          {proposal.contactAlsoToGuardian ? (
            <p className={styles.muted}>
              Cette personne a associé un proche ({proposal.contactAlsoToGuardian.toLowerCase()}) : si vous acceptez tous les deux, vos
              coordonnées lui seront aussi transmises.
            </p>
          ) : null}
          <FormAlert tone="error">{error}</FormAlert>
          <div className={styles.actions}>
            <Button onClick={accept} loading={accepting} loadingText="Envoi…">
              Accepter la proposition
            </Button>
            <DeclineDialog proposal={proposal} send={send} />
          </div>
        </div>
      ) : (
        <FormAlert tone="error">{error}</FormAlert>
      )}
      {other?.presentation ? (
        <div>
          <h3 className={styles.sectionTitle}>{other.firstName ? `${other.firstName} se présente` : 'Sa présentation'}</h3>
          <p className={styles.note} data-testid="other-presentation">
            {other.presentation}
          </p>
        </div>
      ) : null}

      {stage === 'feedback' ? <FeedbackForm proposal={proposal} send={send} /> : null}
      {stage !== 'declined' && stage !== 'expired' && stage !== 'ended' ? (
        <ContactChoice proposal={proposal} onChanged={onChanged} />
      ) : null}
    </article>
  );
}

/**
 * Why it fits (decision 193): what matches the member's own criteria, in a sentence or two, never a
 * cross about the person; when staff proposed outside an indispensable criterion, which one and
 * their written reason.
 */
function Reasons({ proposal }: { proposal: MemberIntroduction }) {
  return (
    <>
      {proposal.reasons.length > 0 ? (
        <ul className={styles.reasons} data-testid="proposal-reasons">
          {proposal.reasons.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      {proposal.outsideCriteria ? (
        <div className={styles.details} data-testid="proposal-exception">
          <p className={styles.paragraph}>{proposal.outsideCriteria}</p>
          <h4 className={styles.sectionTitle}>Pourquoi votre conseillère vous la propose malgré tout</h4>
          <p className={styles.note}>{proposal.note ?? 'Votre conseillère vous l’expliquera.'}</p>
        </div>
      ) : null}
    </>
  );
}

/** The introduction chart's own end states (the rest are under way). */
function proposalStateEnded(state: string): boolean {
  return ['declinee', 'expiree', 'close'].includes(state.split('.')[0] ?? '');
}

function StageBody({ proposal, stage, now }: { proposal: MemberIntroduction; stage: ReturnType<typeof proposalStage>; now: number }) {
  const answeredAt = proposal.myAnswer.at ? formatLongDateTime(proposal.myAnswer.at) : null;
  switch (stage) {
    case 'answer':
      return <p className={styles.paragraph}>{deadlineText(proposal.deadlineAt, now)}</p>;
    case 'waiting':
      return (
        <p className={styles.paragraph}>
          Vous avez accepté{answeredAt ? ` le ${answeredAt}` : ''}. Les coordonnées ne sont échangées que si l’autre personne accepte
          aussi ; vous serez prévenu(e) par e-mail. {deadlineText(proposal.deadlineAt, now)}.
        </p>
      );
    case 'declined':
      return proposal.myAnswer.status === 'declined' ? (
        <p className={styles.paragraph}>
          Vous avez décliné cette proposition{answeredAt ? ` le ${answeredAt}` : ''}
          {proposal.myAnswer.reason ? ` (motif : ${proposal.myAnswer.reason.toLowerCase()})` : ''}.
        </p>
      ) : (
        <p className={styles.paragraph}>Cette proposition n’a pas abouti. Votre conseillère continue de chercher pour vous.</p>
      );
    case 'expired':
      return <p className={styles.paragraph}>Le délai de réponse de 7 jours est passé : cette proposition est close.</p>;
    case 'accepted':
    case 'meeting':
    case 'feedback':
      return <Contact proposal={proposal} />;
    default:
      return (
        <>
          {proposal.state === 'fiancailles' ? (
            <div className={styles.highlight}>
              <p className={styles.paragraph}>
                <strong>Félicitations !</strong> Toute l’équipe se réjouit pour vous. Vos recherches sont mises en pause.
              </p>
            </div>
          ) : null}
          {proposal.ended ? (
            <EndedNote ended={proposal.ended} />
          ) : proposal.state === 'fiancailles' ? null : stage === 'ended' && !proposalStateEnded(proposal.state) ? (
            <p className={styles.paragraph} data-testid="proposal-ended">
              Cette mise en relation a pris fin avec votre contrat.
            </p>
          ) : (
            <p className={styles.paragraph}>{proposal.stateLabel}.</p>
          )}
        </>
      );
  }
}

const contactChoices = {
  reglages: 'Comme dans mon profil',
  moi: 'Mes propres coordonnées',
  wali: 'Uniquement par mon walī (son nom et son téléphone)',
} as const;

/**
 * Decision 196: how the other member will reach me in this introduction, overriding my profile's
 * choice. The server decides what is released; this only records the choice.
 */
function ContactChoice({ proposal, onChanged }: { proposal: MemberIntroduction; onChanged?: (() => Promise<void> | void) | undefined }) {
  const id = useId();
  const mine = proposal.myContactVia;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = mine.fromSettings ? 'reglages' : mine.via;

  async function choose(via: keyof typeof contactChoices) {
    setBusy(true);
    setError(null);
    const result = await setContactChoice(proposal.id, via);
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    notify({ title: 'Votre choix est enregistré.', variant: 'success' });
    await onChanged?.();
  }

  return (
    <div className={styles.details} data-testid="contact-choice">
      <label className={styles.sectionTitle} htmlFor={id}>
        Comment cette personne vous contacte
      </label>
      <p className={styles.muted}>
        Aujourd’hui : {mine.label.toLowerCase()}
        {mine.fromSettings ? ' (réglage de votre profil)' : ''}.
        {mine.via === 'wali' ? ' Seuls le nom et le téléphone de votre walī sont transmis, jamais vos propres coordonnées.' : ''}
      </p>
      <select
        id={id}
        className={styles.select}
        value={current}
        disabled={busy}
        onChange={(e) => void choose(e.currentTarget.value as keyof typeof contactChoices)}
      >
        {Object.entries(contactChoices).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <FormAlert tone="error">{error}</FormAlert>
    </div>
  );
}

/** An introduction that ended (decision 194): when, why when it is the member's own cause, and that nothing is shared any more. */
function EndedNote({ ended }: { ended: NonNullable<MemberIntroduction['ended']> }) {
  const note = (
    <p className={styles.paragraph} data-testid="proposal-ended">
      Cette mise en relation a pris fin{ended.at ? ` le ${formatLongDateTime(ended.at)}` : ''}
      {ended.why ? ` : ${ended.why}` : ''}.{ended.wasShared ? ' Ses coordonnées et ses photos ne vous sont plus accessibles.' : ''}
    </p>
  );
  // Decision 205: staff's message when they closed it, to the member who did not ask for it.
  if (!ended.message) return note;
  return (
    <>
      {note}
      <h3 className={styles.sectionTitle}>Le mot de votre conseillère</h3>
      <p className={styles.note} data-testid="proposal-end-message">
        {ended.message}
      </p>
    </>
  );
}

/** After mutual acceptance: the other's contact details and the first meeting. */
function Contact({ proposal }: { proposal: MemberIntroduction }) {
  return (
    <div className={styles.highlight}>
      <h3 className={styles.sectionTitle}>Vous avez accepté tous les deux</h3>
      {proposal.contact?.via === 'wali' ? (
        <div className={styles.details} data-testid="contact-through-wali">
          <p className={styles.paragraph}>
            Le contact avec {proposal.other?.firstName ?? proposal.otherFirstName ?? 'cette personne'} passe uniquement par son walī.
          </p>
          {proposal.contact.guardian ? (
            <dl className={styles.facts} aria-label="Coordonnées du walī">
              <dt className={styles.factLabel}>Walī</dt>
              <dd className={styles.factValue}>
                {proposal.contact.guardian.name} ({proposal.contact.guardian.relation.toLowerCase()})
              </dd>
              <dt className={styles.factLabel}>Téléphone</dt>
              <dd className={styles.factValue}>
                {proposal.contact.guardian.phone ? (
                  <a href={`tel:${proposal.contact.guardian.phone}`}>{formatPhone(proposal.contact.guardian.phone)}</a>
                ) : (
                  'non communiqué'
                )}
              </dd>
            </dl>
          ) : (
            <p className={styles.paragraph}>Votre conseillère vous transmettra les coordonnées de son walī.</p>
          )}
        </div>
      ) : proposal.contact ? (
        <dl className={styles.facts} aria-label="Coordonnées">
          <dt className={styles.factLabel}>E-mail</dt>
          <dd className={styles.factValue}>
            <a href={`mailto:${proposal.contact.email}`}>{proposal.contact.email}</a>
          </dd>
          <dt className={styles.factLabel}>Téléphone</dt>
          <dd className={styles.factValue}>
            {proposal.contact.phone ? (
              <a href={`tel:${proposal.contact.phone}`}>{formatPhone(proposal.contact.phone)}</a>
            ) : (
              'non communiqué'
            )}
          </dd>
        </dl>
      ) : (
        <p className={styles.paragraph}>Les coordonnées vous seront transmises par votre conseillère.</p>
      )}
      {proposal.contact?.via === 'moi' && proposal.contact.guardian ? (
        <div>
          <h3 className={styles.sectionTitle}>Son proche associé</h3>
          <p className={styles.paragraph}>
            {guardianLines(proposal.contact.guardian).map((line, i) => (
              <span key={line}>
                {i > 0 ? <br /> : null}
                {line}
              </span>
            ))}
          </p>
        </div>
      ) : null}
      <ReleasedPhotos proposal={proposal} />
      {proposal.meeting ? (
        <p className={styles.paragraph}>
          <strong>Première rencontre :</strong> le {formatLongDateTime(proposal.meeting.at)}, {proposal.meeting.place}. Elle est organisée
          et accompagnée par l’agence.
        </p>
      ) : (
        <p className={styles.paragraph}>
          Votre conseillère vous proposera bientôt une date pour une première rencontre, organisée et accompagnée par l’agence.
        </p>
      )}
    </div>
  );
}

/** The other's photos, released at mutual acceptance for this proposal only (decision 116). */
export function ReleasedPhotos({ proposal }: { proposal: MemberIntroduction }) {
  const photos = proposal.photos ?? [];
  if (photos.length === 0) return null;
  const name = proposal.other?.firstName ?? null;
  return (
    <div>
      <h3 className={styles.sectionTitle}>{name ? `Les photos ${ofName(name)}` : 'Ses photos'}</h3>
      <p className={styles.muted}>Partagées avec vous seul(e), pour cette proposition uniquement. Merci de ne pas les diffuser.</p>
      <ul className={photoStyles.grid} aria-label={name ? `Photos ${ofName(name)}` : 'Photos de la personne proposée'}>
        {photos.map((photo, index) => (
          <li key={photo.id} className={photoStyles.item}>
            <img
              className={photoStyles.image}
              src={photo.url}
              alt={`Portrait ${index + 1} sur ${photos.length} ${name ? ofName(name) : 'de la personne proposée'}`}
              loading="lazy"
              decoding="async"
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Decline, in a dialog: a reason from the short list and an optional comment. */
function DeclineDialog({ proposal, send }: { proposal: MemberIntroduction; send: Send }) {
  const commentId = useId();

  async function submit(data: FormData): Promise<string | null> {
    const reason = String(data.get('reason') ?? '');
    const comment = String(data.get('comment') ?? '').trim();
    if (!reason) return 'Veuillez choisir un motif dans la liste.';
    return send(proposal.id, { type: 'DECLINE', reason, ...(comment ? { comment } : {}) }, 'Vous avez décliné la proposition.');
  }

  return (
    <ActionDialog
      trigger={<Button variant="secondary">Décliner…</Button>}
      title="Décliner la proposition"
      description="Votre motif aide votre conseillère à mieux choisir ; l’autre personne n’en est pas informée."
      submitLabel="Confirmer le refus"
      busyLabel="Envoi…"
      onSubmit={submit}
    >
      <RadioGroup name="reason" legend="Motif" options={declineReasonOptions} required />
      <label className={styles.control} htmlFor={commentId}>
        Commentaire (facultatif)
        <textarea id={commentId} name="comment" className={styles.textarea} maxLength={COMMENT_MAX_LENGTH} />
      </label>
    </ActionDialog>
  );
}

/** After the first meeting: continue, stop (with a reason), or "we are engaged". */
function FeedbackForm({ proposal, send }: { proposal: MemberIntroduction; send: Send }) {
  const reasonId = useId();
  const [outcome, setOutcome] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const chosen = String(data.get('outcome') ?? '');
    const reason = String(data.get('reason') ?? '');
    if (!chosen) {
      setError('Veuillez choisir une suite.');
      return;
    }
    if (chosen === 'arreter' && !reason) {
      setError('Veuillez choisir un motif dans la liste.');
      return;
    }
    setSending(true);
    setError(null);
    const failure = await send(
      proposal.id,
      { type: 'FEEDBACK', outcome: chosen, ...(chosen === 'arreter' ? { reason } : {}) },
      chosen === 'fiances' ? 'Félicitations ! Votre retour est enregistré.' : 'Merci, votre retour est enregistré.',
    );
    setSending(false);
    if (failure) setError(failure);
    else setSent(true);
  }

  if (sent) return <p className={styles.paragraph}>Merci, votre retour est enregistré. Votre conseillère reviendra vers vous.</p>;
  // Feedback already given (decision 117): the form is not offered again where the chart would refuse it.
  const step = feedbackStep(proposal);
  if (!step.form) return step.given ? <p className={styles.paragraph}>{step.given}</p> : null;
  // Decision 205: the deadline said above the form; once passed, the counsellor records it by phone.
  const deadline = proposal.feedbackDeadline ?? null;
  if (deadline?.passed) {
    return (
      <p className={styles.paragraph} data-testid="feedback-deadline">
        {deadline.text}
      </p>
    );
  }
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Votre retour après la rencontre">
      <h3 className={styles.sectionTitle}>Votre retour après la rencontre</h3>
      {deadline ? (
        <p className={styles.paragraph} data-testid="feedback-deadline">
          {deadline.text}
        </p>
      ) : null}
      {step.given ? <p className={styles.paragraph}>{step.given}</p> : null}
      <div
        className={styles.plainFieldset}
        onChange={(e) => {
          const target = e.target as HTMLInputElement;
          if (target.name === 'outcome') setOutcome(target.value);
        }}
      >
        <RadioGroup name="outcome" legend="Comment souhaitez-vous continuer ?" options={step.options} required />
      </div>
      {outcome === 'arreter' ? (
        <label className={styles.control} htmlFor={reasonId}>
          Motif
          <select id={reasonId} name="reason" className={styles.select} defaultValue="">
            <option value="" disabled>
              Choisir un motif…
            </option>
            {declineReasonOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <FormAlert tone="error">{error}</FormAlert>
      <div className={styles.actions}>
        <Button type="submit" loading={sending} loadingText="Envoi…">
          Envoyer mon retour
        </Button>
      </div>
    </form>
  );
}
