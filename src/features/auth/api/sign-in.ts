import type { Credentials } from '#machines/auth/credentials.ts';
import { api, send } from '#src/lib/api-client.ts';

/** `POST /api/v1/auth/signin`: the BFF sets the session cookies on success. */
export function signIn({ email, password }: Pick<Credentials, 'email' | 'password'>) {
  return send(api.auth.signin.$post({ json: { email, password } }));
}
