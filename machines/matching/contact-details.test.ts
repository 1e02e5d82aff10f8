import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type ContactKind, contactRefusal, findContactDetails } from '#machines/matching/contact-details.ts';
import { PresentationText } from '#machines/matching/presentation.ts';

/**
 * The detector of contact details (issue 62 point 6, decision 200): real-world forms, French and
 * English, each with the kinds it must find; and ordinary presentations it must let through.
 */

const found: [string, ContactKind[]][] = [
  // Phones: digits in their usual forms.
  ['Appelez-moi au 06 12 34 56 78 après 18 h.', ['telephone']],
  ['mon 0612345678', ['telephone']],
  ['+33 6 12 34 56 78', ['telephone']],
  ['06.12.34.56.78', ['telephone']],
  ['tel 06-12-34-56-78', ['telephone']],
  ['06/12/34/56/78', ['telephone']],
  ['+32 470 12 34 56', ['telephone']],
  ['Mon numéro : +33612345678', ['telephone']],
  ['0033 6 12 34 56 78', ['telephone']],
  ['my number is +44 7911 123456', ['telephone']],
  ['call me at 07911 123 456', ['telephone']],
  // Phones read aloud, and mixed.
  ['zéro six douze trente-quatre cinquante-six soixante-dix-huit', ['telephone']],
  ['Zéro six, douze, trente quatre, cinquante six, soixante dix huit', ['telephone']],
  ['06 douze 34 56 78', ['telephone']],
  ['zero six one two three four five six seven eight', ['telephone']],
  ['zéro sept quatre-vingt-dix-neuf soixante et onze vingt-deux treize', ['telephone']],
  ['0 6 1 2 3 4 5 6 7 8', ['telephone']],
  // E-mails, plain and disguised.
  ['Contact : amina.b@gmail.com', ['email']],
  ['écrivez-moi : AMINA.B@Hotmail.FR', ['email']],
  ['nom at gmail point com', ['email']],
  ['youssef [at] hotmail [dot] fr', ['email']],
  ['youssef (at) outlook (dot) com', ['email']],
  ['contact : amina arobase gmail.com', ['email']],
  ['Écrivez-moi sur youssef point amr arobase gmail point com', ['email']],
  ['mon mail : youssef.amr chez gmail', ['email']],
  ['youssef at hotmail', ['email']],
  ['amina_b at orange', ['email']],
  // Links and bare domains.
  ['Mon site : https://youssef-amr.fr/a-propos', ['lien']],
  ['www.youssef.fr', ['lien']],
  ['youssef.com', ['lien']],
  ['https://t.me/youssef', ['lien']],
  ['linktr.ee/youssef', ['lien']],
  ['Voir facebook.com/youssef.amr', ['lien']],
  ['gmail point com', ['lien']],
  // Handles and networks.
  ['Insta : @youssef.amr', ['reseau']],
  ['Insta: youssef.amr', ['reseau']],
  ['snap youssef_amr', ['reseau']],
  ['Snapchat : amr.y', ['reseau']],
  ['fb Youssef.Amr', ['reseau']],
  ['Facebook : Youssef Amr', ['reseau']],
  ['mon insta c’est youssefamr', ['reseau']],
  ['mon tiktok: amina_92', ['reseau']],
  ['Find me on IG: youssef.amr', ['reseau']],
  ['Telegram → youssef_amr', ['reseau']],
  ['Écrivez-moi @youssef_amr', ['pseudo']],
  ['Je suis @amina.lyon partout', ['pseudo']],
  ['WhatsApp 0612345678', ['telephone', 'reseau']],
  // Several at once.
  ['Insta @youssef.amr ou 06 12 34 56 78, youssef@gmail.com', ['telephone', 'email', 'reseau']],
];

const ordinary = [
  'Ingénieur à Lyon, j’aime la randonnée et les longues lectures. Je cherche une épouse sincère.',
  'J’ai 34 ans, deux enfants, et je vis à Lyon depuis 2015.',
  'Infirmière, 3 frères, née en 1991.',
  'Code postal 69003.',
  'J’ai vingt-neuf ans, un enfant de six ans et deux neveux de dix et douze ans.',
  'Ma mère a soixante ans et mon père soixante-cinq.',
  'J’aime la lecture.Je cherche quelqu’un de sérieux.',
  'Un point de vue sincère sur la vie de famille.',
  'Je n’ai pas insta, ni snap, ni facebook.',
  'Instagram : non merci.',
  'Je vis chez mes parents à Lyon.',
  'Je travaille chez Orange, à Paris.',
  'I work at Orange in Lyon.',
  'J’achète chez Free.',
  'Je suis M.A. en sociologie, diplômée d’un M2 (bac+5).',
  'J’habite à Saint-Denis (93), je fais du sport 3 fois par semaine, 5 km le matin.',
  'Je randonne @ la montagne le week-end.',
  'Mon sourire 😊 et ma foi.',
  'Le prix : 1 200 € par an, réglé en 12 fois.',
  'Mariage prévu en 2027, in sha Allah.',
];

describe('contact details in a text (decision 200)', () => {
  it.each(found)('finds them in %j', (text, kinds) => {
    expect(
      findContactDetails(text)
        .map((f) => f.kind)
        .sort(),
    ).toEqual([...kinds].sort());
    expect(v.safeParse(PresentationText, text).success).toBe(false);
  });

  it.each(ordinary)('lets %j through', (text) => {
    expect(findContactDetails(text)).toEqual([]);
    expect(v.safeParse(PresentationText, text).success).toBe(true);
  });

  it('says in French what was found, quoting the text', () => {
    const result = v.safeParse(PresentationText, 'Je suis sérieux. Insta : @youssef.amr');
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe(
      'Votre présentation ne doit pas contenir de coordonnées\u00a0: nous y avons trouvé un compte de réseau social (\u00ab\u00a0Insta : @youssef.amr\u00a0\u00bb). L’agence transmet les coordonnées seulement quand vous avez accepté tous les deux.',
    );
    expect(contactRefusal(findContactDetails('06 12 34 56 78 et amina@gmail.com'))).toContain(
      'un numéro de téléphone (\u00ab\u00a006 12 34 56 78\u00a0\u00bb) et une adresse e-mail (\u00ab\u00a0amina@gmail.com\u00a0\u00bb)',
    );
  });
});
