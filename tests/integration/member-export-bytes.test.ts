import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '#bff/auth/caller.ts';
import { memberListCsv } from '#bff/dashboard/member-list-export.ts';
import { MemberListFilterQuery, MemberListQuery, memberListPage } from '#bff/dashboard/member-list.ts';
import type { Database } from '#bff/db/database.ts';
import { refreshStaleStages } from '#bff/members/stage.ts';
import { textCell } from '#bff/payments/billing.ts';
import { tagKey } from '#machines/follow-up/follow-up.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { genderLabels, stateLabel } from '#machines/onboarding/labels.ts';
import type { TopState } from '#machines/onboarding/steps.ts';
import { generatePopulation, insertMembers } from '#tests/support/seed-population.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/**
 * The member list's CSV export (decision 225) writes the very bytes the former formatter wrote: each
 * line formatted from the list's own item, one `Intl` date per cell and the age from Paris's day read
 * per line, as it was until issue 64. A generated population of 260 members, their instants around
 * Paris's midnights and both changes of time, names and tags that need quoting, counsellors or none;
 * several filters and orders, each exported in chunks of 7 and of 500.
 */

const NOW = new Date('2026-10-25T00:30:00Z');
const MEMBERS = 260;
let database: Database;
const staff = { id: randomUUID(), member: { staffRole: 'administration' } } as unknown as Caller;

beforeAll(async () => {
  database = await openTestDatabase();
  const db = database.db;
  const population = generatePopulation(MEMBERS, 225, NOW.getTime());
  await insertMembers(
    db,
    population.map((m, i) => ({
      id: m.id,
      email: m.email,
      gender: m.gender,
      onboarding: m.record,
      // Names a spreadsheet would read as a formula, or that hold the separator or quotes.
      profile:
        i % 9 === 0
          ? { ...m.profile, firstName: ['=Somme', 'Anne; Marie', 'Dit "Sam"', '-Zoé', '@lia'][i % 5], lastName: 'Test' }
          : m.profile,
      questionnaire: m.questionnaire,
    })),
  );
  // Instants around Paris's midnights (22:00/23:00 UTC) and the changes of time of 29 March and 25 October 2026.
  const instants = [
    '2026-03-28T22:59:59.999Z',
    '2026-03-28T23:00:00Z',
    '2026-03-29T00:59:59Z',
    '2026-03-29T01:00:00Z',
    '2026-03-29T21:59:59.999Z',
    '2026-03-29T22:00:00Z',
    '2026-10-24T21:59:59.999Z',
    '2026-10-24T22:00:00Z',
    '2026-10-25T00:59:59.999Z',
    '2026-10-25T01:00:00Z',
    '2026-10-25T22:59:59.999Z',
    '2026-10-25T23:00:00Z',
    '2025-12-31T23:00:00Z',
    '2024-02-29T12:00:00Z',
  ];
  for (const [i, m] of population.entries()) {
    if (i % 3 === 2) continue;
    await db.execute(sql`UPDATE members SET created_at = ${instants[i % instants.length]}::timestamptz,
      updated_at = ${instants[(i * 5 + 3) % instants.length]}::timestamptz WHERE id = ${m.id}::uuid`);
  }
  // Counsellors for two thirds, tags (one with the separator) for some.
  const counsellors = [randomUUID(), randomUUID()];
  for (const [i, id] of counsellors.entries())
    await db.execute(sql`INSERT INTO members (id, email, gender, role, staff_role, onboarding)
      VALUES (${id}, ${`conseil${i}@example.fr`}, 'femme', 'staff', 'conseil', ${JSON.stringify({ name: i === 0 ? 'Nadia; Conseil' : '' })}::jsonb)`);
  for (const [i, m] of population.entries()) {
    if (i % 3 !== 0)
      await db.execute(sql`INSERT INTO member_counsellors (member_id, counsellor_id) VALUES (${m.id}, ${counsellors[i % 2]})`);
    for (const tag of [...(i % 4 === 0 ? ['prioritaire'] : []), ...(i % 6 === 0 ? ['à rappeler; urgent'] : [])])
      await db.execute(sql`INSERT INTO member_tags (member_id, tag, tag_key) VALUES (${m.id}, ${tag}, ${tagKey(tag)})`);
  }
  await refreshStaleStages(db);
}, 120_000);
afterAll(() => database.close());

/** The former formatter (until issue 64): `Intl` per date cell, the item as the list gives it. */
const parisDate = frenchDateFormat({ dateStyle: 'short', timeZone: 'Europe/Paris' });
type Item = Awaited<ReturnType<typeof memberListPage>>['items'][number];
function formerLine(item: Item): string {
  return [
    textCell(item.name ?? ''),
    textCell(item.email),
    textCell(genderLabels[item.gender as keyof typeof genderLabels] ?? ''),
    item.age === null ? '' : String(item.age),
    textCell(item.region?.label ?? ''),
    textCell(item.step ? `${item.step.number}. ${item.step.title}` : stateLabel(item.top as TopState)),
    textCell(item.counsellor?.name ?? 'Sans conseiller'),
    textCell(item.tags.join(', ')),
    textCell(parisDate.format(new Date(item.createdAt))),
    textCell(parisDate.format(new Date(item.updatedAt))),
    item.disabled ? 'Désactivé' : 'Actif',
  ].join(';');
}
const HEADERS = 'Nom;E-mail;Sexe;Âge;Région;Étape;Conseiller·ère;Étiquettes;Inscription;Dernière activité;Compte';

async function formerExport(query: Record<string, string>): Promise<string> {
  const items: Item[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await memberListPage(
      database.db,
      v.parse(MemberListQuery, { ...query, perPage: '100', page: String(page) }),
      staff,
      NOW,
    );
    items.push(...answer.items);
    if (page >= answer.pageCount) break;
  }
  return `\uFEFF${HEADERS}\r\n${items.map((item) => `${formerLine(item)}\r\n`).join('')}`;
}

async function exported(query: Record<string, string>, chunk?: number): Promise<string> {
  let text = '';
  for await (const part of memberListCsv(database.db, v.parse(MemberListFilterQuery, query), staff, NOW, chunk)) text += part;
  return text;
}

describe('the member export’s bytes', () => {
  for (const query of <Record<string, string>[]>[
    {},
    { sort: 'name', dir: 'asc' },
    { sort: 'counsellor', dir: 'desc' },
    { sort: 'updated', dir: 'asc' },
    { tag: 'prioritaire' },
    { gender: 'femme', sort: 'age' },
  ]) {
    it(`are the former formatter’s, ${JSON.stringify(query)}, in chunks of 7 and of 500`, async () => {
      const former = await formerExport(query);
      expect(former.split('\r\n').length).toBeGreaterThan(query.tag || query.gender ? 30 : MEMBERS);
      expect(await exported(query, 7)).toBe(former);
      expect(await exported(query)).toBe(former);
    });
  }

  it('hold the quoted names, the dates of both sides of a midnight and of the changes of time', async () => {
    const text = await exported({});
    for (const needle of ["'=Somme", '"Anne; Marie', '"Dit ""Sam"" Test"', "'-Zoé", "'@lia", '28/03/2026', '29/03/2026', '30/03/2026']) {
      expect(text).toContain(needle);
    }
    expect(text).toContain('"Nadia; Conseil"');
    expect(text).toContain('"à rappeler; urgent');
  });
});
