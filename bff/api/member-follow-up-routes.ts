import { vValidator } from '@hono/valibot-validator';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { staffName } from '#bff/members/staff-names.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { memberCounsellors, memberNotes, memberTags } from '#bff/db/follow-up-schema.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { log } from '#bff/logger.ts';
import { CounsellorBody, NoteBody, TagBody, TagSchema, tagKey } from '#machines/follow-up/follow-up.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import { recordOf } from '#bff/members/members.ts';

/** The event-log context of a change of counsellor (`onboarding_events`, decision 124). */
const COUNSELLOR_CONTEXT = 'counsellor';

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};
const uuid = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));
const MemberParam = v.object({ id: uuid });
const NoteParam = v.object({
  id: uuid,
  noteId: v.pipe(v.string('Note introuvable'), v.regex(/^\d{1,15}$/, 'Note introuvable'), v.transform(Number)),
});
const TagParam = v.object({ id: uuid, tag: TagSchema });

const MEMBER_NOT_FOUND = () => new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
const NOTE_NOT_FOUND = () => new ApiError(404, 'NOTE_NOT_FOUND', 'Note introuvable.');
const NOT_AUTHOR = () => new ApiError(403, 'NOTE_NOT_YOURS', 'Seule la personne qui a écrit cette note peut la modifier ou la supprimer.');
const MAX_TAGS = 20;

async function memberOrThrow(db: Db, id: string) {
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
  return row;
}

/** A member's note locked for a change by its author: 404 if it is not this member's, 403 if another person wrote it. */
async function lockOwnNote(tx: Transaction, memberId: string, noteId: number, staffId: string) {
  const [note] = await tx
    .select()
    .from(memberNotes)
    .where(and(eq(memberNotes.id, noteId), eq(memberNotes.memberId, memberId)))
    .for('update');
  if (!note) throw NOTE_NOT_FOUND();
  if (note.authorId !== staffId) throw NOT_AUTHOR();
  return note;
}

/** Staff accounts: the counsellor picker (enabled ones) and the names of authors. */
async function staffAccounts(db: Db) {
  const rows = await db
    .select({ id: members.id, email: members.email, onboarding: members.onboarding, disabled: members.disabled })
    .from(members)
    .where(eq(members.role, 'staff'));
  return rows.map((r) => ({ id: r.id, name: staffName(r), disabled: r.disabled }));
}

/** Staff in the order of their names, as French sorts them. */
const byName = <T extends { name: string }>(rows: T[]) => rows.sort((a, b) => a.name.localeCompare(b.name, 'fr'));

/**
 * Staff's follow-up of a member (issue 21, decision 124): internal notes (newest first; the author
 * alone edits or deletes one), the counsellor in charge (each change logged in the member's event
 * log as « Suivi confié à Nadia »), and free tags (the member list filters on them). Staff at aal2
 * only, checked before anything else; no member route reads these tables.
 */
export function memberFollowUpRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);

  return new Hono()
    .get('/dashboard/tags', staffOnly, async (c) => {
      const rows = await db
        // One line per tag whatever the case (issue 63), spelled as first typed.
        .select({
          tag: sql<string>`(array_agg(${memberTags.tag} ORDER BY ${memberTags.createdAt}, ${memberTags.tag}))[1]`,
          members: count(),
        })
        .from(memberTags)
        .groupBy(memberTags.tagKey)
        .orderBy(asc(memberTags.tagKey));
      const staff = await staffAccounts(db);
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          tags: rows,
          staff: byName(staff.map((s) => ({ id: s.id, name: s.name, disabled: s.disabled, self: s.id === c.var.staff.id }))),
        },
        200,
      );
    })
    .get('/dashboard/members/:id/follow-up', staffOnly, vValidator('param', MemberParam, hook), async (c) => {
      const { id } = c.req.valid('param');
      await memberOrThrow(db, id);
      const [notes, [counsellor], tags, staff] = await Promise.all([
        db.select().from(memberNotes).where(eq(memberNotes.memberId, id)).orderBy(desc(memberNotes.id)),
        db.select().from(memberCounsellors).where(eq(memberCounsellors.memberId, id)).limit(1),
        db.select({ tag: memberTags.tag }).from(memberTags).where(eq(memberTags.memberId, id)).orderBy(asc(memberTags.tag)),
        staffAccounts(db),
      ]);
      const nameOf = new Map(staff.map((s) => [s.id, s.name]));
      const self = c.var.staff.id;
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
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
            own: n.authorId === self,
          })),
          staff: byName(staff.filter((s) => !s.disabled).map((s) => ({ id: s.id, name: s.name, self: s.id === self }))),
        },
        200,
      );
    })
    .post('/dashboard/members/:id/notes', staffOnly, vValidator('param', MemberParam, hook), jsonBody(NoteBody), async (c) => {
      const { id } = c.req.valid('param');
      const { body } = c.req.valid('json');
      const staff = c.var.staff;
      await memberOrThrow(db, id);
      const now = deps.clock.now();
      const [note] = await db
        .insert(memberNotes)
        .values({ memberId: id, authorId: staff.id, body, createdAt: now })
        .returning({ id: memberNotes.id });
      if (!note) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
      log.info('note ajoutée au dossier d’un membre', { reqId: c.get('requestId'), memberId: id, staffId: staff.id });
      return c.json({ id: note.id, at: now.toISOString() }, 201);
    })
    .patch('/dashboard/members/:id/notes/:noteId', staffOnly, vValidator('param', NoteParam, hook), jsonBody(NoteBody), async (c) => {
      const { id, noteId } = c.req.valid('param');
      const { body } = c.req.valid('json');
      const staff = c.var.staff;
      const now = deps.clock.now();
      await db.transaction(async (tx) => {
        await lockOwnNote(tx, id, noteId, staff.id);
        await tx.update(memberNotes).set({ body, editedAt: now }).where(eq(memberNotes.id, noteId));
      });
      log.info('note modifiée', { reqId: c.get('requestId'), memberId: id, staffId: staff.id, noteId });
      return c.json({ id: noteId, editedAt: now.toISOString() }, 200);
    })
    .delete('/dashboard/members/:id/notes/:noteId', staffOnly, vValidator('param', NoteParam, hook), async (c) => {
      const { id, noteId } = c.req.valid('param');
      const staff = c.var.staff;
      await db.transaction(async (tx) => {
        await lockOwnNote(tx, id, noteId, staff.id);
        await tx.delete(memberNotes).where(eq(memberNotes.id, noteId));
      });
      log.info('note supprimée', { reqId: c.get('requestId'), memberId: id, staffId: staff.id, noteId });
      return c.json({ ok: true as const }, 200);
    })
    .put('/dashboard/members/:id/counsellor', staffOnly, vValidator('param', MemberParam, hook), jsonBody(CounsellorBody), async (c) => {
      const { id } = c.req.valid('param');
      const { counsellorId } = c.req.valid('json');
      const staff = c.var.staff;
      let counsellorName: string | null = null;
      if (counsellorId) {
        const [row] = await db
          .select({ id: members.id, email: members.email, onboarding: members.onboarding })
          .from(members)
          .where(and(eq(members.id, counsellorId), eq(members.role, 'staff'), eq(members.disabled, false)))
          .limit(1);
        if (!row)
          throw new ApiError(422, 'COUNSELLOR_NOT_STAFF', 'Cette personne ne fait pas partie de l’équipe (ou son compte est désactivé).');
        counsellorName = staffName(row);
      }
      const now = deps.clock.now();
      const changed = await db.transaction(async (tx) => {
        // The member row is locked: two changes of counsellor are logged in the order applied.
        const [row] = await tx.select().from(members).where(eq(members.id, id)).for('update');
        if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
        const [current] = await tx.select().from(memberCounsellors).where(eq(memberCounsellors.memberId, id));
        const from = current?.counsellorId ?? null;
        if (from === counsellorId) return false;
        if (counsellorId)
          await tx
            .insert(memberCounsellors)
            .values({ memberId: id, counsellorId, assignedAt: now })
            .onConflictDoUpdate({ target: memberCounsellors.memberId, set: { counsellorId, assignedAt: now } });
        else await tx.delete(memberCounsellors).where(eq(memberCounsellors.memberId, id));
        // Logged in the member's event log, as every staff action on the file (the ban, decision 103's
        // reset): the version moves with every logged event (UNIQUE (member_id, version)).
        const [bumped] = await tx
          .update(members)
          .set({ version: sql`${members.version} + 1`, updatedAt: now })
          .where(eq(members.id, id))
          .returning({ version: members.version });
        if (!bumped) throw MEMBER_NOT_FOUND();
        const state = stateKey(stateFromRecord(recordOf(row), now.getTime()));
        await tx.insert(onboardingEvents).values({
          memberId: id,
          context: COUNSELLOR_CONTEXT,
          event: counsellorId ? 'ASSIGN_COUNSELLOR' : 'UNASSIGN_COUNSELLOR',
          payload: { context: COUNSELLOR_CONTEXT, from, to: counsellorId, counsellorName },
          fromState: state,
          toState: state,
          actorId: staff.id,
          actorRole: 'staff',
          version: bumped.version,
          createdAt: now,
        });
        return true;
      });
      if (changed) log.info('conseiller du membre changé', { reqId: c.get('requestId'), memberId: id, staffId: staff.id });
      return c.json({ changed, counsellor: counsellorId ? { id: counsellorId, name: counsellorName } : null }, 200);
    })
    .post('/dashboard/members/:id/tags', staffOnly, vValidator('param', MemberParam, hook), jsonBody(TagBody), async (c) => {
      const { id } = c.req.valid('param');
      const { tag } = c.req.valid('json');
      const now = deps.clock.now();
      const added = await db.transaction(async (tx) => {
        const [row] = await tx.select({ role: members.role }).from(members).where(eq(members.id, id)).for('update');
        if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
        const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(memberTags).where(eq(memberTags.memberId, id));
        // Kept as typed; the same tag in another case is the one the member already has (issue 63).
        const inserted = await tx
          .insert(memberTags)
          .values({ memberId: id, tag, tagKey: tagKey(tag), createdAt: now })
          .onConflictDoNothing()
          .returning({ tag: memberTags.tag });
        if (inserted.length > 0 && n >= MAX_TAGS)
          throw new ApiError(422, 'TOO_MANY_TAGS', `Un membre a au plus ${MAX_TAGS} étiquettes : retirez-en une d’abord.`);
        if (inserted.length > 0) return { tag, added: true };
        const [existing] = await tx
          .select({ tag: memberTags.tag })
          .from(memberTags)
          .where(and(eq(memberTags.memberId, id), eq(memberTags.tagKey, tagKey(tag))));
        return { tag: existing?.tag ?? tag, added: false };
      });
      return c.json(added, added.added ? 201 : 200);
    })
    .delete('/dashboard/members/:id/tags/:tag', staffOnly, vValidator('param', TagParam, hook), async (c) => {
      const { id, tag } = c.req.valid('param');
      await memberOrThrow(db, id);
      const removed = await db
        .delete(memberTags)
        .where(and(eq(memberTags.memberId, id), eq(memberTags.tagKey, tagKey(tag))))
        .returning({ tag: memberTags.tag });
      return c.json({ tag: removed[0]?.tag ?? tag, removed: removed.length > 0 }, 200);
    });
}
