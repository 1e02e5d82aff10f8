import type { TestAgent } from '#tests/support/test-product.ts';

/**
 * Termination requests over HTTP as the forms send them (decision 189): multipart/form-data with
 * the reason, the explanation and, when given, the proof as a file named `justificatif`.
 */

export interface ProofFile {
  bytes: Uint8Array;
  /** What the browser would say: the server reads the bytes, never these. */
  name: string;
  type: string;
}

export function proofForm(fields: Record<string, string>, file?: ProofFile): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('justificatif', new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }));
  return form;
}

export type TerminationAnswer = {
  state?: string;
  termination?: { id: number; proof: { url: string; typeLabel: string; sizeBytes: number } | null; pending: boolean } | null;
  error?: { code: string; message: string; state?: string; issues?: { path: string; message: string }[] };
};

async function answer(response: Response): Promise<{ status: number; body: TerminationAnswer }> {
  return { status: response.status, body: (await response.json()) as TerminationAnswer };
}

/** The member's request (`POST /api/v1/user/terminations`). */
export async function requestTermination(agent: TestAgent, fields: Record<string, string>, file?: ProofFile) {
  return answer(await agent.request('POST', '/api/v1/user/terminations', proofForm(fields, file)));
}

/** Staff record a letter (`POST /api/v1/dashboard/members/:id/terminations`). */
export async function recordLetter(agent: TestAgent, memberId: string, fields: Record<string, string>, file?: ProofFile) {
  return answer(await agent.request('POST', `/api/v1/dashboard/members/${memberId}/terminations`, proofForm(fields, file)));
}

/** A small, whole PDF (one empty page), as a scanner or « Enregistrer en PDF » writes one. */
export function samplePdf(text = 'Attestation de domicile'): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>`,
    `<< /Length ${text.length + 30} >>\nstream\nBT /F1 12 Tf 72 770 Td (${text}) Tj ET\nendstream`,
  ];
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

/** A real JPEG photo of a document, with EXIF metadata (a GPS position) that the server must drop. */
export async function sampleJpegWithGps(): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#f4f1ea' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Téléphone', Model: 'Modèle X' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '45/1 45/1 0/1' } })
    .toBuffer();
  return new Uint8Array(jpeg);
}
