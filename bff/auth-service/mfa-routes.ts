import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, ne } from 'drizzle-orm';
import { Hono } from 'hono';
import { Secret, TOTP } from 'otpauth';
import * as v from 'valibot';
import type { AuthDeps, Executor } from '#bff/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/auth-service/errors.ts';
import { type Authenticated, authenticate } from '#bff/auth-service/guards.ts';
import { clientIp, limitedBy, optionalString, readBody } from '#bff/auth-service/request.ts';
import { type FactorRow, mfaChallenges, mfaFactors, sessions } from '#bff/auth-service/schema.ts';
import { accessTokenResponse, aalOf, rotateSessionTokens, withAmr } from '#bff/auth-service/sessions.ts';
import { findUserById, isUuid, recordOf } from '#bff/auth-service/store.ts';

/** GoTrue's MFA defaults (conf): challenges live 300 s, at most 10 factors. */
const CHALLENGE_TTL_SECONDS = 300;
const MAX_FACTORS = 10;

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

      const factor = await deps.db.transaction(async (tx) => {
        const now = deps.clock.now();
        // An enrolment never finished (a reload, a closed tab) is replaced, not kept for 300 s:
        // its QR code was never scanned, or is on a page gone. GoTrue's verify deletes unverified
        // factors of the same type; enrolling does it here, so a new QR code is usable at once
        // (issue 19, decision 103). Their challenges go with them (ON DELETE CASCADE).
        await tx
          .delete(mfaFactors)
          .where(and(eq(mfaFactors.userId, row.id), eq(mfaFactors.status, 'unverified'), eq(mfaFactors.factorType, 'totp')));
        const factors = await tx.select().from(mfaFactors).where(eq(mfaFactors.userId, row.id));
        if (factors.some((f) => f.friendlyName === friendlyName)) {
          throw new AuthApiError(
            422,
            'mfa_factor_name_conflict',
            `A factor with the friendly name "${friendlyName}" for this user already exists`,
          );
        }
        if (factors.length >= MAX_FACTORS) {
          throw new AuthApiError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
        }
        if (factors.some((f) => f.status === 'verified') && auth.session.aal !== 'aal2') {
          throw new AuthApiError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
        }
        const [created] = await tx
          .insert(mfaFactors)
          .values({
            id: randomUUID(),
            userId: row.id,
            friendlyName,
            factorType: 'totp',
            status: 'unverified',
            secret,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (!created) throw new Error('embedded_auth.mfa_factors insert returned nothing');
        return created;
      });
      return c.json({ id: factor.id, type: 'totp', friendly_name: factor.friendlyName, totp: { qr_code: qrCode, secret, uri } }, 200);
    })

    .post('/factors/:id/challenge', limitedBy(deps, 'mfa'), async (c) => {
      const auth = await authenticate(deps, c);
      const factor = await ownFactor(auth, c.req.param('id'));
      const now = deps.clock.now();
      const id = randomUUID();
      await deps.db.transaction(async (tx) => {
        await tx
          .delete(mfaChallenges)
          .where(
            and(eq(mfaChallenges.factorId, factor.id), lt(mfaChallenges.createdAt, new Date(now.getTime() - CHALLENGE_TTL_SECONDS * 1000))),
          );
        await tx.insert(mfaChallenges).values({ id, factorId: factor.id, ipAddress: clientIp(c, deps.config), createdAt: now });
        await tx.update(mfaFactors).set({ lastChallengedAt: now, updatedAt: now }).where(eq(mfaFactors.id, factor.id));
      });
      return c.json({ id, type: factor.factorType, expires_at: seconds(now) + CHALLENGE_TTL_SECONDS }, 200);
    })

    .post('/factors/:id/verify', limitedBy(deps, 'mfa'), async (c) => {
      const auth = await authenticate(deps, c);
      const factor = await ownFactor(auth, c.req.param('id'));
      const body = await readBody(c, VerifyFactorBody);
      if (!body.code) throw errors.validation('Code needs to be non-empty');
      const challengeId = body.challenge_id ?? '';
      const now = deps.clock.now();
      const [challenge] = isUuid(challengeId)
        ? await deps.db
            .select()
            .from(mfaChallenges)
            .where(and(eq(mfaChallenges.id, challengeId), eq(mfaChallenges.factorId, factor.id)))
        : [];
      if (!challenge) throw new AuthApiError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
      if (challenge.verifiedAt || challenge.ipAddress !== clientIp(c, deps.config)) {
        throw new AuthApiError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
      }
      if (now.getTime() > challenge.createdAt.getTime() + CHALLENGE_TTL_SECONDS * 1000) {
        await deps.db.delete(mfaChallenges).where(eq(mfaChallenges.id, challenge.id));
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

      const session = await deps.db.transaction(async (tx) => {
        // The challenge is used once: a concurrent verify of the same challenge finds it taken.
        const [taken] = await tx
          .update(mfaChallenges)
          .set({ verifiedAt: now })
          .where(and(eq(mfaChallenges.id, challenge.id), isNull(mfaChallenges.verifiedAt)))
          .returning({ id: mfaChallenges.id });
        if (!taken) throw new AuthApiError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
        await tx.update(mfaFactors).set({ status: 'verified', updatedAt: now }).where(eq(mfaFactors.id, factor.id));
        const amr = withAmr(auth.session.amr, { method: 'totp', timestamp: seconds(now) });
        const [upgraded] = await tx
          .update(sessions)
          .set({ amr, aal: aalOf(amr), factorId: factor.id, updatedAt: now })
          .where(eq(sessions.id, auth.session.id))
          .returning();
        if (!upgraded) throw new AuthApiError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
        const refreshToken = await rotateSessionTokens(tx, upgraded, now);
        // Sessions of this user below aal2 end; unverified TOTP factors go (mfa.go).
        await tx.delete(sessions).where(and(eq(sessions.userId, upgraded.userId), ne(sessions.aal, 'aal2')));
        await tx.delete(mfaFactors).where(and(eq(mfaFactors.userId, upgraded.userId), eq(mfaFactors.status, 'unverified')));
        const user = await findUserById(tx, upgraded.userId);
        if (!user) throw errors.userNotFound();
        return accessTokenResponse(deps, await recordOf(tx, user), upgraded, refreshToken);
      });
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

/**
 * Deletes a factor; the sessions it raised to aal2 go back to aal1 (GoTrue's unenroll, and the
 * admin `DELETE /admin/users/{id}/factors/{factorId}`). Their next token says aal1.
 */
export async function removeFactor(tx: Executor, factor: FactorRow, now: Date): Promise<void> {
  const upgraded = await tx.select().from(sessions).where(eq(sessions.factorId, factor.id));
  for (const session of upgraded) {
    const amr = session.amr.filter((entry) => entry.method !== 'totp');
    await tx
      .update(sessions)
      .set({ amr, aal: aalOf(amr), factorId: null, updatedAt: now })
      .where(eq(sessions.id, session.id));
  }
  await tx.delete(mfaFactors).where(eq(mfaFactors.id, factor.id));
}
