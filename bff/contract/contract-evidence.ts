import { createHash } from 'node:crypto';
import type { ContractDocument, Section } from '#bff/contract/contract-text.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

/**
 * What a signature proves (decision 185). The member signs the **text** of the contract, the one
 * the page and the PDF show: `contractPlainText` writes it as plain text (UTF-8, NFC, one line per
 * heading, paragraph or bullet), and its SHA-256 is what the one-time code is bound to and what the
 * evidence record (`contract_signatures.document_sha256`) keeps. The signed PDF carries that text
 * as an attached file (`contrat-texte-signe.txt`), so anyone can recompute the hash printed on its
 * evidence page (`sha256sum`), and adds what the preview cannot carry: who signed, when, how.
 */

function sectionLines(section: Section): string[] {
  const lines = ['', section.heading];
  for (const block of section.blocks) {
    if (typeof block === 'string') lines.push(block);
    else for (const item of block.bullets) lines.push(`- ${item}`);
  }
  return lines;
}

/** The text signed, in the order the PDF prints it (sections, signatures, annex). */
export function contractPlainText(document: ContractDocument): string {
  const lines = [document.title, document.status];
  for (const section of document.sections) lines.push(...sectionLines(section));
  lines.push(...sectionLines(document.signature), ...sectionLines(document.annex));
  return `${lines.join('\n')}\n`.normalize('NFC');
}

/** The SHA-256 (hex) of the text signed. */
export function contractTextSha256(document: ContractDocument): string {
  return createHash('sha256').update(contractPlainText(document), 'utf8').digest('hex');
}

/** How the signer was identified, as `contract_signatures.method` records it. */
const CHANNELS: Readonly<Record<string, string>> = {
  email_code: 'code à usage unique envoyé par e-mail, à l’adresse ci-dessus',
  sms_code: 'code à usage unique envoyé par SMS',
};

/** What the server recorded at signature (`contract_signatures`), with the signer's name from the contract. */
export interface SignatureEvidence {
  signerName: string;
  signerEmail: string;
  signedAt: Date;
  method: string;
  codeSentAt: Date;
  codeVerifiedAt: Date;
  codeAttempts: number;
  clientAddress: string;
  userAgent: string;
  /** SHA-256 of `contractPlainText` of the document signed. */
  textSha256: string;
  /** The contract's first and last days. */
  effectiveFrom: Date;
  endsOn: Date;
}

const parisDateTime = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long', timeStyle: 'short' });
const parisDate = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long' });

/** The file name of the text attached to the signed PDF. */
export const SIGNED_TEXT_FILE = 'contrat-texte-signe.txt';

/** The evidence page's lines, « libellé : valeur », in French. */
export function evidenceLines(evidence: SignatureEvidence): { label: string; value: string }[] {
  return [
    { label: 'Signataire', value: evidence.signerName },
    { label: 'Adresse e-mail', value: evidence.signerEmail },
    {
      label: 'Signé le',
      value: `${parisDateTime.format(evidence.signedAt)} (heure de Paris), horodatage ${evidence.signedAt.toISOString()}`,
    },
    {
      label: 'Durée du contrat',
      value: `du ${parisDate.format(evidence.effectiveFrom)} au ${parisDate.format(evidence.endsOn)} inclus, sans reconduction tacite`,
    },
    { label: 'Méthode', value: 'signature électronique simple (article 1367 du Code civil, article 25 du règlement eIDAS n° 910/2014)' },
    { label: 'Canal du code', value: CHANNELS[evidence.method] ?? evidence.method },
    { label: 'Code envoyé le', value: `${parisDateTime.format(evidence.codeSentAt)} (heure de Paris)` },
    {
      label: 'Code vérifié le',
      value: `${parisDateTime.format(evidence.codeVerifiedAt)} (heure de Paris), au ${evidence.codeAttempts === 1 ? '1er essai' : `${evidence.codeAttempts}e essai`}`,
    },
    { label: 'Adresse IP', value: evidence.clientAddress || 'non disponible' },
    { label: 'Navigateur', value: evidence.userAgent || 'non disponible' },
  ];
}
