import type { AnyStateNode } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  type ContractForm,
  contractFormEntries,
  type PersonalInfo,
  personalInfoEntries,
  type Questionnaire,
  questionnaireEntries,
} from '#machines/onboarding/forms.ts';
import {
  contractFields,
  genderLabels,
  maritalStatusLabels,
  offerLabels,
  planLabels,
  prayerPracticeLabels,
  professionalSituationLabels,
  profileFields,
  questionnaireFields,
  regionLabels,
  requirableCriterionLabels,
  soughtPracticeLabels,
  stateLabel,
  stateShortLabel,
  wantsChildrenLabels,
} from '#machines/onboarding/labels.ts';
import { actorPhrase, contextSentences, eventLabel, eventLabels, eventSentence } from '#machines/onboarding/event-labels.ts';
import { onboardingMachine } from '#machines/onboarding/onboarding.machine.ts';
import { offerIds, planIds } from '#machines/onboarding/plans.ts';
import { genders } from '#machines/onboarding/record.ts';
import { type ContextName, contextNames, eventTypes } from '#machines/onboarding/update-contexts.ts';

// Type-level coverage: a context, an event or a form field without its label fails `tsc`.
eventLabels satisfies Record<(typeof eventTypes)[ContextName], string>;
contextSentences satisfies Record<ContextName | 'ban', string | { yes: string; no: string }>;
profileFields satisfies readonly { key: keyof PersonalInfo }[];
questionnaireFields satisfies readonly { key: keyof Questionnaire }[];
contractFields satisfies readonly { key: keyof ContractForm }[];

const NOW = Date.UTC(2026, 10, 24, 10, 30);

/** Every picklist option reachable from a valibot schema (through pipes, arrays and objects). */
function picklistOptions(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as { type?: string; options?: unknown[]; pipe?: unknown[]; item?: unknown; entries?: Record<string, unknown> };
  const found: string[] = [];
  if (node.type === 'picklist' && Array.isArray(node.options)) found.push(...node.options.map(String));
  for (const inner of node.pipe?.slice(1) ?? []) found.push(...picklistOptions(inner));
  if (node.item) found.push(...picklistOptions(node.item));
  for (const entry of Object.values(node.entries ?? {})) found.push(...picklistOptions(entry));
  return found;
}

/** Which label table names the choices of each form field. */
const choiceTables: Record<string, Record<string, string>> = {
  maritalStatus: maritalStatusLabels,
  prayerPractice: prayerPracticeLabels,
  soughtPractice: soughtPracticeLabels,
  soughtRegions: regionLabels,
  soughtFamilySituations: maritalStatusLabels,
  soughtProfessionalSituation: professionalSituationLabels,
  wantsChildren: wantsChildrenLabels,
  requiredCriteria: requirableCriterionLabels,
};

function walk(node: AnyStateNode, visit: (node: AnyStateNode) => void) {
  visit(node);
  for (const child of Object.values(node.states)) walk(child, visit);
}

describe('the one label table (decision 108)', () => {
  it('labels every choice of every form field, and every field with choices has its table', () => {
    const entries: Record<string, unknown> = { ...personalInfoEntries(NOW), ...questionnaireEntries, ...contractFormEntries };
    let checked = 0;
    for (const [field, schema] of Object.entries(entries)) {
      const options = picklistOptions(schema);
      if (options.length === 0) continue;
      const table = choiceTables[field];
      expect(table, `${field} has a label table`).toBeDefined();
      for (const option of options) {
        expect(table?.[option], `${field}: ${option}`).toMatch(/\p{Lu}/u);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });

  it('gives every form field a place and a label, in a fixed order', () => {
    expect(profileFields.map((f) => f.key).sort()).toEqual(Object.keys(personalInfoEntries(NOW)).sort());
    expect(questionnaireFields.map((f) => f.key).sort()).toEqual(Object.keys(questionnaireEntries).sort());
    expect(contractFields.map((f) => f.key).sort()).toEqual(Object.keys(contractFormEntries).sort());
    expect(profileFields.slice(0, 3).map((f) => f.key)).toEqual(['firstName', 'lastName', 'birthDate']);
  });

  it('names every plan, offer and gender', () => {
    for (const id of planIds) expect(planLabels[id]).toMatch(/^(Horizon|Sérénité), /);
    for (const id of offerIds) expect(offerLabels[id]).toBeTruthy();
    expect(offerLabels.file_fee).toBe('Frais de dossier');
    for (const gender of genders) expect(genderLabels[gender]).toMatch(/^\p{Lu}/u);
  });

  it('names every state and sub-state of the chart, whatever their order', () => {
    const keys: string[] = [];
    walk(onboardingMachine.root, (node) => {
      if (node.path.length > 0) keys.push(node.path.join('.'));
    });
    expect(keys.length).toBeGreaterThan(15);
    for (const key of keys) {
      expect(stateShortLabel(key), key).not.toBeNull();
      expect(stateLabel(key), key).not.toMatch(/inconnue|\./);
      expect(stateLabel(key), key).not.toContain(key);
    }
    expect(stateLabel('attente-contrat.signature')).toBe('Contrat — Signature');
    expect(stateLabel('nimporte-quoi')).toBe('Étape inconnue');
  });

  it('names every event of the chart and every update context', () => {
    const events = new Set<string>(Object.values(eventTypes));
    walk(onboardingMachine.root, (node) => {
      for (const event of node.transitions.keys()) events.add(event);
    });
    for (const event of events) {
      expect(Object.hasOwn(eventLabels, event), event).toBe(true);
      expect(eventLabel(event), event).not.toBe('Action inconnue');
    }
    for (const context of [...contextNames, 'ban' as const]) {
      expect(Object.hasOwn(contextSentences, context), context).toBe(true);
      for (const outcome of [true, false, null]) {
        const sentence = eventSentence({ context, event: 'X', outcome, planId: null });
        expect(sentence, context).toMatch(/^\p{Lu}/u);
        expect(sentence, context).not.toBe('Événement inconnu');
      }
    }
  });

  it('reads outcomes, plans and actors as French sentences', () => {
    expect(eventSentence({ context: 'onb_meet_ok', event: 'RECORD_ONBOARDING_MEETING', outcome: true, planId: null })).toBe(
      'Entretien personnalisé validé',
    );
    expect(eventSentence({ context: 'onb_meet_ok', event: 'RECORD_ONBOARDING_MEETING', outcome: false, planId: null })).toBe(
      'Entretien personnalisé noté comme manqué',
    );
    expect(eventSentence({ context: 'ban', event: 'ENABLE', outcome: false, planId: null })).toBe('Compte réactivé');
    expect(eventSentence({ context: 'ban', event: 'DISABLE', outcome: true, planId: null })).toBe('Compte désactivé');
    expect(eventSentence({ context: 'sel_plan', event: 'SELECT_PLAN', outcome: null, planId: 'plan_serenity_month' })).toBe(
      'Formule choisie : Sérénité, 12 mois en 12 mensualités',
    );
    expect(eventSentence({ context: 'inconnu', event: 'X', outcome: null, planId: null })).toBe('Événement inconnu');
    expect(actorPhrase('staff', 'Nadia')).toBe('par Nadia');
    expect(actorPhrase('staff', null)).toBe('par l’équipe');
    expect(actorPhrase('member', null)).toBe('par le membre');
    expect(actorPhrase('system', null)).toBe('automatiquement');
  });
});
