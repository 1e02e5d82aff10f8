import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { Secret, TOTP } from 'otpauth';
import * as v from 'valibot';
import type { AuthDeps } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { type Authenticated, authenticate } from '#bff/stand-ins/auth-service/guards.ts';
import { clientIp, limitedBy, optionalString, readBody } from '#bff/stand-ins/auth-service/request.ts';
import {
  CHALLENGE_TTL_SECONDS,
  dropChallenge,
  enrollTotpFactor,
  type FactorRow,
  factorChallenge,
  openChallenge,
  raiseSession,
  removeFactor,
} from '#bff/stand-ins/auth-service/factors.ts';
import { isUuid } from '#bff/stand-ins/auth-service/users.ts';

const EnrollBody = v.object({
  friendly_name: optionalString,
  factor_type: optionalString,
  issuer: optionalString,
  phone: optionalString,
});

const VerifyFactorBody = v.object({ challenge_id: optionalString, code: optionalString });

/** TOTP as GoTrue checks it: SHA1, 6 digits, 30 s, one step of skew either way. */
function totpFor(secret: string, issuer = '', label = 'OTPAuth'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** TOTP second factor: enroll, challenge, verify (→ aal2), unenroll. */
export function mfaRoutes(deps: AuthDeps) {
  async function ownFactor(auth: Authenticated, id: string): Promise<FactorRow> {
    const factor = isUuid(id) ? auth.user.factors.find((f) => f.id === id) : undefined;
    if (!factor) throw new AuthApiError(404, 'mfa_factor_not_found', 'Factor not found');
    return factor;
  }

  return new Hono()
    .post('/factors', async (c) => {
      const auth = await authenticate(deps, c);
      const body = await readBody(c, EnrollBody);
      switch (body.factor_type) {
        case 'totp':
          break;
        case 'phone':
          throw new AuthApiError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
        case 'webauthn':
          throw new AuthApiError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
        default:
          throw errors.validation('factor_type needs to be totp, phone, or webauthn');
      }
      const { row } = auth.user;
      if (row.isAnonymous) throw new AuthApiError(403, 'insufficient_aal', 'Anonymous users cannot enroll a factor');
      const friendlyName = body.friendly_name ?? '';
      const issuer = body.issuer || new URL(deps.config.siteUrl).host;
      const secret = new Secret({ size: 20 }).base32;
      const uri = totpFor(secret, issuer, row.email ?? '').toString();
      // Loaded at the first enrolment, not at start (start-up target, decision 080).
      const { default: QRCode } = await import('qrcode');
      const qrCode = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H', margin: 1 });

      const factor = await deps.db.transaction((tx) =>
        enrollTotpFactor(tx, { userId: row.id, friendlyName, secret, sessionAal: auth.session.aal, now: deps.clock.now() }),
      );
      return c.json({ id: factor.id, type: 'totp', friendly_name: factor.friendlyName, totp: { qr_code: qrCode, secret, uri } }, 200);
    })

    .post('/factors/:id/challenge', limitedBy(deps, 'mfa'), async (c) => {
      const auth = await authenticate(deps, c);
      const factor = await ownFactor(auth, c.req.param('id'));
      const now = deps.clock.now();
      const id = randomUUID();
      await deps.db.transaction((tx) => openChallenge(tx, { id, factorId: factor.id, ip: clientIp(c, deps.config), now }));
      return c.json({ id, type: factor.factorType, expires_at: seconds(now) + CHALLENGE_TTL_SECONDS }, 200);
    })

    .post('/factors/:id/verify', limitedBy(deps, 'mfa'), async (c) => {
      const auth = await authenticate(deps, c);
      const factor = await ownFactor(auth, c.req.param('id'));
      const body = await readBody(c, VerifyFactorBody);
      if (!body.code) throw errors.validation('Code needs to be non-empty');
      const challengeId = body.challenge_id ?? '';
      const now = deps.clock.now();
      const challenge = isUuid(challengeId) ? await factorChallenge(deps.db, challengeId, factor.id) : undefined;
      if (!challenge) throw new AuthApiError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
      if (challenge.verifiedAt || challenge.ipAddress !== clientIp(c, deps.config)) {
        throw new AuthApiError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
      }
      if (now.getTime() > challenge.createdAt.getTime() + CHALLENGE_TTL_SECONDS * 1000) {
        await dropChallenge(deps.db, challenge.id);
        throw new AuthApiError(
          422,
          'mfa_challenge_expired',
          `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
        );
      }
      if (!(await deps.limits.codeGuesses.take(`factor:${factor.id}`))) throw errors.overRequestRateLimit();
      if (totpFor(factor.secret).validate({ token: body.code.trim(), timestamp: now.getTime(), window: 1 }) === null) {
        throw new AuthApiError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
      }

      const session = await deps.db.transaction((tx) =>
        raiseSession(deps, tx, { challengeId: challenge.id, factorId: factor.id, session: auth.session, now }),
      );
      return c.json(session, 200);
    })

    .delete('/factors/:id', async (c) => {
      const auth = await authenticate(deps, c);
      const factor = await ownFactor(auth, c.req.param('id'));
      if (factor.status === 'verified' && auth.session.aal !== 'aal2') {
        throw new AuthApiError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
      }
      await deps.db.transaction((tx) => removeFactor(tx, factor, deps.clock.now()));
      return c.json({ id: factor.id }, 200);
    });
}
