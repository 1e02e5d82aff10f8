import { bigserial, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export type ChangeSection = 'profil' | 'questionnaire';
export type ChangeStatus = 'pending' | 'applied' | 'declined';
export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
}

/** A member's request to change their answers after signature (migration 0023, decision 123). */
export const memberChangeRequests = pgTable('member_change_requests', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  section: text('section').$type<ChangeSection>().notNull(),
  changes: jsonb('changes').$type<FieldChange[]>().notNull(),
  proposed: jsonb('proposed').$type<Record<string, unknown>>().notNull(),
  note: text('note').notNull(),
  status: text('status').$type<ChangeStatus>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  decidedBy: uuid('decided_by'),
  decisionNote: text('decision_note').notNull(),
});
