import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#bff/config.ts';
import type { Database } from '#bff/db/database.ts';
import { creditNoteCounters, creditNotes } from '#bff/db/credit-notes-schema.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { mailOutbox, members } from '#bff/db/schema.ts';
import { allocateCreditNoteNumber, issueCreditNote } from '#bff/invoices/credit-notes.ts';
import { type CheckoutSessionObject, recordCheckoutEvent } from '#bff/payments/checkout-events.ts';
import { FILE_FEE_CENTS } from '#machines/onboarding/plans.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';
import { TEST_SITE } from '#tests/support/test-product.ts';
import { outOfBounds, pdfPages, pdfPageTexts } from '#tests/support/pdf-text.ts';

/**
 * Credit notes (decision 119): one per refund row, numbered AV-AAAA-NNNNN per year without gaps
 * even when many refunds are recorded at once, linked to the refunded invoice, mailed once with the
 * PDF. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

const config = parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: TEST_SITE, DEMO_DATA: 'false' });
const site = { siteUrl: config.publicSiteUrl, agency: config.agency };

function session(id: string, memberId: string): CheckoutSessionObject {
  return {
    id,
    object: 'checkout.session',
    client_reference_id: memberId,
    amount_total: FILE_FEE_CENTS,
    currency: 'eur',
    status: 'complete',
    payment_status: 'paid',
    payment_link: null,
    customer_details: { email: 'membre@example.fr' },
    customer_email: null,
    metadata: { offer_id: 'file_fee' },
    livemode: false,
  };
}

describe('credit note numbers', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('50 refunds recorded at once get AV-2026-000001…000050 (the invoices’ width), no gap, each linked to its invoice, one mail each', async () => {
    const db = database.db;
    const ids = Array.from({ length: 50 }, () => randomUUID());
    await db.insert(members).values(
      ids.map((id, i) => ({
        id,
        email: `avoir.${i}@example.fr`,
        gender: 'femme',
        onboarding: {},
        contract: { fullName: `Membre ${i}` },
      })),
    );
    const paidAt = new Date('2026-06-15T10:00:00Z');
    for (const [i, id] of ids.entries())
      await recordCheckoutEvent(
        db,
        config,
        { id: `evt_avoir_${i}`, type: 'checkout.session.completed', livemode: false },
        session(`cs_test_avoir_${i}`, id),
        paidAt,
      );
    const now = new Date('2026-08-20T10:00:00Z');
    const numbers = await Promise.all(
      ids.map((id, i) =>
        db.transaction(async (tx) => {
          const [row] = await tx
            .insert(refunds)
            .values({
              memberId: id,
              checkoutSessionId: `cs_test_avoir_${i}`,
              reason: i % 2 === 0 ? 'termination' : 'withdrawal',
              amountCents: 1000 + i,
              currency: 'eur',
              paidCents: FILE_FEE_CENTS,
              keptCents: FILE_FEE_CENTS - 1000 - i,
              requestedAt: now,
              dueBy: now,
              status: 'pending',
              attempts: 0,
            })
            .returning({ id: refunds.id });
          return issueCreditNote(tx, { refundId: row?.id ?? 0, agency: config.agency, site, now });
        }),
      ),
    );
    expect(numbers.sort()).toEqual(Array.from({ length: 50 }, (_, i) => `AV-2026-${String(i + 1).padStart(6, '0')}`));
    const notes = await db.select().from(creditNotes);
    expect(notes).toHaveLength(50);
    const invoiceRows = await db.select({ number: invoices.number, memberId: invoices.memberId }).from(invoices);
    for (const note of notes) expect(note.invoiceNumber).toBe(invoiceRows.find((r) => r.memberId === note.memberId)?.number);
    const [counter] = await db.select().from(creditNoteCounters).where(eq(creditNoteCounters.year, 2026));
    expect(counter?.lastNumber).toBe(50);
    const mails = await db
      .select({ attachments: mailOutbox.attachments })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'agency-credit-note'));
    expect(mails).toHaveLength(50);
    expect(mails.every((m) => m.attachments?.[0]?.filename.startsWith('avoir-AV-2026-'))).toBe(true);
    // A second issue for the same refund adds nothing.
    const first = notes[0];
    expect(
      await db.transaction((tx) => issueCreditNote(tx, { refundId: first?.refundId ?? 0, agency: config.agency, site, now })),
    ).toBeNull();
    expect(await db.select().from(creditNotes)).toHaveLength(50);
  });

  it('a rolled-back refund gives its number back; a new year starts at 000001', async () => {
    const db = database.db;
    await expect(
      db.transaction(async (tx) => {
        expect((await allocateCreditNoteNumber(tx, 2026)).number).toBe('AV-2026-000051');
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await db.transaction((tx) => allocateCreditNoteNumber(tx, 2026))).toEqual({ number: 'AV-2026-000051', rank: 51 });
    expect(await db.transaction((tx) => allocateCreditNoteNumber(tx, 2027))).toEqual({ number: 'AV-2027-000001', rank: 1 });
  });

  it('keeps a credit note issued with 5 digits as it is; the database refuses a number that does not spell its year and rank', async () => {
    const db = database.db;
    const [note] = await db.select().from(creditNotes).limit(1);
    const legacy = { ...note!, number: `AV-2026-${String(note!.rank).padStart(5, '0')}` };
    // The same place in the sequence, written with 5 digits as before decision 186: still valid.
    await db.delete(creditNotes).where(eq(creditNotes.number, note!.number));
    await db.insert(creditNotes).values(legacy);
    expect(await db.select({ n: creditNotes.number }).from(creditNotes).where(eq(creditNotes.number, legacy.number))).toHaveLength(1);
    await expect(db.update(creditNotes).set({ number: 'AV-2026-000999' }).where(eq(creditNotes.number, legacy.number))).rejects.toThrow();
    await expect(db.update(creditNotes).set({ number: 'AV-2025-00001' }).where(eq(creditNotes.number, legacy.number))).rejects.toThrow();
    await expect(db.update(invoices).set({ rank: 1001 }).where(eq(invoices.number, '2026-000001'))).rejects.toThrow();
  });

  it('prints the client’s name and postal address, the VAT mention and « Net à rembourser », all within the A4 page', async () => {
    const db = database.db;
    const id = randomUUID();
    await db.insert(members).values({
      id,
      email: 'avoir.adresse@example.fr',
      gender: 'femme',
      onboarding: {},
      contract: { fullName: 'Amina Benali', address: '12 rue de la République', postcode: '69003', city: 'Lyon' },
    });
    await recordCheckoutEvent(
      db,
      config,
      { id: 'evt_avoir_adresse', type: 'checkout.session.completed', livemode: false },
      session('cs_test_avoir_adresse', id),
      new Date('2026-06-15T10:00:00Z'),
    );
    const now = new Date('2026-08-21T10:00:00Z');
    const number = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(refunds)
        .values({
          memberId: id,
          checkoutSessionId: 'cs_test_avoir_adresse',
          reason: 'termination',
          amountCents: 5000,
          currency: 'eur',
          paidCents: FILE_FEE_CENTS,
          keptCents: FILE_FEE_CENTS - 5000,
          requestedAt: now,
          dueBy: now,
          status: 'pending',
          attempts: 0,
        })
        .returning({ id: refunds.id });
      return issueCreditNote(tx, { refundId: row?.id ?? 0, agency: config.agency, site, now });
    });
    const [stored] = await db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.number, number ?? ''));
    const pdf = new Uint8Array(stored!.pdf);
    const [text] = (await pdfPageTexts(pdf)).map((page) => page.replace(/[\u00a0\u202f]/g, ' '));
    for (const expected of [
      `Avoir n° ${number}`,
      'Établi pour\nAmina Benali\n12 rue de la République\n69003 Lyon\navoir.adresse@example.fr',
      'Total de l’avoir',
      'Net à rembourser',
      '-50,00 €',
      config.agency.vat,
      `SIRET ${config.agency.siret}`,
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('TTC');
    expect(outOfBounds(await pdfPages(pdf))).toEqual([]);
  });
});
