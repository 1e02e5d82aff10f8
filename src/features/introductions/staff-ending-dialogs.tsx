import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CLOSE_MESSAGE_MAX_LENGTH, NOTE_MAX_LENGTH } from '#machines/introductions/events.ts';
import { feedbackOutcomeLabels, type Side } from '#machines/introductions/labels.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { fillTemplate, type MessageTemplate, templatesQuery } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import * as own from '#src/features/introductions/introductions.css.ts';
import { recordPhoneFeedback, type StaffEventBody } from '#src/features/introductions/introductions-api.ts';
import { declineReasonOptions } from '#src/features/introductions/introductions-view.ts';
import { notify } from '#src/lib/notifications.ts';

/**
 * Decision 205, staff's side of the end of an introduction and of the feedback after the meeting:
 * « Clore » asks who asked to stop and a message for the other member (or both), from the back
 * office's templates and editable; « Noter un retour reçu par téléphone » records a member's
 * feedback as heard on the phone.
 */

type Run = (body: StaffEventBody) => Promise<string | null>;
type Names = Record<Side, string>;
type Members = Record<Side, { id: string }>;

const AGENCY = 'agence';

/** A radio of the group `name` was chosen: its value. */
function picked(e: FormEvent<HTMLDivElement>, name: string, set: (value: string) => void) {
  const target = e.target as HTMLInputElement;
  if (target.name === name) set(target.value);
}

export function CloseDialog({ names, members, run }: { names: Names; members: Members; run: Run }) {
  const ids = { note: useId(), message: useId(), template: useId() };
  const [askedBy, setAskedBy] = useState<string>(AGENCY);
  const templates: MessageTemplate[] = (useQuery(templatesQuery).data?.templates ?? []).filter((t) => t.kind === 'membre');
  const [message, setMessage] = useState('');
  const [hint, setHint] = useState<string | null>(null);

  const recipients: Side[] = askedBy === 'a' ? ['b'] : askedBy === 'b' ? ['a'] : ['a', 'b'];

  async function applyTemplate(value: string) {
    setHint(null);
    const id = Number(value);
    if (!Number.isInteger(id) || id <= 0) return;
    const filled = await Promise.all(recipients.map((s) => fillTemplate(id, members[s].id)));
    const bodies = filled.map((r) => (r.ok ? r.data.body : null));
    if (bodies.some((b) => b === null)) {
      setHint('Le modèle n’a pas pu être chargé : écrivez le message vous-même.');
      return;
    }
    // Both receive the same words: a template that names its recipient is not used for two.
    if (new Set(bodies).size > 1) {
      setHint('Ce modèle nomme son destinataire : les deux membres recevant le même message, écrivez-le sans prénom.');
      return;
    }
    setMessage(bodies[0] ?? '');
  }

  async function submit(data: FormData): Promise<string | null> {
    const note = String(data.get('note') ?? '').trim();
    const text = message.trim();
    if (!text) return 'Veuillez écrire le message au membre.';
    if (!note) return 'Une note est demandée.';
    return run({ type: 'CLOSE', note, message: text, ...(askedBy === 'a' || askedBy === 'b' ? { askedBy } : {}) });
  }

  const toWhom = recipients.length === 2 ? `${names.a} et ${names.b}` : names[recipients[0] as Side];
  return (
    <ActionDialog
      trigger={<Button variant="dangerOutline">Clore</Button>}
      title="Clore la mise en relation"
      description="Le message est envoyé par e-mail et affiché dans l’espace du membre ; la note reste pour l’équipe."
      submitLabel="Clore et envoyer le message"
      busyLabel="En cours…"
      tone="danger"
      onSubmit={submit}
    >
      <div className={own.plainFieldset} onChange={(e) => picked(e, 'askedBy', setAskedBy)}>
        <RadioGroup
          name="askedBy"
          legend="Qui a demandé l’arrêt ?"
          options={[
            { value: 'a', label: names.a },
            { value: 'b', label: names.b },
            { value: AGENCY, label: 'L’agence (décision de l’équipe)' },
          ]}
          defaultValue={AGENCY}
        />
      </div>
      <label className={styles.control} htmlFor={ids.template}>
        Modèle de message
        <select id={ids.template} className={styles.input} defaultValue="" onChange={(e) => void applyTemplate(e.currentTarget.value)}>
          <option value="">{templates.length === 0 ? 'Aucun modèle enregistré' : 'Choisir un modèle…'}</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
        </select>
      </label>
      {hint ? <FormAlert tone="info">{hint}</FormAlert> : null}
      <label className={styles.control} htmlFor={ids.message}>
        Message à {toWhom} (obligatoire)
        <textarea
          id={ids.message}
          name="message"
          className={styles.textarea}
          maxLength={CLOSE_MESSAGE_MAX_LENGTH}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          required
        />
      </label>
      <label className={styles.control} htmlFor={ids.note}>
        Note pour l’équipe (obligatoire)
        <textarea id={ids.note} name="note" className={styles.textarea} maxLength={NOTE_MAX_LENGTH} required />
      </label>
    </ActionDialog>
  );
}

/** Staff record what a member said on the phone: whose, which outcome, and the reason for a stop. */
export function PhoneFeedbackDialog({
  introductionId,
  names,
  sides,
  reload,
}: {
  introductionId: string;
  names: Names;
  /** The sides whose feedback may be recorded now. */
  sides: Side[];
  reload: () => Promise<void>;
}) {
  const reasonId = useId();
  const [outcome, setOutcome] = useState('');
  if (sides.length === 0) return null;

  async function submit(data: FormData): Promise<string | null> {
    const side = String(data.get('side') ?? '');
    const chosen = String(data.get('outcome') ?? '');
    const reason = String(data.get('reason') ?? '');
    if (side !== 'a' && side !== 'b') return 'Veuillez choisir le membre.';
    if (!chosen) return 'Veuillez choisir une suite.';
    if (chosen === 'arreter' && !reason) return 'Veuillez choisir un motif dans la liste.';
    const result = await recordPhoneFeedback(introductionId, { side, outcome: chosen, ...(chosen === 'arreter' ? { reason } : {}) });
    await reload();
    if (!result.ok) return result.error.message;
    notify({ title: 'Le retour reçu par téléphone est enregistré.', variant: 'success' });
    return null;
  }

  return (
    <ActionDialog
      trigger={<Button variant="secondary">Noter un retour reçu par téléphone</Button>}
      title="Retour reçu par téléphone"
      description="Le retour est enregistré à votre nom, avec la date ; le membre le voit comme donné dans son espace."
      submitLabel="Enregistrer le retour"
      busyLabel="En cours…"
      onSubmit={submit}
    >
      <RadioGroup
        name="side"
        legend="Membre"
        options={sides.map((s) => ({ value: s, label: names[s] }))}
        {...(sides.length === 1 ? { defaultValue: sides[0] } : {})}
        required
      />
      <div className={own.plainFieldset} onChange={(e) => picked(e, 'outcome', setOutcome)}>
        <RadioGroup
          name="outcome"
          legend="Ce que le membre a dit"
          options={Object.entries(feedbackOutcomeLabels).map(([value, label]) => ({ value, label }))}
          required
        />
      </div>
      {outcome === 'arreter' ? (
        <label className={styles.control} htmlFor={reasonId}>
          Motif
          <select id={reasonId} name="reason" className={styles.input} defaultValue="">
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
    </ActionDialog>
  );
}
