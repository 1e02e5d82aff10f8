import { describe, expect, it } from 'vitest';
import { scheduledMailApplies, scheduledMailStates } from '#machines/onboarding/mail-states.ts';
import { contractEndStates } from '#machines/onboarding/steps.ts';

const kinds = Object.keys(scheduledMailStates);

describe('scheduled mails follow the state (decision 176)', () => {
  it('an ended contract receives only the mail of its own end', () => {
    for (const state of contractEndStates)
      for (const kind of kinds)
        expect(scheduledMailApplies(kind, state), `${kind} in ${state}`).toBe(kind === 'agency-term-ended' && state === 'contrat-termine');
  });

  it('asks to pay only while there is something to pay, and speaks of the next step only while it is next', () => {
    expect(scheduledMailApplies('agency-renunciation-period-over', 'frais-de-dossier')).toBe(true);
    expect(scheduledMailApplies('agency-renunciation-period-over', 'attente')).toBe(false);
    expect(scheduledMailApplies('agency-withdrawal-period-over', 'attente')).toBe(true);
    expect(scheduledMailApplies('agency-withdrawal-period-over', 'membre-actif')).toBe(false);
    expect(scheduledMailApplies('agency-term-ending', 'resiliation-demandee')).toBe(false);
    expect(scheduledMailApplies('agency-term-ending', 'desactive')).toBe(false);
  });

  it('a kind the table does not know is never sent', () => {
    expect(scheduledMailApplies('agency-nouveau', 'membre-actif')).toBe(false);
    expect(scheduledMailApplies('toString', 'membre-actif')).toBe(false);
  });
});
