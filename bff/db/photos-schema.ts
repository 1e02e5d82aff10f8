import { sql } from 'drizzle-orm';
import { customType, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Members' photos (migration `0016_member_photos.sql`, decision 116); written by bff/photos/member-photos.ts only. */

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | Buffer | string }>({
  dataType: () => 'bytea',
  fromDriver: (value) => {
    if (typeof value === 'string') return new Uint8Array(Buffer.from(value.replace(/^\\x/, ''), 'hex'));
    return new Uint8Array(value);
  },
  toDriver: (value) => Buffer.from(value),
});

export const memberPhotos = pgTable('member_photos', {
  id: uuid('id').primaryKey(),
  memberId: uuid('member_id').notNull(),
  position: smallint('position').notNull(),
  mime: text('mime').$type<'image/webp' | 'image/jpeg'>().notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  bytes: bytea('bytes').notNull(),
  thumbnail: bytea('thumbnail').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});

export type MemberPhotoRow = typeof memberPhotos.$inferSelect;
