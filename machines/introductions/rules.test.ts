import { describe, expect, it } from 'vitest';
import { stateLabels } from '#machines/introductions/labels.ts';
import {
  ANSWER_DEADLINE_DAYS,
  canPropose,
  deadlineOf,
  eligibilityOf,
  ineligibilityTexts,
  isOpen,
  MAX_OPEN_INTRODUCTIONS_PER_MEMBER,
  type MemberStanding,
  type ProposalCheck,
  pausesSearch,
  REMINDER_DAY,
  reminderDueAt,
} from '#machines/introductions/rules.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe('limits', () => {
  it('are the ones the agency decided', () => {
    expect(ANSWER_DEADLINE_DAYS).toBe(7);
    expect(REMINDER_DAY).toBe(5);
    expect(MAX_OPEN_INTRODUCTIONS_PER_MEMBER).toBe(2);
  });

  it('deadlineOf and reminderDueAt count whole days from the proposal, from an ISO instant or ms', () => {
    expect(deadlineOf(T0)).toBe(T0 + 7 * DAY_MS);
    expect(deadlineOf(toIsoInstant(T0))).toBe(T0 + 7 * DAY_MS);
    expect(deadlineOf('2026-01-05T10:00:00+01:00')).toBe(T0 + 7 * DAY_MS);
    expect(reminderDueAt(T0)).toBe(T0 + 5 * DAY_MS);
    expect(deadlineOf('5 janvier')).toBeNaN();
  });
});

describe('isOpen and pausesSearch', () => {
  it.each([
    ['proposee', true],
    ['proposee.acceptee-par-un', true],
    ['acceptee', true],
    ['rencontre-planifiee', true],
    ['retours', true],
    ['poursuivie', true],
    ['declinee', false],
    ['expiree', false],
    ['close', false],
    ['fiancailles', false],
  ])('%s open: %s', (state, open) => {
    expect(isOpen(state)).toBe(open);
  });

  it('covers every state key, and reads state values too', () => {
    for (const key of Object.keys(stateLabels)) expect(typeof isOpen(key)).toBe('boolean');
    expect(isOpen({ proposee: 'attente-des-reponses' })).toBe(true);
    expect(pausesSearch('fiancailles')).toBe(true);
    expect(pausesSearch('poursuivie')).toBe(false);
  });
});

describe('eligibility', () => {
  const active: MemberStanding = {
    active: true,
    sensitiveDataConsent: true,
    disabled: false,
    erased: false,
    contractEnded: false,
    engaged: false,
  };

  it.each<[string, Partial<MemberStanding>, ReturnType<typeof eligibilityOf>]>([
    ['an active member', {}, true],
    ['consent withdrawn', { sensitiveDataConsent: false }, 'consentement-retire'],
    ['disabled', { disabled: true }, 'compte-desactive'],
    ['erased (wins over everything)', { erased: true, disabled: true, sensitiveDataConsent: false }, 'compte-efface'],
    ['contract ended', { contractEnded: true }, 'contrat-termine'],
    ['not active yet', { active: false }, 'pas-encore-actif'],
    ['engaged', { engaged: true }, 'fiancailles'],
  ])('%s → %s', (_name, patch, expected) => {
    expect(eligibilityOf({ ...active, ...patch })).toBe(expected);
  });

  it('every code has a French sentence', () => {
    for (const text of Object.values(ineligibilityTexts)) expect(text).toMatch(/^[A-ZÀ-Ý].+\.$/u);
  });
});

describe('canPropose', () => {
  const ok: ProposalCheck = { openCountA: 0, openCountB: 1, pairAlreadyProposed: false, aEligible: true, bEligible: true };

  it('accepts a new pair of eligible members below the limit', () => {
    expect(canPropose(ok)).toBeNull();
  });

  it.each<[string, Partial<ProposalCheck>, RegExp]>([
    ['the first member at the limit', { openCountA: 2 }, /premier membre a déjà 2 mises en relation/],
    ['the second member at the limit', { openCountB: 2 }, /second membre a déjà 2 mises en relation/],
    ['the pair proposed before', { pairAlreadyProposed: true }, /déjà été proposés l’un à l’autre/],
    ['the first member paused', { aEligible: 'consentement-retire' }, /premier membre.*consentement.*retiré/],
    ['the second member disabled', { bEligible: 'compte-desactive' }, /second membre.*désactivé/],
  ])('refuses %s, in French', (_name, patch, reason) => {
    expect(canPropose({ ...ok, ...patch })).toMatch(reason);
  });
});
