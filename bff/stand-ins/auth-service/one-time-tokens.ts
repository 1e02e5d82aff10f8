import { createHmac, randomInt } from 'node:crypto';

const OTP_LENGTH = 6;

/** A six-digit code, uniformly drawn. */
export function generateOtp(): string {
  return String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

/**
 * The hash of an e-mail link: HMAC-SHA224 of e-mail + code under the service's secret, in hex.
 * GoTrue's is a bare sha224 of e-mail + code (crypto.GenerateTokenHash), which anyone can compute
 * for each of the million codes: guessing a link was then as easy as guessing the code, with no
 * account to count the failures against (issue 19, decision 101). Clients never compute it: they
 * pass on `hashed_token` or the link's `token_hash`, so the keyed form changes nothing for them.
 */
export function tokenHashOf(key: Uint8Array, email: string, otp: string): string {
  return createHmac('sha224', key)
    .update(email + otp)
    .digest('hex');
}
