import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { type FormEvent, useId, useState } from 'react';
import { COMMENT_MAX_LENGTH } from '#machines/introductions/events.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import * as photoStyles from '#src/features/account/photos.css.ts';
import type { MemberEventBody, MemberIntroduction } from '#src/features/introductions/introductions-api.ts';
import * as styles from '#src/features/introductions/introductions.css.ts';
import { declineReasonOptions, formatLongDateTime, ofName } from '#src/features/introductions/introductions-view.ts';
import { feedbackStep, guardianLines } from '#src/features/introductions/progress-view.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';

/** What a card calls to send the member's answer: the French error, or null once done. */
export type Send = (id: string, body: MemberEventBody, success: string) => Promise<string | null>;

export function EndedNote({ ended }: { ended: NonNullable<MemberIntroduction['ended']> }) {
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
export function Contact({ proposal }: { proposal: MemberIntroduction }) {
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
export function DeclineDialog({ proposal, send }: { proposal: MemberIntroduction; send: Send }) {
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
export function FeedbackForm({ proposal, send }: { proposal: MemberIntroduction; send: Send }) {
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
