import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import type { Database } from '#bff/db/database.ts';
import { runRetention } from '#bff/retention/retention-job.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/**
 * « Contrats, annexes, preuves de signature, factures et avoirs : 10 ans à compter de la fin de
 * l'année concernée » (privacy policy §7, decision 156): a record of year Y is kept until the end
 * of Y + 10, then the retention job deletes it. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const memberId = randomUUID();
const pdf = Buffer.from('%PDF-1.7 test');

async function numbers(table: string, column: string): Promise<string[]> {
  const result = (await database.db.execute(sql.raw(`SELECT ${column}::text AS v FROM ${table} ORDER BY 1`))) as unknown as {
    rows: { v: string }[];
  };
  return result.rows.map((r) => r.v);
}

async function invoice(number: string) {
  const [year, rank] = number.split('-').map(Number);
  await database.db.execute(sql`
    INSERT INTO invoices (number, year, rank, member_id, checkout_session_id, offer_id, customer_name, lines,
                          subtotal_cents, discount_cents, total_cents, payment_method, paid_at, pdf)
    VALUES (${number}, ${year}, ${rank}, ${memberId}, ${`cs_${number}`}, 'file_fee', 'Membre', '[]'::jsonb,
            15000, 0, 15000, 'card', ${`${year}-06-15T10:00:00Z`}::timestamptz, ${pdf})`);
}

async function creditNote(number: string, invoiceNumber: string) {
  const year = Number(number.slice(3, 7));
  const rank = Number(number.slice(8));
  // The charge it refunds: the database refuses a refund of money never received (decision 175).
  await database.db.execute(sql`
    INSERT INTO checkout_sessions (id, member_id, offer_id, amount_total, currency, status, payment_status)
    VALUES (${`cs_${invoiceNumber}_${number}`}, ${memberId}, 'file_fee', 15000, 'eur', 'complete', 'paid')`);
  const refund = (await database.db.execute(sql`
    INSERT INTO refunds (member_id, checkout_session_id, reason, amount_cents, paid_cents, requested_at, due_by)
    VALUES (${memberId}, ${`cs_${invoiceNumber}_${number}`}, 'withdrawal', 1000, 15000, now(), now()) RETURNING id`)) as unknown as {
    rows: { id: string }[];
  };
  await database.db.execute(sql`
    INSERT INTO credit_notes (number, year, rank, member_id, refund_id, invoice_number, reason, customer_name, amount_cents, issued_at, pdf)
    VALUES (${number}, ${year}, ${rank}, ${memberId}, ${refund.rows[0]?.id}, ${invoiceNumber}, 'withdrawal', 'Membre', 1000,
            ${`${year}-08-01T10:00:00Z`}::timestamptz, ${pdf})`);
}

async function signature(signedAt: string) {
  await database.db.execute(sql`
    INSERT INTO contract_signatures (member_id, document_sha256, signed_at, client_address, user_agent, method, code_sent_at, code_verified_at, code_attempts)
    VALUES (${memberId}, ${'a'.repeat(64)}, ${signedAt}::timestamptz, '203.0.113.7', 'Mozilla/5.0', 'email_code',
            ${signedAt}::timestamptz, ${signedAt}::timestamptz, 1)`);
}

async function legalRecord(reference: string, retainUntil: string) {
  await database.db.execute(sql`
    INSERT INTO legal_records (member_id, kind, legal_basis, reference, occurred_at, retain_until)
    VALUES (${memberId}, 'contract', 'Code de commerce L123-22', ${reference}, '2026-06-15T10:00:00Z', ${retainUntil}::timestamptz)`);
}

describe('contracts, signatures, invoices and credit notes after 10 years', () => {
  beforeAll(async () => {
    // A staff row (the job never erases staff) holds the signatures' foreign key.
    await database.db.execute(
      sql`INSERT INTO members (id, email, gender, role, staff_role, onboarding) VALUES (${memberId}, 'equipe@example.fr', 'femme', 'staff', 'administration', '{}'::jsonb)`,
    );
    await legalRecord('contrat-2026', '2036-12-31T23:59:59Z');
    await legalRecord('contrat-2027', '2037-12-31T23:59:59Z');
    await signature('2026-12-31T23:00:00Z');
    await signature('2027-01-01T00:30:00Z');
    await invoice('2026-000001');
    await invoice('2026-000002');
    await creditNote('AV-2026-00001', '2026-000002');
    // A 2026 invoice corrected by a credit note of 2027 stays as long as that credit note.
    await invoice('2026-000003');
    await creditNote('AV-2027-00001', '2026-000003');
    await invoice('2027-000001');
  });

  it('keeps everything until the end of the tenth year after the record’s year', async () => {
    const report = await runRetention({ db: database.db, clock: fakeClock(new Date('2036-12-31T23:59:58Z')) });
    expect(report).toMatchObject({ legalRecords: 0, contractSignatures: 0, invoices: 0, creditNotes: 0 });
    expect(await numbers('invoices', 'number')).toEqual(['2026-000001', '2026-000002', '2026-000003', '2027-000001']);
    expect(await numbers('contract_signatures', 'signed_at')).toHaveLength(2);
  });

  it('then deletes the year’s legal records, signature evidence, credit notes and invoices, and nothing of the next year', async () => {
    const report = await runRetention({ db: database.db, clock: fakeClock(new Date('2037-06-01T08:00:00Z')) });
    expect(report).toMatchObject({ legalRecords: 1, contractSignatures: 1, invoices: 2, creditNotes: 1 });
    expect(await numbers('legal_records', 'reference')).toEqual(['contrat-2027']);
    expect(await numbers('contract_signatures', "to_char(signed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')")).toEqual(['2027-01-01']);
    expect(await numbers('credit_notes', 'number')).toEqual(['AV-2027-00001']);
    expect(await numbers('invoices', 'number')).toEqual(['2026-000003', '2027-000001']);
  });

  it('lets the 2026 invoice go with its 2027 credit note, a year later', async () => {
    const report = await runRetention({ db: database.db, clock: fakeClock(new Date('2038-01-01T00:00:01Z')) });
    expect(report).toMatchObject({ legalRecords: 1, contractSignatures: 1, invoices: 2, creditNotes: 1 });
    for (const table of ['legal_records', 'contract_signatures', 'credit_notes', 'invoices']) {
      expect(await numbers(table, 'member_id'), table).toEqual([]);
    }
  });
});
