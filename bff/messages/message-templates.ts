import type * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import type { messageTemplates } from '#bff/db/messages-schema.ts';
import { ApiError } from '#bff/http/errors.ts';
import { MEMBER_NOT_FOUND, namesOf } from '#bff/messages/messages.ts';
import { memberRoleAndProfile } from '#bff/messages/store/direct-messages.ts';
import { deleteTemplateRow, insertTemplate, templateById, templateRows, updateTemplateRow } from '#bff/messages/store/templates.ts';
import { fillTemplate, type TemplateInput } from '#machines/messages/messages.ts';

/** The staff's message templates (decision 121): listed, written, removed, and filled for one member. */

type Template = v.InferOutput<typeof TemplateInput>;

const TEMPLATE_NOT_FOUND = () => new ApiError(404, 'TEMPLATE_NOT_FOUND', 'Modèle introuvable.');
const TITLE_TAKEN = () =>
  new ApiError(409, 'TEMPLATE_TITLE_TAKEN', 'Un modèle porte déjà ce titre.', {
    issues: [{ path: 'title', message: 'Un modèle porte déjà ce titre.' }],
  });

function templateView(row: typeof messageTemplates.$inferSelect) {
  return {
    id: row.id,
    title: row.title,
    subject: row.subject,
    body: row.body,
    kind: row.kind,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A unique violation (the template title), from node-postgres or PGlite, wrapped or not by drizzle. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth += 1)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}

export async function listTemplates(db: Db) {
  const rows = await templateRows(db);
  return rows.map(templateView);
}

export async function createTemplate(db: Db, input: Template, authorId: string, now: Date) {
  try {
    const row = await insertTemplate(db, { ...input, authorId, createdAt: now, updatedAt: now });
    if (!row) throw new Error('message_templates insert returned nothing');
    return templateView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw TITLE_TAKEN();
    throw error;
  }
}

export async function updateTemplate(db: Db, id: number, input: Template, now: Date) {
  try {
    const row = await updateTemplateRow(db, id, { ...input, updatedAt: now });
    if (!row) throw TEMPLATE_NOT_FOUND();
    return templateView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw TITLE_TAKEN();
    throw error;
  }
}

export async function deleteTemplate(db: Db, id: number): Promise<void> {
  if (!(await deleteTemplateRow(db, id))) throw TEMPLATE_NOT_FOUND();
}

/** A template filled for one member: what the message form receives when staff pick it. */
export async function fillTemplateFor(db: Db, id: number, memberId: string, agencyName: string) {
  const [template, member] = await Promise.all([templateById(db, id), memberRoleAndProfile(db, memberId)]);
  if (!template) throw TEMPLATE_NOT_FOUND();
  if (member?.role !== 'member') throw MEMBER_NOT_FOUND();
  const { firstName, lastName } = namesOf(member.profile);
  const values = { prenom: firstName, nom: lastName, agence: agencyName };
  return { subject: fillTemplate(template.subject, values), body: fillTemplate(template.body, values) };
}
