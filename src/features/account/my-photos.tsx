import type { OwnPhoto } from '#bff/api-type.ts';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as photoStyles from '#src/features/account/photos.css.ts';
import * as styles from '#src/features/privacy/privacy.css.ts';
import { type ApiResult, send } from '#src/lib/api-result.ts';
import { notify } from '#src/lib/notifications.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { memberKeys } from '#src/features/account/account-queries.ts';
import { unwrap } from '#src/lib/query-client.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { count } from '#machines/french/plural.ts';

/** One of the member's own photos, as `GET /api/v1/user/photos` lists it (decision 116). */
export type { OwnPhoto } from '#bff/api-type.ts';

/** What the file input accepts; the server checks the bytes again, whatever the name or type. */
export const ACCEPTED_PHOTO_TYPES = 'image/jpeg,image/png,image/webp';
const MAX_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX = 3;

type PhotosAnswer = { photos: OwnPhoto[]; max?: number };

const fetchMyPhotos = () =>
  send(fetch('/api/v1/user/photos', { credentials: 'same-origin', headers: { accept: 'application/json' } })) as Promise<
    ApiResult<PhotosAnswer>
  >;

/** The file itself as the body: no form encoding, the server reads and checks the bytes. */
const uploadPhoto = (file: Blob) =>
  send(
    fetch('/api/v1/user/photos', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': file.type || 'application/octet-stream' },
      body: file,
    }),
  ) as Promise<ApiResult<PhotosAnswer & { photo: OwnPhoto }>>;

const deletePhoto = (id: string) =>
  send(
    fetch(`/api/v1/user/photos/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    }),
  ) as Promise<ApiResult<PhotosAnswer>>;

/** A French message for a file refused before sending, or null. */
export function localPhotoProblem(file: { size: number; type: string }): string | null {
  if (file.size > MAX_BYTES) return 'La photo dépasse 8 Mo. Choisissez une photo plus légère (JPEG, PNG ou WebP).';
  if (file.type && !ACCEPTED_PHOTO_TYPES.split(',').includes(file.type)) return 'Formats acceptés : JPEG, PNG ou WebP.';
  return null;
}

/**
 * « Mes photos » for a loaded list: why they are private, the photos with their delete buttons,
 * and the file input while there is room. Exported for the component test.
 */
export function PhotoSection({
  photos,
  max = DEFAULT_MAX,
  onUpload,
  onDelete,
}: {
  photos: OwnPhoto[];
  max?: number;
  onUpload: (file: File) => Promise<string | null>;
  onDelete: (photo: OwnPhoto) => Promise<string | null>;
}) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const full = photos.length >= max;

  async function chosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (!file) return;
    const problem = localPhotoProblem(file);
    setError(problem);
    if (!problem) {
      setSending(true);
      setError(await onUpload(file));
      setSending(false);
    }
    if (input.current) input.current.value = '';
  }

  return (
    <section className={styles.section} aria-labelledby="my-photos" data-testid="my-photos">
      <h2 id="my-photos" className={styles.heading}>
        Mes photos
      </h2>
      <p className={styles.text}>
        Vos photos sont facultatives et ne sont jamais montrées par défaut : ni en ligne, ni aux personnes qui vous sont proposées. Une
        personne ne les voit que lorsque vous avez accepté tous les deux une même proposition, et seulement pour celle-ci. L’équipe de
        l’agence peut les consulter pour préparer vos propositions ; chaque consultation est enregistrée.
      </p>
      <p className={styles.status}>
        {photos.length === 0 ? 'Aucune photo pour le moment.' : `${count(photos.length, 'photo', 'photos')} sur ${max} au plus.`}
      </p>
      {photos.length > 0 ? (
        <ul className={photoStyles.grid} aria-label="Vos photos">
          {photos.map((photo, index) => (
            <li key={photo.id} className={photoStyles.item}>
              <img
                className={photoStyles.image}
                src={photo.thumbnailUrl}
                alt={`Votre portrait n° ${index + 1}`}
                width={Math.min(photo.width, 320)}
                height={Math.round((Math.min(photo.width, 320) * photo.height) / photo.width)}
                loading="lazy"
                decoding="async"
              />
              <DeletePhotoDialog photo={photo} label={`photo n° ${index + 1}`} onDelete={onDelete} />
            </li>
          ))}
        </ul>
      ) : null}
      <FormAlert tone="error">{error}</FormAlert>
      {full ? (
        <p className={styles.status}>Vous avez atteint le maximum de {max} photos. Supprimez-en une pour en ajouter une autre.</p>
      ) : (
        <div className={photoStyles.upload}>
          <input
            ref={input}
            id={inputId}
            className={photoStyles.fileInput}
            type="file"
            name="photo"
            accept={ACCEPTED_PHOTO_TYPES}
            aria-describedby={hintId}
            disabled={sending}
            aria-busy={sending || undefined}
            onChange={chosen}
          />
          <label className={`${buttonClass.secondary} ${photoStyles.uploadLabel}`} htmlFor={inputId}>
            {sending ? 'Envoi de la photo…' : 'Ajouter une photo'}
          </label>
          <p id={hintId} className={photoStyles.hint}>
            JPEG, PNG ou WebP, 8 Mo au plus. Elle est redimensionnée et ses informations cachées (lieu, appareil, date) sont retirées.
          </p>
        </div>
      )}
    </section>
  );
}

function DeletePhotoDialog({
  photo,
  label,
  onDelete,
}: {
  photo: OwnPhoto;
  label: string;
  onDelete: (photo: OwnPhoto) => Promise<string | null>;
}) {
  return (
    <ActionDialog
      trigger={
        <Button variant="secondary" aria-label={`Supprimer la ${label}`}>
          Supprimer
        </Button>
      }
      title="Supprimer cette photo ?"
      description="Elle est effacée tout de suite et ne sera plus montrée à personne, y compris dans les propositions déjà acceptées."
      submitLabel="Supprimer la photo"
      busyLabel="Suppression…"
      tone="danger"
      focusCancel
      onSubmit={() => onDelete(photo)}
    />
  );
}

/** « Mes photos » on « Mon profil »: loads the member's photos, uploads and deletes them. */
export function MyPhotos() {
  // A failed load shows nothing: the section stays hidden.
  const { data: state } = useQuery({ queryKey: memberKeys.photos, queryFn: () => unwrap(fetchMyPhotos()) });
  const client = useQueryClient();
  // A write answers with the member's photos: the cache takes them as they are.
  const setPhotos = (photos: NonNullable<typeof state>['photos']) =>
    client.setQueryData(memberKeys.photos, (previous: typeof state) => (previous ? { ...previous, photos } : previous));
  const load = () => client.invalidateQueries({ queryKey: memberKeys.photos });
  if (!state) return null;
  return (
    <PhotoSection
      photos={state.photos}
      max={state.max ?? DEFAULT_MAX}
      onUpload={async (file) => {
        const result = await uploadPhoto(file);
        if (!result.ok) return result.error.message;
        setPhotos(result.data.photos);
        notify({ title: 'Photo ajoutée.', variant: 'success' });
        return null;
      }}
      onDelete={async (photo) => {
        const result = await deletePhoto(photo.id);
        if (!result.ok) {
          await load();
          return result.error.message;
        }
        setPhotos(result.data.photos);
        notify({ title: 'Photo supprimée.', variant: 'success' });
        return null;
      }}
    />
  );
}
