import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES, OutgoingMailSchema } from '#bff/mail/outbox.ts';

const mail = { to: 'nadia@example.org', subject: 'Votre contrat signé', text: 'Bonjour', kind: 'contract-signed-copy' };
const pdf = {
  filename: 'contrat-signe.pdf',
  contentType: 'application/pdf',
  contentBase64: Buffer.from('%PDF-1.7 contrat').toString('base64'),
};

describe('outgoing mail attachments', () => {
  it('accepts a mail without attachments and one with a PDF', () => {
    expect(v.safeParse(OutgoingMailSchema, mail).success).toBe(true);
    const parsed = v.parse(OutgoingMailSchema, { ...mail, attachments: [pdf] });
    expect(parsed.attachments?.[0]).toEqual(pdf);
  });

  it('refuses a name with a path or a header break, a bad type, and content that is not base64', () => {
    for (const attachment of [
      { ...pdf, filename: '../contrat.pdf' },
      { ...pdf, filename: 'contrat.pdf\r\nBcc: x@example.org' },
      { ...pdf, contentType: 'application/pdf; x' },
      { ...pdf, contentBase64: 'pas du base64 !' },
    ]) {
      expect(v.safeParse(OutgoingMailSchema, { ...mail, attachments: [attachment] }).success, JSON.stringify(attachment)).toBe(false);
    }
  });

  it('limits the total size (decoded) and the number of files', () => {
    const big = Buffer.alloc(MAX_ATTACHMENT_BYTES / 2 + 1).toString('base64');
    const result = v.safeParse(OutgoingMailSchema, {
      ...mail,
      attachments: [
        { ...pdf, contentBase64: big },
        { ...pdf, contentBase64: big },
      ],
    });
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe('Pièces jointes trop volumineuses');
    const exact = Buffer.alloc(MAX_ATTACHMENT_BYTES).toString('base64');
    expect(v.safeParse(OutgoingMailSchema, { ...mail, attachments: [{ ...pdf, contentBase64: exact }] }).success).toBe(true);
    expect(v.safeParse(OutgoingMailSchema, { ...mail, attachments: Array.from({ length: 6 }, () => pdf) }).success).toBe(false);
  });
});
