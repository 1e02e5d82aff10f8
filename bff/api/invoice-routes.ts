import type { Context } from 'hono';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { existingMemberId } from '#bff/api/member-param.ts';
import { requireCaller, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { invoiceFileName, invoicePdfOf, invoicesOf } from '#bff/invoices/invoices.ts';
import { creditNoteFileName, creditNotePdfOf, creditNotesOf } from '#bff/invoices/credit-notes.ts';

/**
 * Invoices (decision 110): a member lists and downloads their own (`/user/invoices`), staff at
 * aal2 a member's (`/dashboard/members/:id/invoices`). A number that is not the caller's (or the
 * member's) answers 404, the same as one that does not exist.
 */

const FileSchema = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{6}\.pdf$/, 'Numéro de facture invalide (attendu : AAAA-NNNNNN.pdf).'),
  v.transform((file) => file.slice(0, -'.pdf'.length)),
);

function numberOf(file: string): string {
  const parsed = v.safeParse(FileSchema, file);
  if (!parsed.success) throw validationError(parsed.issues, 'Numéro de facture invalide.');
  return parsed.output;
}

/** Credit notes (decisions 119 and 186): `AV-AAAA-NNNNNN.pdf` (5 digits for those issued before decision 186). */
const CreditNoteFileSchema = v.pipe(
  v.string(),
  v.regex(/^AV-\d{4}-\d{5,6}\.pdf$/, 'Numéro d’avoir invalide (attendu : AV-AAAA-NNNNNN.pdf).'),
  v.transform((file) => file.slice(0, -'.pdf'.length)),
);

function creditNoteNumberOf(file: string): string {
  const parsed = v.safeParse(CreditNoteFileSchema, file);
  if (!parsed.success) throw validationError(parsed.issues, 'Numéro d’avoir invalide.');
  return parsed.output;
}

const CREDIT_NOTE_NOT_FOUND = () => new ApiError(404, 'CREDIT_NOTE_NOT_FOUND', 'Avoir introuvable.');

type CreditNoteListRow = Awaited<ReturnType<typeof creditNotesOf>>[number];
function creditNoteView(rows: CreditNoteListRow[]) {
  return rows.map((row) => ({
    number: row.number,
    invoiceNumber: row.invoiceNumber,
    label: row.reason === 'termination' ? 'Remboursement — résiliation pour motif légitime' : 'Remboursement — rétractation',
    amountCents: row.amountCents,
    issuedAt: row.issuedAt.toISOString(),
  }));
}

const NOT_FOUND = () => new ApiError(404, 'INVOICE_NOT_FOUND', 'Facture introuvable.');

type InvoiceListRow = Awaited<ReturnType<typeof invoicesOf>>[number];
function listView(rows: InvoiceListRow[]) {
  return rows.map((row) => ({
    number: row.number,
    offerId: row.offerId,
    label: row.lines[0]?.label ?? 'Paiement',
    totalCents: row.totalCents,
    paymentMethod: row.paymentMethod,
    paidAt: row.paidAt.toISOString(),
  }));
}

function pdfAnswer(c: Context, number: string, pdf: Uint8Array, fileName = invoiceFileName(number)) {
  c.header('Content-Type', 'application/pdf');
  c.header('Content-Disposition', `inline; filename="${fileName}"`);
  c.header('Cache-Control', 'private, no-store');
  c.header('X-Content-Type-Options', 'nosniff');
  return c.body(pdf as Uint8Array<ArrayBuffer>, 200);
}

export function invoiceRoutes(deps: ApiDeps) {
  const staffOnly = staffOnlyFor(deps);
  const db = deps.database.db;
  const memberOf = (id: string) => existingMemberId(db, id);
  return new Hono()
    .get('/user/invoices', async (c) => {
      const caller = await requireCaller(c, deps);
      c.header('Cache-Control', 'private, no-store');
      if (caller.role === 'staff') throw NOT_FOUND();
      return c.json({ invoices: listView(await invoicesOf(db, caller.id)) }, 200);
    })
    .get('/user/invoices/:file', async (c) => {
      const caller = await requireCaller(c, deps);
      if (caller.role === 'staff') throw NOT_FOUND();
      const number = numberOf(c.req.param('file'));
      const pdf = await invoicePdfOf(db, caller.id, number);
      if (!pdf) throw NOT_FOUND();
      return pdfAnswer(c, number, pdf);
    })
    .get('/dashboard/members/:id/invoices', staffOnly, async (c) => {
      const memberId = await memberOf(c.req.param('id'));
      c.header('Cache-Control', 'private, no-store');
      return c.json({ invoices: listView(await invoicesOf(db, memberId)) }, 200);
    })
    .get('/dashboard/members/:id/invoices/:file', staffOnly, async (c) => {
      const memberId = await memberOf(c.req.param('id'));
      const number = numberOf(c.req.param('file'));
      const pdf = await invoicePdfOf(db, memberId, number);
      if (!pdf) throw NOT_FOUND();
      return pdfAnswer(c, number, pdf);
    })
    .get('/user/credit-notes', async (c) => {
      const caller = await requireCaller(c, deps);
      c.header('Cache-Control', 'private, no-store');
      if (caller.role === 'staff') throw CREDIT_NOTE_NOT_FOUND();
      return c.json({ creditNotes: creditNoteView(await creditNotesOf(db, caller.id)) }, 200);
    })
    .get('/user/credit-notes/:file', async (c) => {
      const caller = await requireCaller(c, deps);
      if (caller.role === 'staff') throw CREDIT_NOTE_NOT_FOUND();
      const number = creditNoteNumberOf(c.req.param('file'));
      const pdf = await creditNotePdfOf(db, caller.id, number);
      if (!pdf) throw CREDIT_NOTE_NOT_FOUND();
      return pdfAnswer(c, number, pdf, creditNoteFileName(number));
    })
    .get('/dashboard/members/:id/credit-notes', staffOnly, async (c) => {
      const memberId = await memberOf(c.req.param('id'));
      c.header('Cache-Control', 'private, no-store');
      return c.json({ creditNotes: creditNoteView(await creditNotesOf(db, memberId)) }, 200);
    })
    .get('/dashboard/members/:id/credit-notes/:file', staffOnly, async (c) => {
      const memberId = await memberOf(c.req.param('id'));
      const number = creditNoteNumberOf(c.req.param('file'));
      const pdf = await creditNotePdfOf(db, memberId, number);
      if (!pdf) throw CREDIT_NOTE_NOT_FOUND();
      return pdfAnswer(c, number, pdf, creditNoteFileName(number));
    });
}
