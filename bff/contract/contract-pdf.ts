import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
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
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
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
}

export async function renderContractPdf(contract: ContractDocument, options: RenderOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  doc.setTitle(encodable(`${contract.title} — ${options.memberName}`, regular));
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

  const pages = doc.getPages();
  pages.forEach((page, index) => {
    const footer = encodable(`Contrat de courtage matrimonial — ${options.memberName} — page ${index + 1} sur ${pages.length}`, regular);
    page.drawText(footer, { x: MARGIN, y: MARGIN / 2, size: 8, font: regular, color: rgb(0.4, 0.45, 0.5) });
  });
  return doc.save({ useObjectStreams: false });
}
