import * as v from 'valibot';
import type { Caller } from '#bff/auth/caller.ts';
import { assertCounsels, staffRoleOfCaller } from '#bff/auth/staff-policy.ts';
import type { Clock } from '#bff/clock.ts';
import { assignCounsellor, counsellorsOf, insertTags, tagCountsOf, unassignCounsellors } from '#bff/dashboard/store/follow-up.ts';
import { bumpVersions, enabledStaffAccount, insertEvents, lockMembers as lockMemberRows } from '#bff/dashboard/store/members.ts';
import { insertDirectMessage, setDirectMessageMail, templateById } from '#bff/dashboard/store/messages.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { memberMessageNotice } from '#bff/mail/message-mails.ts';
import { enqueueMailOnce } from '#bff/mail/outbox.ts';
import { recordOf } from '#bff/members/members.ts';
import { TagSchema, tagKey } from '#machines/follow-up/follow-up.ts';
import { fillTemplate } from '#machines/messages/messages.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';

/**
 * Bulk actions on the member list (issue 63 point 3, decision 210): entrust members to a
 * counsellor, tag them, or send each a message from a template. At most 200 members at once, all
 * or nothing in one transaction: a member who is not one, or (for a counsellor) not theirs, and
 * nothing is changed. Entrusting members is the administration's, as for one member (decision 206).
 */

const BULK_MAX = 200;

const uuidSchema = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'), v.toLowerCase());
const ids = v.pipe(
  v.array(uuidSchema, 'Choisissez des membres'),
  v.minLength(1, 'Choisissez au moins un membre'),
  v.maxLength(BULK_MAX, `Au plus ${BULK_MAX} membres à la fois`),
  v.transform((list) => [...new Set(list)]),
);

export const BulkBody = v.variant(
  'action',
  [
    v.object({
      action: v.literal('conseiller'),
      ids,
      counsellorId: v.nullable(v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'), v.toLowerCase())),
    }),
    v.object({ action: v.literal('etiquette'), ids, tag: TagSchema }),
    v.object({
      action: v.literal('message'),
      ids,
      templateId: v.pipe(v.number('Choisissez un modèle'), v.integer('Modèle introuvable'), v.minValue(1, 'Modèle introuvable')),
    }),
  ],
  'Action inconnue',
);
type Bulk = v.InferOutput<typeof BulkBody>;

const MEMBER_NOT_FOUND = () => new ApiError(404, 'MEMBER_NOT_FOUND', 'Un des membres choisis est introuvable : rien n’a été changé.');
const MAX_TAGS = 20;
/** The event-log context of a change of counsellor, as for one member (decision 124). */
const COUNSELLOR_CONTEXT = 'counsellor';
const DEFAULT_SUBJECT = 'Un message de l’agence';

function staffNameOf(row: { email: string; onboarding: unknown }): string {
  const name = (row.onboarding as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : row.email;
}

function firstNameOf(profile: unknown): string {
  const value = (profile as { firstName?: unknown } | null)?.firstName;
  return typeof value === 'string' ? value.trim() : '';
}

function lastNameOf(profile: unknown): string {
  const value = (profile as { lastName?: unknown } | null)?.lastName;
  return typeof value === 'string' ? value.trim() : '';
}

/** The members named, locked for the change: every one must be a member (404 otherwise). */
async function lockMembers(tx: Transaction, memberIds: readonly string[]) {
  const rows = await lockMemberRows(tx, memberIds);
  if (rows.length !== memberIds.length) throw MEMBER_NOT_FOUND();
  return rows;
}

export interface BulkDeps {
  db: Db;
  clock: Clock;
  mailSite: () => AgencyMailSite;
}

/** Runs one bulk action for `staff`: how many members it changed, and how many already were so. */
export async function runBulkAction(
  deps: BulkDeps,
  staff: Caller,
  input: Bulk,
): Promise<{ action: Bulk['action']; changed: number; unchanged: number }> {
  const role = staffRoleOfCaller(staff);
  if (input.action === 'conseiller' && role !== 'administration')
    throw new ApiError(403, 'ROLE_FORBIDDEN', 'Confier des membres à un·e conseiller·ère est réservé à l’administration de l’agence.');
  // A counsellor acts only on their own members: one that is not, and nothing changes.
  await assertCounsels(deps.db, staff, input.ids);
  const now = deps.clock.now();
  switch (input.action) {
    case 'conseiller':
      return assign(deps, staff, input.ids, input.counsellorId, now);
    case 'etiquette':
      return tag(deps, input.ids, input.tag, now);
    default:
      return message(deps, staff, input.ids, input.templateId, now);
  }
}

async function assign(deps: BulkDeps, staff: Caller, memberIds: string[], counsellorId: string | null, now: Date) {
  let counsellorName: string | null = null;
  if (counsellorId) {
    const row = await enabledStaffAccount(deps.db, counsellorId);
    if (!row)
      throw new ApiError(422, 'COUNSELLOR_NOT_STAFF', 'Cette personne ne fait pas partie de l’équipe (ou son compte est désactivé).');
    counsellorName = staffNameOf(row);
  }
  return deps.db.transaction(async (tx) => {
    const rows = await lockMembers(tx, memberIds);
    const current = await counsellorsOf(tx, memberIds);
    const fromOf = new Map(current.map((r) => [r.memberId, r.counsellorId]));
    // Idempotent: a member already with this counsellor (or with none) is left as is, nothing logged.
    const changing = rows.filter((row) => (fromOf.get(row.id) ?? null) !== counsellorId);
    if (changing.length === 0) return { action: 'conseiller' as const, changed: 0, unchanged: rows.length };
    const changingIds = changing.map((r) => r.id);
    if (counsellorId) await assignCounsellor(tx, changingIds, counsellorId, now);
    else await unassignCounsellors(tx, changingIds);
    // Logged in each member's event log, as for one member: the version moves with every logged event.
    const bumped = await bumpVersions(tx, changingIds, now);
    const versionOf = new Map(bumped.map((b) => [b.id, b.version]));
    await insertEvents(
      tx,
      changing.map((row) => {
        const state = stateKey(stateFromRecord(recordOf(row), now.getTime()));
        return {
          memberId: row.id,
          context: COUNSELLOR_CONTEXT,
          event: counsellorId ? 'ASSIGN_COUNSELLOR' : 'UNASSIGN_COUNSELLOR',
          payload: { context: COUNSELLOR_CONTEXT, from: fromOf.get(row.id) ?? null, to: counsellorId, counsellorName, bulk: true },
          fromState: state,
          toState: state,
          actorId: staff.id,
          actorRole: 'staff',
          version: versionOf.get(row.id) ?? row.version + 1,
          createdAt: now,
        };
      }),
    );
    return { action: 'conseiller' as const, changed: changing.length, unchanged: rows.length - changing.length };
  });
}

async function tag(deps: BulkDeps, memberIds: string[], label: string, now: Date) {
  const key = tagKey(label);
  return deps.db.transaction(async (tx) => {
    await lockMembers(tx, memberIds);
    const counts = await tagCountsOf(tx, memberIds, key);
    const full = counts.filter((c) => !c.has && c.n >= MAX_TAGS);
    if (full.length > 0)
      throw new ApiError(
        422,
        'TOO_MANY_TAGS',
        `${full.length === 1 ? 'Un des membres choisis a' : `${full.length} des membres choisis ont`} déjà ${MAX_TAGS} étiquettes : rien n’a été changé.`,
      );
    // Kept as typed; a member who has it in another case keeps theirs (idempotent).
    const inserted = await insertTags(
      tx,
      memberIds.map((memberId) => ({ memberId, tag: label, tagKey: key, createdAt: now })),
    );
    return { action: 'etiquette' as const, changed: inserted.length, unchanged: memberIds.length - inserted.length };
  });
}

async function message(deps: BulkDeps, staff: Caller, memberIds: string[], templateId: number, now: Date) {
  const template = await templateById(deps.db, templateId);
  if (!template) throw new ApiError(404, 'TEMPLATE_NOT_FOUND', 'Modèle introuvable.');
  const site = deps.mailSite();
  return deps.db.transaction(async (tx) => {
    const rows = await lockMembers(tx, memberIds);
    // One message per member, filled with their names, each with its notice through the outbox (never its content).
    for (const row of rows) {
      const values = { prenom: firstNameOf(row.profile), nom: lastNameOf(row.profile), agence: site.agency.legalName };
      const inserted = await insertDirectMessage(tx, {
        memberId: row.id,
        authorId: staff.id,
        direction: 'to_member',
        subject: fillTemplate(template.subject, values).trim() || DEFAULT_SUBJECT,
        body: fillTemplate(template.body, values),
        createdAt: now,
        staffReadAt: now,
      });
      if (!inserted) throw new Error('direct_messages insert returned nothing');
      const mailId = await enqueueMailOnce(
        tx,
        memberMessageNotice(site, { to: row.email, firstName: firstNameOf(row.profile) || null }),
        `message-notice:${inserted.id}`,
      );
      await setDirectMessageMail(tx, inserted.id, mailId);
    }
    return { action: 'message' as const, changed: rows.length, unchanged: 0 };
  });
}
