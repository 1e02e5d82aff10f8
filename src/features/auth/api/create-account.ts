import type { Credentials, Gender } from '#machines/auth/credentials.ts';
import { api, send } from '#src/lib/api-client.ts';

/**
 * `POST /api/v1/dashboard/subscription` with `context: 'init'`: creates the member account (role =
 * gender, spec §3/§6); the BFF signs the new member in (session cookies) on success. With the
 * pre-registration's link (`invitation`, decision 127) the gender is the one given then: not sent.
 */
export function createAccount({
  gender,
  email,
  password,
  invitation,
}: { gender?: Gender | undefined; invitation?: string | undefined } & Pick<Credentials, 'email' | 'password'>) {
  return send(
    api.dashboard.subscription.$post({
      json: { context: 'init', email, password, ...(gender ? { role: gender } : {}), ...(invitation ? { invitation } : {}) },
    }),
  );
}

/** `GET /api/v1/subscription/invitation`: the address and gender the pre-registration's link stands for. */
export function readInvitation(invitation: string) {
  return send(api.subscription.invitation.$get({ query: { invitation } }));
}
