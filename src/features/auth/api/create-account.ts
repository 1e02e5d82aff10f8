import type { Credentials, Gender } from '#machines/auth/credentials.ts';
import { api, send } from '#src/lib/api-client.ts';

/**
 * `POST /api/v1/dashboard/subscription` with `context: 'init'`: creates the member account (role =
 * gender, spec §3/§6); the BFF signs the new member in (session cookies) on success.
 */
export function createAccount({ gender, email, password }: { gender: Gender } & Pick<Credentials, 'email' | 'password'>) {
  return send(api.dashboard.subscription.$post({ json: { context: 'init', email, role: gender, password } }));
}
