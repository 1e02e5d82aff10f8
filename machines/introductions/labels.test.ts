import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { introductionMachine } from '#machines/introductions/introduction.machine.ts';
import {
  declineReasonLabel,
  eventLabel,
  eventLabels,
  stateLabel,
  stateLabels,
  type TimelineEvent,
  timelineSentence,
} from '#machines/introductions/labels.ts';

/** Every state node of the chart as a key: `proposee`, `proposee.acceptee-par-un`, … */
function stateKeys(node: AnyStateNode = introductionMachine.root, prefix = ''): string[] {
  return Object.entries(node.states).flatMap(([name, child]) => {
    const key = prefix ? `${prefix}.${name}` : name;
    return [key, ...stateKeys(child, key)];
  });
}

describe('labels', () => {
  it('name every state of the chart, and nothing else', () => {
    expect(stateKeys().sort()).toEqual(Object.keys(stateLabels).sort());
    for (const key of stateKeys()) expect(stateLabel(key)).not.toBe('État inconnu');
    expect(stateLabel('archivee')).toBe('État inconnu');
  });

  it('name every event the chart handles', () => {
    const handled = new Set<string>();
    const visit = (node: AnyStateNode) => {
      for (const type of node.transitions.keys()) handled.add(type);
      for (const child of Object.values(node.states)) visit(child);
    };
    visit(introductionMachine.root);
    expect([...handled].sort()).toEqual(Object.keys(eventLabels).sort());
    expect(eventLabel('ACCEPT')).toBe('Accepter la proposition');
    expect(eventLabel('hasOwnProperty')).toBe('Action inconnue');
    expect(declineReasonLabel('toString')).toBe('Motif inconnu');
  });

  it('never show a code: labels are French sentences', () => {
    for (const label of [...Object.values(stateLabels), ...Object.values(eventLabels)]) {
      expect(label).toMatch(/^[A-ZÀ-Ý]/u);
      expect(label).not.toMatch(/[_-]/);
    }
  });
});

describe('timelineSentence', () => {
  const names = { a: 'Amina', b: 'Youssef' };
  const member = (side: 'a' | 'b') => ({ kind: 'member' as const, side });
  const staff = { kind: 'staff' as const };

  it.each<[TimelineEvent, string]>([
    [{ type: 'ACCEPT', actor: member('b'), side: 'b' }, 'Youssef a accepté la proposition'],
    [
      { type: 'DECLINE', actor: member('a'), side: 'a', reason: 'region' },
      'Amina a décliné la proposition (motif : la région est trop éloignée)',
    ],
    [{ type: 'FEEDBACK', actor: member('a'), side: 'a', outcome: 'continuer' }, 'Amina souhaite continuer à se connaître'],
    [
      { type: 'FEEDBACK', actor: member('a'), side: 'a', outcome: 'arreter', reason: 'pas-de-feeling' },
      'Amina souhaite arrêter (motif : pas d’affinité)',
    ],
    [{ type: 'FEEDBACK', actor: member('b'), side: 'b', outcome: 'fiances' }, 'Youssef annonce des fiançailles'],
    [
      { type: 'PLAN_MEETING', actor: staff, meetingAt: '2026-01-10T14:00:00.000Z' },
      'L’équipe a planifié la première rencontre le 10 janvier 2026 à 15\u00a0h\u00a000',
    ],
    [{ type: 'RECORD_MEETING_HELD', actor: staff }, 'L’équipe a noté que la première rencontre a eu lieu'],
    [{ type: 'CLOSE', actor: staff }, 'L’équipe a clos la mise en relation'],
    [{ type: 'REOPEN', actor: staff }, 'L’équipe a rouvert la mise en relation'],
    [{ type: 'EXPIRE', actor: staff }, 'Proposition expirée : le délai de réponse est passé'],
    [{ type: 'REMIND', actor: staff }, 'Rappel envoyé à qui n’a pas encore répondu'],
    [{ type: 'RENAME', actor: staff }, 'Événement inconnu'],
  ])('%j → %s', (event, sentence) => {
    expect(timelineSentence(event, names)).toBe(sentence);
  });

  it('without names, says Membre A / Membre B', () => {
    expect(timelineSentence({ type: 'ACCEPT', actor: member('a'), side: 'a' })).toBe('Membre A a accepté la proposition');
  });

  it('has a sentence for every event type', () => {
    for (const type of Object.keys(eventLabels)) {
      expect(timelineSentence({ type, actor: staff, side: 'a', outcome: 'continuer' })).not.toBe('Événement inconnu');
    }
  });
});
