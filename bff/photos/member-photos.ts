import { randomUUID } from 'node:crypto';
import type Sharp from 'sharp';
import type { Db } from '#bff/db/database.ts';
import type { MemberPhotoRow } from '#bff/db/photos-schema.ts';
import { ApiError } from '#bff/http/errors.ts';
import { standingPair, standingsOf } from '#bff/members/standing.ts';
import { introductionForPhotos } from '#bff/photos/store/introductions.ts';
import {
  deletePhotoOf,
  insertPhoto,
  lockMemberForPhotos,
  photoBytesOf,
  photoIdsInOrder,
  photoMetadataOf,
  takenPhotoPositions,
} from '#bff/photos/store/member-photos.ts';
import type { IntroductionContext } from '#machines/introductions/context.ts';
import type { Side } from '#machines/introductions/labels.ts';
import { sharingOf } from '#machines/introductions/sharing.ts';

/**
 * Members' optional photos (issue 22, decision 116). A member uploads up to three; the server
 * checks the bytes (JPEG, PNG or WebP by their signature and by decoding them, never by the file's
 * name or declared type), turns them upright, scales them to at most 1200 px on the long side and
 * re-encodes them as WebP without any metadata (EXIF, GPS, XMP, ICC: sharp keeps none unless
 * asked). Nobody sees them by default: the other member of one introduction gets them only once
 * both accepted (the chart's consent and disclosure times), through a URL of that introduction
 * that answers nobody else; anything else is 404, so nobody learns that a photo exists.
 */

/**
 * At most three photos: enough for a first impression before a chaperoned meeting, and as little
 * as possible of a kind of data that can reveal religious practice (GDPR art. 9) — each photo
 * kept is one more to protect, and the agency's promise is "aucun profil n'est visible en ligne".
 */
export const MAX_PHOTOS_PER_MEMBER = 3;

/** 8 MB: a full-resolution phone photo (JPEG 3–6 MB, PNG larger) goes through without the member resizing it first. */
export const MAX_PHOTO_BYTES = 8 * 1024 * 1024;

/** The long side of a stored photo: sharp enough on a large screen, far below a print. */
const MAX_PHOTO_SIDE = 1200;

/** The long side of the member's own thumbnails. */
const THUMBNAIL_SIDE = 320;

/** A decompression bomb (a small file of huge dimensions) is refused before it is decoded: 50 megapixels. */
const MAX_INPUT_PIXELS = 50_000_000;

const PHOTO_MIME = 'image/webp' as const;

export type PhotoVariant = 'full' | 'thumbnail';

let sharpLoading: Promise<typeof Sharp> | undefined;
/** sharp (native, ≈ 50–100 ms to import) is loaded at the first photo, not at start (decision 080). */
export function loadSharp(): Promise<typeof Sharp> {
  sharpLoading ??= import('sharp').then((module) => module.default);
  return sharpLoading;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const photoNotFound = () => new ApiError(404, 'PHOTO_NOT_FOUND', 'Photo introuvable.');
const unreadable = () =>
  new ApiError(400, 'PHOTO_UNREADABLE', 'Ce fichier n’est pas une photo lisible. Formats acceptés : JPEG, PNG ou WebP, 8 Mo au plus.');

export const photoLimitReached = () =>
  new ApiError(
    409,
    'PHOTO_LIMIT_REACHED',
    `Vous avez déjà ${MAX_PHOTOS_PER_MEMBER} photos, le maximum. Supprimez-en une pour en ajouter une autre.`,
  );

export const photoTooLarge = () =>
  new ApiError(413, 'PHOTO_TOO_LARGE', 'La photo dépasse 8 Mo. Choisissez une photo plus légère (JPEG, PNG ou WebP).');

/** The format the bytes say they are (their signature), or null: the name and the declared type are never trusted. */
export function sniffFormat(bytes: Uint8Array): 'jpeg' | 'png' | 'webp' | null {
  const at = (i: number) => bytes[i];
  if (bytes.length >= 3 && at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => at(i) === b)) return 'png';
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

export interface ProcessedPhoto {
  bytes: Uint8Array;
  thumbnail: Uint8Array;
  width: number;
  height: number;
  mime: typeof PHOTO_MIME;
}

/**
 * Checks and re-encodes an uploaded photo: its signature and its decoded format agree and are
 * JPEG, PNG or WebP; upright (EXIF orientation applied, then dropped with the rest of the
 * metadata); at most MAX_PHOTO_SIDE px; WebP. Anything else is a French 400.
 */
export async function processPhoto(input: Uint8Array): Promise<ProcessedPhoto> {
  if (input.length === 0) throw new ApiError(400, 'PHOTO_MISSING', 'Aucune photo reçue. Choisissez un fichier JPEG, PNG ou WebP.');
  if (input.length > MAX_PHOTO_BYTES) throw photoTooLarge();
  const sniffed = sniffFormat(input);
  if (!sniffed) throw unreadable();
  const sharp = await loadSharp();
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const, animated: false };
  try {
    const meta = await sharp(input, options).metadata();
    if (meta.format !== sniffed || !meta.width || !meta.height) throw unreadable();
    const { data, info } = await sharp(input, options)
      .autoOrient()
      .resize({ width: MAX_PHOTO_SIDE, height: MAX_PHOTO_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    const thumbnail = await sharp(data)
      .resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    return { bytes: new Uint8Array(data), thumbnail: new Uint8Array(thumbnail), width: info.width, height: info.height, mime: PHOTO_MIME };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // Truncated, corrupt, too many pixels: sharp's own message is English and technical.
    throw unreadable();
  }
}

export interface OwnPhoto {
  id: string;
  position: number;
  width: number;
  height: number;
  sizeBytes: number;
  createdAt: string;
  /** The member's own photo (`GET /api/v1/user/photos/:id`). */
  url: string;
  thumbnailUrl: string;
}

const ownPhotoUrl = (id: string) => `/api/v1/user/photos/${id}`;
export const introductionPhotoUrl = (introductionId: string, photoId: string) =>
  `/api/v1/user/introductions/${introductionId}/photos/${photoId}`;

function ownView(row: Pick<MemberPhotoRow, 'id' | 'position' | 'width' | 'height' | 'sizeBytes' | 'createdAt'>): OwnPhoto {
  return {
    id: row.id,
    position: row.position,
    width: row.width,
    height: row.height,
    sizeBytes: row.sizeBytes,
    createdAt: row.createdAt.toISOString(),
    url: ownPhotoUrl(row.id),
    thumbnailUrl: `${ownPhotoUrl(row.id)}?taille=vignette`,
  };
}

/** The member's photos (no bytes), in their order. */
export async function listOwnPhotos(db: Db, memberId: string): Promise<OwnPhoto[]> {
  if (!UUID.test(memberId)) return [];
  const rows = await photoMetadataOf(db, memberId);
  return rows.map(ownView);
}

/**
 * Stores a processed photo at the first free position. One transaction, the member's row locked:
 * two uploads at once cannot make a fourth photo.
 */
export async function addPhoto(db: Db, memberId: string, photo: ProcessedPhoto, now: Date): Promise<OwnPhoto> {
  return db.transaction(async (tx) => {
    await lockMemberForPhotos(tx, memberId);
    const taken = await takenPhotoPositions(tx, memberId);
    if (taken.length >= MAX_PHOTOS_PER_MEMBER) throw photoLimitReached();
    const used = new Set(taken);
    let position = 1;
    while (used.has(position)) position += 1;
    const row = await insertPhoto(tx, {
      id: randomUUID(),
      memberId,
      position,
      mime: photo.mime,
      width: photo.width,
      height: photo.height,
      bytes: photo.bytes,
      thumbnail: photo.thumbnail,
      sizeBytes: photo.bytes.length,
      createdAt: now,
    });
    if (!row) throw new Error('photo non enregistrée');
    return ownView(row);
  });
}

/** Deletes one of the member's own photos; 404 for anything else. */
export async function deleteOwnPhoto(db: Db, memberId: string, photoId: string): Promise<void> {
  if (!UUID.test(memberId) || !UUID.test(photoId)) throw photoNotFound();
  if (!(await deletePhotoOf(db, memberId, photoId))) throw photoNotFound();
}

export interface PhotoBytes {
  bytes: Uint8Array;
  mime: string;
}

async function bytesOf(db: Db, memberId: string, photoId: string, variant: PhotoVariant): Promise<PhotoBytes | null> {
  if (!UUID.test(memberId) || !UUID.test(photoId)) return null;
  const row = await photoBytesOf(db, { memberId, photoId, thumbnail: variant === 'thumbnail' });
  return row ? { bytes: row.bytes, mime: row.mime } : null;
}

/** One of the member's own photos, or null (404). */
export const ownPhotoBytes = (db: Db, memberId: string, photoId: string, variant: PhotoVariant) => bytesOf(db, memberId, photoId, variant);

/** A member's photo for staff (the caller records the read in the access log), or null. */
export const staffPhotoBytes = (db: Db, memberId: string, photoId: string, variant: PhotoVariant) =>
  bytesOf(db, memberId, photoId, variant);

/** The ids of a member's photos, in their order (for the other side's view, once released). */
export async function photoIdsOf(executor: Pick<Db, 'select'>, memberId: string): Promise<string[]> {
  if (!UUID.test(memberId)) return [];
  return photoIdsInOrder(executor, memberId);
}

/**
 * The other member's photo through one introduction, for `callerId` at the agency's `now`: only if
 * the caller is a side of that introduction, the photo is the OTHER side's, and `sharingOf` (decision
 * 194) shares the photos now: both accepted, the owner's consent and release recorded, and nothing
 * ended it — a decline, an expiry, a stop, the agency's END, or either member's contract, account
 * or consent (a photo can reveal religious practice, GDPR art. 9: a withdrawal reaches every
 * introduction). Null otherwise — the route answers 404 in every case alike.
 */
export async function releasedPhotoBytes(
  db: Db,
  input: { callerId: string; introductionId: string; photoId: string; variant: PhotoVariant; now: Date },
): Promise<PhotoBytes | null> {
  const { callerId, introductionId, photoId } = input;
  if (!UUID.test(callerId) || !UUID.test(introductionId) || !UUID.test(photoId)) return null;
  const intro = await introductionForPhotos(db, introductionId.toLowerCase());
  if (!intro) return null;
  const caller = callerId.toLowerCase();
  const side: Side | null = intro.memberA.toLowerCase() === caller ? 'a' : intro.memberB.toLowerCase() === caller ? 'b' : null;
  if (!side) return null;
  const standing = standingPair(await standingsOf(db, [intro.memberA, intro.memberB], input.now), intro);
  if (!sharingOf({ state: intro.state, context: intro.context as IntroductionContext, viewer: side, standing }).photos) return null;
  const owner = side === 'a' ? intro.memberB : intro.memberA;
  return bytesOf(db, owner, photoId, input.variant);
}

/** The export's list (decision 116: metadata and where to download each, not the bytes). */
export async function photosForExport(db: Db, memberId: string) {
  return (await listOwnPhotos(db, memberId)).map((p) => ({
    position: p.position,
    format: 'WebP (réencodée par l’agence, sans métadonnées)',
    width: p.width,
    height: p.height,
    sizeBytes: p.sizeBytes,
    addedAt: p.createdAt,
    download: p.url,
  }));
}
