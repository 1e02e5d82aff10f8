import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { requireCaller, signedInOnly, staffOnly } from '#bff/auth/guards.ts';
import { adminClient, requestClient } from '#bff/auth/supabase.ts';
import { ApiError } from '#bff/http/errors.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { banPayloadSchema } from '#machines/onboarding/update-contexts.ts';
import { banMember } from '#bff/onboarding/ban.ts';
import { log } from '#bff/logger.ts';

const VerifyBody = v.object({
  factorId: v.pipe(v.string('Facteur invalide'), v.uuid('Facteur invalide')),
  code: v.pipe(v.string('Code invalide'), v.regex(/^\d{6}$/, 'Le code comporte 6 chiffres')),
});

/** Far future: Supabase bans take a Go duration; "none" lifts the ban. */
const BAN_FOREVER = '876000h';

/**
 * Staff sign-in's second factor (TOTP through Supabase Auth MFA) and the staff actions that are
 * not onboarding events. Every route re-checks the caller on the server.
 */
export function staffRoutes(deps: ApiDeps) {
  return new Hono()
    .get('/auth/mfa', async (c) => {
      const caller = await requireCaller(c, deps);
      const supabase = requestClient(c, deps.auth);
      const { data, error } = await supabase.auth.mfa.listFactors();
      if (error) throw new ApiError(401, 'UNAUTHENTICATED', 'Vous devez être connecté.');
      return c.json({ aal: caller.aal, factors: data.totp.map((f) => ({ id: f.id, friendlyName: f.friendly_name ?? null })) }, 200);
    })
    .post('/auth/mfa/enroll', async (c) => {
      const caller = await requireCaller(c, deps);
      if (caller.role !== 'staff') throw new ApiError(403, 'FORBIDDEN', 'Accès réservé à l’équipe de l’agence.');
      const supabase = requestClient(c, deps.auth);
      const existing = await supabase.auth.mfa.listFactors();
      if ((existing.data?.totp.length ?? 0) > 0) {
        throw new ApiError(409, 'MFA_ALREADY_ENROLLED', 'Un second facteur est déjà enregistré : saisissez le code de votre application.');
      }
      // An enrolment left unfinished (a reload, a closed tab) is replaced by this one: its QR code
      // is gone with the page. The embedded service replaces it itself; a hosted project may keep
      // it and refuse the same friendly name, so it is removed first (decision 103).
      for (const factor of existing.data?.all ?? []) {
        if (factor.status === 'unverified' && factor.factor_type === 'totp') await supabase.auth.mfa.unenroll({ factorId: factor.id });
      }
      const { data, error } = await supabase.auth.mfa.enroll({
        factorType: 'totp',
        friendlyName: `Union Sincère ${caller.email}`,
        issuer: 'Union Sincère',
      });
      if (error || !data) throw new ApiError(400, 'MFA_ENROLL_FAILED', 'Impossible d’enregistrer le second facteur, réessayez.');
      return c.json({ factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret, uri: data.totp.uri }, 201);
    })
    .post('/auth/mfa/verify', signedInOnly(deps), jsonBody(VerifyBody), async (c) => {
      const { factorId, code } = c.req.valid('json');
      const supabase = requestClient(c, deps.auth);
      const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
      if (error) throw new ApiError(400, 'MFA_CODE_INVALID', 'Code incorrect ou expiré. Vérifiez l’heure de votre téléphone et réessayez.');
      return c.json({ aal: 'aal2' as const }, 200);
    })
    .post('/auth/ban', staffOnly(deps), jsonBody(banPayloadSchema), async (c) => {
      const staff = c.var.staff;
      const payload = c.req.valid('json');
      if (payload.uid === staff.id) throw new ApiError(400, 'FORBIDDEN', 'Vous ne pouvez pas désactiver votre propre compte.');
      // Member ids are UUIDs: anything else names nobody (and must not reach a uuid column: 500).
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(payload.uid))
        throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
      const now = deps.clock.now();
      const result = await banMember(deps.database.db, payload, staff.id, now);
      // The auth user is banned too: no new session, no refresh. Open sessions are already refused
      // by the member flag checked on every request.
      const { error } = await adminClient(deps.auth).auth.admin.updateUserById(payload.uid, {
        ban_duration: payload.disable ? BAN_FOREVER : 'none',
      });
      if (error) log.error('désactivation : utilisateur auth non mis à jour', { memberId: payload.uid, err: error });
      return c.json({ uid: result?.id, disabled: result?.disabled ?? payload.disable }, 200);
    });
}
