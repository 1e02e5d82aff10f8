import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, type PDFFont, PDFName, PDFRawStream, PDFRef, StandardFonts } from 'pdf-lib';

/**
 * Reads back what pdf-lib drew on a PDF's pages (the product's contract, invoices and credit
 * notes): every `Tj` with its font, size and text matrix, its text decoded from WinAnsi, and where
 * it starts and ends on the page, its advance measured with the same standard font's metrics.
 * Enough to check that nothing is cut at the page's edges and what each page says; the attached
 * files (`/EmbeddedFile` streams) are read too.
 */

export interface PdfTextItem {
  page: number;
  text: string;
  font: string;
  size: number;
  x: number;
  y: number;
  /** Where the text's advance ends (its text matrix applied): the right end of a horizontal line. */
  xEnd: number;
  yEnd: number;
}

export interface PdfPageText {
  width: number;
  height: number;
  items: PdfTextItem[];
}

/** WinAnsi (windows-1252) between 0x80 and 0x9F, where it differs from Latin-1; undefined codes stay as they are. */
const WIN_ANSI_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const winAnsi = (bytes: Buffer) =>
  bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => WIN_ANSI_HIGH[c.charCodeAt(0) - 0x80] as string);

function decoded(stream: PDFRawStream): string {
  const raw = Buffer.from(stream.contents);
  const filter = stream.dict.get(PDFName.of('Filter'));
  return (filter?.toString() === '/FlateDecode' ? inflateSync(raw) : raw).toString('latin1');
}

/** Tokens of a content stream: names, numbers, hex strings, operators (what pdf-lib writes). */
function* tokens(content: string): Generator<string> {
  const pattern = /<[0-9A-Fa-f\s]*>|\/[^\s/<>[\]()]+|[-+]?\d*\.?\d+(?:e[-+]?\d+)?|\((?:\\.|[^\\)])*\)|[A-Za-z*'"]+|\[|\]/g;
  for (const match of content.matchAll(pattern)) yield match[0];
}

export async function pdfPages(bytes: Uint8Array): Promise<PdfPageText[]> {
  const doc = await PDFDocument.load(bytes);
  const scratch = await PDFDocument.create();
  const fonts = new Map<string, PDFFont>();
  const fontOf = async (baseFont: string) => {
    let font = fonts.get(baseFont);
    if (!font) {
      const standard = (Object.values(StandardFonts) as string[]).find((name) => name === baseFont);
      if (!standard) throw new Error(`not a standard font: ${baseFont}`);
      font = await scratch.embedFont(standard);
      fonts.set(baseFont, font);
    }
    return font;
  };
  const pages: PdfPageText[] = [];
  for (const [index, page] of doc.getPages().entries()) {
    const { width, height } = page.getSize();
    const resources = page.node.Resources();
    const fontDict = resources?.lookupMaybe(PDFName.of('Font'), PDFDict);
    const contents = page.node.Contents();
    const streams: PDFRawStream[] = [];
    const refs = contents instanceof PDFArray ? contents.asArray() : [page.node.get(PDFName.of('Contents'))];
    for (const ref of refs) {
      const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
      if (stream instanceof PDFRawStream) streams.push(stream);
    }
    const items: PdfTextItem[] = [];
    let font = '';
    let size = 0;
    let matrix = [1, 0, 0, 1, 0, 0];
    for (const stream of streams) {
      const operands: string[] = [];
      for (const token of tokens(decoded(stream))) {
        if (/^[A-Za-z*'"]+$/.test(token)) {
          if (token === 'Tf') {
            const resource = (operands[operands.length - 2] ?? '').slice(1);
            const dict = fontDict?.lookupMaybe(PDFName.of(resource), PDFDict);
            font = dict?.get(PDFName.of('BaseFont'))?.toString().slice(1) ?? resource;
            size = Number(operands[operands.length - 1]);
          } else if (token === 'Tm') {
            matrix = operands.slice(-6).map(Number);
          } else if (token === 'Tj') {
            const operand = operands[operands.length - 1] ?? '';
            const text = operand.startsWith('<') ? winAnsi(Buffer.from(operand.slice(1, -1).replace(/\s/g, ''), 'hex')) : operand;
            const advance = (await fontOf(font)).widthOfTextAtSize(text, size);
            const [a = 1, b = 0, , , e = 0, f = 0] = matrix;
            items.push({ page: index + 1, text, font, size, x: e, y: f, xEnd: e + a * advance, yEnd: f + b * advance });
          }
          operands.length = 0;
        } else operands.push(token);
      }
    }
    pages.push({ width, height, items });
  }
  return pages;
}

/** The text of each page, one drawn line per line. */
export async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  return (await pdfPages(bytes)).map((page) => page.items.map((item) => item.text).join('\n'));
}

/** The files attached to the PDF (`/EmbeddedFile` streams), decoded. */
export async function pdfAttachments(bytes: Uint8Array): Promise<Buffer[]> {
  const doc = await PDFDocument.load(bytes);
  const files: Buffer[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream && object.dict.get(PDFName.of('Type'))?.toString() === '/EmbeddedFile') {
      files.push(Buffer.from(decoded(object), 'latin1'));
    }
  }
  return files;
}

/** The drawn lines that leave the page's printable area (`margin` points from each side edge). */
export function outOfBounds(pages: PdfPageText[], margin = 28): PdfTextItem[] {
  return pages.flatMap((page) =>
    page.items.filter(
      (item) =>
        Math.min(item.x, item.xEnd) < margin ||
        Math.max(item.x, item.xEnd) > page.width - margin ||
        Math.min(item.y, item.yEnd) < margin / 2 ||
        Math.max(item.y, item.yEnd) > page.height - margin / 2,
    ),
  );
}
