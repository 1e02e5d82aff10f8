import { type SQL, sql } from 'drizzle-orm';
import { contractEndReasonLabels } from '#machines/onboarding/contract-end.ts';
import { instalmentDueAt } from '#machines/onboarding/instalments.ts';
import { terminationRefundCents, withdrawalRefundCents } from '#machines/onboarding/periods.ts';
import { FILE_FEE_CENTS, isPlanId, planById } from '#machines/onboarding/plans.ts';
import { legalPeriods, parisDay } from '#tests/support/sequences/civil-calendar.ts';
import type { Run } from '#tests/support/sequences/sequence-world.ts';

/**
 * The invariants of a member's contracts (issue 59, point 9), checked after every step of a
 * sequence. Each reads the database (the ledger) and the APIs the screens draw from, and compares
 * them with the rules alone; the legal periods come from the test's own calendar
 * (`civil-calendar.ts`), never from the product's computation. The letters are the issue's.
 *
 * (a) Per charge and per contract, refunded ≤ received; every refund names its charge's contract;
 *     a charge taken after its contract stopped is refunded in full; a withdrawal or an accepted
 *     termination refunds exactly what the rule says of the money the contract received (the
 *     instalments taken between the request and the acceptance included).
 * (b) No payment accepted before the renunciation period is over: no checkout session recorded,
 *     no step confirmed, no invoice, no instalment counted under a contract before 00:00 Paris
 *     after its 7th civil day.
 * (c) No normal invoice for a charge outside a live contract: every invoice's charge was taken
 *     while its contract ran; no invoice for an instalment flagged outside the contract or for a
 *     charge refunded as such.
 * (d) A renunciation or a withdrawal is accepted if and only if it is within its civil-day
 *     deadline: checked by the commands at each attempt (the « if » and the « only if »), and here
 *     on every stop the ledger holds.
 * (e) No mail whose meaning contradicts the state it was sent in: each mail sent is checked
 *     against the contract's facts at its sending instant (signed, paid, active, stopped, ended).
 * (f) Invoices and credit notes are numbered without gap in each year; per contract, the
 *     invoices add up to what the contract received and the credit notes to what was refunded
 *     from invoiced charges (one credit note per such refund, none for a charge refunded at once).
 * (g) What the member's and the staff's screens read equals the ledger: the schedule
 *     (`/user/instalments`, the same in the staff's member billing), what is left to pay, the next
 *     instalment, « Mon accompagnement » (`/user/progress`: the end, its reason, what was
 *     refunded), « Mes droits » (the session's state, `/user/settings`: an ended contract is in an
 *     end state, a running one is not) and the staff's billing totals (received, refunded, expected).
 */

export interface ContractFacts {
  /** Whether the member asked to start before the 14 days were over, per contract (by its signature instant). */
  earlyStart: ReadonlyMap<number, boolean>;
}

interface ContractRow {
  id: number;
  signedAt: number;
  planId: string | null;
  endsAt: number | null;
  stoppedAt: number | null;
  stopReason: 'renunciation' | 'withdrawal' | 'termination' | 'term' | null;
}

interface SessionRow {
  id: string;
  offerId: string | null;
  amount: number;
  paid: boolean;
  consumedAt: number | null;
  consumedBy: string | null;
  contractId: number | null;
  subscriptionId: string | null;
  createdAt: number;
}

interface InstalmentRow {
  invoiceId: string;
  subscriptionId: string;
  number: number;
  amount: number;
  paid: boolean;
  paidAt: number | null;
  outside: boolean;
  invoiceNumber: string | null;
  contractId: number | null;
}

interface RefundRow {
  id: number;
  charge: string;
  reason: 'withdrawal' | 'termination' | 'outside_contract';
  amount: number;
  status: 'pending' | 'succeeded' | 'failed';
  contractId: number | null;
  requestedAt: number;
}

interface InvoiceRow {
  number: string;
  year: number;
  rank: number;
  charge: string;
  contractId: number | null;
  total: number;
  paidAt: number;
}

interface CreditNoteRow {
  number: string;
  year: number;
  rank: number;
  refundId: number;
  contractId: number | null;
  amount: number;
  invoiceNumber: string | null;
}

interface MailRow {
  id: number;
  kind: string;
  status: string;
  sentAt: number | null;
}

interface TerminationRow {
  requestedAt: number;
  decision: 'accepted' | 'refused' | null;
  decidedAt: number | null;
}

interface Ledger {
  now: number;
  contracts: ContractRow[];
  sessions: SessionRow[];
  instalments: InstalmentRow[];
  refunds: RefundRow[];
  invoices: InvoiceRow[];
  creditNotes: CreditNoteRow[];
  mails: MailRow[];
  activations: number[];
  terminations: TerminationRow[];
}

const ms = (value: unknown): number | null => (value === null || value === undefined ? null : new Date(value as string).getTime());
const msOf = (value: unknown): number => new Date(value as string).getTime();

async function rows<T>(run: Run, query: SQL): Promise<T[]> {
  return ((await run.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Everything the ledger holds of the run's member (and every invoice and credit note: the numbering is the agency's). */
async function readLedger(run: Run): Promise<Ledger> {
  const id = run.member.id;
  const contracts = await rows<Record<string, unknown>>(
    run,
    sql`SELECT id, signed_at, plan_id, ends_at, stopped_at, stop_reason FROM contracts WHERE member_id = ${id}::uuid ORDER BY signed_at`,
  );
  const sessions = await rows<Record<string, unknown>>(
    run,
    sql`SELECT id, offer_id, amount_total, payment_status, status, consumed_at, consumed_by_context, contract_id, subscription_id, created_at
        FROM checkout_sessions WHERE member_id = ${id}::uuid ORDER BY created_at, id`,
  );
  const instalments = await rows<Record<string, unknown>>(
    run,
    sql`SELECT provider_invoice_id, subscription_id, number, amount_cents, status, paid_at, outside_contract, invoice_number, contract_id
        FROM instalments WHERE member_id = ${id}::uuid ORDER BY id`,
  );
  const refunds = await rows<Record<string, unknown>>(
    run,
    sql`SELECT id, checkout_session_id, reason, amount_cents, status, contract_id, requested_at FROM refunds WHERE member_id = ${id}::uuid ORDER BY id`,
  );
  const invoices = await rows<Record<string, unknown>>(
    run,
    sql`SELECT number, year, rank, checkout_session_id, contract_id, total_cents, paid_at FROM invoices ORDER BY year, rank`,
  );
  const notes = await rows<Record<string, unknown>>(
    run,
    sql`SELECT number, year, rank, refund_id, contract_id, amount_cents, invoice_number FROM credit_notes ORDER BY year, rank`,
  );
  const mails = await rows<Record<string, unknown>>(
    run,
    sql`SELECT id, kind, status, sent_at FROM mail_outbox WHERE to_address = ${run.member.email} ORDER BY id`,
  );
  const activations = await rows<Record<string, unknown>>(
    run,
    sql`SELECT created_at FROM onboarding_events WHERE member_id = ${id}::uuid AND to_state = 'membre-actif' AND from_state <> 'membre-actif' ORDER BY id`,
  );
  const terminations = await rows<Record<string, unknown>>(
    run,
    sql`SELECT requested_at, decision, decided_at FROM contract_terminations WHERE member_id = ${id}::uuid ORDER BY requested_at`,
  );
  return {
    now: run.now(),
    contracts: contracts.map((r) => ({
      id: Number(r.id),
      signedAt: msOf(r.signed_at),
      planId: (r.plan_id as string | null) ?? null,
      endsAt: ms(r.ends_at),
      stoppedAt: ms(r.stopped_at),
      stopReason: (r.stop_reason as ContractRow['stopReason']) ?? null,
    })),
    sessions: sessions.map((r) => ({
      id: r.id as string,
      offerId: (r.offer_id as string | null) ?? null,
      amount: Number(r.amount_total ?? 0),
      paid: r.payment_status === 'paid' && r.status === 'complete' && Number(r.amount_total ?? 0) > 0,
      consumedAt: ms(r.consumed_at),
      consumedBy: (r.consumed_by_context as string | null) ?? null,
      contractId: r.contract_id === null ? null : Number(r.contract_id),
      subscriptionId: (r.subscription_id as string | null) ?? null,
      createdAt: msOf(r.created_at),
    })),
    instalments: instalments.map((r) => ({
      invoiceId: r.provider_invoice_id as string,
      subscriptionId: r.subscription_id as string,
      number: Number(r.number),
      amount: Number(r.amount_cents),
      paid: r.status === 'paid',
      paidAt: ms(r.paid_at),
      outside: r.outside_contract === true,
      invoiceNumber: (r.invoice_number as string | null) ?? null,
      contractId: r.contract_id === null ? null : Number(r.contract_id),
    })),
    refunds: refunds.map((r) => ({
      id: Number(r.id),
      charge: r.checkout_session_id as string,
      reason: r.reason as RefundRow['reason'],
      amount: Number(r.amount_cents),
      status: r.status as RefundRow['status'],
      contractId: r.contract_id === null ? null : Number(r.contract_id),
      requestedAt: msOf(r.requested_at),
    })),
    invoices: invoices.map((r) => ({
      number: r.number as string,
      year: Number(r.year),
      rank: Number(r.rank),
      charge: r.checkout_session_id as string,
      contractId: r.contract_id === null ? null : Number(r.contract_id),
      total: Number(r.total_cents),
      paidAt: msOf(r.paid_at),
    })),
    creditNotes: notes.map((r) => ({
      number: r.number as string,
      year: Number(r.year),
      rank: Number(r.rank),
      refundId: Number(r.refund_id),
      contractId: r.contract_id === null ? null : Number(r.contract_id),
      amount: Number(r.amount_cents),
      invoiceNumber: (r.invoice_number as string | null) ?? null,
    })),
    mails: mails.map((r) => ({ id: Number(r.id), kind: r.kind as string, status: r.status as string, sentAt: ms(r.sent_at) })),
    activations: activations.map((r) => msOf(r.created_at)),
    terminations: terminations.map((r) => ({
      requestedAt: msOf(r.requested_at),
      decision: (r.decision as TerminationRow['decision']) ?? null,
      decidedAt: ms(r.decided_at),
    })),
  };
}

// ---------------------------------------------------------------------------
// The ledger's own reading of a contract

/** When the contract stopped or reached its term (the earlier), or null while it runs. */
function endOf(c: ContractRow): number | null {
  const ends = [c.stoppedAt, c.endsAt].filter((x): x is number => x !== null);
  return ends.length > 0 ? Math.min(...ends) : null;
}

function liveAt(c: ContractRow, t: number): boolean {
  const end = endOf(c);
  return t >= c.signedAt && (end === null || t < end);
}

/** The contract in force at `t` (the latest signed at or before it), if any. */
function contractAt(ledger: Ledger, t: number): ContractRow | null {
  let found: ContractRow | null = null;
  for (const c of ledger.contracts) if (c.signedAt <= t) found = c;
  return found;
}

function nextSignature(ledger: Ledger, c: ContractRow): number {
  const later = ledger.contracts.find((x) => x.signedAt > c.signedAt);
  return later ? later.signedAt : Number.POSITIVE_INFINITY;
}

/** The sessions that confirmed a step of contract `c` (its file fee and its plan). */
function consumedOf(ledger: Ledger, c: ContractRow): SessionRow[] {
  return ledger.sessions.filter((s) => s.contractId === c.id && s.consumedAt !== null && s.paid);
}

/** When both payments of contract `c` were confirmed (it is paid), or null. */
function paidAtOf(ledger: Ledger, c: ContractRow): number | null {
  const consumed = consumedOf(ledger, c);
  const app = consumed.find((s) => s.consumedBy === 'app');
  const sub = consumed.find((s) => s.consumedBy === 'sub');
  return app?.consumedAt && sub?.consumedAt ? Math.max(app.consumedAt, sub.consumedAt) : null;
}

function activeAtOf(ledger: Ledger, c: ContractRow): number | null {
  const limit = nextSignature(ledger, c);
  return ledger.activations.find((t) => t >= c.signedAt && t < limit) ?? null;
}

/** The money contract `c` received under it: its confirmed sessions and its instalments paid within it. */
function inContractCharges(ledger: Ledger, c: ContractRow): { id: string; amount: number; at: number }[] {
  return [
    ...consumedOf(ledger, c).map((s) => ({ id: s.id, amount: s.amount, at: s.createdAt })),
    ...ledger.instalments
      .filter((i) => i.contractId === c.id && i.paid && !i.outside)
      .map((i) => ({ id: i.invoiceId, amount: i.amount, at: i.paidAt ?? 0 })),
  ];
}

function receivedOf(ledger: Ledger, charge: string): number | null {
  const session = ledger.sessions.find((s) => s.id === charge);
  if (session) return session.paid ? session.amount : 0;
  const instalment = ledger.instalments.find((i) => i.invoiceId === charge);
  if (instalment) return instalment.paid ? instalment.amount : 0;
  return null;
}

function contractOfCharge(ledger: Ledger, charge: string): number | null {
  return (
    ledger.sessions.find((s) => s.id === charge)?.contractId ?? ledger.instalments.find((i) => i.invoiceId === charge)?.contractId ?? null
  );
}

const counted = (r: RefundRow) => r.status !== 'failed';
const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
const euros = (cents: number) => `${(cents / 100).toFixed(2)} €`;
const when = (t: number | null) => (t === null ? '—' : `${new Date(t).toISOString()} (Paris ${parisDay(t)})`);

function contractPriceCents(c: ContractRow): number {
  return FILE_FEE_CENTS + (c.planId && isPlanId(c.planId) ? planById(c.planId).totalCents : 0);
}

// ---------------------------------------------------------------------------
// (a)–(f): the ledger alone

function ledgerViolations(ledger: Ledger, facts: ContractFacts): string[] {
  const v: string[] = [];
  const charges = new Set(ledger.refunds.map((r) => r.charge));
  // (a) per charge, per contract, the refund's contract, what a stop refunds.
  for (const charge of charges) {
    const refunded = sum(ledger.refunds.filter((r) => r.charge === charge && counted(r)).map((r) => r.amount));
    const received = receivedOf(ledger, charge);
    if (received === null) v.push(`(a) refund of an unknown charge ${charge}`);
    else if (refunded > received) v.push(`(a) charge ${charge}: refunded ${euros(refunded)} > received ${euros(received)}`);
    for (const r of ledger.refunds.filter((x) => x.charge === charge))
      if (r.contractId !== contractOfCharge(ledger, charge))
        v.push(`(a) refund ${r.id} names contract ${r.contractId}, its charge ${charge} is contract ${contractOfCharge(ledger, charge)}'s`);
  }
  for (const c of ledger.contracts) {
    const received = sum(
      [
        ...ledger.sessions.filter((s) => s.contractId === c.id && s.paid),
        ...ledger.instalments.filter((i) => i.contractId === c.id && i.paid),
      ].map((x) => x.amount),
    );
    const refunded = sum(ledger.refunds.filter((r) => r.contractId === c.id && counted(r)).map((r) => r.amount));
    if (refunded > received) v.push(`(a) contract ${c.id}: refunded ${euros(refunded)} > received ${euros(received)}`);
    const end = endOf(c);
    // A charge taken after the stop or the term is given back in full, at once.
    for (const i of ledger.instalments.filter((x) => x.contractId === c.id && x.paid)) {
      const after = i.outside || (end !== null && (i.paidAt ?? 0) >= end);
      const back = sum(ledger.refunds.filter((r) => r.charge === i.invoiceId && counted(r)).map((r) => r.amount));
      if (after && back !== i.amount)
        v.push(
          `(a) instalment ${i.number} (${i.invoiceId}) paid ${when(i.paidAt)} after contract ${c.id} ended ${when(end)}: refunded ${euros(back)} of ${euros(i.amount)}`,
        );
    }
    for (const s of ledger.sessions.filter((x) => x.contractId === c.id && x.paid && x.consumedAt === null)) {
      const back = sum(ledger.refunds.filter((r) => r.charge === s.id && counted(r)).map((r) => r.amount));
      if (end !== null && s.createdAt >= end && back !== s.amount)
        v.push(
          `(a) checkout ${s.id} paid ${when(s.createdAt)} after contract ${c.id} ended ${when(end)}: refunded ${euros(back)} of ${euros(s.amount)}`,
        );
    }
    const own = inContractCharges(ledger, c);
    const ownUntilStop = own.filter((x) => c.stoppedAt === null || x.at <= c.stoppedAt);
    const signed = c.signedAt;
    const endsAt = c.endsAt ?? signed;
    if (c.stopReason === 'withdrawal' && c.stoppedAt !== null) {
      const expected = withdrawalRefundCents({
        paidCents: sum(ownUntilStop.map((x) => x.amount)),
        contractPriceCents: contractPriceCents(c),
        earlyStart: facts.earlyStart.get(signed) === true,
        signedAtMs: signed,
        endsAtMs: endsAt,
        now: c.stoppedAt,
      }).refundCents;
      const refunded = sum(
        ledger.refunds.filter((r) => r.contractId === c.id && r.reason === 'withdrawal' && counted(r)).map((r) => r.amount),
      );
      if (refunded !== expected)
        v.push(`(a) withdrawal of contract ${c.id}: refunded ${euros(refunded)}, the rule gives ${euros(expected)}`);
    }
    if (c.stopReason === 'termination' && c.stoppedAt !== null) {
      const request = [...ledger.terminations].reverse().find((t) => t.decision === 'accepted' && t.decidedAt === c.stoppedAt);
      if (!request) v.push(`(a) contract ${c.id} terminated ${when(c.stoppedAt)} without an accepted request then`);
      else {
        const expected = terminationRefundCents({
          paidCents: sum(ownUntilStop.map((x) => x.amount)),
          contractPriceCents: contractPriceCents(c),
          signedAtMs: signed,
          endsAtMs: endsAt,
          requestedAtMs: request.requestedAt,
        }).refundCents;
        const refunded = sum(
          ledger.refunds.filter((r) => r.contractId === c.id && r.reason === 'termination' && counted(r)).map((r) => r.amount),
        );
        if (refunded !== expected)
          v.push(
            `(a) termination of contract ${c.id}: refunded ${euros(refunded)}, the rule gives ${euros(expected)} (paid until the stop ${euros(sum(ownUntilStop.map((x) => x.amount)))}, requested ${when(request.requestedAt)})`,
          );
      }
    }
  }

  // (b) no money before the renunciation period is over.
  for (const s of ledger.sessions) {
    const c = contractAt(ledger, s.createdAt);
    const opens = c ? legalPeriods(c.signedAt).paymentOpensAtMs : Number.POSITIVE_INFINITY;
    if (s.createdAt < opens) v.push(`(b) checkout ${s.id} recorded ${when(s.createdAt)}, before payment opened ${when(c ? opens : null)}`);
    if (s.consumedAt !== null) {
      const own = ledger.contracts.find((x) => x.id === s.contractId);
      const ownOpens = own ? legalPeriods(own.signedAt).paymentOpensAtMs : Number.POSITIVE_INFINITY;
      if (s.consumedAt < ownOpens)
        v.push(`(b) checkout ${s.id} confirmed a step ${when(s.consumedAt)}, before ${when(own ? ownOpens : null)}`);
    }
  }
  for (const i of ledger.instalments.filter((x) => x.paid && !x.outside)) {
    const c = ledger.contracts.find((x) => x.id === i.contractId);
    if (c && (i.paidAt ?? 0) < legalPeriods(c.signedAt).paymentOpensAtMs)
      v.push(`(b) instalment ${i.invoiceId} counted ${when(i.paidAt)}, before payment opened`);
  }

  // (c) and (b): an invoice only for a charge taken while its contract ran, after payment opened.
  const outsideCharges = new Set(ledger.refunds.filter((r) => r.reason === 'outside_contract').map((r) => r.charge));
  const mine = new Set([...ledger.sessions.map((s) => s.id), ...ledger.instalments.map((i) => i.invoiceId)]);
  for (const invoice of ledger.invoices.filter((x) => mine.has(x.charge))) {
    const c = ledger.contracts.find((x) => x.id === invoice.contractId);
    if (!c) {
      v.push(`(c) invoice ${invoice.number} names no contract of the member`);
      continue;
    }
    if (invoice.paidAt < legalPeriods(c.signedAt).paymentOpensAtMs)
      v.push(`(b) invoice ${invoice.number} for a payment ${when(invoice.paidAt)}, before payment opened`);
    if (!liveAt(c, invoice.paidAt))
      v.push(`(c) invoice ${invoice.number} for a charge ${when(invoice.paidAt)} outside contract ${c.id} (ended ${when(endOf(c))})`);
    if (outsideCharges.has(invoice.charge))
      v.push(`(c) invoice ${invoice.number} for charge ${invoice.charge}, refunded as taken outside the contract`);
  }
  for (const i of ledger.instalments.filter((x) => x.outside && x.invoiceNumber !== null))
    v.push(`(c) instalment ${i.invoiceId} flagged outside the contract has invoice ${i.invoiceNumber}`);

  // (d) on the ledger: every renunciation and withdrawal stop within its civil-day period.
  for (const c of ledger.contracts) {
    const periods = legalPeriods(c.signedAt);
    if (c.stopReason === 'renunciation' && c.stoppedAt !== null && c.stoppedAt >= periods.renunciation.endsAtMs)
      v.push(`(d) contract ${c.id} renounced ${when(c.stoppedAt)}, after its period ended ${when(periods.renunciation.endsAtMs)}`);
    if (c.stopReason === 'withdrawal' && c.stoppedAt !== null && c.stoppedAt >= periods.withdrawal.endsAtMs)
      v.push(`(d) contract ${c.id} withdrawn ${when(c.stoppedAt)}, after its period ended ${when(periods.withdrawal.endsAtMs)}`);
  }

  // (e) mails and the state they were sent in.
  for (const mail of ledger.mails) {
    if (mail.status !== 'sent' || mail.sentAt === null) continue;
    // The agency's clock stands still between two moves: what happened at the very instant of the
    // sending may have come just before or just after it; the mail is wrong only if it is wrong
    // either way.
    const before = mailContradiction(ledger, mail.kind, mail.sentAt - 1);
    const wrong = before === null ? null : mailContradiction(ledger, mail.kind, mail.sentAt);
    if (wrong) v.push(`(e) mail ${mail.kind} sent ${when(mail.sentAt)}: ${wrong}`);
  }

  // (f) numbering without gaps, and sums.
  for (const [name, list] of [
    ['invoices', ledger.invoices],
    ['credit notes', ledger.creditNotes],
  ] as const) {
    const byYear = new Map<number, number[]>();
    for (const x of list) byYear.set(x.year, [...(byYear.get(x.year) ?? []), x.rank]);
    for (const [year, ranks] of byYear) {
      const sorted = [...ranks].sort((a, b) => a - b);
      if (sorted.some((rank, index) => rank !== index + 1))
        v.push(`(f) ${name} of ${year} are not numbered 1…${sorted.length}: ${sorted.join(', ')}`);
    }
  }
  for (const c of ledger.contracts) {
    const invoiced = sum(ledger.invoices.filter((x) => x.contractId === c.id).map((x) => x.total));
    const received = sum(inContractCharges(ledger, c).map((x) => x.amount));
    if (invoiced !== received)
      v.push(`(f) contract ${c.id}: invoices add up to ${euros(invoiced)}, it received ${euros(received)} under it`);
    const corrected = sum(ledger.creditNotes.filter((n) => n.contractId === c.id).map((n) => n.amount));
    const refundedInvoiced = sum(
      ledger.refunds.filter((r) => r.contractId === c.id && r.reason !== 'outside_contract').map((r) => r.amount),
    );
    if (corrected !== refundedInvoiced)
      v.push(`(f) contract ${c.id}: credit notes add up to ${euros(corrected)}, refunds of invoiced charges to ${euros(refundedInvoiced)}`);
  }
  for (const r of ledger.refunds) {
    const notes = ledger.creditNotes.filter((n) => n.refundId === r.id);
    const expected = r.reason === 'outside_contract' ? 0 : 1;
    if (notes.length !== expected) v.push(`(f) refund ${r.id} (${r.reason}) has ${notes.length} credit notes, expected ${expected}`);
    for (const n of notes)
      if (n.amount !== r.amount) v.push(`(f) credit note ${n.number} of ${euros(n.amount)} for a refund of ${euros(r.amount)}`);
  }
  for (const invoice of ledger.invoices.filter((x) => mine.has(x.charge))) {
    const corrected = sum(ledger.creditNotes.filter((n) => n.invoiceNumber === invoice.number).map((n) => n.amount));
    if (corrected > invoice.total) v.push(`(f) invoice ${invoice.number} of ${euros(invoice.total)} corrected by ${euros(corrected)}`);
  }
  return v;
}

/**
 * (e) What each scheduled or payment mail says, against the contract's facts at `t`: null when it
 * says something true, else why not. Event mails (confirmations, invoices, credit notes) are sent
 * in the transaction of the event they confirm.
 */
function mailContradiction(ledger: Ledger, kind: string, t: number): string | null {
  const c = contractAt(ledger, t);
  const live = c !== null && liveAt(c, t);
  const paidAt = c ? paidAtOf(ledger, c) : null;
  const paid = paidAt !== null && paidAt <= t;
  const activeAt = c ? activeAtOf(ledger, c) : null;
  const active = activeAt !== null && activeAt <= t;
  const pending = ledger.terminations.some((x) => x.requestedAt <= t && (x.decidedAt === null || x.decidedAt > t));
  const state =
    c === null
      ? 'no contract'
      : `contract ${c.id} ${live ? 'running' : `ended ${when(endOf(c))} (${c.stopReason ?? 'term'})`}, ${paid ? 'paid' : 'unpaid'}, ${active ? 'active' : 'not active'}${pending ? ', termination requested' : ''}`;
  switch (kind) {
    case 'agency-renunciation-period-over': // « le paiement est ouvert — Régler mon inscription »
      return live && c && t >= legalPeriods(c.signedAt).paymentOpensAtMs && !paid ? null : `asks to pay, but ${state}`;
    case 'agency-withdrawal-period-over': // « la prochaine étape est votre entretien de rapprochement »
      return live && paid && !active ? null : `announces the matchmaking meeting, but ${state}`;
    case 'agency-active-member':
      return live && active ? null : `says « vous êtes désormais membre », but ${state}`;
    case 'agency-term-ending':
      return live && active && !pending ? null : `says the contract « prend fin le … », but ${state}`;
    case 'agency-term-ended':
      return c && c.endsAt !== null && c.endsAt <= t && (c.stoppedAt === null || c.stopReason === 'term')
        ? null
        : `says the contract ended at its term, but ${state}`;
    case 'agency-instalment-failed':
      return live ? null : `asks to settle a failed instalment, but ${state}`;
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------
// (g): the screens' APIs against the ledger

interface ScheduleJson {
  planId: string;
  of: number;
  paidCount: number;
  paidCents: number;
  refundedCents: number;
  leftCents: number;
  next: { number: number; dueAt: string; amountCents: number } | null;
  rows: { number: number; status: string; amountCents: number; refundedCents: number; dueAt: string }[];
}

interface Screens {
  memberSchedule: ScheduleJson | null;
  staffSchedule: ScheduleJson | null;
  staffTotals: { receivedCents: number; refundedCents: number; expectedCents: number };
  progress: { endsOn: string | null; ended: { on: string; reason: string; refundedCents: number } | null };
  state: string;
}

async function readScreens(run: Run): Promise<Screens> {
  const member = run.member.agent;
  const get = async <T>(agent: typeof member, path: string): Promise<T> => {
    const response = await agent.get(path);
    if (response.status !== 200) throw new Error(`(g) GET ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  const mine = await get<{ schedule: ScheduleJson | null }>(member, '/api/v1/user/instalments');
  const billing = await get<{ schedule: ScheduleJson | null; totals: Screens['staffTotals'] }>(
    run.staff.agent,
    `/api/v1/dashboard/members/${run.member.id}/billing`,
  );
  const progress = await get<{ term: Screens['progress'] }>(member, '/api/v1/user/progress');
  const settings = await get<{ state: string }>(member, '/api/v1/user/settings');
  return {
    memberSchedule: mine.schedule,
    staffSchedule: billing.schedule,
    staffTotals: billing.totals,
    progress: progress.term,
    state: settings.state,
  };
}

const END_STATES: Readonly<Record<string, string>> = {
  renunciation: 'renonce',
  withdrawal: 'retracte',
  termination: 'resilie',
  term: 'contrat-termine',
};

const END_REASONS: Readonly<Record<string, string>> = {
  renunciation: contractEndReasonLabels.renonciation,
  withdrawal: contractEndReasonLabels.retractation,
  termination: contractEndReasonLabels.resiliation,
  term: contractEndReasonLabels.terme,
};

function screenViolations(ledger: Ledger, screens: Screens): string[] {
  const v: string[] = [];
  const now = ledger.now;
  if (JSON.stringify(screens.memberSchedule) !== JSON.stringify(screens.staffSchedule))
    v.push(
      `(g) the member's schedule and the staff's differ:\n${JSON.stringify(screens.memberSchedule)}\n${JSON.stringify(screens.staffSchedule)}`,
    );
  const c = ledger.contracts.at(-1) ?? null;
  const top = screens.state.split('.', 1)[0] ?? '';
  const end = c ? endOf(c) : null;
  const over = c !== null && end !== null && end <= now;
  const reason = c && over ? (c.stoppedAt !== null && c.stoppedAt <= now ? (c.stopReason ?? 'term') : 'term') : null;

  // « Mes droits » (the session's state).
  if (c && over && reason && top !== END_STATES[reason])
    v.push(`(g) contract ${c.id} ended (${reason}) ${when(end)}, the member's state is ${screens.state}`);
  if (c && !over && Object.values(END_STATES).includes(top)) v.push(`(g) contract ${c.id} runs, the member's state is ${screens.state}`);

  // « Mon accompagnement ».
  if (c && over && reason) {
    const ended = screens.progress.ended;
    const refunded = sum(ledger.refunds.filter((r) => r.contractId === c.id && counted(r)).map((r) => r.amount));
    const day = parisDay(reason === 'term' ? (c.endsAt ?? 0) - 1 : (c.stoppedAt ?? 0));
    if (!ended) v.push(`(g) « Mon accompagnement » says nothing of the end of contract ${c.id} (${reason})`);
    else {
      if (ended.reason !== END_REASONS[reason])
        v.push(`(g) « Mon accompagnement » gives the reason « ${ended.reason} », the ledger ${reason}`);
      if (ended.refundedCents !== refunded)
        v.push(`(g) « Mon accompagnement » says ${euros(ended.refundedCents)} refunded, the ledger ${euros(refunded)}`);
      if (ended.on !== day) v.push(`(g) « Mon accompagnement » says it ended on ${ended.on}, the ledger ${day}`);
    }
    if (screens.progress.endsOn !== null)
      v.push(`(g) « Mon accompagnement » still says the contract « prend fin le ${screens.progress.endsOn} »`);
  }
  if (c && !over && screens.progress.ended) v.push(`(g) « Mon accompagnement » says contract ${c.id} ended, it runs`);

  // The schedule (member and staff).
  const s = screens.memberSchedule;
  const plan = c?.planId && isPlanId(c.planId) ? planById(c.planId) : null;
  const planSession = c ? consumedOf(ledger, c).find((x) => x.consumedBy === 'sub' && x.subscriptionId !== null) : undefined;
  let expectedLeft = 0;
  if (c && plan?.type === 'monthly' && planSession) {
    if (!s) v.push(`(g) contract ${c.id} has a paid monthly plan and no schedule`);
    else {
      const paidRows = ledger.instalments.filter(
        (i) => i.subscriptionId === planSession.subscriptionId && i.paid && i.number <= plan.installments,
      );
      const charges = [planSession.id, ...paidRows.map((i) => i.invoiceId)];
      const paidCents = planSession.amount + sum(paidRows.map((i) => i.amount));
      const refundedCents = sum(ledger.refunds.filter((r) => charges.includes(r.charge) && counted(r)).map((r) => r.amount));
      // What is still owed: the instalments not paid that fall due before the contract ends.
      const paidNumbers = new Set(paidRows.map((i) => i.number));
      let unpaid = 0;
      for (let n = 2; n <= plan.installments; n += 1)
        if (!paidNumbers.has(n) && (end === null || instalmentDueAt(planSession.createdAt, n) < end)) unpaid += 1;
      expectedLeft = over ? 0 : unpaid * plan.priceCents;
      if (s.paidCents !== paidCents) v.push(`(g) schedule: ${euros(s.paidCents)} paid, the ledger ${euros(paidCents)}`);
      if (s.refundedCents !== refundedCents) v.push(`(g) schedule: ${euros(s.refundedCents)} refunded, the ledger ${euros(refundedCents)}`);
      if (s.leftCents !== expectedLeft)
        v.push(
          `(g) schedule: ${euros(s.leftCents)} left to pay, the ledger ${euros(expectedLeft)} (${over ? 'contract ended' : `${unpaid} unpaid`})`,
        );
      if (over && s.next !== null) v.push(`(g) schedule: next instalment ${s.next.number} on ${s.next.dueAt} for an ended contract`);
      if (!over && (s.next === null) !== (expectedLeft === 0))
        v.push('(g) schedule: a next instalment shown when nothing is left, or none when something is');
      for (const row of s.rows)
        if ((row.status === 'a-venir' || row.status === 'echouee') && end !== null && Date.parse(row.dueAt) >= end)
          v.push(`(g) schedule: instalment ${row.number} « ${row.status} » due ${row.dueAt}, after the contract's end ${when(end)}`);
    }
  } else if (s && s.leftCents !== 0) v.push(`(g) schedule of no paid monthly contract shows ${euros(s.leftCents)} left`);

  // The staff's billing totals.
  const received = sum(
    [...ledger.sessions.filter((x) => x.paid && x.consumedAt !== null), ...ledger.instalments.filter((x) => x.paid)].map((x) => x.amount),
  );
  const receivedAll = received + sum(ledger.sessions.filter((x) => x.paid && x.consumedAt === null).map((x) => x.amount));
  const refundedDone = sum(ledger.refunds.filter((r) => r.status === 'succeeded').map((r) => r.amount));
  if (screens.staffTotals.receivedCents !== receivedAll)
    v.push(`(g) staff billing: ${euros(screens.staffTotals.receivedCents)} received, the ledger ${euros(receivedAll)}`);
  if (screens.staffTotals.refundedCents !== refundedDone)
    v.push(`(g) staff billing: ${euros(screens.staffTotals.refundedCents)} refunded, the ledger ${euros(refundedDone)}`);
  if (screens.staffTotals.expectedCents !== expectedLeft)
    v.push(`(g) staff billing: ${euros(screens.staffTotals.expectedCents)} still expected, the ledger ${euros(expectedLeft)}`);
  return v;
}

/** Every invariant, after a step: throws with the list of what does not hold. */
export async function checkInvariants(run: Run, facts: ContractFacts): Promise<void> {
  const ledger = await readLedger(run);
  const violations = [...ledgerViolations(ledger, facts), ...screenViolations(ledger, await readScreens(run))];
  if (violations.length > 0) throw new InvariantBroken(violations);
}

class InvariantBroken extends Error {
  constructor(readonly violations: string[]) {
    super(`invariants broken:\n- ${violations.join('\n- ')}`);
  }
}
