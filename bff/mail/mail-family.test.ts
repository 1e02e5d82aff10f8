import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { agencyMailKinds } from '#bff/mail/agency-mails.ts';
import { OutgoingMailSchema } from '#bff/mail/outbox.ts';
import { everyMail, MAIL_SITE } from '#tests/support/every-mail.ts';

/**
 * Every mail is one of a family (decision 198): it greets by first name when the recipient's is
 * known, is signed with the agency's legal name, ends with the legal footer, and gives the link or
 * the instructions it speaks of. Rendered from every kind (tests/support/every-mail.ts).
 */
const mails = everyMail();
const agency = MAIL_SITE.agency;
const signature = `L’équipe ${agency.legalName}`;
const footer = [`${agency.legalName}, ${agency.legalForm}`, agency.address, `${agency.rcs} · SIRET ${agency.siret}`, agency.mediatorName];

describe('the family of mails', () => {
  it('renders every kind of the agency’s mails, and the others', () => {
    const kinds = new Set(mails.map(({ mail }) => mail.kind));
    for (const kind of agencyMailKinds) expect(kinds, kind).toContain(kind);
    for (const kind of ['contract-signature-code', 'contract-signed-copy', 'auth-recovery', 'auth-signup-confirmation', 'guardian-contact'])
      expect(kinds, kind).toContain(kind);
    expect(mails.length).toBeGreaterThanOrEqual(35);
  });

  it.each(mails.map((rendered) => [rendered.mail.kind, rendered] as const))(
    '%s: greeting, signature and footer',
    (_, { mail, firstName }) => {
      expect(v.safeParse(OutgoingMailSchema, mail).success).toBe(true);
      const greeting = firstName ? `Bonjour ${firstName},` : 'Bonjour,';
      expect(mail.text.startsWith(`${greeting}\n`), mail.text.slice(0, 60)).toBe(true);
      expect(mail.html).toContain(`>${greeting}</p>`);
      expect(mail.text).toContain(`\n${signature}\n`);
      expect(mail.text).not.toMatch(/L’équipe Union Sincère\n/);
      for (const line of footer) {
        expect(mail.text, `${mail.kind}: footer`).toContain(line);
        expect(mail.html, `${mail.kind}: footer`).toContain(line);
      }
    },
  );

  it.each(mails.map((rendered) => [rendered.mail.kind, rendered] as const))(
    '%s: gives the link or instructions it speaks of',
    (_, { mail }) => {
      // Never a link the member does not have.
      expect(mail.text).not.toMatch(/lien reçu lors de/);
      // A mail that says « ce lien », « le lien » or « ouvrez » carries one.
      if (/\b(ce|le) lien\b|ouvrez/i.test(mail.text)) expect(mail.text, mail.kind).toMatch(/https:\/\/www\.union-sincere\.fr\//);
      // A mail that says to write or call gives the address and the number.
      if (/écrivez-nous|appelez-nous/.test(mail.text)) {
        expect(mail.text).toContain(agency.email);
        expect(mail.text).toContain(agency.phone);
      }
    },
  );
});
