import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createActor } from 'xstate';
import { introductionMachine } from '#machines/introductions/introduction.machine.ts';
import { DAY_MS, ev, HOUR_MS, memberOf, proposed, T0, walks } from '#tests/support/introduction-fixtures.ts';
import {
  decideEvent,
  inconsistencies,
  restoreActor,
  restoreSnapshot,
  stateKeyOf,
  stateValueOfKey,
  storedIntroductionSchema,
  storedOf,
  storedStateKeys,
} from '#machines/introductions/restore.ts';

describe('stored rows', () => {
  it('hold atomic state keys only', () => {
    expect(storedStateKeys).toEqual([
      'proposee.attente-des-reponses',
      'proposee.acceptee-par-un',
      'declinee',
      'expiree',
      'acceptee',
      'rencontre-planifiee',
      'retours',
      'poursuivie',
      'close',
      'fiancailles',
    ]);
  });

  it('state keys and values convert both ways', () => {
    expect(stateValueOfKey('proposee.acceptee-par-un')).toEqual({ proposee: 'acceptee-par-un' });
    expect(stateValueOfKey('retours')).toBe('retours');
    expect(stateKeyOf({ proposee: 'attente-des-reponses' })).toBe('proposee.attente-des-reponses');
    expect(stateKeyOf('close')).toBe('close');
  });

  it.each(Object.entries(walks))('%s: stored, read back as JSON through the schema, restores the same snapshot', (_name, walk) => {
    const snapshot = walk();
    const row = v.parse(storedIntroductionSchema, JSON.parse(JSON.stringify(storedOf(snapshot, 7))));
    expect(row.version).toBe(7);
    const restored = restoreSnapshot(row);
    expect(restored.value).toEqual(snapshot.value);
    expect(restored.context).toEqual(snapshot.context);
    const actor = restoreActor(row).start();
    expect(actor.getSnapshot().value).toEqual(snapshot.value);
    actor.stop();
  });

  it('the schema refuses a row with an unknown state, a zone-less instant, or an unknown field', () => {
    const row = storedOf(walks.accepted(), 1);
    expect(v.safeParse(storedIntroductionSchema, { ...row, state: 'proposee' }).success).toBe(false);
    expect(v.safeParse(storedIntroductionSchema, { ...row, context: { ...row.context, lastEventAt: '2026-01-05T09:00:00' } }).success).toBe(
      false,
    );
    expect(v.safeParse(storedIntroductionSchema, { ...row, context: { ...row.context, photosPublic: true } }).success).toBe(false);
  });
});

describe('inconsistent rows are refused, not acted upon', () => {
  it('contact released while only one side accepted', () => {
    const c = walks.oneAccepted().context;
    const forged = { ...c, disclosures: { ...c.disclosures, a: { ...c.disclosures.a, contact: c.lastEventAt } } };
    expect(inconsistencies('proposee.acceptee-par-un', forged)).toContain('contact of a disclosed without both acceptances');
    expect(() => restoreSnapshot({ state: 'proposee.acceptee-par-un', context: forged })).toThrow(/inconsistent/);
  });

  it('a state that does not fit the context', () => {
    expect(inconsistencies('acceptee', proposed().context)).toContain('acceptee needs both acceptances');
    expect(inconsistencies('fiancailles', walks.continued().context)).toContain('fiancailles needs both engaged');
    expect(inconsistencies('proposee.attente-des-reponses', walks.oneAccepted().context)).toContain(
      'an answer is recorded while none is expected',
    );
    expect(inconsistencies('close', proposed().context)).toContain('close needs its instant');
  });

  it('a disclosure before its consent', () => {
    const c = proposed().context;
    const forged = { ...c, consents: { ...c.consents, b: { ...c.consents.b, summary: '2030-01-01T00:00:00.000Z' } } };
    expect(inconsistencies('proposee.attente-des-reponses', forged)).toContain('summary of b disclosed without prior consent');
  });
});

describe('decideEvent (what the BFF asks for one event)', () => {
  it('an allowed event gives the new row, version + 1', () => {
    const row = storedOf(proposed(), 0);
    const decision = decideEvent(row, ev.accept('a', T0 + HOUR_MS));
    expect(decision.allowed).toBe(true);
    if (!decision.allowed) return;
    expect(decision.stored.state).toBe('proposee.acceptee-par-un');
    expect(decision.stored.version).toBe(1);
    expect(decision.stored.context.answers.a.status).toBe('accepted');
  });

  it('a refused event answers the current state (the BFF answers 409 with it)', () => {
    const row = storedOf(walks.oneAccepted(), 1);
    expect(decideEvent(row, ev.accept('b', T0 + DAY_MS, memberOf('a')))).toEqual({ allowed: false, state: 'proposee.acceptee-par-un' });
    expect(decideEvent(row, ev.expire(T0 + DAY_MS))).toEqual({ allowed: false, state: 'proposee.acceptee-par-un' });
  });
});

describe('the inert actor of a decision', () => {
  it('starts without input instead of failing: xstate’s transition() makes one on every decision', () => {
    // As xstate's transition() makes it: no input (its types require one of the product's own actors).
    const inert: AnyStateMachine = introductionMachine;
    const actor = createActor(inert);
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().error).toBeUndefined();
  });
});
