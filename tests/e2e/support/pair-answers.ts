import type { Product } from '#bff/start.ts';
import type { PersonalInfo, Questionnaire } from '#machines/onboarding/forms.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import { seedActiveMember } from '#tests/e2e/support/active-record.ts';

/**
 * Amina's and Youssef's answers to steps 1-2, for the walks that need the two of them active and
 * within each other's criteria (introductions, presentation): one copy, so that what the walks
 * read on the screens (ages, region, « pourquoi ce profil ») comes from the same data.
 */
const PAIR_ANSWERS: Record<'amina' | 'youssef', { profile: PersonalInfo; questionnaire: Questionnaire }> = {
  amina: {
    profile: {
      firstName: 'Amina',
      lastName: 'Benali',
      birthDate: '1995-04-18',
      phone: '+33612345678',
      postcode: '75018',
      city: 'Paris',
      maritalStatus: 'celibataire',
      childrenCount: 0,
      profession: 'Infirmière',
      prayerPractice: 'cinq-prieres',
      practiceDetails: '',
      sensitiveDataConsent: true,
    },
    questionnaire: {
      soughtPractice: 'reguliere',
      soughtAgeMin: 28,
      soughtAgeMax: 40,
      soughtRegions: ['ile-de-france'],
      soughtFamilySituations: ['celibataire', 'divorce'],
      acceptsChildren: true,
      soughtProfessionalSituation: 'indifferent',
      otherQualities: 'Une personne sincère et attachée à sa famille.',
    },
  },
  youssef: {
    profile: {
      firstName: 'Youssef',
      lastName: 'Haddad',
      birthDate: '1990-02-11',
      phone: '+33698765432',
      postcode: '75011',
      city: 'Paris',
      maritalStatus: 'celibataire',
      childrenCount: 0,
      profession: 'Ingénieur',
      prayerPractice: 'cinq-prieres',
      practiceDetails: '',
      sensitiveDataConsent: true,
    },
    questionnaire: {
      soughtPractice: 'reguliere',
      soughtAgeMin: 25,
      soughtAgeMax: 35,
      soughtRegions: ['ile-de-france'],
      soughtFamilySituations: ['celibataire'],
      acceptsChildren: true,
      soughtProfessionalSituation: 'indifferent',
      otherQualities: 'Une personne douce, sérieuse et pieuse.',
    },
  },
};

/** Amina and Youssef written in as active members with these answers; their ids set on `people`. */
export async function seedPair(
  product: Product,
  people: Record<'amina' | 'youssef', { email: string; gender: Gender; id: string }>,
  password: string,
  now: number,
): Promise<void> {
  for (const key of ['amina', 'youssef'] as const) {
    const person = people[key];
    const { firstName, lastName, birthDate } = PAIR_ANSWERS[key].profile;
    person.id = await seedActiveMember(product, { ...person, password, firstName, lastName, birthDate }, now, PAIR_ANSWERS[key]);
  }
}
