import { describe, expect, it, vi } from 'vitest';
import { mfaResetMail } from '#bff/mail/staff-mails.ts';
import {
  emailChangeConfirmationMail,
  emailChangedNotice,
  emailChangeRequestedNotice,
  reauthenticationMail,
} from '#bff/mail/account-mails.ts';
import { recoveryMail } from '#bff/mail/recovery-mail.ts';
import { parseConfig } from '#bff/config.ts';
import { agencyIdentity, type ContractInput, contractDocument } from '#bff/contract/contract-text.ts';
import { planById } from '#machines/onboarding/plans.ts';
import { type AgencyIdentity, DEMO_AGENCY_IDENTITY, PLACEHOLDER_PATTERN } from '#machines/public-site/agency-identity.ts';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';

const agency: AgencyIdentity = SAMPLE_AGENCY;

function contractText(identity: AgencyIdentity): string {
  const input: ContractInput = {
    agency: agencyIdentity(identity),
    email: 'nadia@example.org',
    form: { fullName: 'Nadia Kaci', address: '3 place Bellecour', postcode: '69002', city: 'Lyon', signature: 'Nadia Kaci' },
    profile: { birthDate: '1994-03-12', phone: '06 12 34 56 78' },
    questionnaire: null,
    plan: planById('plan_serenity_month'),
    renounced: false,
    couponApplied: false,
    formCompletedAt: new Date('2026-11-20T10:00:00Z'),
    signedAt: new Date('2026-11-21T10:00:00Z'),
    datedAt: new Date('2026-11-21T09:00:00Z'),
  };
  return JSON.stringify(contractDocument(input));
}

describe('the contract names the configured agency (L224-90, decision 106)', () => {
  it('prints every element of the identity and the consumer mediator, never a placeholder', () => {
    const text = contractText(agency);
    expect(text).not.toMatch(PLACEHOLDER_PATTERN);
    expect(text).toContain(
      'Union Sincère SAS, société par actions simplifiée au capital de 5 000 €, dont le siège est situé 12 rue des Lilas, 69003 Lyon, RCS Lyon 123 456 789, SIRET 123 456 789 00012, téléphone 04 72 00 00 00, e-mail bonjour@union-sincere.fr',
    );
    expect(text).toContain(
      'médiateur de la consommation dont relève l’agence (articles L612\u20111 et suivants du Code de la consommation) : CM2C (https://www.cm2c.net)',
    );
    expect(text).toContain('Pour l’agence : Union Sincère SAS.');
  });

  it('takes the identity from the configuration, and marks the demo identity as such', () => {
    const fromConfig = contractText(parseConfig({}).agency);
    expect(fromConfig).not.toMatch(PLACEHOLDER_PATTERN);
    expect(fromConfig).toContain(DEMO_AGENCY_IDENTITY.legalName);
    expect(fromConfig).toContain('SIRET 000 000 000 00000 (démonstration)');
    const configured = parseConfig({ AGENCY_ADDRESS: '7 quai Saint-Vincent, 69001 Lyon' }).agency;
    expect(contractText(configured)).toContain('dont le siège est situé 7 quai Saint-Vincent, 69001 Lyon');
  });
});

describe('mails', () => {
  it('hold no placeholder', () => {
    const site = {
      siteName: 'Union Sincère',
      siteUrl: 'https://www.union-sincere.fr',
      site: { siteUrl: 'https://www.union-sincere.fr', agency: DEMO_AGENCY_IDENTITY },
    };
    const mails = [
      recoveryMail({
        to: 'a@example.org',
        link: 'https://www.union-sincere.fr/x',
        otp: '123456',
        siteName: site.siteName,
        site: site.site,
        validitySeconds: 3600,
      }),
      emailChangeConfirmationMail({
        to: 'a@example.org',
        current: 'b@example.org',
        link: 'https://x',
        otp: '123456',
        siteName: site.siteName,
        site: site.site,
        validitySeconds: 3600,
      }),
      emailChangeRequestedNotice({ to: 'a@example.org', next: 'b@example.org', ...site }),
      emailChangedNotice({ to: 'a@example.org', next: 'b@example.org', siteName: site.siteName, site: site.site }),
      reauthenticationMail({ to: 'a@example.org', otp: '123456', siteName: site.siteName, site: site.site, validitySeconds: 600 }),
      mfaResetMail(site.site, { to: 'a@example.org', name: 'Samia', actor: 'Karim', at: new Date() }),
    ];
    for (const mail of mails) {
      expect(`${mail.subject}\n${mail.text}\n${'html' in mail ? mail.html : ''}`, mail.subject).not.toMatch(PLACEHOLDER_PATTERN);
      expect(mail.text).toContain('Union Sincère');
    }
  });
});

describe('the contract shown before signature (decision 109)', () => {
  const input = (overrides: Partial<ContractInput> = {}): ContractInput => ({
    agency: agencyIdentity(agency),
    email: 'nadia@example.org',
    form: { fullName: 'Nadia Kaci', address: '3 place Bellecour', postcode: '69002', city: 'Lyon', signature: 'Nadia Kaci' },
    profile: null,
    questionnaire: null,
    plan: planById('plan_serenity_month'),
    renounced: false,
    couponApplied: false,
    formCompletedAt: new Date('2026-11-20T10:00:00Z'),
    signedAt: null,
    datedAt: new Date('2026-11-21T09:00:00Z'),
    ...overrides,
  });

  it('has every mention the law asks for, with start and end dates and the model withdrawal form', () => {
    const text = JSON.stringify(contractDocument(input()));
    for (const expected of [
      'Nature des prestations',
      'Prix et modalités de paiement',
      'prend effet le 21 novembre 2026 et prend fin le 20 novembre 2027',
      'n’est pas reconduit tacitement',
      'Faculté de renonciation de 7 jours',
      'Droit de rétractation de 14 jours',
      'Modèle de formulaire de rétractation',
      'Je vous notifie par la présente ma rétractation',
      'Résiliation pour motif légitime',
      'R224\u20111',
      'Annexe — Qualités de la personne recherchée',
      'article 1367 du Code civil',
      // Signed on Saturday 21 Nov 2026: the 7th and 14th days fall on Saturdays, moved to Mondays (decision 165).
      'Pour un contrat signé le samedi 21 novembre 2026, la renonciation est possible jusqu’au lundi 30 novembre 2026 inclus et le paiement s’ouvre le mardi 1er décembre 2026 à 0\u00a0h (heure de Paris).',
      'pour un contrat signé le samedi 21 novembre 2026, la rétractation est possible jusqu’au lundi 7 décembre 2026 inclus',
      'le jour de la signature n’est pas compté',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('is the same document before and after signature on the same day: nothing in it depends on the instant', () => {
    const before = contractDocument(input());
    const after = contractDocument(input({ signedAt: new Date('2026-11-21T16:42:13Z') }));
    expect(after).toEqual(before);
    expect(contractDocument(input({ datedAt: new Date('2026-11-22T09:00:00Z') }))).not.toEqual(before);
  });

  it('renders the same PDF bytes for the same input', async () => {
    const { renderContractPdf } = await import('#bff/contract/contract-pdf.ts');
    const document = contractDocument(input());
    const options = { memberName: 'Nadia Kaci', now: new Date('2026-11-21T12:00:00Z') };
    const first = Buffer.from(await renderContractPdf(document, options));
    // A second later by the wall clock (moved, not waited for): the same bytes.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1_100 });
    try {
      expect(Buffer.from(await renderContractPdf(document, options)).equals(first)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
