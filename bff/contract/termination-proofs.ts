import { createHash } from 'node:crypto';
import type { Db, Transaction } from '#bff/db/database.ts';
import {
  pendingTerminationIdOf,
  proofBytesRow,
  proofRowsOf,
  terminationRowOfMember,
  upsertProof,
} from '#bff/contract/store/termination-proofs.ts';
import { ApiError } from '#bff/http/errors.ts';
import { loadSharp } from '#bff/photos/member-photos.ts';
import { MAX_PROOF_BYTES, type ProofMime } from '#machines/onboarding/termination-texts.ts';

/**
 * The proof of a termination request (decision 189): a file, never a free text. Its bytes say
 * what it is (PDF, JPEG or PNG: the name and the declared type are never trusted); an image is
 * decoded and re-encoded in its own format without its metadata (a phone photo's GPS position,
 * device, date); a PDF must be whole (header and end marker) and carry no active content
 * (scripts, launch actions, attached files). Stored in the database beside its request, as the
 * photos and the signed contracts are (decision 116): private, served only through authenticated
 * routes, deleted with the request's retention (bff/retention/retention-job.ts).
 */

/** A decompression bomb (a small file of huge dimensions) is refused before it is decoded. */
const MAX_INPUT_PIXELS = 50_000_000;

export interface CheckedProof {
  bytes: Uint8Array;
  mime: ProofMime;
  sha256: string;
}

export const proofTooLarge = () =>
  new ApiError(413, 'PROOF_TOO_LARGE', 'Le justificatif dépasse 5\u00a0Mo. Choisissez un fichier plus léger (PDF, JPEG ou PNG).');
const proofUnreadable = () =>
  new ApiError(
    400,
    'PROOF_UNREADABLE',
    'Ce fichier n’est ni un PDF ni une image JPEG ou PNG lisible (son contenu est vérifié, pas seulement son nom). Formats acceptés\u00a0: PDF, JPEG ou PNG, 5\u00a0Mo au plus.',
  );
export const proofNotFound = () => new ApiError(404, 'PROOF_NOT_FOUND', 'Justificatif introuvable.');

/** What the bytes say they are (their signature), or null. */
function sniffProof(bytes: Uint8Array): ProofMime | null {
  const at = (i: number) => bytes[i];
  if (bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-') return 'application/pdf';
  if (bytes.length >= 3 && at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => at(i) === b)) return 'image/png';
  return null;
}

/** PDF names that make a document do something when opened (scripts, launched programs, attached files, forms). */
const ACTIVE_PDF = /\/(?:JavaScript|JS|Launch|EmbeddedFiles?|RichMedia|XFA)(?![A-Za-z0-9])/;

function checkPdf(bytes: Uint8Array): void {
  const text = Buffer.from(bytes).toString('latin1');
  if (!/^%PDF-(?:1\.[0-7]|2\.0)/.test(text)) throw proofUnreadable();
  // A whole file ends with %%EOF (give or take trailing line ends); a truncated upload does not.
  if (!text.slice(-2048).includes('%%EOF')) throw proofUnreadable();
  if (ACTIVE_PDF.test(text))
    throw new ApiError(
      400,
      'PROOF_ACTIVE_CONTENT',
      'Ce PDF contient du contenu actif (script, programme ou fichier joint)\u00a0: enregistrez-le à nouveau en PDF simple, ou envoyez une photo du document.',
    );
}

async function cleanImage(bytes: Uint8Array, mime: 'image/jpeg' | 'image/png'): Promise<Uint8Array> {
  const sharp = await loadSharp();
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const, animated: false };
  try {
    const meta = await sharp(bytes, options).metadata();
    if (meta.format !== (mime === 'image/jpeg' ? 'jpeg' : 'png') || !meta.width || !meta.height) throw proofUnreadable();
    // Upright, then re-encoded: sharp keeps no metadata unless asked (`withMetadata` is never called).
    const image = sharp(bytes, options).autoOrient();
    const out = mime === 'image/jpeg' ? await image.jpeg({ quality: 90 }).toBuffer() : await image.png({ compressionLevel: 9 }).toBuffer();
    return new Uint8Array(out);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // Truncated, corrupt, too many pixels: sharp's own message is English and technical.
    throw proofUnreadable();
  }
}

/** Checks an uploaded proof and returns what is stored; a French 400 or 413 otherwise. */
export async function checkProof(input: Uint8Array): Promise<CheckedProof> {
  if (input.length === 0) throw new ApiError(400, 'PROOF_EMPTY', 'Le fichier choisi est vide. Choisissez un PDF, une image JPEG ou PNG.');
  if (input.length > MAX_PROOF_BYTES) throw proofTooLarge();
  const mime = sniffProof(input);
  if (!mime) throw proofUnreadable();
  let bytes = input;
  if (mime === 'application/pdf') checkPdf(input);
  else bytes = await cleanImage(input, mime);
  // A re-encoded image may, rarely, come out larger than it went in.
  if (bytes.length > MAX_PROOF_BYTES) throw proofTooLarge();
  return { bytes, mime, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Whether the bytes look like an image to decode (the rate of decodings is limited per member). */
export const needsDecoding = (bytes: Uint8Array) => {
  const mime = sniffProof(bytes);
  return mime === 'image/jpeg' || mime === 'image/png';
};

/** Stores (or replaces) a request's proof, in the caller's transaction. */
async function storeProof(
  tx: Transaction | Db,
  input: { terminationId: number; memberId: string; proof: CheckedProof; at: Date; by: string },
): Promise<void> {
  await upsertProof(tx, {
    terminationId: input.terminationId,
    memberId: input.memberId,
    mime: input.proof.mime,
    sizeBytes: input.proof.bytes.length,
    sha256: input.proof.sha256,
    bytes: input.proof.bytes,
    uploadedAt: input.at,
    uploadedBy: input.by,
  });
}

/** The member's pending request (the one the event just wrote), for its proof. */
async function pendingTerminationOf(tx: Transaction | Db, memberId: string): Promise<{ id: number; reason: string } | null> {
  return (await pendingTerminationIdOf(tx, memberId)) ?? null;
}

/** One member's request by id (null for another member's or none: the same 404 for both). */
export async function terminationOfMember(db: Db | Transaction, memberId: string, terminationId: number) {
  return (await terminationRowOfMember(db, memberId, terminationId)) ?? null;
}

/** A member's proof's bytes (null for another member's, or none). */
export async function proofBytes(db: Db, memberId: string, terminationId: number) {
  return (await proofBytesRow(db, memberId, terminationId)) ?? null;
}

export interface ProofView {
  /** Where the reader opens it (the member's own route, or staff's, which logs the read). */
  url: string;
  typeLabel: string;
  sizeBytes: number;
  uploadedAt: string;
}

/** The proofs' metadata of some requests (no bytes), by request id. */
export async function proofsOf(db: Db | Transaction | Pick<Transaction, 'select'>, memberId: string) {
  const rows = await proofRowsOf(db, memberId);
  return new Map(rows.map((r) => [r.terminationId, r]));
}

/** The member's own proof URL and staff's. */
export const memberProofUrl = (terminationId: number) => `/api/v1/user/terminations/${terminationId}/proof`;
export const staffProofUrl = (memberId: string, terminationId: number) =>
  `/api/v1/dashboard/members/${memberId}/terminations/${terminationId}/proof`;

/**
 * The hook that stores a proof with the termination event that writes its request, in the
 * event's transaction (`alsoInTransaction` of `applyOnboardingUpdate`); none without a proof.
 */
export const storeProofWithEvent = (proof: CheckedProof | null, at: Date, by: string) =>
  proof
    ? async (tx: Transaction, row: { id: string }) => {
        const pending = await pendingTerminationOf(tx, row.id);
        if (!pending) throw new Error(`no pending termination for member ${row.id} after its event`);
        await storeProof(tx, { terminationId: pending.id, memberId: row.id, proof, at, by });
      }
    : undefined;

/** The member's proof of her pending request, replaced; 409 when the request was decided meanwhile. */
export async function replacePendingProof(
  db: Db,
  input: { terminationId: number; memberId: string; proof: CheckedProof; at: Date; by: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    // Decided meanwhile? Then nothing changes.
    const pending = await pendingTerminationOf(tx, input.memberId);
    if (pending?.id !== input.terminationId)
      throw new ApiError(409, 'TERMINATION_DECIDED', 'Cette demande a déjà reçu une réponse\u00a0: son justificatif ne peut plus changer.');
    await storeProof(tx, input);
  });
}
