/**
 * The bench's members, signed up over HTTP by the bench runner (decision 098): each is brought to
 * the `formules` step (profile, questionnaire, personal information) and its session cookie kept
 * for the authenticated figures. The client runs in the runner's process, never in the server's:
 * a server that had also been its own HTTP client (undici, its parser, its sockets) served pages
 * measurably slower than one that had only ever served, as a production server only serves.
 */
import { samplePayloads } from '#machines/onboarding/happy-path.ts';

/** The cookie jar's `Cookie` header after the response's Set-Cookie lines. */
export function cookieHeader(response: Response, jar: Map<string, string>): string {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const index = (pair ?? '').indexOf('=');
    if (index > 0) jar.set((pair as string).slice(0, index).trim(), (pair as string).slice(index + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/**
 * Signs up `count` members on the product at `url` and gives their session cookies. Set-up requests
 * come from distinct documentation addresses (`X-Forwarded-For`, the product started with
 * TRUST_PROXY) so that the sign-up rate limits do not bite.
 */
export async function signUpMembers(url: string, count: number): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const jar = new Map<string, string>();
    const address = `198.51.100.${(i % 250) + 1}`;
    const email = `bench.${i}.${Date.now()}@example.fr`;
    const signup = await fetch(`${url}/api/v1/dashboard/subscription`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ context: 'init', email, role: 'femme', password: 'bismillah-2026' }),
    });
    if (signup.status !== 201) throw new Error(`sign-up ${signup.status}: ${await signup.text()}`);
    let cookie = cookieHeader(signup, jar);
    const settings = (await (await fetch(`${url}/api/v1/user/settings`, { headers: { cookie } })).json()) as { id: string };
    const samples = samplePayloads({ id: settings.id, email, gender: 'femme' }, Date.now());
    for (const body of [samples.profil, samples.questionnaire, samples.form_per_inf]) {
      const response = await fetch(`${url}/api/v1/user/update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(body),
      });
      if (response.status !== 200) throw new Error(`update ${body.context} ${response.status}: ${await response.text()}`);
      cookie = cookieHeader(response, jar);
    }
    cookies.push(cookie);
  }
  return cookies;
}
