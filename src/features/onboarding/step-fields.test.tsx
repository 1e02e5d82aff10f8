import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ProfileFields, profileInputOf, QuestionnaireFields, questionnaireInputOf } from '#src/features/onboarding/step-fields.tsx';

/** The `name` of every input, in document order, once each (a radio group's options share one). */
const namesOf = (html: string) => [...new Set([...html.matchAll(/name="([^"]+)"/g)].map((m) => m[1]))];

describe('the answer steps’ fields, shared by the wizard and « Mes informations » (issue 23)', () => {
  it('step 1: the same fields in the same order, labelled in French, with the error shown', () => {
    const html = renderToStaticMarkup(<ProfileFields errors={{ phone: 'Numéro invalide.' }} />);
    expect(namesOf(html)).toEqual([
      'firstName',
      'lastName',
      'birthDate',
      'phone',
      'postcode',
      'city',
      'maritalStatus',
      'childrenCount',
      'profession',
      'educationLevel',
      'languages',
      'heightCm',
      'prayerPractice',
      'practiceDetails',
      'madhhab',
    ]);
    for (const label of [
      'Prénom',
      'Date de naissance',
      'Nombre d’enfants',
      'Votre pratique de la prière',
      'Précisions sur votre pratique (facultatif)',
    ])
      expect(html).toContain(label);
    expect(html).toContain('Numéro invalide.');
    expect(html).not.toContain('sensitiveDataConsent');
    // Decision 208: the hijab is asked of a woman only, the beard of a man only; neither when the sex is unknown.
    expect(html).not.toContain('name="hijab"');
    expect(html).not.toContain('name="beard"');
    const woman = renderToStaticMarkup(<ProfileFields errors={{}} gender="femme" />);
    expect(woman).toContain('Portez-vous le voile ? (facultatif)'.replace(' ?', '\u00a0?'));
    expect(woman).toContain('name="hijab"');
    expect(woman).not.toContain('name="beard"');
    const man = renderToStaticMarkup(<ProfileFields errors={{}} gender="homme" />);
    expect(man).toContain('name="beard"');
    expect(man).not.toContain('name="hijab"');
    for (const label of ['Langues parlées (facultatif)', 'Niveau d’études (facultatif)', 'Taille en centimètres (facultatif)', 'Malikite'])
      expect(man).toContain(label);
  });

  it('step 1 read back: the new answers only when given', () => {
    const data = new FormData();
    data.append('languages', 'francais');
    data.append('languages', 'arabe');
    data.set('heightCm', '172');
    data.set('madhhab', 'malikite');
    expect(profileInputOf(data)).toMatchObject({
      languages: ['francais', 'arabe'],
      heightCm: 172,
      madhhab: 'malikite',
      educationLevel: undefined,
      hijab: undefined,
      beard: undefined,
    });
  });

  it('step 2: the questionnaire’s fields in order, Oui/Non for children, « Indispensable » under each criterion', () => {
    const html = renderToStaticMarkup(<QuestionnaireFields errors={{}} />);
    expect(namesOf(html)).toEqual([
      'soughtPractice',
      'requiredCriteria',
      'soughtAgeMin',
      'soughtAgeMax',
      'soughtHeightMin',
      'soughtHeightMax',
      'soughtRegions',
      'soughtFamilySituations',
      'acceptsChildren',
      'wantsChildren',
      'readyToRelocate',
      'soughtProfessionalSituation',
      'otherQualities',
    ]);
    expect(html).toContain('Acceptez-vous une personne ayant des enfants\u00a0?');
    expect(html).toContain('Souhaitez-vous avoir des enfants (ou d’autres enfants)\u00a0?');
    expect(html).toMatch(/value="true"[^>]*\/?>Oui/);
    // Decision 193: one box per criterion that may be indispensable, never ticked in advance.
    const boxes = [...html.matchAll(/name="requiredCriteria" value="([^"]+)"/g)].map((m) => m[1]);
    expect(boxes).toEqual(['pratique', 'age', 'region', 'situation-familiale', 'enfants', 'desir-enfants', 'demenagement']);
    expect(html).not.toMatch(/name="requiredCriteria"[^>]*checked/);
  });

  it('reads a submitted form back: numbers, lists, yes/no, blanks as undefined', () => {
    const profile = new FormData();
    for (const [k, val] of Object.entries({
      firstName: 'Amina',
      childrenCount: ' 2 ',
      maritalStatus: 'divorce',
    }))
      profile.set(k, val);
    expect(profileInputOf(profile)).toMatchObject({
      firstName: 'Amina',
      childrenCount: 2,
      maritalStatus: 'divorce',
      prayerPractice: undefined,
    });
    expect(profileInputOf(new FormData()).childrenCount).toBeUndefined();

    const sought = new FormData();
    sought.append('soughtRegions', 'ile-de-france');
    sought.append('soughtRegions', 'bretagne');
    sought.set('acceptsChildren', 'false');
    sought.set('soughtAgeMin', '25');
    sought.set('soughtHeightMin', '175');
    sought.set('readyToRelocate', 'true');
    sought.append('requiredCriteria', 'age');
    sought.append('requiredCriteria', 'demenagement');
    expect(questionnaireInputOf(sought)).toMatchObject({
      soughtRegions: ['ile-de-france', 'bretagne'],
      soughtFamilySituations: [],
      acceptsChildren: false,
      soughtAgeMin: 25,
      soughtAgeMax: undefined,
      soughtHeightMin: 175,
      soughtHeightMax: undefined,
      wantsChildren: undefined,
      readyToRelocate: true,
      requiredCriteria: ['age', 'demenagement'],
    });
    expect(questionnaireInputOf(new FormData()).requiredCriteria).toEqual([]);
    expect(questionnaireInputOf(new FormData()).acceptsChildren).toBeUndefined();
  });
});
