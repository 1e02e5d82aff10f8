import { contactViaFor, waliOnlyContactOf } from '#machines/introductions/guardian.ts';
import { describe, expect, it } from 'vitest';
import { DAY_MS, ev, HOUR_MS, MEETING_AT, step, T0, walks } from '#tests/support/introduction-fixtures.ts';
import type { Side } from '#machines/introductions/labels.ts';
import { stateKeyOf } from '#machines/introductions/restore.ts';
import { endReasonFor, goodStanding, type SharingInput, type Standing, sharingOf, standingOf } from '#machines/introductions/sharing.ts';
import { toIsoInstant } from '#machines/onboarding/instant.ts';

/**
 * The one predicate « may A see B's photos and contact in I now » (decision 194), cause by cause:
 * how the introduction ended (declined, expired, stopped by a member or by staff, ended by the
 * agency) and where each member stands at `now` (contract renounced, withdrawn, terminated, at its
 * term or renewed since; account erased or disabled; consent withdrawn).
 */

const SIGNED = T0 - 60 * DAY_MS;
const good = goodStanding(SIGNED);
const both = (standing: Partial<Record<Side, Standing>> = {}) => ({ a: standing.a ?? good, b: standing.b ?? good });
const of = (snapshot: ReturnType<typeof walks.accepted>, viewer: Side, standing = both()): ReturnType<typeof sharingOf> =>
  sharingOf({ state: stateKeyOf(snapshot.value), context: snapshot.context, viewer, standing } satisfies SharingInput);

/** A standing from the record's fields, as the BFF builds it (`standingOf`), signed at SIGNED on a 12-month plan. */
function standing(
  fields: { matchmakingPausedAt?: number; record?: { contractWithdrawnAt?: string; terminatedAt?: string } },
  now: number,
): Standing {
  return standingOf(
    {
      erasedAt: null,
      disabled: false,
      matchmakingPausedAt: fields.matchmakingPausedAt ?? null,
      record: { subscriptionDate: toIsoInstant(SIGNED), selectedPlanId: 'plan_serenity_year', ...fields.record },
    },
    now,
  );
}

const NOW = MEETING_AT + 2 * DAY_MS;

describe('sharingOf: while the introduction runs', () => {
  it('shares nothing before both accepted, then photos and contact both ways, through every later state', () => {
    expect(of(walks.oneAccepted(), 'a')).toEqual({ photos: false, contact: null, end: null });
    expect(of(walks.oneAccepted(), 'b')).toEqual({ photos: false, contact: null, end: null });
    for (const snapshot of [walks.accepted(), walks.planned(), walks.feedbackPhase(), walks.continued(), walks.engaged()]) {
      for (const viewer of ['a', 'b'] as const) expect(of(snapshot, viewer)).toEqual({ photos: true, contact: 'moi', end: null });
    }
  });

  it('a standing computed from a running contract shares', () => {
    const s = standing({}, NOW);
    expect(s.contract).toEqual({ signedAt: SIGNED, end: null });
    expect(of(walks.accepted(), 'a', both({ b: s }))).toMatchObject({ photos: true, contact: 'moi' });
  });
});

describe('sharingOf: contact through the walī only (decision 196)', () => {
  it('releases the walī only for the side that chose it, and nothing once ended', () => {
    const snapshot = walks.accepted();
    const input = { state: 'acceptee', context: snapshot.context, standing: both(), contactVia: { a: 'wali', b: 'moi' } } as const;
    expect(sharingOf({ ...input, viewer: 'b' }).contact).toBe('wali');
    expect(sharingOf({ ...input, viewer: 'a' }).contact).toBe('moi');
    expect(sharingOf({ ...input, state: 'proposee.acceptee-par-un', viewer: 'b' }).contact).toBeNull();
  });

  it('the introduction’s own choice wins over the settings, and « walī » never falls back to the member’s own contact', () => {
    expect(contactViaFor(null, { contactVia: 'wali' })).toBe('wali');
    expect(contactViaFor('moi', { contactVia: 'wali' })).toBe('moi');
    expect(contactViaFor('wali', null)).toBe('wali');
    expect(contactViaFor(null, null)).toBe('moi');
    expect(waliOnlyContactOf({ name: 'Karim', relation: 'pere', phone: null })).toBeNull();
    expect(waliOnlyContactOf({ name: 'Karim', relation: 'pere', phone: '+33611223344' })).toEqual({
      name: 'Karim',
      relation: 'Père',
      email: null,
      phone: '+33611223344',
    });
  });
});

describe('sharingOf: every cause that ends it removes photos and contact for both sides', () => {
  const termPassed = SIGNED + 400 * DAY_MS;
  const cases: [string, () => ReturnType<typeof walks.accepted>, Partial<Record<Side, Standing>>, object][] = [
    ['declined', () => step(walks.oneAccepted(), ev.decline('b', T0 + 2 * HOUR_MS)), {}, { kind: 'declinee' }],
    ['expired', () => walks.expired(), {}, { kind: 'expiree' }],
    [
      'stopped by a member after the meeting',
      () => step(walks.feedbackPhase(), ev.feedback('b', 'arreter', MEETING_AT + HOUR_MS)),
      {},
      { kind: 'arret', by: 'b' },
    ],
    ['stopped by staff', () => step(walks.continued(), ev.close(MEETING_AT + 2 * DAY_MS)), {}, { kind: 'arret', by: 'equipe' }],
    [
      'renounced (the chart’s END)',
      () => step(walks.accepted(), ev.end(T0 + 2 * DAY_MS, 'renonciation', 'a')),
      {},
      { kind: 'fin', cause: 'renonciation', party: 'a', recorded: true },
    ],
    [
      'withdrawn, read from the record before the END',
      () => walks.planned(),
      { a: standing({ record: { contractWithdrawnAt: toIsoInstant(T0 + 3 * DAY_MS) } }, NOW) },
      { kind: 'fin', cause: 'retractation', party: 'a', recorded: false, at: toIsoInstant(T0 + 3 * DAY_MS) },
    ],
    [
      'terminated',
      () => walks.continued(),
      { b: standing({ record: { terminatedAt: toIsoInstant(NOW - HOUR_MS) } }, NOW) },
      { kind: 'fin', cause: 'resiliation', party: 'b', recorded: false },
    ],
    [
      'at its term, the very instant it passes (before any job)',
      () => walks.continued(),
      { b: standing({}, termPassed) },
      { kind: 'fin', cause: 'terme', party: 'b', recorded: false },
    ],
    [
      'renewed since: the contract is not the one it was proposed under',
      () => walks.accepted(),
      { a: { ...good, contract: { signedAt: T0 + DAY_MS, end: null } } },
      { kind: 'fin', cause: 'fin-de-contrat', party: 'a' },
    ],
    ['no contract at all', () => walks.accepted(), { a: { ...good, contract: null } }, { kind: 'fin', cause: 'fin-de-contrat' }],
    ['account erased', () => walks.accepted(), { b: { ...good, erasedAt: NOW, disabled: true } }, { kind: 'fin', cause: 'compte-efface' }],
    ['account disabled (banned)', () => walks.accepted(), { a: { ...good, disabled: true } }, { kind: 'fin', cause: 'compte-desactive' }],
    [
      'consent to photos withdrawn',
      () => walks.accepted(),
      { b: standing({ matchmakingPausedAt: NOW }, NOW) },
      { kind: 'fin', cause: 'consentement-retire', party: 'b' },
    ],
    [
      'an engagement the agency ended (it stays an engagement)',
      () => step(walks.engaged(), ev.end(NOW, 'terme', 'a')),
      {},
      { kind: 'fin', cause: 'terme', party: 'a', recorded: true },
    ],
  ];

  it.each(cases)('%s', (_name, build, standings, end) => {
    const snapshot = build();
    for (const viewer of ['a', 'b'] as const) {
      const sharing = of(snapshot, viewer, both(standings));
      expect(sharing.photos).toBe(false);
      expect(sharing.contact).toBeNull();
      expect(sharing.end).toMatchObject(end);
    }
  });

  it('an END is for good: a consent given back, a ban lifted or a new contract never bring it back', () => {
    const ended = step(walks.accepted(), ev.end(T0 + 2 * DAY_MS, 'consentement-retire', 'b'));
    expect(of(ended, 'a', both())).toMatchObject({ photos: false, contact: null, end: { recorded: true } });
    expect(stateKeyOf(ended.value)).toBe('close');
    const engaged = step(walks.engaged(), ev.end(NOW, 'compte-desactive', 'b'));
    expect(stateKeyOf(engaged.value)).toBe('fiancailles');
    expect(of(engaged, 'b', both())).toMatchObject({ photos: false, contact: null });
    // Once is enough: a second END in an engagement is refused.
    expect(engaged.can(ev.end(NOW + HOUR_MS, 'terme', 'a'))).toBe(false);
  });

  it('a standing ends even a proposal not yet answered (nothing was shared: nothing more will be)', () => {
    expect(of(walks.oneAccepted(), 'a', both({ b: { ...good, disabled: true } }))).toMatchObject({
      photos: false,
      contact: null,
      end: { kind: 'fin', cause: 'compte-desactive', party: 'b' },
    });
  });
});

describe('endReasonFor: the member reads their own cause, never the other’s', () => {
  it.each<[Parameters<typeof endReasonFor>[0], Side, string | null]>([
    [{ kind: 'fin', cause: 'terme', party: 'a', at: null, recorded: true }, 'a', 'votre contrat est arrivé à son terme'],
    [{ kind: 'fin', cause: 'terme', party: 'a', at: null, recorded: true }, 'b', null],
    [{ kind: 'fin', cause: 'consentement-retire', party: 'b', at: null, recorded: false }, 'a', null],
    [
      { kind: 'fin', cause: 'consentement-retire', party: 'b', at: null, recorded: false },
      'b',
      'vous avez retiré votre consentement au traitement de vos données sensibles',
    ],
    [{ kind: 'arret', by: 'equipe', at: null }, 'a', 'l’agence l’a close'],
    [{ kind: 'arret', by: 'a', at: null }, 'a', 'vous avez choisi d’arrêter'],
    [{ kind: 'arret', by: 'a', at: null }, 'b', null],
    [{ kind: 'declinee', at: null }, 'b', null],
  ])('%j read by %s', (end, viewer, expected) => {
    expect(endReasonFor(end, viewer)).toBe(expected);
  });
});
