import { api, send } from '#src/lib/api-client.ts';

/**
 * `POST /api/v1/auth/confirmation`: the confirmation mail's link (decision 187). In the browser
 * that registered, the token alone; elsewhere, also the address and password chosen then. On
 * success the member exists and is signed in (session cookies).
 */
export function confirmRegistration(input: { tokenHash: string; email?: string; password?: string }) {
  return send(api.auth.confirmation.$post({ json: input }));
}

/** `POST /api/v1/auth/confirmation/resend`: a new confirmation link; the same answer for every address. */
export function resendConfirmation(email: string) {
  return send(api.auth.confirmation.resend.$post({ json: { email } }));
}
