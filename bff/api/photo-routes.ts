import { type Context, Hono } from 'hono';
import { declaredBodyLimit } from '#bff/http/body-limit.ts';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { type Caller, requireMember, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { validationError } from '#bff/http/errors.ts';
import type { Limit } from '#bff/http/rate-limit.ts';
import { log } from '#bff/logger.ts';
import {
  addPhoto,
  deleteOwnPhoto,
  listOwnPhotos,
  MAX_PHOTO_BYTES,
  MAX_PHOTOS_PER_MEMBER,
  ownPhotoBytes,
  type PhotoBytes,
  type PhotoVariant,
  photoLimitReached,
  photoNotFound,
  photoTooLarge,
  processPhoto,
  sniffFormat,
  releasedPhotoBytes,
  staffPhotoBytes,
} from '#bff/photos/member-photos.ts';

/**
 * Members' photos over HTTP (issue 22, decision 116). The member's own: upload (the raw file as
 * the body, whatever its declared type: the bytes are checked), list, read, delete. Another
 * member's: only through one introduction of theirs, once both accepted, else 404 alike for a
 * photo that does not exist, is not the other side's, or is not released. Staff at aal2 read one,
 * recorded in the access log. Every photo answer is `private, no-store`.
 */

/** The upload path, for the API's body-size guard (8 MB here, 256 kB everywhere else). */
export const PHOTO_UPLOAD_PATH = '/api/v1/user/photos';

/** The body limit of the upload: the photo's 8 MB, refused early from `Content-Length` when it says so. */
export const limitPhotoBody = declaredBodyLimit({
  maxSize: MAX_PHOTO_BYTES,
  onError: () => {
    throw photoTooLarge();
  },
});

/**
 * Decoding a photo costs up to a second or two of CPU (50 megapixels at most): 30 uploads that look
 * like images per member and hour, far above what choosing three photos takes.
 */
const PHOTO_UPLOADS_PER_HOUR: Limit = { name: 'photo-upload', points: 30, durationSeconds: 60 * 60 };

const uuid = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));
const VariantQuery = v.object({ taille: v.optional(v.picklist(['vignette'], 'Taille inconnue : « vignette » ou rien.')) });

function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw validationError(result.issues, 'Paramètres invalides');
  return result.output;
}

function variantOf(c: Context): PhotoVariant {
  return parse(VariantQuery, c.req.query()).taille === 'vignette' ? 'thumbnail' : 'full';
}

function photoResponse(c: Context, photo: PhotoBytes) {
  c.header('Content-Type', photo.mime);
  c.header('Content-Disposition', 'inline');
  c.header('Cache-Control', 'private, no-store');
  c.header('X-Content-Type-Options', 'nosniff');
  return c.body(photo.bytes as Uint8Array<ArrayBuffer>, 200);
}

export function photoRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);

  /** A signed-in member (staff have no photos: they read members' from the dashboard route). */
  const memberCaller = (c: Context): Promise<Caller> => requireMember(c, deps);

  return (
    new Hono()
      .get('/user/photos', async (c) => {
        const caller = await memberCaller(c);
        const photos = await listOwnPhotos(db, caller.id);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ photos, max: MAX_PHOTOS_PER_MEMBER }, 200);
      })
      .post('/user/photos', async (c) => {
        const caller = await memberCaller(c);
        const body = new Uint8Array(await c.req.arrayBuffer());
        if (body.length > MAX_PHOTO_BYTES) throw photoTooLarge();
        // Cheap refusals first: already full (no decoding for nothing), then the rate of decodings.
        if ((await listOwnPhotos(db, caller.id)).length >= MAX_PHOTOS_PER_MEMBER) throw photoLimitReached();
        if (sniffFormat(body)) await deps.rateLimit(PHOTO_UPLOADS_PER_HOUR, caller.id);
        const processed = await processPhoto(body);
        const photo = await addPhoto(db, caller.id, processed, deps.clock.now());
        log.info('photo ajoutée', { reqId: c.get('requestId'), memberId: caller.id, photoId: photo.id, bytes: photo.sizeBytes });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ photo, photos: await listOwnPhotos(db, caller.id) }, 201);
      })
      .get('/user/photos/:id', async (c) => {
        const caller = await memberCaller(c);
        const id = parse(uuid, c.req.param('id'));
        const photo = await ownPhotoBytes(db, caller.id, id, variantOf(c));
        if (!photo) throw photoNotFound();
        return photoResponse(c, photo);
      })
      .delete('/user/photos/:id', async (c) => {
        const caller = await memberCaller(c);
        const id = parse(uuid, c.req.param('id'));
        await deleteOwnPhoto(db, caller.id, id);
        log.info('photo supprimée', { reqId: c.get('requestId'), memberId: caller.id, photoId: id });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ photos: await listOwnPhotos(db, caller.id) }, 200);
      })
      .get('/user/introductions/:introId/photos/:photoId', async (c) => {
        const caller = await memberCaller(c);
        const introductionId = parse(uuid, c.req.param('introId'));
        const photoId = parse(uuid, c.req.param('photoId'));
        const photo = await releasedPhotoBytes(db, {
          callerId: caller.id,
          introductionId,
          photoId,
          variant: variantOf(c),
          now: deps.clock.now(),
        });
        // Not a side, not released, not the other side's, or no such photo: the same 404.
        if (!photo) throw photoNotFound();
        return photoResponse(c, photo);
      })
      // Staff: which photos a member has (no bytes; each read of one is logged below).
      .get('/dashboard/members/:id/photos', staffOnly, async (c) => {
        const memberId = parse(uuid, c.req.param('id'));
        const photos = (await listOwnPhotos(db, memberId)).map(({ url: _url, thumbnailUrl: _thumb, ...photo }) => ({
          ...photo,
          url: `/api/v1/dashboard/members/${memberId}/photos/${photo.id}`,
        }));
        c.header('Cache-Control', 'private, no-store');
        return c.json({ photos }, 200);
      })
      .get('/dashboard/members/:id/photos/:photoId', staffOnly, async (c) => {
        const memberId = parse(uuid, c.req.param('id'));
        const photoId = parse(uuid, c.req.param('photoId'));
        const photo = await staffPhotoBytes(db, memberId, photoId, variantOf(c));
        if (!photo) throw photoNotFound();
        return photoResponse(c, photo);
      })
  );
}
