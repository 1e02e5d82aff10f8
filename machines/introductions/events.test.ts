import { describe, expect, it } from 'vitest';
import type { Actor } from '#machines/introductions/context.ts';
import {
  actorMaySend,
  declineReasons,
  eventTypes,
  memberEventTypes,
  NOTE_MAX_LENGTH,
  parseIntroductionBody,
  staffOnlyEventTypes,
  toMachineEvent,
} from '#machines/introductions/events.ts';
import { declineReasonLabels, eventLabels } from '#machines/introductions/labels.ts';

const staff: Actor = { kind: 'staff' };
const memberA: Actor = { kind: 'member', side: 'a' };
const AT = Date.UTC(2026, 0, 5, 9, 0, 0);

function parsed(body: unknown) {
  const result = parseIntroductionBody(body);
  if (!result.success) throw new Error(result.issues.map((i) => i.message).join(', '));
  return result.body;
}

function messages(body: unknown): string[] {
  const result = parseIntroductionBody(body);
  return result.success ? [] : result.issues.map((i) => i.message);
}

describe('event bodies', () => {
  it.each([
    [{ type: 'ACCEPT', side: 'a' }],
    [{ type: 'DECLINE', side: 'b', reason: 'pratique' }],
    [{ type: 'DECLINE', side: 'b', reason: 'autre', comment: 'Je préfère quelqu’un de ma ville' }],
    [{ type: 'FEEDBACK', side: 'a', outcome: 'continuer' }],
    [{ type: 'FEEDBACK', side: 'a', outcome: 'arreter', reason: 'pas-de-feeling' }],
    [{ type: 'FEEDBACK', side: 'b', outcome: 'fiances' }],
    [{ type: 'PLAN_MEETING', meetingAt: '2026-01-10T15:00:00+01:00', place: 'Agence de Lyon' }],
    [{ type: 'RECORD_MEETING_HELD' }],
    [{ type: 'CLOSE', note: 'Demande des deux familles' }],
    [{ type: 'REOPEN', note: 'Nouvelle situation' }],
    [{ type: 'EXPIRE' }],
    [{ type: 'REMIND' }],
  ])('accepts %j', (body) => {
    expect(parsed(body).type).toBe(body.type);
  });

  it.each<[string, unknown, string]>([
    ['an unknown type', { type: 'DELETE' }, 'Action inconnue'],
    ['no object', 'ACCEPT', 'Requête invalide'],
    ['an unknown field (strict)', { type: 'ACCEPT', side: 'a', at: 0 }, 'Champ inconnu'],
    ['an actor in the body (it comes from the session)', { type: 'EXPIRE', actor: { kind: 'staff' } }, 'Champ inconnu'],
    ['a side that is no side', { type: 'ACCEPT', side: 'c' }, 'Côté invalide'],
    ['a missing side', { type: 'ACCEPT' }, 'Champ requis'],
    ['a reason outside the list', { type: 'DECLINE', side: 'a', reason: 'taille' }, 'Veuillez choisir un motif dans la liste'],
    ['a comment too long', { type: 'DECLINE', side: 'a', reason: 'autre', comment: 'x'.repeat(1001) }, '1000 caractères au plus'],
    [
      'a stop without reason',
      { type: 'FEEDBACK', side: 'a', outcome: 'arreter' },
      'Un motif est demandé pour arrêter, et seulement pour arrêter',
    ],
    [
      'a reason to continue',
      { type: 'FEEDBACK', side: 'a', outcome: 'continuer', reason: 'age' },
      'Un motif est demandé pour arrêter, et seulement pour arrêter',
    ],
    [
      'a meeting date without zone',
      { type: 'PLAN_MEETING', meetingAt: '2026-01-10T15:00:00', place: 'Lyon' },
      'Date de rencontre invalide',
    ],
    [
      'a blank place',
      { type: 'PLAN_MEETING', meetingAt: '2026-01-10T15:00:00Z', place: '   ' },
      'Veuillez indiquer le lieu de la rencontre',
    ],
    ['a blank note', { type: 'CLOSE', note: ' ' }, 'Une note est demandée'],
    ['a note too long', { type: 'REOPEN', note: 'x'.repeat(NOTE_MAX_LENGTH + 1) }, `${NOTE_MAX_LENGTH} caractères au plus`],
  ])('refuses %s', (_name, body, message) => {
    expect(messages(body)).toContain(message);
  });

  it('the decline reasons are the short list, each with French words', () => {
    expect(declineReasons).toEqual(['age', 'region', 'pratique', 'situation-familiale', 'pas-de-feeling', 'autre']);
    for (const reason of declineReasons) expect(declineReasonLabels[reason]).toMatch(/^[A-ZÀ-Ý]/u);
  });
});

describe('chart events', () => {
  it('add the actor and the server instant; an empty comment and a missing reason become null', () => {
    expect(toMachineEvent(parsed({ type: 'DECLINE', side: 'a', reason: 'age', comment: '  ' }), memberA, AT)).toEqual({
      type: 'DECLINE',
      side: 'a',
      reason: 'age',
      comment: null,
      actor: memberA,
      at: AT,
    });
    expect(toMachineEvent(parsed({ type: 'FEEDBACK', side: 'a', outcome: 'fiances' }), memberA, AT)).toMatchObject({ reason: null });
    expect(toMachineEvent(parsed({ type: 'CLOSE', note: '  Fin  ' }), staff, AT)).toEqual({
      type: 'CLOSE',
      note: 'Fin',
      actor: staff,
      at: AT,
    });
  });

  it('split into member events and staff-only events, covering every labelled type', () => {
    expect([...memberEventTypes].sort()).toEqual(['ACCEPT', 'DECLINE', 'FEEDBACK']);
    expect([...memberEventTypes, ...staffOnlyEventTypes].sort()).toEqual([...eventTypes].sort());
    expect([...eventTypes].sort()).toEqual(Object.keys(eventLabels).sort());
    for (const type of staffOnlyEventTypes) {
      expect(actorMaySend(type, staff)).toBe(true);
      expect(actorMaySend(type, memberA)).toBe(false);
    }
    for (const type of memberEventTypes) {
      expect(actorMaySend(type, memberA)).toBe(true);
      expect(actorMaySend(type, staff)).toBe(false);
    }
  });
});
