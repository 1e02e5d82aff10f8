import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import * as photoStyles from '#src/features/account/photos.css.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { api, send } from '#src/lib/api-client.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';

/** `GET /api/v1/dashboard/members/:id/photos`: the member's photos (metadata and the staff URL of each; no bytes). */
function getMemberPhotos(memberId: string) {
  return send(api.dashboard.members[':id'].photos.$get({ param: { id: memberId } }));
}

type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
export type StaffPhoto = Ok<Awaited<ReturnType<typeof getMemberPhotos>>>['photos'][number];

/** The photos, once staff asked to see them: each a thumbnail linking to the full photo (both read through the staff URL, logged). */
export function StaffPhotoList({ photos, memberName }: { photos: StaffPhoto[]; memberName: string }) {
  return (
    <ul className={photoStyles.grid} aria-label={`Photos de ${memberName}`}>
      {photos.map((photo, i) => (
        <li key={photo.id} className={photoStyles.item}>
          <a href={photo.url} target="_blank" rel="noopener noreferrer">
            <img
              className={photoStyles.image}
              src={`${photo.url}?taille=vignette`}
              alt={`${memberName}, ${i + 1} sur ${photos.length} (ouvrir en grand)`}
              width={photo.width}
              height={photo.height}
              loading="lazy"
            />
          </a>
          <span className={styles.muted}>Ajoutée le {formatDateTime(photo.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The member's photos on their staff page (decision 116, 122). Photos may reveal religious practice
 * (GDPR art. 9): the page lists how many there are and shows them only when a staff member asks,
 * each read going through `GET /dashboard/members/:id/photos/:photoId` (aal2, recorded in the
 * access log, `private, no-store`).
 */
export function MemberPhotosSection({ memberId, memberName }: { memberId: string; memberName: string }) {
  const titleId = useId();
  // The list only (how many, their dates): each image is read when staff ask to see them.
  const query = useQuery({
    queryKey: memberFileKeys.photos(memberId),
    queryFn: async () => (await unwrap(getMemberPhotos(memberId))).photos,
  });
  const photos: StaffPhoto[] | null = query.data ?? null;
  const error = photos ? null : errorMessage(query.error);
  // Shown for this member only: another member's file starts hidden again.
  const [shownFor, setShownFor] = useState<string | null>(null);
  const shown = shownFor === memberId;
  const setShown = (next: boolean) => setShownFor(next ? memberId : null);

  const count = photos?.length ?? 0;
  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.cardTitle}>
        Photos
      </h2>
      {error ? (
        <p className={styles.muted}>{error}</p>
      ) : photos === null ? (
        <p className={styles.muted}>Chargement…</p>
      ) : count === 0 ? (
        <p className={styles.muted}>Aucune photo ajoutée par le membre.</p>
      ) : (
        <>
          <p className={styles.muted}>
            {count === 1 ? '1 photo ajoutée' : `${count} photos ajoutées`} par le membre. Chaque affichage est enregistré dans les
            consultations du dossier.
          </p>
          {shown ? (
            <StaffPhotoList photos={photos} memberName={memberName} />
          ) : (
            <div>
              <Button type="button" variant="secondary" onClick={() => setShown(true)}>
                Afficher les photos
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
