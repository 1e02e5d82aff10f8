import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { existingMemberId } from '#bff/api/member-param.ts';
import { settingsWithState } from '#bff/api/user-routes.ts';
import { requireMember, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { latestTerminationOf, terminationsOfMember } from '#bff/onboarding/contract-rights.ts';
import {
  type CheckedProof,
  checkProof,
  needsDecoding,
  proofBytes,
  proofNotFound,
  proofTooLarge,
  replacePendingProof,
  storeProofWithEvent,
  terminationOfMember,
} from '#bff/contract/termination-proofs.ts';
import { declaredBodyLimit } from '#bff/http/body-limit.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { readForm } from '#bff/http/form.ts';
import type { Limit } from '#bff/http/rate-limit.ts';
import { log } from '#bff/logger.ts';
import { settleMemberWrite, watchMemberWrite } from '#bff/auth/member-cache.ts';
import { memberRowById } from '#bff/members/member-rows.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { applyOnboardingUpdate, refusalBeforehand } from '#bff/onboarding/apply-update.ts';
import { type TerminationReason, terminationReasons, strict } from '#machines/onboarding/update-payloads.ts';
import { MAX_PROOF_BYTES, PROOF_RULES, type ProofMime } from '#machines/onboarding/termination-texts.ts';

/**
 * Termination for a legitimate reason over HTTP (decisions 119 and 189). The member asks from
 * « Mes droits » with a form (reason, explanation, and the proof as a file: PDF, JPEG or PNG,
 * checked by its bytes), lists her requests, adds or replaces the proof while staff have not
 * answered, and reads her own proof. Staff at aal2 record a request received by letter (the day
 * it arrived, the reason, what it says, and the enclosure scanned if they wish), then review it
 * as any other; each read of a proof by staff is written to the access log first. The request
 * itself goes through the chart's authority (`applyOnboardingUpdate`), its proof in the same
 * transaction; the JSON route `/user/update` refuses both events (bff/api/user-routes.ts).
 */

/** The form's field of the proof. */
const PROOF_FIELD = 'justificatif';

/** The routes that take a proof: 5 MB for the file plus the form's text and framing. */
export const PROOF_UPLOAD_PATHS: readonly RegExp[] = [
  /^\/api\/v1\/user\/terminations$/,
  /^\/api\/v1\/user\/terminations\/[^/]+\/proof$/,
  /^\/api\/v1\/dashboard\/members\/[^/]+\/terminations$/,
];
export const isProofUploadPath = (path: string) => PROOF_UPLOAD_PATHS.some((pattern) => pattern.test(path));
const MAX_PROOF_REQUEST_BYTES = MAX_PROOF_BYTES + 64 * 1024;

/** The body limit of those routes, refused early from `Content-Length` when it says so. */
export const limitProofBody = declaredBodyLimit({
  maxSize: MAX_PROOF_REQUEST_BYTES,
  onError: () => {
    throw proofTooLarge();
  },
});

/** Decoding an image costs CPU: 20 uploads that look like images per person and hour, far above what one request takes. */
const PROOF_UPLOADS_PER_HOUR: Limit = { name: 'termination-proof-upload', points: 20, durationSeconds: 60 * 60 };

const reasonSchema = v.picklist(terminationReasons, 'Veuillez choisir un motif');
const explanationSchema = v.pipe(
  v.string('Veuillez expliquer votre situation'),
  v.trim(),
  v.minLength(10, 'Veuillez expliquer la situation en quelques mots (10 caractères au moins)'),
  v.maxLength(2000, 'Explication trop longue (2 000 caractères au plus)'),
);
/** The member's form: the chart's `terminate` payload is built from it. */
const RequestForm = strict({ reason: reasonSchema, explanation: explanationSchema });
/** Staff's form for a letter: the chart's `terminate_letter` payload is built from it (the date is checked there). */
const LetterForm = strict({
  receivedOn: v.string('Veuillez indiquer la date de réception du courrier'),
  reason: reasonSchema,
  explanation: explanationSchema,
});
/** Adding a proof: the file alone. */
const ProofForm = strict({});

const TerminationId = v.pipe(v.string('Identifiant invalide'), v.regex(/^[1-9][0-9]{0,14}$/, 'Identifiant invalide'), v.transform(Number));
const MemberUuid = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));

function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw validationError(result.issues, 'Paramètres invalides');
  return result.output;
}

const fieldError = (message: string) => new ApiError(400, 'VALIDATION_FAILED', message, { issues: [{ path: PROOF_FIELD, message }] });

const terminationNotFound = () => new ApiError(404, 'TERMINATION_NOT_FOUND', 'Demande de résiliation introuvable.');

/** Never a health document (GDPR art. 9): for illness or disability no file is taken, from anyone. */
function refuseHealthProof(reason: TerminationReason, file: Uint8Array | null, byStaff: boolean): void {
  if (file && PROOF_RULES[reason] === 'none')
    throw fieldError(
      byStaff
        ? 'Pour ce motif, aucun justificatif n’est conservé\u00a0: ne numérisez aucun document médical.'
        : 'Pour ce motif, ne joignez aucun document\u00a0: aucun justificatif médical n’est demandé.',
    );
}

const formOptions = { file: PROOF_FIELD, maxFileBytes: MAX_PROOF_BYTES, tooLarge: proofTooLarge };

function proofResponse(c: Context, proof: { mime: ProofMime; bytes: Uint8Array }, terminationId: number) {
  const extension = proof.mime === 'application/pdf' ? 'pdf' : proof.mime === 'image/png' ? 'png' : 'jpg';
  c.header('Content-Type', proof.mime);
  // A PDF is downloaded, never rendered in the product's origin; an image (re-encoded by the server) is shown.
  c.header(
    'Content-Disposition',
    `${proof.mime === 'application/pdf' ? 'attachment' : 'inline'}; filename="justificatif-${terminationId}.${extension}"`,
  );
  c.header('Cache-Control', 'private, no-store');
  c.header('X-Content-Type-Options', 'nosniff');
  return c.body(proof.bytes as Uint8Array<ArrayBuffer>, 200);
}

export function terminationRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);

  /** Checks a file (its decoding counted against the hourly limit of whoever sends it). */
  async function checkUpload(bytes: Uint8Array, by: string): Promise<CheckedProof> {
    if (needsDecoding(bytes)) await deps.rateLimit(PROOF_UPLOADS_PER_HOUR, by);
    return checkProof(bytes);
  }

  const eventOptions = (now: Date) => ({
    now,
    verifyPayment: deps.verifyPayment,
    agency: deps.config.agency,
    mail: { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency },
  });

  return (
    new Hono()
      // The member's request: reason, explanation and the proof the reason asks for, in one form.
      .post('/user/terminations', async (c) => {
        const caller = await requireMember(c, deps);
        const now = deps.clock.now();
        const { fields, file } = await readForm(c, RequestForm, formOptions);
        const event = { context: 'terminate', reason: fields.reason, explanation: fields.explanation };
        // Cheap refusals first (the chart, the reason's rule), then the decoding.
        const refusal = refusalBeforehand(recordOf(caller.member), event, now.getTime());
        if (refusal) throw refusal;
        refuseHealthProof(fields.reason, file, false);
        if (!file && PROOF_RULES[fields.reason] === 'required')
          throw fieldError(
            'Joignez un justificatif de votre déménagement (PDF, JPEG ou PNG, 5\u00a0Mo au plus)\u00a0; vous pouvez aussi envoyer votre demande par courrier avec sa copie.',
          );
        const proof = file ? await checkUpload(file, caller.id) : null;
        const write = watchMemberWrite(deps.database, caller.id);
        let applied: Awaited<ReturnType<typeof applyOnboardingUpdate>>;
        try {
          applied = await applyOnboardingUpdate(db, event, {
            ...eventOptions(now),
            actor: { id: caller.id, role: 'member' },
            callerMemberId: caller.id,
            current: caller.member,
            alsoInTransaction: storeProofWithEvent(proof, now, caller.id),
          });
        } catch (error) {
          if (write) settleMemberWrite(deps.database, write);
          throw error;
        }
        if (write) settleMemberWrite(deps.database, write, applied);
        if (applied.mailQueued) deps.mailQueued();
        log.info('demande de résiliation', { reqId: c.get('requestId'), memberId: caller.id, proof: proof !== null });
        const [termination] = await terminationsOfMember(db, caller.id);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ ...settingsWithState(applied.row, now), eventId: applied.eventId, termination: termination ?? null }, 201);
      })
      // Her requests, newest first, with their proof's kind and size (no bytes).
      .get('/user/terminations', async (c) => {
        const caller = await requireMember(c, deps);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ terminations: await terminationsOfMember(db, caller.id) }, 200);
      })
      // Adds or replaces the proof of her own request while staff have not answered it.
      .post('/user/terminations/:id/proof', async (c) => {
        const caller = await requireMember(c, deps);
        const id = parse(TerminationId, c.req.param('id'));
        // Another member's request and none at all: the same 404, before the body is read.
        const termination = await terminationOfMember(db, caller.id, id);
        if (!termination) throw terminationNotFound();
        const { file } = await readForm(c, ProofForm, formOptions);
        if (termination.decision !== null)
          throw new ApiError(
            409,
            'TERMINATION_DECIDED',
            'Cette demande a déjà reçu une réponse\u00a0: son justificatif ne peut plus changer.',
          );
        refuseHealthProof(termination.reason as TerminationReason, file, false);
        if (!file) throw fieldError('Joignez un fichier (PDF, JPEG ou PNG, 5\u00a0Mo au plus).');
        const proof = await checkUpload(file, caller.id);
        await replacePendingProof(db, { terminationId: id, memberId: caller.id, proof, at: deps.clock.now(), by: caller.id });
        log.info('justificatif de résiliation ajouté', { reqId: c.get('requestId'), memberId: caller.id, terminationId: id });
        const view = (await terminationsOfMember(db, caller.id)).find((t) => t.id === id) ?? null;
        c.header('Cache-Control', 'private, no-store');
        return c.json({ termination: view }, 200);
      })
      // Her own proof (the export names this URL).
      .get('/user/terminations/:id/proof', async (c) => {
        const caller = await requireMember(c, deps);
        const id = parse(TerminationId, c.req.param('id'));
        const proof = await proofBytes(db, caller.id, id);
        if (!proof) throw proofNotFound();
        return proofResponse(c, proof, id);
      })
      // Staff: « Enregistrer une demande de résiliation reçue par courrier » (decision 189).
      .post('/dashboard/members/:id/terminations', staffOnly, async (c) => {
        const staff = c.var.staff;
        const memberId = await existingMemberId(db, c.req.param('id'));
        const now = deps.clock.now();
        const { fields, file } = await readForm(c, LetterForm, formOptions);
        const event = { context: 'terminate_letter', uid: memberId, ...fields };
        const row = await memberRowById(db, memberId);
        const refusal = refusalBeforehand(recordOf(row as MemberRow), event, now.getTime());
        if (refusal) throw refusal;
        refuseHealthProof(fields.reason, file, true);
        const proof = file ? await checkUpload(file, staff.id) : null;
        const applied = await applyOnboardingUpdate(db, event, {
          ...eventOptions(now),
          actor: { id: staff.id, role: 'staff' },
          callerMemberId: null,
          alsoInTransaction: storeProofWithEvent(proof, now, staff.id),
        });
        if (applied.mailQueued) deps.mailQueued();
        log.info('demande de résiliation reçue par courrier enregistrée', {
          reqId: c.get('requestId'),
          memberId,
          staffId: staff.id,
          proof: proof !== null,
        });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ state: applied.state, termination: await latestTerminationOf(db, memberId) }, 201);
      })
      // Staff open a proof from the member's file: the read is logged before the file leaves.
      .get('/dashboard/members/:id/terminations/:terminationId/proof', staffOnly, async (c) => {
        const memberId = parse(MemberUuid, c.req.param('id'));
        const id = parse(TerminationId, c.req.param('terminationId'));
        const proof = await proofBytes(db, memberId, id);
        if (!proof) throw proofNotFound();
        return proofResponse(c, proof, id);
      })
  );
}
