import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { toIsoInstant } from '#machines/onboarding/instant.ts';
import { type PlanId, planById } from '#machines/onboarding/plans.ts';
import { randomId, stripeTestEvent } from '#bff/stand-ins/stripe-events.ts';
import { instalmentInvoiceEvent } from '#bff/stand-ins/instalment-stand-in.ts';
import { chargeInstalments, postSignedStripeEvent } from '#tests/support/contract-ledger.ts';
import { signContract } from '#tests/support/contract-signature.ts';
import { payFileFeeAndPlan, sendUpdate } from '#tests/support/member-walk.ts';
import {
  addDays,
  DST_CHANGES,
  legalPeriods,
  PUBLIC_HOLIDAYS,
  parisDay,
  parisInstant,
  parisTime,
} from '#tests/support/sequences/civil-calendar.ts';
import { checkInvariants, type ContractFacts } from '#tests/support/sequences/invariants.ts';
import type { Run } from '#tests/support/sequences/sequence-world.ts';

/**
 * The model of one member's contracts (issue 59, point 9) and the commands a sequence is made
 * of: the member's steps to a signature (or a renewal), renunciation, payment, withdrawal,
 * activation, termination requested / accepted / refused, the instalment stand-in's passes,
 * Stripe events (paid, failed, replayed, late, out of order), moves of the agency's clock and job
 * runs. Each command states what the rules expect of the answer (the legal periods from the test's
 * own calendar), runs through the HTTP API, updates the model, and then every invariant is checked
 * (`invariants.ts`).
 */

type Phase = 'new' | 'signed' | 'paid' | 'active' | 'termination-requested' | 'ended';
type StopReason = 'renunciation' | 'withdrawal' | 'termination' | 'term';

export interface Model {
  phase: Phase;
  /** The agency's time after the last command. */
  now: number;
  signedAt: number | null;
  planId: PlanId | null;
  /** The current contract asked to start before the 14 days were over (L221-25). */
  early: boolean;
  termEndsAt: number | null;
  ended: StopReason | null;
  contracts: number;
  /** Whether each contract asked to start early, by its signature instant (for the refund rule). */
  earlyStart: Map<number, boolean>;
  /** The plan of the current contract was paid through a monthly subscription. */
  subscribed: boolean;
}

export interface Real {
  run: Run;
  /** What happened, in order, with the agency's time: printed with a failure. */
  trace: string[];
  /** The last Stripe event the sequence posted itself (for a replay). */
  lastEvent: unknown;
}

export function initialModel(now: number): Model {
  return {
    phase: 'new',
    now,
    signedAt: null,
    planId: null,
    early: false,
    termEndsAt: null,
    ended: null,
    contracts: 0,
    earlyStart: new Map(),
    subscribed: false,
  };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const MINUTE_MS = 60_000;

const paris = (ms: number) => `${parisDay(ms)} ${parisTime(ms)}`;

const END_STATE: Record<StopReason, string> = {
  renunciation: 'renonce',
  withdrawal: 'retracte',
  termination: 'resilie',
  term: 'contrat-termine',
};

/** The member's state as the chart must give it for the model (a state key's top or whole key). */
function expectedState(m: Model): string | null {
  if (m.phase === 'new') return null;
  if (m.phase === 'ended') return END_STATE[m.ended ?? 'term'];
  if (m.phase === 'signed')
    return m.signedAt !== null && m.now < legalPeriods(m.signedAt).paymentOpensAtMs
      ? 'attente-contrat.delai-renonciation'
      : 'frais-de-dossier';
  if (m.phase === 'paid') return 'attente';
  if (m.phase === 'active') return 'membre-actif';
  return 'resiliation-demandee';
}

/** The term reached: a running contract has ended (a pending termination request stays for staff to decide). */
function refresh(m: Model, now: number): void {
  m.now = now;
  if (m.termEndsAt !== null && now >= m.termEndsAt && (m.phase === 'signed' || m.phase === 'paid' || m.phase === 'active')) {
    m.phase = 'ended';
    m.ended = 'term';
  }
}

function facts(m: Model): ContractFacts {
  return { earlyStart: m.earlyStart };
}

type Answer = { status: number; body: { state?: string; error?: { code: string; message: string } } };

function expectAnswer(what: string, answer: Answer, accepted: boolean, state?: string): void {
  const ok = answer.status === 200;
  if (ok !== accepted)
    throw new Error(
      `${what}: expected ${accepted ? 'accepted' : 'refused'}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`,
    );
  if (!ok && (answer.status < 400 || answer.status >= 500)) throw new Error(`${what}: refused with ${answer.status}, not a 4xx`);
  if (ok && state && !(answer.body.state ?? '').startsWith(state))
    throw new Error(`${what}: state ${answer.body.state}, expected ${state}`);
}

async function stateOf(r: Real): Promise<string> {
  const response = await r.run.member.agent.get('/api/v1/user/settings');
  return ((await response.json()) as { state: string }).state;
}

/** One step: acts, updates the model, then checks the member's state against the model and every invariant. */
abstract class Step implements fc.AsyncCommand<Model, Real> {
  abstract check(m: Readonly<Model>): boolean;
  protected abstract act(m: Model, r: Real): Promise<string>;
  abstract toString(): string;
  async run(m: Model, r: Real): Promise<void> {
    r.run.tick();
    const before = r.run.now();
    const outcome = await this.act(m, r);
    refresh(m, r.run.now());
    r.trace.push(`${paris(before)} → ${paris(m.now)}  ${this.toString()}: ${outcome}`);
    const expected = expectedState(m);
    if (expected !== null) {
      const state = await stateOf(r);
      if (!state.startsWith(expected)) throw new Error(`the member's state is ${state}, the model expects ${expected}`);
    }
    await checkInvariants(r.run, facts(m));
  }
}

// ---------------------------------------------------------------------------
// The member's steps

/** The member's steps to a signed contract (after `renew` when a contract ended): plan, pre-contract information, meeting, contract, signature. */
class Sign extends Step {
  constructor(
    readonly planId: PlanId,
    readonly early: boolean,
    readonly waitHours: number,
  ) {
    super();
  }
  check(m: Readonly<Model>) {
    return m.phase === 'new' || m.phase === 'ended';
  }
  toString() {
    return `Sign(${this.planId}${this.early ? ', early start' : ''}${this.waitHours ? `, after ${this.waitHours} h` : ''})`;
  }
  protected async act(m: Model, r: Real) {
    const { run } = r;
    const { member, staff } = run;
    if (this.waitHours > 0) await run.moveTo(run.now() + this.waitHours * HOUR_MS);
    const at = samplePayloads(member, run.now());
    const steps: { agent: 'member' | 'staff'; body: Record<string, unknown> }[] = [];
    if (m.phase === 'ended') steps.push({ agent: 'member', body: at.renew });
    else
      steps.push(
        { agent: 'member', body: at.profil },
        { agent: 'member', body: at.questionnaire },
        { agent: 'member', body: at.form_per_inf },
      );
    const meetingAt = run.now() + 2 * DAY_MS;
    steps.push(
      { agent: 'member', body: { context: 'sel_plan', id: this.planId, renounce: this.early } },
      { agent: 'member', body: at.pre_contract_ok },
      { agent: 'member', body: { context: 'onb_meet', date: toIsoInstant(meetingAt) } },
      { agent: 'member', body: at.onb_meet_resa },
    );
    for (const step of steps) expectAnswer(String(step.body.context), await sendUpdate(member.agent, step.body), true);
    await run.moveTo(meetingAt + HOUR_MS);
    expectAnswer('onb_meet_ok', await sendUpdate(staff.agent, at.onb_meet_ok), true);
    expectAnswer('contractForm', await sendUpdate(member.agent, at.contractForm), true);
    await signContract(member);
    const signedAt = run.now();
    const [row] = (
      (await run.db.execute(
        sql`SELECT ends_at FROM contracts WHERE member_id = ${member.id}::uuid ORDER BY signed_at DESC LIMIT 1`,
      )) as unknown as { rows: { ends_at: string | null }[] }
    ).rows;
    m.phase = 'signed';
    m.signedAt = signedAt;
    m.planId = this.planId;
    m.early = this.early;
    m.ended = null;
    m.subscribed = false;
    m.contracts += 1;
    m.termEndsAt = row?.ends_at ? new Date(row.ends_at).getTime() : null;
    m.earlyStart.set(signedAt, this.early);
    const p = legalPeriods(signedAt);
    return `signed ${paris(signedAt)}; renunciation until ${p.renunciation.lastDay}, withdrawal until ${p.withdrawal.lastDay}`;
  }
}

class Renounce extends Step {
  check(m: Readonly<Model>) {
    return m.phase !== 'new';
  }
  toString() {
    return 'Renounce';
  }
  protected async act(m: Model, r: Real) {
    const now = r.run.now();
    const expected = m.phase === 'signed' && m.signedAt !== null && now < legalPeriods(m.signedAt).renunciation.endsAtMs;
    expectAnswer('(d) renounce', await sendUpdate(r.run.member.agent, { context: 'renounce', confirm: true }), expected, 'renonce');
    if (expected) {
      m.phase = 'ended';
      m.ended = 'renunciation';
    }
    return expected ? 'accepted' : 'refused';
  }
}

class Withdraw extends Step {
  check(m: Readonly<Model>) {
    return m.phase !== 'new';
  }
  toString() {
    return 'Withdraw';
  }
  protected async act(m: Model, r: Real) {
    const now = r.run.now();
    const running = m.phase === 'signed' || m.phase === 'paid' || m.phase === 'active' || m.phase === 'termination-requested';
    const periods = m.signedAt === null ? null : legalPeriods(m.signedAt);
    const expected = running && periods !== null && now >= periods.renunciation.endsAtMs && now < periods.withdrawal.endsAtMs;
    expectAnswer('(d) withdraw', await sendUpdate(r.run.member.agent, { context: 'withdraw', confirm: true }), expected, 'retracte');
    if (expected) {
      m.phase = 'ended';
      m.ended = 'withdrawal';
    }
    return expected ? 'accepted' : 'refused';
  }
}

/** The file fee and the plan on the checkout stand-in; before payment opens, no link, and a signed webhook for it is refused. */
class Pay extends Step {
  check(m: Readonly<Model>) {
    return m.phase === 'signed';
  }
  toString() {
    return 'Pay';
  }
  protected async act(m: Model, r: Real) {
    const { run } = r;
    const now = run.now();
    const opens = legalPeriods(m.signedAt ?? now).paymentOpensAtMs;
    if (now < opens) {
      const link = await run.member.agent.get('/api/v1/user/payment-link?offer=file_fee');
      if (link.status !== 409) throw new Error(`(b) a payment link before payment opens: ${link.status} ${await link.text()}`);
      const event = await checkoutEvent(r, 'file_fee', 16_900);
      const posted = await postSignedStripeEvent(run.product, clockOf(run), event);
      if (posted.body.outcome !== 'refused') throw new Error(`(b) a checkout before payment opens was ${posted.body.outcome}`);
      return 'refused (payment not open yet)';
    }
    if (m.planId === null) throw new Error('no plan');
    await payFileFeeAndPlan(run.member, m.planId);
    m.phase = 'paid';
    m.subscribed = planById(m.planId).type === 'monthly';
    return 'paid';
  }
}

/** Staff record the matchmaking meeting: the member becomes active once the 14 days are over (or at once after an early start). */
class Activate extends Step {
  check(m: Readonly<Model>) {
    return m.phase === 'paid' || m.phase === 'signed' || m.phase === 'active';
  }
  toString() {
    return 'Activate';
  }
  protected async act(m: Model, r: Real) {
    const now = r.run.now();
    const expected = m.phase === 'paid' && m.signedAt !== null && (m.early || now >= legalPeriods(m.signedAt).withdrawal.endsAtMs);
    expectAnswer(
      'meeting_mm',
      await sendUpdate(r.run.staff.agent, { context: 'meeting_mm', uid: r.run.member.id }),
      expected,
      'membre-actif',
    );
    if (expected) m.phase = 'active';
    return expected ? 'active' : 'refused';
  }
}

class RequestTermination extends Step {
  check(m: Readonly<Model>) {
    return m.phase === 'active' || m.phase === 'paid';
  }
  toString() {
    return 'RequestTermination';
  }
  protected async act(m: Model, r: Real) {
    const expected = m.phase === 'active';
    const body = samplePayloads(r.run.member, r.run.now()).terminate;
    expectAnswer('terminate', await sendUpdate(r.run.member.agent, body), expected, 'resiliation-demandee');
    if (expected) m.phase = 'termination-requested';
    return expected ? 'requested' : 'refused';
  }
}

class DecideTermination extends Step {
  constructor(readonly accept: boolean) {
    super();
  }
  check(m: Readonly<Model>) {
    return m.phase === 'termination-requested' || m.phase === 'active';
  }
  toString() {
    return this.accept ? 'AcceptTermination' : 'RefuseTermination';
  }
  protected async act(m: Model, r: Real) {
    const expected = m.phase === 'termination-requested';
    const at = samplePayloads(r.run.member, r.run.now());
    const body = this.accept ? at.terminate_ok : at.terminate_no;
    expectAnswer(String(body.context), await sendUpdate(r.run.staff.agent, body), expected, this.accept ? 'resilie' : 'membre-actif');
    if (expected) {
      if (this.accept) {
        m.phase = 'ended';
        m.ended = 'termination';
      } else m.phase = 'active';
    }
    return expected ? (this.accept ? 'accepted' : 'refused by staff') : 'no request: refused';
  }
}

// ---------------------------------------------------------------------------
// Money arriving: the instalment stand-in, Stripe events

/** One pass of the local Stripe Billing stand-in for the member (`POST /_local/instalments`). */
class InstalmentPass extends Step {
  constructor(readonly outcome: 'paid' | 'failed') {
    super();
  }
  check(m: Readonly<Model>) {
    return m.contracts > 0;
  }
  toString() {
    return `InstalmentPass(${this.outcome})`;
  }
  protected async act(m: Model, r: Real) {
    const summary = await chargeInstalments(r.run.product, r.run.member.id, this.outcome);
    const stopped = m.phase === 'ended' || m.phase === 'new';
    if (stopped && summary.paid + summary.failed > 0)
      throw new Error(`the stand-in charged a stopped contract: ${JSON.stringify(summary)}`);
    return JSON.stringify(summary);
  }
}

function clockOf(run: Run) {
  return { now: () => new Date(run.now()), set: () => {} };
}

async function checkoutEvent(r: Real, offerId: string, amount: number) {
  const { run } = r;
  const monthly = offerId !== 'file_fee' && planById(offerId as PlanId).type === 'monthly';
  return stripeTestEvent(
    'checkout.session.completed',
    {
      id: randomId('cs_test_sequence_', 24),
      object: 'checkout.session',
      client_reference_id: run.member.id,
      amount_total: amount,
      currency: 'eur',
      status: 'complete',
      payment_status: 'paid',
      payment_link: null,
      customer_details: { email: run.member.email },
      customer_email: null,
      metadata: { offer_id: offerId },
      livemode: false,
      ...(monthly ? { subscription: randomId('sub_', 14) } : {}),
    },
    Math.floor(run.now() / 1000),
  );
}

type EventKind = 'replay' | 'repaid' | 'failed-after-paid' | 'extra-paid' | 'extra-failed' | 'late-checkout';

/** A Stripe event the stand-in would not send by itself: a replay, a late or out-of-order delivery, a charge Stripe takes anyway. */
class StripeEvent extends Step {
  constructor(readonly kind: EventKind) {
    super();
  }
  check(m: Readonly<Model>) {
    if (this.kind === 'late-checkout') return m.phase === 'ended';
    return m.contracts > 0;
  }
  toString() {
    return `StripeEvent(${this.kind})`;
  }
  protected async act(m: Model, r: Real) {
    const { run } = r;
    if (this.kind === 'replay') {
      if (!r.lastEvent) return 'nothing to replay';
      const posted = await postSignedStripeEvent(run.product, clockOf(run), r.lastEvent);
      if (posted.body.outcome !== 'duplicate' && posted.body.outcome !== 'refused')
        throw new Error(`a replayed event was ${posted.body.outcome}, not a duplicate`);
      return posted.body.outcome;
    }
    if (this.kind === 'late-checkout') {
      const planId = m.planId ?? 'plan_serenity_year';
      const plan = planById(planId);
      const event = await checkoutEvent(r, planId, plan.type === 'monthly' ? plan.priceCents : plan.totalCents);
      r.lastEvent = event;
      return (await postSignedStripeEvent(run.product, clockOf(run), event)).body.outcome;
    }
    const [subscription] = (
      (await run.db.execute(
        sql`SELECT subscription_id, offer_id FROM checkout_sessions WHERE member_id = ${run.member.id}::uuid AND subscription_id IS NOT NULL
            AND consumed_at IS NOT NULL ORDER BY created_at DESC LIMIT 1`,
      )) as unknown as { rows: { subscription_id: string; offer_id: string }[] }
    ).rows;
    if (!subscription) return 'no subscription';
    const [latest] = (
      (await run.db.execute(
        sql`SELECT provider_invoice_id, status FROM instalments WHERE subscription_id = ${subscription.subscription_id}
            ORDER BY number DESC LIMIT 1`,
      )) as unknown as { rows: { provider_invoice_id: string; status: string }[] }
    ).rows;
    const known = this.kind === 'repaid' || this.kind === 'failed-after-paid';
    if (known && latest?.status !== 'paid') return 'no paid instalment';
    const event = await instalmentInvoiceEvent({
      type: this.kind === 'repaid' || this.kind === 'extra-paid' ? 'invoice.paid' : 'invoice.payment_failed',
      invoiceId: known && latest ? latest.provider_invoice_id : randomId('in_sequence_', 24),
      subscriptionId: subscription.subscription_id,
      amountCents: planById(subscription.offer_id as PlanId).priceCents,
      email: run.member.email,
      offerId: subscription.offer_id,
      now: new Date(run.now()),
    });
    r.lastEvent = event;
    const posted = await postSignedStripeEvent(run.product, clockOf(run), event);
    if (posted.status !== 200) throw new Error(`Stripe event answered ${posted.status}`);
    return posted.body.outcome;
  }
}

// ---------------------------------------------------------------------------
// Time

type Mark = 'renunciation-end' | 'withdrawal-end' | 'next-instalment' | 'term-end';
type Target = { days: number } | { mark: Mark; deltaMs: number };

/** The longest move a sequence makes at once, in days (a move crosses the time a day at a time, running the jobs). */
const MAX_MOVE_DAYS = Number(process.env.SEQUENCE_MAX_MOVE_DAYS ?? 200);

/** `POST /_local/clock` to a day count or to an instant of the contract (a period's end, the next instalment, the term), give or take a minute. */
class Move extends Step {
  constructor(readonly target: Target) {
    super();
  }
  check() {
    return true;
  }
  toString() {
    if ('days' in this.target) return `Move(+${this.target.days} d)`;
    const d = this.target.deltaMs;
    const delta = d === 0 ? '' : d > 0 ? ` + ${d / MINUTE_MS} min` : ` − ${-d / MINUTE_MS} min`;
    return `Move(${this.target.mark}${delta})`;
  }
  protected async act(m: Model, r: Real) {
    const { run } = r;
    const now = run.now();
    let to: number | null = null;
    if ('days' in this.target) to = now + this.target.days * DAY_MS;
    else {
      const periods = m.signedAt === null ? null : legalPeriods(m.signedAt);
      let at: number | null = null;
      if (this.target.mark === 'renunciation-end') at = periods?.renunciation.endsAtMs ?? null;
      if (this.target.mark === 'withdrawal-end') at = periods?.withdrawal.endsAtMs ?? null;
      if (this.target.mark === 'term-end') at = m.termEndsAt;
      if (this.target.mark === 'next-instalment') {
        const response = await run.member.agent.get('/api/v1/user/instalments');
        const schedule = ((await response.json()) as { schedule: { next: { dueAt: string } | null } | null }).schedule;
        at = schedule?.next ? Date.parse(schedule.next.dueAt) : null;
      }
      to = at === null ? null : at + this.target.deltaMs;
    }
    if (to === null || to <= now) return 'nothing to move to';
    if (to - now > MAX_MOVE_DAYS * DAY_MS) return `further than ${MAX_MOVE_DAYS} days: not moved`;
    await run.moveTo(to);
    return `moved to ${paris(to)}`;
  }
}

/** `POST /_local/clock` with `{"days": 0}`: the jobs due now. */
class RunJobs extends Step {
  check() {
    return true;
  }
  toString() {
    return 'RunJobs';
  }
  protected async act(_m: Model, r: Real) {
    await r.run.runJobs();
    return 'ran';
  }
}

// ---------------------------------------------------------------------------
// Arbitraries

const planArb = fc.constantFrom<PlanId>(
  'plan_horizon_month',
  'plan_serenity_month',
  'plan_horizon_month',
  'plan_serenity_year',
  'plan_horizon_year',
);

const targetArb: fc.Arbitrary<Target> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(1, 2, 3, 6, 13, 29).map((days) => ({ days })) },
  { weight: 1, arbitrary: fc.constant({ days: 62 }) },
  {
    weight: 6,
    arbitrary: fc.record({
      mark: fc.constantFrom<Mark>('renunciation-end', 'withdrawal-end', 'next-instalment', 'renunciation-end', 'withdrawal-end'),
      deltaMs: fc.constantFrom(-MINUTE_MS, 0, MINUTE_MS, -2 * HOUR_MS),
    }),
  },
  { weight: 1, arbitrary: fc.record({ mark: fc.constant<Mark>('term-end'), deltaMs: fc.constantFrom(-DAY_MS, MINUTE_MS) }) },
);

const signArb = fc.tuple(planArb, fc.boolean(), fc.constantFrom(0, 0, 5, 30)).map(([plan, early, wait]) => new Sign(plan, early, wait));

/** Every sequence starts with a signature (its first contract): the rest of the commands need one. */
export const firstSignArb: fc.Arbitrary<fc.AsyncCommand<Model, Real>> = signArb;

/** The commands of a sequence, the more useful ones more often. */
export const commandArbs: fc.Arbitrary<fc.AsyncCommand<Model, Real>>[] = [
  signArb,
  fc.constant(new Renounce()),
  fc.constant(new Withdraw()),
  fc.constant(new Pay()),
  fc.constant(new Pay()),
  fc.constant(new Activate()),
  fc.constant(new RequestTermination()),
  fc.boolean().map((accept) => new DecideTermination(accept)),
  fc.constantFrom<'paid' | 'failed'>('paid', 'paid', 'failed').map((outcome) => new InstalmentPass(outcome)),
  fc
    .constantFrom<EventKind>('replay', 'repaid', 'failed-after-paid', 'extra-paid', 'extra-failed', 'late-checkout')
    .map((kind) => new StripeEvent(kind)),
  targetArb.map((target) => new Move(target)),
  targetArb.map((target) => new Move(target)),
  targetArb.map((target) => new Move(target)),
  targetArb.map((target) => new Move(target)),
  fc.constant(new RunJobs()),
];

/**
 * Where a sequence starts: so many days before a public holiday, a change of clocks or a plain
 * day of 2031–2033, at any hour: the 7- and 14-day periods of the first signature (two days and an
 * hour after the start) then end on, before or after a weekend, a holiday or the DST change.
 */
export const startArb = fc
  .record({
    pivot: fc.constantFrom(
      ...PUBLIC_HOLIDAYS.filter((d) => d >= '2031' && d < '2034'),
      ...DST_CHANGES.filter((d) => d >= '2031' && d < '2034'),
      '2031-06-19',
      '2032-09-10',
    ),
    daysBefore: fc.integer({ min: 0, max: 17 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.constantFrom(0, 1, 30, 58, 59),
  })
  .map(({ pivot, daysBefore, hour, minute }) => ({
    ms: parisInstant(addDays(pivot, -daysBefore - 2), hour, minute),
    [fc.toStringMethod]: () =>
      `${addDays(pivot, -daysBefore - 2)} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')} Paris (${daysBefore} days before ${pivot}, minus the walk's 2 days)`,
  }));

export const commands = {
  Sign,
  Renounce,
  Withdraw,
  Pay,
  Activate,
  RequestTermination,
  DecideTermination,
  InstalmentPass,
  StripeEvent,
  Move,
  RunJobs,
};
export { MINUTE_MS, DAY_MS };
