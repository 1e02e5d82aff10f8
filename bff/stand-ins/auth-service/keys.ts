import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '#bff/clock.ts';
import type { Db } from '#bff/db/database.ts';
import { currentSigningKey, insertSigningKeyIfNone } from '#bff/stand-ins/auth-service/store/signing-keys.ts';

const ALGORITHM = 'ES256';
/** The anon and service-role keys live as long as the signing key: ten years, like Supabase's own. */
const API_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

/** The service's one signing key, shared through the database by every instance. */
export interface SigningKey {
  readonly kid: string;
  readonly publicJwk: JWK;
  readonly anonKey: string;
  readonly serviceRoleKey: string;
  /**
   * The secret that keys the hashes of e-mail links (`tokenHashOf`), derived from the private key:
   * every instance sharing the database has the same one, and nobody without it can compute a
   * link's hash from a guessed six-digit code.
   */
  readonly tokenHashKey: Buffer;
  sign(claims: JWTPayload): Promise<string>;
  /** Verifies signature and expiry against the service clock; throws on any failure. */
  verify(token: string): Promise<JWTPayload>;
}

/**
 * Loads the signing key, creating it on first start. Two instances starting at once both try to
 * insert; the database keeps the first (`ON CONFLICT DO NOTHING`) and both then read that one.
 */
export async function loadSigningKey(db: Db, clock: Clock, issuer: string): Promise<SigningKey> {
  let row = await currentSigningKey(db);
  if (!row) {
    const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
    const kid = randomUUID();
    const now = clock.now();
    const iat = Math.floor(now.getTime() / 1000);
    const apiKey = (role: string) =>
      new SignJWT({ iss: issuer, role })
        .setProtectedHeader({ alg: ALGORITHM, kid, typ: 'JWT' })
        .setIssuedAt(iat)
        .setExpirationTime(iat + API_KEY_LIFETIME_SECONDS)
        .sign(privateKey);
    await insertSigningKeyIfNone(db, {
      slot: 'current',
      kid,
      algorithm: ALGORITHM,
      privateJwk: { ...(await exportJWK(privateKey)) },
      publicJwk: { ...(await exportJWK(publicKey)) },
      anonKey: await apiKey('anon'),
      serviceRoleKey: await apiKey('service_role'),
      createdAt: now,
    });
    row = await currentSigningKey(db);
    if (!row) throw new Error('embedded_auth.signing_keys: la clé de signature est introuvable après sa création');
  }
  const privateKey = await importJWK(row.privateJwk as JWK, ALGORITHM);
  const publicKey = await importJWK(row.publicJwk as JWK, ALGORITHM);
  const kid = row.kid;
  return {
    kid,
    publicJwk: { ...(row.publicJwk as JWK), kid, alg: ALGORITHM, use: 'sig', key_ops: ['verify'] },
    anonKey: row.anonKey,
    serviceRoleKey: row.serviceRoleKey,
    tokenHashKey: createHash('sha256')
      .update(`embedded-auth/token-hash/${String((row.privateJwk as JWK).d)}`)
      .digest(),
    sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: ALGORITHM, kid, typ: 'JWT' }).sign(privateKey),
    verify: async (token) => (await jwtVerify(token, publicKey, { algorithms: [ALGORITHM], currentDate: clock.now() })).payload,
  };
}
