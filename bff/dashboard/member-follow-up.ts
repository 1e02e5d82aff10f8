import { lockMemberRow, memberById } from '#bff/members/store/members.ts';
import {
  assignCounsellor,
  counsellorOf,
  currentCounsellorOf,
  deleteNote as deleteNoteRow,
  deleteTag,
  insertNote,
  insertTag,
  lockNote,
  notesOf,
  tagByKey,
  tagCountOf,
  tagsInUse,
  tagsOf,
  unassignCounsellor,
  updateNote,
} from '#bff/dashboard/store/follow-up.ts';
import { bumpVersion, enabledStaffAccount, insertEvents, lockMemberRole, staffAccountRows } from '#bff/dashboard/store/members.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { recordOf } from '#bff/members/members.ts';
import { staffName } from '#bff/members/staff-names.ts';
import { tagKey } from '#machines/follow-up/follow-up.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';

/**
 * Staff's follow-up of a member (issue 21, decision 124): internal notes (newest first; the author
 * alone edits or deletes one), the counsellor in charge (each change logged in the member's event
 * log as « Suivi confié à Nadia »), and free tags (the member list filters on them). The routes
 * (`bff/api/member-follow-up-routes.ts`) validate and call these; the queries left them (decision 221).
 * The same changes for many members at once: `member-bulk.ts`.
 */

/** The event-log context of a change of counsellor (`onboarding_events`, decision 124). */
const COUNSELLOR_CONTEXT = 'counsellor';

const MEMBER_NOT_FOUND = () => new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
const NOTE_NOT_FOUND = () => new ApiError(404, 'NOTE_NOT_FOUND', 'Note introuvable.');
const NOT_AUTHOR = () => new ApiError(403, 'NOTE_NOT_YOURS', 'Seule la personne qui a écrit cette note peut la modifier ou la supprimer.');
const MAX_TAGS = 20;

async function memberOrThrow(db: Db, id: string) {
  const row = await memberById(db, id);
  if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
  return row;
}

/** A member's note locked for a change by its author: 404 if it is not this member's, 403 if another person wrote it. */
async function lockOwnNote(tx: Transaction, memberId: string, noteId: number, staffId: string) {
  const note = await lockNote(tx, memberId, noteId);
  if (!note) throw NOTE_NOT_FOUND();
  if (note.authorId !== staffId) throw NOT_AUTHOR();
  return note;
}

/** Staff accounts: the counsellor picker (enabled ones) and the names of authors. */
async function staffAccounts(db: Db) {
  const rows = await staffAccountRows(db);
  return rows.map((r) => ({ id: r.id, name: staffName(r), disabled: r.disabled }));
}

/** Staff in the order of their names, as French sorts them. */
const byName = <T extends { name: string }>(rows: T[]) => rows.sort((a, b) => a.name.localeCompare(b.name, 'fr'));

/** Every tag in use with its number of members, and the team (`self`: the caller). */
export async function tagsAndStaff(db: Db, selfId: string) {
  // One line per tag whatever the case (issue 63), spelled as first typed.
  const rows = await tagsInUse(db);
  const staff = await staffAccounts(db);
  return {
    tags: rows,
    staff: byName(staff.map((s) => ({ id: s.id, name: s.name, disabled: s.disabled, self: s.id === selfId }))),
  };
}

/** A member's follow-up as the caller reads it: counsellor, tags, notes (`own`: the caller's), the picker. */
export async function followUpOf(db: Db, memberId: string, selfId: string) {
  await memberOrThrow(db, memberId);
  const [notes, counsellor, tags, staff] = await Promise.all([
    notesOf(db, memberId),
    counsellorOf(db, memberId),
    tagsOf(db, memberId),
    staffAccounts(db),
  ]);
  const nameOf = new Map(staff.map((s) => [s.id, s.name]));
  return {
    counsellor: counsellor
      ? {
          id: counsellor.counsellorId,
          name: nameOf.get(counsellor.counsellorId) ?? 'Compte supprimé',
          since: counsellor.assignedAt.toISOString(),
        }
      : null,
    tags: tags.map((t) => t.tag),
    notes: notes.map((n) => ({
      id: n.id,
      body: n.body,
      at: n.createdAt.toISOString(),
      editedAt: n.editedAt?.toISOString() ?? null,
      author: n.authorId ? (nameOf.get(n.authorId) ?? 'Compte supprimé') : 'Compte supprimé',
      own: n.authorId === selfId,
    })),
    staff: byName(staff.filter((s) => !s.disabled).map((s) => ({ id: s.id, name: s.name, self: s.id === selfId }))),
  };
}

/** A new note on a member's file, by `authorId`. */
export async function addNote(db: Db, input: { memberId: string; authorId: string; body: string; now: Date }) {
  await memberOrThrow(db, input.memberId);
  const note = await insertNote(db, { memberId: input.memberId, authorId: input.authorId, body: input.body, createdAt: input.now });
  if (!note) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
  return note;
}

/** Its author changes a note's text (locked while checked). */
export async function editNote(db: Db, input: { memberId: string; noteId: number; staffId: string; body: string; now: Date }) {
  await db.transaction(async (tx) => {
    await lockOwnNote(tx, input.memberId, input.noteId, input.staffId);
    await updateNote(tx, input.noteId, { body: input.body, editedAt: input.now });
  });
}

/** Its author deletes a note (locked while checked). */
export async function deleteNote(db: Db, input: { memberId: string; noteId: number; staffId: string }) {
  await db.transaction(async (tx) => {
    await lockOwnNote(tx, input.memberId, input.noteId, input.staffId);
    await deleteNoteRow(tx, input.noteId);
  });
}

/**
 * Entrusts the member to an enabled member of staff (`counsellorId`), or to no one (null), logged
 * in the member's event log; `changed` false when it was already so (nothing logged). 422 when
 * `counsellorId` names no enabled staff account, 404 when `memberId` names no member.
 */
export async function setCounsellor(db: Db, input: { memberId: string; counsellorId: string | null; staffId: string; now: Date }) {
  const { memberId: id, counsellorId, now } = input;
  let counsellorName: string | null = null;
  if (counsellorId) {
    const row = await enabledStaffAccount(db, counsellorId);
    if (!row)
      throw new ApiError(422, 'COUNSELLOR_NOT_STAFF', 'Cette personne ne fait pas partie de l’équipe (ou son compte est désactivé).');
    counsellorName = staffName(row);
  }
  const changed = await db.transaction(async (tx) => {
    // The member row is locked: two changes of counsellor are logged in the order applied.
    const row = await lockMemberRow(tx, id);
    if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
    const current = await currentCounsellorOf(tx, id);
    const from = current?.counsellorId ?? null;
    if (from === counsellorId) return false;
    if (counsellorId) await assignCounsellor(tx, [id], counsellorId, now);
    else await unassignCounsellor(tx, id);
    // Logged in the member's event log, as every staff action on the file (the ban, decision 103's
    // reset): the version moves with every logged event (UNIQUE (member_id, version)).
    const bumped = await bumpVersion(tx, id, now);
    if (!bumped) throw MEMBER_NOT_FOUND();
    const state = stateKey(stateFromRecord(recordOf(row), now.getTime()));
    await insertEvents(tx, [
      {
        memberId: id,
        context: COUNSELLOR_CONTEXT,
        event: counsellorId ? 'ASSIGN_COUNSELLOR' : 'UNASSIGN_COUNSELLOR',
        payload: { context: COUNSELLOR_CONTEXT, from, to: counsellorId, counsellorName },
        fromState: state,
        toState: state,
        actorId: input.staffId,
        actorRole: 'staff',
        version: bumped.version,
        createdAt: now,
      },
    ]);
    return true;
  });
  return { changed, counsellorName };
}

/** Tags a member (at most MAX_TAGS); the same tag in another case is the one they already have (issue 63). */
export async function addTag(db: Db, input: { memberId: string; tag: string; now: Date }) {
  const { memberId: id, tag, now } = input;
  return db.transaction(async (tx) => {
    const row = await lockMemberRole(tx, id);
    if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
    const n = await tagCountOf(tx, id);
    // Kept as typed; the same tag in another case is the one the member already has (issue 63).
    const inserted = await insertTag(tx, { memberId: id, tag, tagKey: tagKey(tag), createdAt: now });
    if (inserted.length > 0 && n >= MAX_TAGS)
      throw new ApiError(422, 'TOO_MANY_TAGS', `Un membre a au plus ${MAX_TAGS} étiquettes : retirez-en une d’abord.`);
    if (inserted.length > 0) return { tag, added: true };
    const existing = await tagByKey(tx, id, tagKey(tag));
    return { tag: existing?.tag ?? tag, added: false };
  });
}

/** Removes a tag from a member, whatever its case; `removed` false when they did not have it. */
export async function removeTag(db: Db, input: { memberId: string; tag: string }) {
  await memberOrThrow(db, input.memberId);
  const removed = await deleteTag(db, input.memberId, tagKey(input.tag));
  return { tag: removed[0]?.tag ?? input.tag, removed: removed.length > 0 };
}
