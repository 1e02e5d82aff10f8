import { useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import type { MemberIntroduction } from '#src/features/introductions/introductions-api.ts';
import * as styles from '#src/features/introductions/introductions.css.ts';
import { deadlineText, formatLongDateTime, proposalStage, summaryTitle } from '#src/features/introductions/introductions-view.ts';
import { setContactChoice } from '#src/features/introductions/introductions-api.ts';
import { notify } from '#src/lib/notifications.ts';
import { Contact, DeclineDialog, EndedNote, FeedbackForm, type Send } from '#src/features/introductions/proposal-parts.tsx';

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
