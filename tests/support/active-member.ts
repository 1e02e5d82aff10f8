import { expect } from 'vitest';
import type { Clock } from '#bff/clock.ts';
import type { Product } from '#bff/start.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import { seedActiveMember } from '#tests/support/active-member-seed.ts';
import { startWithStaff } from '#tests/support/staff.ts';
import { TEST_SITE, type TestAgent, type TestProduct } from '#tests/support/test-product.ts';

/**
 * An active member for introduction tests (the same set-up as tests/integration/introductions.test.ts):
 * steps 1-2 done, contract signed and paid, active for 10 days, Île-de-France, open criteria, signed in.
 */
export interface ActiveMember {
  id: string;
  email: string;
  firstName: string;
  agent: TestAgent;
}

let n = 0;

export async function activeMember(
  product: Product & { agent(): TestAgent },
  clock: Clock,
  firstName: string,
  gender: Gender,
  age = 30,
): Promise<ActiveMember> {
  n += 1;
  const email = `${firstName.toLowerCase()}.p${n}.${Date.now()}@example.fr`;
  const { id, password, available } = await seedActiveMember(product, clock.now().getTime(), { email, firstName, gender, age });
  expect(available, `${firstName} available`).toBe(true);
  const agent = product.agent();
  const signin = await agent.post('/api/v1/auth/signin', { email, password });
  expect(signin.status).toBe(200);
  return { id, email, firstName, agent };
}

/** Staff introduce two members (a minute later on the test clock); answers the introduction's id. */
export async function introduceMembers(
  staff: TestAgent,
  clock: { advance(ms: number): void },
  a: ActiveMember,
  b: ActiveMember,
): Promise<string> {
  clock.advance(60_000);
  const response = await staff.post('/api/v1/dashboard/introductions', { a: a.id, b: b.id });
  const body = (await response.json()) as { introduction: { id: string } };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.introduction.id;
}

/** The member accepts an introduction from her space (a minute later on the test clock). */
export async function acceptIntroduction(clock: { advance(ms: number): void }, m: ActiveMember, id: string): Promise<void> {
  clock.advance(60_000);
  const response = await m.agent.post(`/api/v1/user/introductions/${id}/events`, { type: 'ACCEPT' });
  expect(response.status, await response.clone().text()).toBe(200);
}

/**
 * The product on `clock`, a staff agent signed in past the TOTP step, and one active member per
 * [first name, gender, age] of `people`, made in that order.
 */
export async function startWithActiveMembers<const P extends readonly (readonly [string, Gender, number])[]>(
  clock: Clock,
  people: P,
): Promise<{ product: TestProduct; staff: TestAgent; members: { -readonly [K in keyof P]: ActiveMember } }> {
  const { product, staff } = await startWithStaff(clock);
  const members: ActiveMember[] = [];
  for (const [firstName, gender, age] of people) members.push(await activeMember(product, clock, firstName, gender, age));
  return { product, staff: staff.agent, members: members as { -readonly [K in keyof P]: ActiveMember } };
}

/** The member's introductions as her space lists them (`View`: the fields the test reads). */
export async function introductionsOf<View>(m: ActiveMember): Promise<View[]> {
  return (await m.agent.json<{ introductions: View[] }>(m.agent.get('/api/v1/user/introductions'))).introductions;
}

/** A photo upload as the browser sends it: the raw bytes as the body, with the type the browser guessed from the name. */
export function uploadPhoto(product: TestProduct, m: ActiveMember, bytes: Uint8Array, contentType = 'image/jpeg') {
  const cookie = [...m.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return product.app.request(`${TEST_SITE}/api/v1/user/photos`, {
    method: 'POST',
    headers: { 'x-forwarded-for': m.agent.address, cookie, origin: TEST_SITE, 'content-type': contentType },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
}
