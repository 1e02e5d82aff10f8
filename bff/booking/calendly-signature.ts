import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `Calendly-Webhook-Signature: t=<unix seconds>,v1=<hex>`, where v1 is HMAC-SHA256 of
 * `${t}.${rawBody}` with the webhook subscription's signing key (Calendly has no SDK helper).
 */

/** Calendly's examples accept a signature at most 3 minutes old. */
const CALENDLY_SIGNATURE_TOLERANCE_S = 180;

export const CALENDLY_SIGNATURE_HEADER = 'Calendly-Webhook-Signature';

function hmacHex(key: string, timestamp: string, body: string): string {
  return createHmac('sha256', key).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The header value for a body, as Calendly (or the embedded stand-in) sends it. */
export function calendlySignatureHeader(body: string, key: string, timestampSeconds: number): string {
  const t = String(Math.floor(timestampSeconds));
  return `t=${t},v1=${hmacHex(key, t, body)}`;
}

export type SignatureCheck = 'valid' | 'malformed' | 'mismatch' | 'expired';

/** Verifies a header against the raw body, the key and the current time (ms); constant-time compare. */
export function verifyCalendlySignature(
  header: string | undefined,
  body: string,
  key: string,
  nowMs: number,
  toleranceSeconds = CALENDLY_SIGNATURE_TOLERANCE_S,
): SignatureCheck {
  if (!header || header.length > 1000) return 'malformed';
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value, ...rest] = part.trim().split('=');
    if (rest.length > 0 || value === undefined) return 'malformed';
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = value;
    else if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return 'malformed';
  const expected = Buffer.from(hmacHex(key, timestamp, body), 'hex');
  const matches = signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
  if (!matches) return 'mismatch';
  const age = Math.floor(nowMs / 1000) - Number(timestamp);
  return Math.abs(age) > toleranceSeconds ? 'expired' : 'valid';
}
