import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  activeMemberMail,
  type AgencyMailSite,
  agencyMailKinds,
  contractReadyMail,
  meetingBookedMail,
  meetingReminderMail,
  paymentReceivedMail,
  renunciationConfirmedMail,
  renunciationPeriodOverMail,
  termEndingMail,
  creditNoteMail,
  terminationConfirmedMail,
  terminationRefusedMail,
  terminationRequestedMail,
  welcomeMail,
  withdrawalConfirmedMail,
  withdrawalPeriodOverMail,
} from '#bff/mail/agency-mails.ts';
import { type OutgoingMail, OutgoingMailSchema } from '#bff/mail/outbox.ts';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';

const site: AgencyMailSite = { siteUrl: 'https://www.union-sincere.fr/', agency: { ...SAMPLE_AGENCY, legalName: 'Union & Sincère SAS' } };
const to = { to: 'amina.membre@example.fr', firstName: 'Amina' };
const at = new Date('2026-11-26T14:00:00Z');
const endsAt = new Date('2027-11-26T10:00:00Z');

/** Every agency mail with what its text must say. */
const cases: [string, OutgoingMail, RegExp][] = [
  ['welcome', welcomeMail(site, to), /Votre compte Union & Sincère SAS est créé/],
  [
    'payment (coupon: 0 €)',
    paymentReceivedMail(site, to, {
      amountCents: 0,
      what: 'Frais de dossier',
      invoiceNumber: '2026-000001',
      invoicePdf: new Uint8Array([37, 80, 68, 70]),
      invoiceFileName: 'facture-2026-000001.pdf',
    }),
    /paiement de 0,00\s€ \(Frais de dossier\)[\s\S]*facture n° 2026-000001 est jointe/,
  ],
  [
    'payment (subscription)',
    paymentReceivedMail(site, to, {
      amountCents: 8_500,
      what: 'Abonnement',
      invoiceNumber: '2026-000002',
      invoicePdf: new Uint8Array([37, 80, 68, 70]),
      invoiceFileName: 'facture-2026-000002.pdf',
    }),
    /paiement de 85,00\s€ \(Abonnement\)/,
  ],
  ['meeting booked', meetingBookedMail(site, to, { at }), /réservé le jeudi 26 novembre 2026 à 15\sh\s00 \(heure de Paris\)/],
  ['meeting reminder', meetingReminderMail(site, to, { at }), /le jeudi 26 novembre 2026 à 15\sh\s00/],
  ['contract ready', contractReadyMail(site, to), /Votre contrat est prêt/],
  [
    'renunciation over',
    renunciationPeriodOverMail(site, to, { lastDay: '2026-12-14' }),
    /délai de 7 jours qui suit la signature de votre contrat a pris fin le lundi 14 décembre 2026 à 24 heures/,
  ],
  [
    'withdrawal over',
    withdrawalPeriodOverMail(site, to, { lastDay: '2026-12-21' }),
    /délai de rétractation de 14 jours qui suit la signature de votre contrat a pris fin le lundi 21 décembre 2026 à 24 heures/,
  ],
  ['active member', activeMemberMail(site, to, { endsAt }), /jusqu’au 26 novembre 2027/],
  ['term ending 30', termEndingMail(site, to, { endsAt, daysBefore: 30 }), /prend fin le 26 novembre 2027/],
  ['term ending 7', termEndingMail(site, to, { endsAt, daysBefore: 7 }), /prend fin le 26 novembre 2027/],
  ['renunciation confirmed', renunciationConfirmedMail(site, to, { at }), /renonciation au contrat/],
  ['withdrawal confirmed', withdrawalConfirmedMail(site, to, { at }), /droit de rétractation/],
  [
    'termination requested',
    terminationRequestedMail(site, to, { at, reasonLabel: 'Déménagement', dueBy: endsAt }),
    /répond au plus tard le 26 novembre 2027/,
  ],
  [
    'termination confirmed',
    terminationConfirmedMail(site, to, { at, requestedAt: at, refundCents: 95_120, keptCents: 23_780, refundBy: endsAt }),
    /Nous vous remboursons 951,20\s€ au plus tard le 26 novembre 2027/,
  ],
  [
    'termination refused',
    terminationRefusedMail(site, to, { requestedAt: at, reason: 'Le justificatif ne montre pas de déménagement.' }),
    /Le justificatif ne montre pas de déménagement\./,
  ],
  [
    'credit note',
    creditNoteMail(site, to, {
      number: 'AV-2026-00001',
      amountCents: 1000,
      invoiceNumber: '2026-000001',
      pdf: new Uint8Array([37, 80]),
      fileName: 'avoir-AV-2026-00001.pdf',
    }),
    /avoir n° AV-2026-00001 de 10,00\s€, sur la facture n° 2026-000001/,
  ],
];

describe('agency mails (decision 111)', () => {
  it.each(cases)('%s: valid for the outbox, French, in text and HTML, greeting by first name, identity in the footer', (_, mail, says) => {
    expect(v.safeParse(OutgoingMailSchema, mail).success).toBe(true);
    expect(agencyMailKinds).toContain(mail.kind);
    expect(mail.to).toBe(to.to);
    expect(mail.text).toMatch(says);
    expect(mail.text.startsWith('Bonjour Amina,\n')).toBe(true);
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.html).toContain('Bonjour Amina,');
    // The footer names the agency from its configuration, escaped in HTML.
    for (const line of [SAMPLE_AGENCY.address, SAMPLE_AGENCY.rcs, SAMPLE_AGENCY.siret, SAMPLE_AGENCY.mediatorName]) {
      expect(mail.text).toContain(line);
      expect(mail.html).toContain(line);
    }
    expect(mail.text).toContain('Union & Sincère SAS, société par actions simplifiée');
    expect(mail.html).toContain('Union &amp; Sincère SAS, société par actions simplifiée');
    expect(mail.html).not.toContain('Union & Sincère');
    // No personal data beyond the first name: the address is the recipient, never in the body.
    expect(mail.text).not.toContain(to.to);
    expect(mail.html).not.toContain(to.to);
  });

  it('builds links from the public site address', () => {
    const mail = contractReadyMail(site, to);
    expect(mail.text).toContain('https://www.union-sincere.fr/mon-compte/inscription/attente-contrat');
    expect(mail.html).toContain('href="https://www.union-sincere.fr/mon-compte/inscription/attente-contrat"');
    expect(welcomeMail(site, to).text).toContain('https://www.union-sincere.fr/mon-compte\n');
  });

  it('escapes every value in the HTML (a first name cannot inject markup)', () => {
    const mail = welcomeMail(site, { to: to.to, firstName: '<img src=x onerror="alert(1)">' });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('Bonjour &lt;img src=x onerror=&quot;alert(1)&quot;&gt;,');
    // The text part is plain text: kept as typed.
    expect(mail.text.startsWith('Bonjour <img')).toBe(true);
  });

  it('greets without a name when the profile has none yet', () => {
    const mail = welcomeMail(site, { to: to.to });
    expect(mail.text.startsWith('Bonjour,\n')).toBe(true);
    expect(mail.html).toContain('>Bonjour,</p>');
  });

  it('says when the term ends in the term-ending subjects', () => {
    expect(termEndingMail(site, to, { endsAt, daysBefore: 30 }).subject).toBe('Votre contrat prend fin dans 30 jours');
    expect(termEndingMail(site, to, { endsAt, daysBefore: 7 }).subject).toBe('Votre contrat prend fin dans 7 jours');
    expect(activeMemberMail(site, to, { endsAt: null }).text).not.toContain('jusqu’au');
  });
});
