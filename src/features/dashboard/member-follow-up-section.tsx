import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useEffect, useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import * as chips from '#src/features/dashboard/follow-up.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { SelectField, staffOptions } from '#src/features/dashboard/select-field.tsx';
import { api, send } from '#src/lib/api-client.ts';
import { notify } from '#src/lib/notifications.ts';
import { NOTE_MAX_LENGTH, TAG_MAX_LENGTH } from '#machines/follow-up/follow-up.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';

/** `GET /api/v1/dashboard/members/:id/follow-up` (decision 124). */
function getFollowUp(memberId: string) {
  return send(api.dashboard.members[':id']['follow-up'].$get({ param: { id: memberId } }));
}
type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
type FollowUp = Ok<Awaited<ReturnType<typeof getFollowUp>>>;
type Note = FollowUp['notes'][number];

/** The card's query: the counsellor, the tags and the notes. */
export const followUpQuery = (memberId: string) => ({
  queryKey: memberFileKeys.followUp(memberId),
  queryFn: () => unwrap(getFollowUp(memberId)),
});

/**
 * The counsellor and the tags show in the file's header and the history too: a change to them
 * asks again everything of the member's file that is on screen (the card, the header, the file).
 */
const fileChanged = (client: QueryClient, memberId: string) => client.invalidateQueries({ queryKey: memberFileKeys.member(memberId) });

/** Adding a tag; resolves once the file on screen was asked again. */
export function addTagMutation(client: QueryClient, memberId: string) {
  return {
    mutationFn: (tag: string) => unwrap(send(api.dashboard.members[':id'].tags.$post({ param: { id: memberId }, json: { tag } }))),
    onSuccess: () => fileChanged(client, memberId),
  };
}

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
export function MemberFollowUpSection({ memberId }: { memberId: string }) {
  const query = useQuery(followUpQuery(memberId));
  const data = query.data ?? null;
  const error = errorMessage(query.error);
  const client = useQueryClient();
  const load = () => client.invalidateQueries({ queryKey: memberFileKeys.followUp(memberId) });
  const loadFile = () => fileChanged(client, memberId);

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
          <CounsellorForm memberId={memberId} data={data} onSaved={loadFile} />
          <Tags memberId={memberId} tags={data.tags} onChanged={loadFile} />
          <Notes memberId={memberId} notes={data.notes} onChanged={load} />
        </>
      )}
    </section>
  );
}

function CounsellorForm({ memberId, data, onSaved }: { memberId: string; data: FollowUp; onSaved: () => Promise<void> }) {
  const id = useId();
  const [choice, setChoice] = useState(data.counsellor?.id ?? '');
  const saving = useMutation({
    mutationFn: (counsellorId: string | null) =>
      unwrap(send(api.dashboard.members[':id'].counsellor.$put({ param: { id: memberId }, json: { counsellorId } }))),
    onSuccess: async (saved) => {
      notify({
        title: saved.counsellor ? `Suivi confié à ${saved.counsellor.name}.` : 'Plus de conseiller attitré.',
        description: 'Le changement figure dans l’historique du membre.',
        variant: 'success',
      });
      await onSaved();
    },
  });
  const error = errorMessage(saving.error);
  useEffect(() => setChoice(data.counsellor?.id ?? ''), [data.counsellor?.id]);

  function save(event: FormEvent) {
    event.preventDefault();
    saving.mutate(choice === '' ? null : choice);
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
        loading={saving.isPending}
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
  const client = useQueryClient();
  const adding = useMutation({
    ...addTagMutation(client, memberId),
    onSuccess: async () => {
      setTag('');
      await addTagMutation(client, memberId).onSuccess();
    },
  });
  // A failed removal shows its message; the tags are asked again either way.
  const removing = useMutation({
    mutationFn: (value: string) => unwrap(send(api.dashboard.members[':id'].tags[':tag'].$delete({ param: { id: memberId, tag: value } }))),
    onSettled: () => onChanged(),
  });
  const error = errorMessage(adding.error ?? removing.error);
  const busy = adding.isPending;

  function add(event: FormEvent) {
    event.preventDefault();
    removing.reset();
    adding.mutate(tag);
  }

  function remove(value: string) {
    adding.reset();
    removing.mutate(value);
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
  const adding = useMutation({
    mutationFn: (text: string) => unwrap(send(api.dashboard.members[':id'].notes.$post({ param: { id: memberId }, json: { body: text } }))),
    onSuccess: async () => {
      setBody('');
      await onChanged();
    },
  });
  const error = errorMessage(adding.error);
  const busy = adding.isPending;

  function add(event: FormEvent) {
    event.preventDefault();
    adding.mutate(body);
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
  const param = { id: memberId, noteId: String(note.id) };
  const saving = useMutation({
    mutationFn: (body: string) => unwrap(send(api.dashboard.members[':id'].notes[':noteId'].$patch({ param, json: { body } }))),
    onSuccess: async () => {
      setEditing(false);
      await onChanged();
    },
  });
  const error = errorMessage(saving.error);
  const busy = saving.isPending;

  function save(event: FormEvent) {
    event.preventDefault();
    saving.mutate(text);
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
