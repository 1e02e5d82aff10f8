import { api, send } from '#src/lib/api-client.ts';

/** `POST /api/v1/auth/pass-recovery` `{ ctx: 'reco', email }`: mails a reset link if the account exists. */
export function requestRecovery(email: string) {
  return send(api.auth['pass-recovery'].$post({ json: { ctx: 'reco', email } }));
}

/** `POST /api/v1/auth/pass-recovery` `{ ctx: 'change', … }`: sets the new password with the mailed token. */
export function changePassword({ email, password, token }: { email: string; password: string; token: string }) {
  return send(api.auth['pass-recovery'].$post({ json: { ctx: 'change', email, password, token } }));
}
