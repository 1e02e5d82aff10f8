import * as v from 'valibot';
import type { Db, Transaction } from '#bff/db/database.ts';
import type { ChangeSection, FieldChange } from '#bff/db/change-requests-schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { enqueueMail, type OutgoingMail } from '#bff/mail/outbox.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { lockMemberRow, setMemberColumns } from '#bff/members/store/members.ts';
import { insertOnboardingEvent, lastEventVersion } from '#bff/members/store/onboarding-events.ts';
import {
  type ChangeRequestRow,
  changeRequestRows,
  decideChangeRequestRow,
  insertChangeRequest,
  lockChangeRequest,
  pendingChangeRequest,
} from '#bff/onboarding/store/change-requests.ts';
import { latestSensitiveConsent } from '#bff/onboarding/store/consents.ts';
import {
  AGE_RANGE_MESSAGE,
  ageRangeInOrder,
  genderedAnswerIssues,
  personalInfoEntries,
  questionnaireEntries,
  SENSITIVE_PROFILE_DETAILS,
} from '#machines/onboarding/forms.ts';
import { profileFields, questionnaireFields } from '#machines/onboarding/labels.ts';
import { objectMessage } from '#machines/onboarding/messages.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';

/**
 * « Mon profil » (issue 21, decision 123): the member corrects their step-1 answers (personal
 * information) and step-2 answers (questionnaire) after those steps.
 *
 * - Until the contract is signed: a direct edit, validated with the wizard's own schemas, written
 *   in one transaction with a row in the event log (the chart's state does not move: the event
 *   is logged with the same state before and after), and the match profile follows.
 * - Once signed (the contract's annex holds the questionnaire, the contract the identity), a
 *   direct edit is refused (409) and becomes a change request: what changes (old → new) and the
 *   member's note, stored and logged; staff apply it (the same write) or decline it.
 *
 * The consent to sensitive data is not part of an edit: it was given at step 1 and is withdrawn
 * from the privacy section (decision 070); the stored value is kept.
 */

type Section = ChangeSection;
const CONSENT = 'sensitiveDataConsent';

function profileEditEntries(now: number) {
  const { sensitiveDataConsent: _consent, ...entries } = personalInfoEntries(now);
  return entries;
}

const noteSchema = v.optional(
  v.pipe(v.string('Texte invalide'), v.trim(), v.maxLength(1000, 'Message trop long (1000 caractères au plus)')),
  '',
);

const sectionSchema = v.object({ section: v.picklist(['profil', 'questionnaire'], 'Rubrique invalide') }, 'Rubrique invalide');

/** The wizard's own schema of the section (without the consent), plus the member's note for a request. */
function editSchema(section: Section, now: number, withNote: boolean): v.GenericSchema<unknown, Record<string, unknown>> {
  const note: v.ObjectEntries = withNote ? { note: noteSchema } : {};
  if (section === 'profil') return v.strictObject({ section: v.literal('profil'), ...profileEditEntries(now), ...note }, objectMessage);
  return v.pipe(
    v.strictObject({ section: v.literal('questionnaire'), ...questionnaireEntries, ...note }, objectMessage),
    v.forward(v.partialCheck([['soughtAgeMin'], ['soughtAgeMax']], ageRangeInOrder, AGE_RANGE_MESSAGE), ['soughtAgeMax']),
  ) as v.GenericSchema<unknown, Record<string, unknown>>;
}

interface ParsedEdit {
  section: Section;
  answers: Record<string, unknown>;
  note: string;
}

function parseEdit(input: unknown, now: number, withNote: boolean): ParsedEdit {
  const which = v.safeParse(sectionSchema, input);
  if (!which.success) throw validationError(which.issues, 'Rubrique invalide.');
  const parsed = v.safeParse(editSchema(which.output.section, now, withNote), input);
  if (!parsed.success) throw validationError(parsed.issues, 'Certaines informations sont à corriger.');
  const { section, note, ...answers } = parsed.output as { section: Section; note?: string } & Record<string, unknown>;
  return { section, answers, note: note ?? '' };
}

const fieldsOf = (section: Section) => (section === 'profil' ? profileFields : questionnaireFields);
const columnOf = (section: Section) => (section === 'profil' ? 'profile' : 'questionnaire');
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields that change, in the label table's order, old → new. */
function changesOf(section: Section, stored: Record<string, unknown> | null, answers: Record<string, unknown>): FieldChange[] {
  return fieldsOf(section)
    .filter((field) => field.key !== CONSENT && Object.hasOwn(answers, field.key) && !same(stored?.[field.key], answers[field.key]))
    .map((field) => ({ field: field.key, old: stored?.[field.key] ?? null, new: answers[field.key] }));
}

function stepDone(record: OnboardingRecord, section: Section): boolean {
  return section === 'profil' ? record.profileCompleted : record.questionnaireCompleted;
}

const signed = (record: OnboardingRecord) => record.subscriptionDate !== null;

async function lockMember(tx: Transaction, memberId: string): Promise<MemberRow> {
  const row = await lockMemberRow(tx, memberId);
  if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
  return row;
}

/**
 * Step 1's edit as the server alone can check it (decision 208): the hijab is a woman's question,
 * the beard a man's; and while the consent to sensitive data is withdrawn, no new sensitive detail
 * (hijab, beard, school of thought) is stored.
 */
async function checkProfileEdit(tx: Transaction, row: MemberRow, section: Section, answers: Record<string, unknown>): Promise<void> {
  if (section !== 'profil') return;
  const issues = genderedAnswerIssues(row.gender, answers);
  if (issues.length > 0) throw new ApiError(400, 'VALIDATION_FAILED', 'Certaines informations sont à corriger.', { issues });
  if (!SENSITIVE_PROFILE_DETAILS.some((field) => answers[field] !== undefined)) return;
  const latest = await latestSensitiveConsent(tx, row.id);
  if (latest && !latest.given)
    throw new ApiError(
      409,
      'SENSITIVE_CONSENT_WITHDRAWN',
      'Vous avez retiré votre consentement aux données sensibles : le voile, la barbe et l’école juridique ne peuvent pas être enregistrés.',
    );
}

/** Step 1's optional answers (decision 208): one left empty in an edit is no longer stored. */
const OPTIONAL_PROFILE_FIELDS = ['languages', 'educationLevel', 'heightCm', 'hijab', 'beard', 'madhhab'] as const;

function withoutUnanswered(section: Section, stored: Record<string, unknown> | null): Record<string, unknown> {
  const copy = { ...(stored ?? {}) };
  if (section === 'profil') for (const field of OPTIONAL_PROFILE_FIELDS) delete copy[field];
  // Decision 212: the wished height is optional too.
  else for (const field of ['soughtHeightMin', 'soughtHeightMax']) delete copy[field];
  return copy;
}

/** Writes the section's new answers and logs the event, in the caller's transaction. */
async function writeAnswers(
  tx: Transaction,
  row: MemberRow,
  section: Section,
  answers: Record<string, unknown>,
  log: EventLog,
  now: Date,
): Promise<void> {
  await checkProfileEdit(tx, row, section, answers);
  const stored = (section === 'profil' ? row.profile : row.questionnaire) as Record<string, unknown> | null;
  await setMemberColumns(tx, row.id, { [columnOf(section)]: { ...withoutUnanswered(section, stored), ...answers } });
  await logEvent(tx, row, log, now);
  // The match profile follows steps 1-2 (decision 113).
  await upsertMatchProfile(tx, row.id, now.getTime());
}

interface EventLog {
  context: string;
  event: string;
  payload: Record<string, unknown>;
  actorId: string | null;
  actorRole: 'member' | 'staff';
}

/**
 * A row of the event log that does not move the chart: the same state before and after. Like
 * every event it takes the member's next version (one event per version), so a concurrent
 * chart event decides again on the fresh record (apply-update.ts).
 */
async function logEvent(tx: Transaction, row: MemberRow, log: EventLog, now: Date): Promise<void> {
  const last = await lastEventVersion(tx, row.id);
  const version = Math.max(row.version, last ?? 0) + 1;
  await setMemberColumns(tx, row.id, { version, updatedAt: now });
  const state = stateKey(stateFromRecord(recordOf(row), now.getTime()));
  await insertOnboardingEvent(tx, {
    memberId: row.id,
    context: log.context,
    event: log.event,
    payload: { context: log.context, ...log.payload },
    fromState: state,
    toState: state,
    actorId: log.actorId,
    actorRole: log.actorRole,
    version,
    createdAt: now,
  });
}

export interface EditOutcome {
  section: Section;
  changed: string[];
}

/** `PUT /user/answers`: the member's direct edit, before the contract is signed. */
export async function editOwnAnswers(db: Db, memberId: string, input: unknown, now: Date): Promise<EditOutcome> {
  const edit = parseEdit(input, now.getTime(), false);
  return db.transaction(async (tx) => {
    const row = await lockMember(tx, memberId);
    const record = recordOf(row);
    if (record.disabled)
      throw new ApiError(409, 'ACCOUNT_DISABLED', 'Votre compte est désactivé : vos informations ne peuvent plus être modifiées.');
    if (!stepDone(record, edit.section)) throw new ApiError(409, 'STEP_NOT_DONE', 'Remplissez d’abord cette étape de votre inscription.');
    if (signed(record))
      throw new ApiError(
        409,
        'CHANGE_REQUEST_REQUIRED',
        'Votre contrat est signé : vos informations ne se modifient plus directement. Envoyez une demande de modification à l’équipe.',
      );
    const stored = (edit.section === 'profil' ? row.profile : row.questionnaire) as Record<string, unknown> | null;
    const changes = changesOf(edit.section, stored, edit.answers);
    if (changes.length === 0) return { section: edit.section, changed: [] };
    const context = edit.section === 'profil' ? 'profil_edit' : 'questionnaire_edit';
    // The log keeps which fields changed, never the answers themselves (they live on the member).
    await writeAnswers(
      tx,
      row,
      edit.section,
      edit.answers,
      { context, event: 'EDIT_ANSWERS', payload: { fields: changes.map((c) => c.field) }, actorId: memberId, actorRole: 'member' },
      now,
    );
    return { section: edit.section, changed: changes.map((c) => c.field) };
  });
}

export interface ChangeRequestView {
  id: number;
  section: Section;
  changes: FieldChange[];
  note: string;
  status: 'pending' | 'applied' | 'declined';
  createdAt: string;
  decidedAt: string | null;
  decisionNote: string;
}

function viewOf(row: ChangeRequestRow): ChangeRequestView {
  return {
    id: row.id,
    section: row.section,
    changes: row.changes,
    note: row.note,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionNote: row.decisionNote,
  };
}

/** `POST /user/change-requests`: after signature, what the member asks to change. */
export async function requestChange(db: Db, memberId: string, input: unknown, now: Date): Promise<ChangeRequestView> {
  const edit = parseEdit(input, now.getTime(), true);
  return db.transaction(async (tx) => {
    const row = await lockMember(tx, memberId);
    const record = recordOf(row);
    if (record.disabled)
      throw new ApiError(409, 'ACCOUNT_DISABLED', 'Votre compte est désactivé : vos informations ne peuvent plus être modifiées.');
    if (!signed(record))
      throw new ApiError(409, 'DIRECT_EDIT_AVAILABLE', 'Votre contrat n’est pas encore signé : modifiez directement vos informations.');
    await checkProfileEdit(tx, row, edit.section, edit.answers);
    const stored = (edit.section === 'profil' ? row.profile : row.questionnaire) as Record<string, unknown> | null;
    const changes = changesOf(edit.section, stored, edit.answers);
    if (changes.length === 0)
      throw new ApiError(400, 'NO_CHANGE', 'Aucune modification : les informations envoyées sont celles déjà enregistrées.');
    const pending = await pendingChangeRequest(tx, memberId, edit.section);
    if (pending)
      throw new ApiError(
        409,
        'CHANGE_REQUEST_PENDING',
        'Une demande de modification de cette rubrique est déjà en attente : l’équipe doit d’abord y répondre.',
      );
    const created = await insertChangeRequest(tx, {
      memberId,
      section: edit.section,
      changes,
      proposed: edit.answers,
      note: edit.note,
      status: 'pending',
      createdAt: now,
      decisionNote: '',
    });
    if (!created) throw new Error('change request not stored');
    await logEvent(
      tx,
      row,
      {
        context: 'change_request',
        event: 'REQUEST_CHANGE',
        payload: { section: edit.section, requestId: created.id, fields: changes.map((c) => c.field) },
        actorId: memberId,
        actorRole: 'member',
      },
      now,
    );
    return viewOf(created);
  });
}

/** The member's change requests, newest first (the member's own, or staff for a member). */
export async function changeRequestsOf(db: Db, memberId: string): Promise<ChangeRequestView[]> {
  const rows = await changeRequestRows(db, memberId);
  return rows.map(viewOf);
}

const decisionSchema = v.strictObject(
  {
    decision: v.picklist(['apply', 'decline'], 'Décision invalide'),
    note: noteSchema,
  },
  objectMessage,
);

/** Staff apply or decline a pending request; applying re-validates the proposal with today's rules. */
export async function decideChangeRequest(
  db: Db,
  requestId: number,
  input: unknown,
  staffId: string,
  now: Date,
  /** The notice to the member, queued in the decision's transaction (decision 127). */
  notice?: (row: MemberRow) => OutgoingMail,
): Promise<ChangeRequestView> {
  const parsed = v.safeParse(decisionSchema, input);
  if (!parsed.success) throw validationError(parsed.issues);
  const { decision, note } = parsed.output;
  return db.transaction(async (tx) => {
    const request = await lockChangeRequest(tx, requestId);
    if (!request) throw new ApiError(404, 'CHANGE_REQUEST_NOT_FOUND', 'Demande de modification introuvable.');
    if (request.status !== 'pending')
      throw new ApiError(409, 'CHANGE_REQUEST_DECIDED', 'Cette demande a déjà reçu une réponse.', { status: request.status });
    const row = await lockMember(tx, request.memberId);
    if (decision === 'apply') {
      // The proposal is checked again (a birth date's rule depends on the day).
      const edit = parseEdit({ section: request.section, ...request.proposed }, now.getTime(), false);
      await writeAnswers(
        tx,
        row,
        request.section,
        edit.answers,
        {
          context: 'change_request_applied',
          event: 'APPLY_CHANGE_REQUEST',
          payload: { section: request.section, requestId, fields: request.changes.map((c) => c.field) },
          actorId: staffId,
          actorRole: 'staff',
        },
        now,
      );
    } else {
      await logEvent(
        tx,
        row,
        {
          context: 'change_request_declined',
          event: 'DECLINE_CHANGE_REQUEST',
          payload: { section: request.section, requestId },
          actorId: staffId,
          actorRole: 'staff',
        },
        now,
      );
    }
    const updated = await decideChangeRequestRow(tx, requestId, {
      status: decision === 'apply' ? 'applied' : 'declined',
      decidedAt: now,
      decidedBy: staffId,
      decisionNote: note,
    });
    if (!updated) throw new Error('change request vanished');
    if (notice) await enqueueMail(tx, notice(row));
    return viewOf(updated);
  });
}

/** `GET /user/answers`: every step's data the member gave, and whether they may edit it directly. */
export async function answersOf(db: Db, row: MemberRow) {
  const record = recordOf(row);
  return {
    editable: !signed(record) && !record.disabled,
    signed: signed(record),
    steps: { profil: record.profileCompleted, questionnaire: record.questionnaireCompleted },
    profile: row.profile as Record<string, unknown> | null,
    questionnaire: row.questionnaire as Record<string, unknown> | null,
    contract: row.contract as Record<string, unknown> | null,
    changeRequests: await changeRequestsOf(db, row.id),
  };
}
