import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import {
  addNote,
  addTag,
  deleteNote,
  editNote,
  followUpOf,
  removeTag,
  setCounsellor,
  tagsAndStaff,
} from '#bff/dashboard/member-follow-up.ts';
import { validationError } from '#bff/http/errors.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { log } from '#bff/logger.ts';
import { CounsellorBody, NoteBody, TagBody, TagSchema } from '#machines/follow-up/follow-up.ts';

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

/**
 * Staff's follow-up of a member (issue 21, decision 124): internal notes (newest first; the author
 * alone edits or deletes one), the counsellor in charge (each change logged in the member's event
 * log as « Suivi confié à Nadia »), and free tags (the member list filters on them). Staff at aal2
 * only, checked before anything else; no member route reads these tables. The rules and their
 * queries: `bff/dashboard/member-follow-up.ts` (decision 221).
 */
export function memberFollowUpRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);

  return new Hono()
    .get('/dashboard/tags', staffOnly, async (c) => {
      const overview = await tagsAndStaff(db, c.var.staff.id);
      c.header('Cache-Control', 'private, no-store');
      return c.json(overview, 200);
    })
    .get('/dashboard/members/:id/follow-up', staffOnly, vValidator('param', MemberParam, hook), async (c) => {
      const { id } = c.req.valid('param');
      const followUp = await followUpOf(db, id, c.var.staff.id);
      c.header('Cache-Control', 'private, no-store');
      return c.json(followUp, 200);
    })
    .post('/dashboard/members/:id/notes', staffOnly, vValidator('param', MemberParam, hook), jsonBody(NoteBody), async (c) => {
      const { id } = c.req.valid('param');
      const { body } = c.req.valid('json');
      const staff = c.var.staff;
      const now = deps.clock.now();
      const note = await addNote(db, { memberId: id, authorId: staff.id, body, now });
      log.info('note ajoutée au dossier d’un membre', { reqId: c.get('requestId'), memberId: id, staffId: staff.id });
      return c.json({ id: note.id, at: now.toISOString() }, 201);
    })
    .patch('/dashboard/members/:id/notes/:noteId', staffOnly, vValidator('param', NoteParam, hook), jsonBody(NoteBody), async (c) => {
      const { id, noteId } = c.req.valid('param');
      const { body } = c.req.valid('json');
      const staff = c.var.staff;
      const now = deps.clock.now();
      await editNote(db, { memberId: id, noteId, staffId: staff.id, body, now });
      log.info('note modifiée', { reqId: c.get('requestId'), memberId: id, staffId: staff.id, noteId });
      return c.json({ id: noteId, editedAt: now.toISOString() }, 200);
    })
    .delete('/dashboard/members/:id/notes/:noteId', staffOnly, vValidator('param', NoteParam, hook), async (c) => {
      const { id, noteId } = c.req.valid('param');
      const staff = c.var.staff;
      await deleteNote(db, { memberId: id, noteId, staffId: staff.id });
      log.info('note supprimée', { reqId: c.get('requestId'), memberId: id, staffId: staff.id, noteId });
      return c.json({ ok: true as const }, 200);
    })
    .put('/dashboard/members/:id/counsellor', staffOnly, vValidator('param', MemberParam, hook), jsonBody(CounsellorBody), async (c) => {
      const { id } = c.req.valid('param');
      const { counsellorId } = c.req.valid('json');
      const staff = c.var.staff;
      const { changed, counsellorName } = await setCounsellor(db, { memberId: id, counsellorId, staffId: staff.id, now: deps.clock.now() });
      if (changed) log.info('conseiller du membre changé', { reqId: c.get('requestId'), memberId: id, staffId: staff.id });
      return c.json({ changed, counsellor: counsellorId ? { id: counsellorId, name: counsellorName } : null }, 200);
    })
    .post('/dashboard/members/:id/tags', staffOnly, vValidator('param', MemberParam, hook), jsonBody(TagBody), async (c) => {
      const { id } = c.req.valid('param');
      const { tag } = c.req.valid('json');
      const added = await addTag(db, { memberId: id, tag, now: deps.clock.now() });
      return c.json(added, added.added ? 201 : 200);
    })
    .delete('/dashboard/members/:id/tags/:tag', staffOnly, vValidator('param', TagParam, hook), async (c) => {
      const { id, tag } = c.req.valid('param');
      return c.json(await removeTag(db, { memberId: id, tag }), 200);
    });
}
