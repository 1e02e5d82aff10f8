import { api, send } from '#src/lib/api-client.ts';

/** `POST /api/v1/auth/pass-recovery` `{ ctx: 'reco', email }`: mails a reset link if the account exists. */
export function requestRecovery(email: string) {
  return send(api.auth['pass-recovery'].$post({ json: { ctx: 'reco', email } }));
}

/**
 * `POST /api/v1/auth/pass-recovery` `{ ctx: 'change', password, token }`: sets the new password
 * with the mailed token and signs the member in (session cookies); `mfa.required` for staff.
 */
export function changePassword({ password, token }: { password: string; token: string }) {
  return send(api.auth['pass-recovery'].$post({ json: { ctx: 'change', password, token } }));
}
