import { describe, expect, it } from 'vitest';
import { settingsJson } from '#bff/api/user-routes.ts';
import type { Caller } from '#bff/auth/guards.ts';
import type { MemberRow } from '#bff/members/members.ts';
import { emptyRecord } from '#machines/onboarding/record.ts';

const id = '0b8a64c2-4a1e-4cf1-9d0e-2f3b5a6c7d8e';
const signedAt = '2026-11-02T10:00:00.000Z';
const day = 86_400_000;

/** A member who signed the contract and has not paid: the 7-day period, then the payment. */
function rowSignedOn(subscriptionDate: string, version = 7): MemberRow {
  return {
    id,
    email: 'amina@example.fr',
    gender: 'femme',
    staffRole: null,
    role: 'member',
    onboarding: {
      ...emptyRecord(id, 'amina@example.fr', 'femme'),
      selectedPlanId: 'plan_horizon_month',
      profileCompleted: true,
      questionnaireCompleted: true,
      formPersonnalInfoCompleted: true,
      applicationFeesPaid: true,
      preContractInfoAcknowledged: true,
      onboardingMeetingDateSelected: true,
      onboardingMeetingReserved: true,
      onboardingMeetingDate: '2026-10-28T09:00:00.000Z',
      onboardingMeetingDone: true,
      subscriptionContractFormCompleted: true,
      subscriptionDate,
    },
    profile: null,
    questionnaire: null,
    contract: null,
    disabled: false,
    version,
    createdAt: new Date('2026-10-20T08:00:00.000Z'),
    updatedAt: new Date('2026-11-02T10:00:00.000Z'),
    stage: null,
    stageSub: null,
    renunciationEndsAt: null,
    withdrawalEndsAt: null,
    termEndsAt: null,
    stageVersion: null,
  };
}

function callerOf(row: MemberRow, aal: 'aal1' | 'aal2' = 'aal1', paused: Date | null = null): Caller {
  return { id, email: row.email, role: 'femme', aal, sessionId: 's', member: row, matchmakingPausedAt: paused };
}

const parse = (json: string) => JSON.parse(json) as { state: string; aal: string; version: number; matchmakingPausedAt: string | null };

describe('settingsJson (decision 090)', () => {
  it('serialises a cached (frozen) row once, and gives the same text as a fresh serialisation', () => {
    const frozen = Object.freeze(rowSignedOn(signedAt));
    const fresh = rowSignedOn(signedAt);
    const now = new Date(Date.parse(signedAt) + 2 * day);
    const first = settingsJson(callerOf(frozen), now);
    expect(settingsJson(callerOf(frozen), now)).toBe(first);
    expect(settingsJson(callerOf(fresh), now)).toBe(first);
    expect(parse(first)).toMatchObject({ state: 'attente-contrat.delai-renonciation', aal: 'aal1', version: 7 });
  });

  it('follows the clock: the state changes when the 7-day period ends, on the same cached row', () => {
    const frozen = Object.freeze(rowSignedOn(signedAt));
    const during = settingsJson(callerOf(frozen), new Date(Date.parse(signedAt) + 3 * day));
    const after = settingsJson(callerOf(frozen), new Date(Date.parse(signedAt) + 8 * day));
    expect(parse(during).state).toBe('attente-contrat.delai-renonciation');
    expect(parse(after).state).toBe('frais-de-dossier');
  });

  it('follows the session level and the pause, and a new row (a change) is never answered from the old one', () => {
    const frozen = Object.freeze(rowSignedOn(signedAt));
    const now = new Date(Date.parse(signedAt) + day);
    expect(parse(settingsJson(callerOf(frozen, 'aal2'), now)).aal).toBe('aal2');
    const pausedAt = new Date('2026-11-03T12:00:00.000Z');
    expect(parse(settingsJson(callerOf(frozen, 'aal1', pausedAt), now)).matchmakingPausedAt).toBe(pausedAt.toISOString());
    expect(parse(settingsJson(callerOf(frozen), now)).matchmakingPausedAt).toBeNull();
    const changed = Object.freeze(rowSignedOn(signedAt, 8));
    expect(parse(settingsJson(callerOf(changed), now)).version).toBe(8);
  });
});
