// The staff's message templates (message_templates, decision 121).
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { messageTemplates } from '#bff/db/messages-schema.ts';

type TemplateRow = typeof messageTemplates.$inferSelect;

/** Every template, by title (case-insensitive) then id. */
export function templateRows(db: Db): Promise<TemplateRow[]> {
  return db
    .select()
    .from(messageTemplates)
    .orderBy(asc(sql`lower(${messageTemplates.title})`), asc(messageTemplates.id));
}

export async function insertTemplate(db: Db, row: typeof messageTemplates.$inferInsert): Promise<TemplateRow | undefined> {
  const [inserted] = await db.insert(messageTemplates).values(row).returning();
  return inserted;
}

export async function updateTemplateRow(
  db: Db,
  id: number,
  fields: Partial<typeof messageTemplates.$inferInsert>,
): Promise<TemplateRow | undefined> {
  const [row] = await db.update(messageTemplates).set(fields).where(eq(messageTemplates.id, id)).returning();
  return row;
}

/** Deletes a template: whether there was one. */
export async function deleteTemplateRow(db: Db, id: number): Promise<boolean> {
  const deleted = await db.delete(messageTemplates).where(eq(messageTemplates.id, id)).returning({ id: messageTemplates.id });
  return deleted.length > 0;
}

export async function templateById(db: Db, id: number): Promise<TemplateRow | undefined> {
  const [template] = await db.select().from(messageTemplates).where(eq(messageTemplates.id, id)).limit(1);
  return template;
}
