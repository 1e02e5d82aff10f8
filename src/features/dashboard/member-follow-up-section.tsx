import { type FormEvent, lazy, Suspense, useEffect, useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import * as chips from '#src/features/dashboard/follow-up.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { SelectField, staffOptions } from '#src/features/dashboard/select-field.tsx';
import { api, send } from '#src/lib/api-client.ts';
import { notify } from '#src/lib/notifications.ts';
import { useRequest } from '#src/lib/use-request.ts';
import { NOTE_MAX_LENGTH, TAG_MAX_LENGTH } from '#machines/follow-up/follow-up.ts';
import { useLoaded } from '#src/lib/use-loaded.ts';

/** `GET /api/v1/dashboard/members/:id/follow-up` (decision 124). */
function getFollowUp(memberId: string) {
  return send(api.dashboard.members[':id']['follow-up'].$get({ param: { id: memberId } }));
}
type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
type FollowUpResult = Awaited<ReturnType<typeof getFollowUp>>;
type FollowUp = Ok<FollowUpResult>;
type Note = FollowUp['notes'][number];

/**
 * The dialog that deletes one's own note, and the dialog library under it: loaded once such a note
 * shows, so that the card (the file's top) is drawn without them.
 */
const DeleteNoteDialog = lazy(() =>
  import('#src/features/dashboard/delete-note-dialog.tsx').then((m) => ({ default: m.DeleteNoteDialog })),
);

/**
 * Staff's follow-up of a member (decision 124), on the member page: the counsellor in charge, tags
 * and internal notes (newest first; one's own notes can be edited or deleted). Staff-only data:
 * the member never sees it, except in the export of their data.
 */
export function MemberFollowUpSection({
  memberId,
  initial,
  onChanged,
}: {
  memberId: string;
  /** The first answer, when the page fetched it beside the member's file (the card then shows complete at once). */
  initial?: FollowUpResult;
  onChanged?: () => Promise<void> | void;
}) {
  const given = initial !== undefined;
  const { data, error, reload: load } = useLoaded(() => getFollowUp(memberId), [memberId], { enabled: !given, initial });

  return (
    <section className={styles.card} aria-labelledby="follow-up-title">
      <h2 id="follow-up-title" className={styles.cardTitle}>
        Suivi interne
      </h2>
      <p className={styles.muted}>
        Réservé à l’équipe : le membre ne voit ni les notes ni les étiquettes (elles figurent dans l’export de ses données).
      </p>
      <FormAlert tone="error">{error}</FormAlert>
      {data === null ? (
        error ? null : (
          <p className={styles.muted}>Chargement…</p>
        )
      ) : (
        <>
          <CounsellorForm
            memberId={memberId}
            data={data}
            onSaved={async () => {
              await load();
              await onChanged?.();
            }}
          />
          <Tags memberId={memberId} tags={data.tags} onChanged={load} />
          <Notes memberId={memberId} notes={data.notes} onChanged={load} />
        </>
      )}
    </section>
  );
}

function CounsellorForm({ memberId, data, onSaved }: { memberId: string; data: FollowUp; onSaved: () => Promise<void> }) {
  const id = useId();
  const [choice, setChoice] = useState(data.counsellor?.id ?? '');
  const { busy: saving, error, run } = useRequest();
  useEffect(() => setChoice(data.counsellor?.id ?? ''), [data.counsellor?.id]);

  async function save(event: FormEvent) {
    event.preventDefault();
    await run(
      () =>
        send(
          api.dashboard.members[':id'].counsellor.$put({ param: { id: memberId }, json: { counsellorId: choice === '' ? null : choice } }),
        ),
      async (saved) => {
        notify({
          title: saved.counsellor ? `Suivi confié à ${saved.counsellor.name}.` : 'Plus de conseiller attitré.',
          description: 'Le changement figure dans l’historique du membre.',
          variant: 'success',
        });
        await onSaved();
      },
    );
  }

  return (
    <form className={styles.filters} onSubmit={save} aria-label="Conseiller du suivi">
      <SelectField
        id={id}
        label="Conseiller ou conseillère du suivi"
        value={choice}
        onChange={setChoice}
        options={[{ value: '', label: 'Personne' }, ...staffOptions(data.staff)]}
      />
      <Button
        type="submit"
        variant="secondary"
        loading={saving}
        loadingText="Enregistrement…"
        disabled={choice === (data.counsellor?.id ?? '')}
      >
        Enregistrer le conseiller
      </Button>
      {data.counsellor ? (
        <p className={styles.muted}>
          En charge : {data.counsellor.name}, depuis le {formatDateTime(data.counsellor.since)}.
        </p>
      ) : null}
      <FormAlert tone="error">{error}</FormAlert>
    </form>
  );
}

function Tags({ memberId, tags, onChanged }: { memberId: string; tags: string[]; onChanged: () => Promise<void> }) {
  const id = useId();
  const [tag, setTag] = useState('');
  const { busy, error, setError, run } = useRequest();

  async function add(event: FormEvent) {
    event.preventDefault();
    await run(
      () => send(api.dashboard.members[':id'].tags.$post({ param: { id: memberId }, json: { tag } })),
      async () => {
        setTag('');
        await onChanged();
      },
    );
  }

  async function remove(value: string) {
    setError(null);
    const result = await send(api.dashboard.members[':id'].tags[':tag'].$delete({ param: { id: memberId, tag: value } }));
    if (!result.ok) setError(result.error.message);
    await onChanged();
  }

  return (
    <div className={styles.part}>
      <h3 className={styles.partTitle}>Étiquettes</h3>
      {tags.length === 0 ? (
        <p className={styles.muted}>Aucune étiquette.</p>
      ) : (
        <ul className={chips.tagList} aria-label="Étiquettes du membre">
          {tags.map((t) => (
            <li key={t} className={chips.tag}>
              <span>{t}</span>
              <button type="button" className={chips.tagRemove} aria-label={`Retirer l’étiquette « ${t} »`} onClick={() => remove(t)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className={styles.filters} onSubmit={add}>
        <label className={styles.control} htmlFor={id}>
          Nouvelle étiquette
          <input id={id} className={styles.input} value={tag} maxLength={TAG_MAX_LENGTH} onChange={(e) => setTag(e.target.value)} />
        </label>
        <Button type="submit" variant="secondary" loading={busy} loadingText="Ajout…" disabled={tag.trim() === ''}>
          Ajouter l’étiquette
        </Button>
      </form>
      <FormAlert tone="error">{error}</FormAlert>
    </div>
  );
}

function Notes({ memberId, notes, onChanged }: { memberId: string; notes: Note[]; onChanged: () => Promise<void> }) {
  const id = useId();
  const [body, setBody] = useState('');
  const { busy, error, run } = useRequest();

  async function add(event: FormEvent) {
    event.preventDefault();
    await run(
      () => send(api.dashboard.members[':id'].notes.$post({ param: { id: memberId }, json: { body } })),
      async () => {
        setBody('');
        await onChanged();
      },
    );
  }

  return (
    <div className={styles.part}>
      <h3 className={styles.partTitle}>Notes internes</h3>
      <form className={styles.form} onSubmit={add}>
        <label className={styles.control} htmlFor={id}>
          Nouvelle note
          <textarea
            id={id}
            className={styles.textarea}
            value={body}
            maxLength={NOTE_MAX_LENGTH}
            onChange={(e) => setBody(e.target.value)}
          />
        </label>
        <div className={styles.actions}>
          <Button type="submit" variant="secondary" loading={busy} loadingText="Ajout…" disabled={body.trim() === ''}>
            Ajouter la note
          </Button>
        </div>
      </form>
      <FormAlert tone="error">{error}</FormAlert>
      {notes.length === 0 ? (
        <p className={styles.muted}>Aucune note.</p>
      ) : (
        <ul className={styles.messages} aria-label="Notes internes, les plus récentes d’abord">
          {notes.map((note) => (
            <NoteItem key={note.id} memberId={memberId} note={note} onChanged={onChanged} />
          ))}
        </ul>
      )}
    </div>
  );
}

function NoteItem({ memberId, note, onChanged }: { memberId: string; note: Note; onChanged: () => Promise<void> }) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(note.body);
  const { busy, error, run } = useRequest();
  const param = { id: memberId, noteId: String(note.id) };

  async function save(event: FormEvent) {
    event.preventDefault();
    await run(
      () => send(api.dashboard.members[':id'].notes[':noteId'].$patch({ param, json: { body: text } })),
      async () => {
        setEditing(false);
        await onChanged();
      },
    );
  }

  return (
    <li className={styles.message}>
      <p className={styles.muted}>
        {note.author}, le {formatDateTime(note.at)}
        {note.editedAt ? ` (modifiée le ${formatDateTime(note.editedAt)})` : ''}
      </p>
      {editing ? (
        <form className={styles.form} onSubmit={save}>
          <label className={styles.control} htmlFor={id}>
            Modifier la note
            <textarea
              id={id}
              className={styles.textarea}
              value={text}
              maxLength={NOTE_MAX_LENGTH}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <div className={styles.actions}>
            <Button type="submit" loading={busy} loadingText="Enregistrement…" disabled={text.trim() === ''}>
              Enregistrer
            </Button>
            <Button type="button" variant="ghost" onClick={() => setEditing(false)}>
              Annuler
            </Button>
          </div>
        </form>
      ) : (
        <p className={styles.pre}>{note.body}</p>
      )}
      <FormAlert tone="error">{error}</FormAlert>
      {note.own && !editing ? (
        <div className={styles.actions}>
          <Button type="button" variant="ghost" onClick={() => setEditing(true)}>
            Modifier
          </Button>
          <Suspense
            fallback={
              <Button variant="dangerOutline" disabled>
                Supprimer
              </Button>
            }
          >
            <DeleteNoteDialog memberId={memberId} note={note} onDone={onChanged} />
          </Suspense>
        </div>
      ) : null}
    </li>
  );
}
