import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { contractPlainText, evidenceLines, SIGNED_TEXT_FILE, type SignatureEvidence } from '#bff/contract/contract-evidence.ts';
import type { Block, ContractDocument, Section } from '#bff/contract/contract-text.ts';

/**
 * Renders the contract with pdf-lib's standard fonts (Helvetica, WinAnsi encoding): A4, wrapped
 * paragraphs, a footer on every page. WinAnsi has the French accented letters, « », ’, € and the
 * no-break space; other characters are replaced (narrow no-break space → no-break space, minus
 * sign → hyphen, letters with other diacritics → their base letter, anything else → '?').
 */

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const BODY_SIZE = 10;
const LINE = 1.35;
const INK = rgb(0.12, 0.16, 0.2);
const GREEN = rgb(0.09, 0.4, 0.2);
const RED = rgb(0.62, 0.1, 0.1);

const REPLACEMENTS: Record<string, string> = {
  '\u202f': '\u00a0',
  '\u2007': '\u00a0',
  '\u2009': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u200b': '',
  '\u2010': '-',
  '\u2011': '-',
  '\u2212': '-',
  '\u2032': "'",
  '\t': ' ',
  '\n': ' ',
  '\r': ' ',
};

/** The text with only characters the font can encode. */
export function encodable(text: string, font: PDFFont): string {
  const supported = supportedOf(font);
  let out = '';
  for (const original of text.normalize('NFC')) {
    for (const ch of REPLACEMENTS[original] ?? original) {
      if (supported.has(ch.codePointAt(0) as number)) {
        out += ch;
        continue;
      }
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += base !== '' && [...base].every((b) => supported.has(b.codePointAt(0) as number)) ? base : '?';
    }
  }
  return out;
}

const charsets = new WeakMap<PDFFont, Set<number>>();
function supportedOf(font: PDFFont): Set<number> {
  let set = charsets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    charsets.set(font, set);
  }
  return set;
}

/** Splits a paragraph into lines no wider than `width` (breaks on spaces, never on no-break spaces). */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = word;
    // A word longer than the line (an e-mail address, a URL): cut it.
    while (font.widthOfTextAtSize(current, size) > width && current.length > 1) {
      let cut = current.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(current.slice(0, cut), size) > width) cut -= 1;
      lines.push(current.slice(0, cut));
      current = current.slice(cut);
    }
  }
  if (current !== '') lines.push(current);
  return lines;
}

class Writer {
  page: PDFPage;
  y: number;
  constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.page = doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  private room(height: number) {
    if (this.y - height < MARGIN + 20) {
      this.page = this.doc.addPage(A4);
      this.y = A4[1] - MARGIN;
    }
  }

  paragraph(
    text: string,
    options: { font?: PDFFont; size?: number; indent?: number; after?: number; color?: ReturnType<typeof rgb> } = {},
  ) {
    const font = options.font ?? this.regular;
    const size = options.size ?? BODY_SIZE;
    const indent = options.indent ?? 0;
    const lines = wrap(encodable(text, font), font, size, A4[0] - 2 * MARGIN - indent);
    for (const line of lines) {
      this.room(size * LINE);
      this.y -= size * LINE;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: options.color ?? INK });
    }
    this.y -= options.after ?? size * 0.6;
  }

  bullets(items: string[]) {
    for (const item of items) {
      this.room(BODY_SIZE * LINE);
      // The dash goes on the item's first line (its page, even if the item continues on the next).
      const page = this.page;
      const baseline = this.y - BODY_SIZE * LINE;
      this.paragraph(item, { indent: 14, after: 2 });
      page.drawText('-', { x: MARGIN + 4, y: baseline, size: BODY_SIZE, font: this.regular, color: INK });
    }
    this.y -= BODY_SIZE * 0.4;
  }

  section(section: Section) {
    this.room(40);
    this.y -= 6;
    this.paragraph(section.heading, { font: this.bold, size: 11.5, color: GREEN, after: 4 });
    for (const block of section.blocks) this.block(block);
  }

  block(block: Block) {
    if (typeof block === 'string') this.paragraph(block);
    else this.bullets(block.bullets);
  }
}

export interface RenderOptions {
  /** Who the copy is for (document title and footer). */
  memberName: string;
  /** The creation and modification dates written in the PDF: fixed by the caller (the contract's day), so that the same input gives the same bytes. */
  now: Date;
  /**
   * `draft`: the preview read before signing, marked « Projet — document non signé » on every page;
   * `signed`: the copy signed, with its evidence page and the text signed attached (decision 185).
   * Without it (a copy stored by the chart's hook before its evidence exists), the bare text.
   */
  mark?: { kind: 'draft' } | { kind: 'signed'; evidence: SignatureEvidence };
}

const DRAFT_HEADER =
  'Projet — document non signé\u00a0: aperçu à lire avant la signature, sans valeur de contrat tant qu’il n’est pas signé.';
const DRAFT_WATERMARK = 'PROJET NON SIGNÉ';

/** The evidence page: what the server recorded at signature, and the hash of the text signed. */
function evidencePage(writer: Writer, evidence: SignatureEvidence, courier: PDFFont) {
  writer.page = writer.doc.addPage(A4);
  writer.y = A4[1] - MARGIN;
  writer.paragraph('Page de preuve de signature', { font: writer.bold, size: 16, color: GREEN, after: 6 });
  writer.paragraph(
    'Cette page est ajoutée par l’agence au contrat signé qui précède. Elle reprend l’enregistrement de la signature que l’agence a conservé au moment où le code a été vérifié.',
    { after: 10 },
  );
  for (const { label, value } of evidenceLines(evidence)) {
    writer.paragraph(`${label}\u00a0:`, { font: writer.bold, after: 0 });
    writer.paragraph(value, { indent: 14, after: 6 });
  }
  writer.paragraph('Empreinte SHA-256 du texte signé\u00a0:', { font: writer.bold, after: 0 });
  writer.paragraph(evidence.textSha256, { font: courier, size: 9, indent: 14, after: 10 });
  writer.paragraph(
    `Le texte signé est celui des pages qui précèdent, hors pieds de page et présente page. Il est joint à ce PDF (fichier «\u00a0${SIGNED_TEXT_FILE}\u00a0», texte UTF-8)\u00a0: son empreinte SHA-256 est celle ci-dessus, et l’agence conserve la même dans son enregistrement de la signature.`,
    { size: 9, color: rgb(0.3, 0.34, 0.38) },
  );
}

export async function renderContractPdf(contract: ContractDocument, options: RenderOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const draft = options.mark?.kind === 'draft';
  doc.setTitle(encodable(`${contract.title}${draft ? ' (projet non signé)' : ''} — ${options.memberName}`, regular));
  doc.setAuthor('Union Sincère');
  doc.setSubject(encodable(contract.status, regular));
  doc.setLanguage('fr-FR');
  doc.setCreator('Union Sincère — espace membre');
  doc.setProducer('pdf-lib');
  doc.setCreationDate(options.now);
  doc.setModificationDate(options.now);

  const writer = new Writer(doc, regular, bold);
  writer.paragraph(contract.title, { font: bold, size: 18, color: GREEN, after: 4 });
  writer.paragraph(contract.status, { size: 10, after: 10 });
  for (const section of contract.sections) writer.section(section);
  writer.section(contract.signature);
  // The annex starts on its own page.
  writer.page = doc.addPage(A4);
  writer.y = A4[1] - MARGIN;
  writer.section(contract.annex);
  if (options.mark?.kind === 'signed') {
    evidencePage(writer, options.mark.evidence, await doc.embedFont(StandardFonts.Courier));
    await doc.attach(new TextEncoder().encode(contractPlainText(contract)), SIGNED_TEXT_FILE, {
      mimeType: 'text/plain',
      description: 'Texte du contrat signé (UTF-8), dont l’empreinte SHA-256 figure sur la page de preuve',
      creationDate: options.now,
      modificationDate: options.now,
    });
  }

  const pages = doc.getPages();
  const width = A4[0] - 2 * MARGIN;
  pages.forEach((page, index) => {
    const footer = `Contrat de courtage matrimonial — ${options.memberName} — page ${index + 1} sur ${pages.length}`;
    wrap(encodable(footer, regular), regular, 8, width).forEach((line, n) => {
      page.drawText(line, { x: MARGIN, y: MARGIN / 2 - n * 10, size: 8, font: regular, color: rgb(0.4, 0.45, 0.5) });
    });
    if (!draft) return;
    wrap(encodable(DRAFT_HEADER, bold), bold, 8.5, width).forEach((line, n) => {
      page.drawText(line, { x: MARGIN, y: A4[1] - 30 - n * 11, size: 8.5, font: bold, color: RED });
    });
    // A light diagonal mark across the page, centred: it never hides the text it crosses.
    const mark = encodable(DRAFT_WATERMARK, bold);
    const size = 54;
    const length = bold.widthOfTextAtSize(mark, size);
    const angle = Math.PI / 5;
    page.drawText(mark, {
      x: A4[0] / 2 - (length / 2) * Math.cos(angle) + (size / 3) * Math.sin(angle),
      y: A4[1] / 2 - (length / 2) * Math.sin(angle) - (size / 3) * Math.cos(angle),
      size,
      font: bold,
      color: RED,
      opacity: 0.12,
      rotate: degrees((angle * 180) / Math.PI),
    });
  });
  return doc.save({ useObjectStreams: false });
}
