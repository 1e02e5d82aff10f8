import { and, desc, eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { offsetClock } from '#bff/clock.ts';
import { mailOutbox, members, onboardingEvents } from '#bff/db/schema.ts';
import { staffInvitations } from '#bff/db/staff-invitations-schema.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, TEST_SITE } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/** Inviting a colleague from the team page (issue 21, decision 126). */

const clock = offsetClock();
let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct({ clock });
});
afterAll(() => product.stop());

const INVITE = '/api/v1/dashboard/staff-invitations';
const PASSWORD = 'bienvenue-equipe-2026';
let n = 0;
const address = () => {
  n += 1;
  return `collegue.${n}.${Date.now()}@agence.example.fr`;
};
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;
const invitationsOf = (email: string) => product.database.db.select().from(staffInvitations).where(eq(staffInvitations.email, email));
const mailsTo = (email: string) =>
  product.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.id));

/** The token of the newest invitation mail to `email`, read from the link as the colleague would. */
async function linkToken(email: string): Promise<string> {
  const [mail] = await mailsTo(email);
  expect(mail).toMatchObject({ kind: 'staff-invitation', subject: 'Invitation à rejoindre l’équipe Union Sincère' });
  const match = mail?.textBody.match(new RegExp(`${TEST_SITE}/dashboard/invitation\\?token=([A-Za-z0-9_-]{43})`));
  expect(match).not.toBeNull();
  return match?.[1] ?? '';
}

async function staffAtAal2() {
  const staff = await signInStaff(product);
  await staff.passTotp();
  return staff;
}

async function member() {
  const agent = product.agent();
  const email = `adherente.${Date.now()}.${Math.random().toString(36).slice(2)}@example.fr`;
  expect((await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' })).status).toBe(201);
  return { agent, email };
}

describe('inviting a colleague', () => {
  it('invite → French mail → password → TOTP enrolment → a working staff session; logged at every step', async () => {
    const inviter = await staffAtAal2();
    const email = address();
    // An administrator (decision 206): she will open the team page below.
    const invited = await inviter.agent.post(INVITE, { email: `  ${email.toUpperCase()} `, name: 'Samira Benali', role: 'administration' });
    expect(invited.status).toBe(201);
    const { id } = (await invited.json()) as { id: string };

    // Pending on the team page, with who invited and until when.
    const listed = await inviter.agent.json<{ invitations: Record<string, unknown>[] }>(inviter.agent.get(INVITE));
    const row = listed.invitations.find((i) => i.id === id);
    expect(row).toMatchObject({
      email,
      name: 'Samira Benali',
      role: 'administration',
      invitedBy: { email: inviter.email },
      expired: false,
    });
    const days = (Date.parse(String(row?.expiresAt)) - Date.parse(String(row?.sentAt))) / 86_400_000;
    expect(days).toBe(7);

    // The auth user exists as Supabase's invitation makes it: unconfirmed, invited_at set; no member row yet.
    const [stored] = await invitationsOf(email);
    const authUser = (await adminClient(product.auth).auth.admin.getUserById(stored?.authUserId ?? '')).data.user;
    expect(authUser?.invited_at).toBeTruthy();
    expect(authUser?.email_confirmed_at).toBeFalsy();
    expect(await product.database.db.select().from(members).where(eq(members.email, email))).toEqual([]);

    // The French mail, with the inviter's name and the link.
    const [mail] = await mailsTo(email);
    expect(mail?.textBody).toContain('Bonjour Samira Benali,');
    expect(mail?.textBody).toContain(inviter.email);
    expect(mail?.textBody).toContain('second facteur');
    const token = await linkToken(email);
    // The secret is not stored, only its digest.
    expect(JSON.stringify(stored)).not.toContain(token);

    const colleague = product.agent();
    expect(await colleague.json(colleague.post('/api/v1/staff-invitation/check', { token }))).toMatchObject({
      email,
      name: 'Samira Benali',
    });
    // Passwords that differ, or too short: 400 in French, nothing accepted.
    const mismatch = await colleague.post('/api/v1/staff-invitation/accept', {
      token,
      password: PASSWORD,
      passwordRepeat: 'autre-chose-2026',
    });
    expect(mismatch.status).toBe(400);
    expect((await errorOf(mismatch)).message).toBe('Les deux mots de passe ne sont pas identiques.');
    const short = await colleague.post('/api/v1/staff-invitation/accept', { token, password: 'court', passwordRepeat: 'court' });
    expect(short.status).toBe(400);
    expect((await errorOf(short)).message).toContain('12 caractères');
    expect((await invitationsOf(email))[0]?.acceptedAt).toBeNull();

    const accepted = await colleague.post('/api/v1/staff-invitation/accept', { token, password: PASSWORD, passwordRepeat: PASSWORD });
    expect(accepted.status).toBe(200);
    // Signed in at aal1: the dashboard is still closed until the second factor is enrolled.
    expect(await colleague.json(colleague.get('/api/v1/auth/mfa'))).toEqual({ aal: 'aal1', factors: [] });
    expect((await colleague.get('/api/v1/dashboard/staff')).status).toBe(403);
    const enrolled = await colleague.json<{ factorId: string; secret: string }>(colleague.post('/api/v1/auth/mfa/enroll', {}));
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.secret) }).generate();
    expect((await colleague.post('/api/v1/auth/mfa/verify', { factorId: enrolled.factorId, code })).status).toBe(200);
    const team = await colleague.json<{ staff: { email: string; name: string; self: boolean; secondFactor: string; role: string }[] }>(
      colleague.get('/api/v1/dashboard/staff'),
    );
    expect(team.staff.find((s) => s.email === email)).toMatchObject({
      name: 'Samira Benali',
      self: true,
      secondFactor: 'actif',
      role: 'administration',
    });

    // The link served once: used again, it is refused in French.
    const again = await product.agent().post('/api/v1/staff-invitation/accept', { token, password: PASSWORD, passwordRepeat: PASSWORD });
    expect(again.status).toBe(400);
    expect(await errorOf(again)).toMatchObject({ code: 'INVITATION_INVALID', message: expect.stringContaining('n’est plus valable') });
    // Accepted: gone from the pending list.
    const after = await inviter.agent.json<{ invitations: { id: string }[] }>(inviter.agent.get(INVITE));
    expect(after.invitations.map((i) => i.id)).not.toContain(id);

    // A fresh sign-in with the chosen password asks for the code of the enrolled factor.
    const later = product.agent();
    expect((await later.post('/api/v1/auth/signin', { email, password: PASSWORD })).status).toBe(200);
    expect((await later.json<{ factors: unknown[] }>(later.get('/api/v1/auth/mfa'))).factors).toHaveLength(1);

    // Logged: the invitation on the inviter's event log, the acceptance on the colleague's.
    const colleagueId = (await product.database.db.select().from(members).where(eq(members.email, email)))[0]?.id ?? '';
    const inviteEvents = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(and(eq(onboardingEvents.memberId, inviter.id), eq(onboardingEvents.context, 'staff_invitation')));
    expect(inviteEvents).toEqual([
      expect.objectContaining({ event: 'INVITE', actorId: inviter.id, payload: { invitationId: id, email, role: 'administration' } }),
    ]);
    const acceptEvents = await product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, colleagueId));
    expect(acceptEvents).toEqual([
      expect.objectContaining({ context: 'staff_invitation', event: 'ACCEPT', payload: { invitationId: id, invitedBy: inviter.id } }),
    ]);
  });

  it('refuses anonymous (401), members and staff at aal1 (403), a cross-site write; nothing is created', async () => {
    const email = address();
    const someMember = await member();
    const staffAal1 = await signInStaff(product);
    const staffAal2 = await staffAtAal2();
    const body = { email, name: 'Personne' };

    expect((await product.agent().post(INVITE, body)).status).toBe(401);
    expect((await product.agent().get(INVITE)).status).toBe(401);
    const asMember = await someMember.agent.post(INVITE, body);
    expect(asMember.status).toBe(403);
    expect((await errorOf(asMember)).code).toBe('FORBIDDEN');
    expect((await someMember.agent.get(INVITE)).status).toBe(403);
    const asAal1 = await staffAal1.agent.post(INVITE, body);
    expect(asAal1.status).toBe(403);
    expect((await errorOf(asAal1)).code).toBe('MFA_REQUIRED');
    const crossSite = await staffAal2.agent.post(INVITE, body, { origin: 'https://ailleurs.example' });
    expect(crossSite.status).toBe(403);

    expect(await invitationsOf(email)).toEqual([]);
    expect(await mailsTo(email)).toEqual([]);
  });

  it('a bad e-mail or a missing name: 400 with a French message, nothing created', async () => {
    const staff = await staffAtAal2();
    const before = await product.database.db.select({ n: sql<number>`count(*)::int` }).from(staffInvitations);
    for (const bad of ['pas-une-adresse', 'a@b', 'deux mots@agence.fr', '']) {
      const response = await staff.agent.post(INVITE, { email: bad, name: 'Yasmine' });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toMatch(/adresse e-mail/);
    }
    const noName = await staff.agent.post(INVITE, { email: address(), name: ' ' });
    expect(noName.status).toBe(400);
    expect((await errorOf(noName)).message).toContain('nom du collègue');
    expect((await staff.agent.post(INVITE, 'pas du json')).status).toBe(400);
    const after = await product.database.db.select({ n: sql<number>`count(*)::int` }).from(staffInvitations);
    expect(after).toEqual(before);
  });

  it('revoked: the link is refused and the auth user removed; resent: only the newest link works; expired: refused', async () => {
    const staff = await staffAtAal2();

    // Revoke.
    const revokedEmail = address();
    const { id: revokedId } = await staff.agent.json<{ id: string }>(staff.agent.post(INVITE, { email: revokedEmail, name: 'Karim' }));
    const revokedToken = await linkToken(revokedEmail);
    const authUserId = (await invitationsOf(revokedEmail))[0]?.authUserId ?? '';
    expect((await staff.agent.post(`${INVITE}/${revokedId}/revoke`, {})).status).toBe(200);
    const refused = await product
      .agent()
      .post('/api/v1/staff-invitation/accept', { token: revokedToken, password: PASSWORD, passwordRepeat: PASSWORD });
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).code).toBe('INVITATION_INVALID');
    expect((await product.agent().post('/api/v1/staff-invitation/check', { token: revokedToken })).status).toBe(400);
    expect((await adminClient(product.auth).auth.admin.getUserById(authUserId)).data.user).toBeNull();
    expect((await staff.agent.json<{ invitations: { id: string }[] }>(staff.agent.get(INVITE))).invitations.map((i) => i.id)).not.toContain(
      revokedId,
    );
    // Revoking twice: 404 in French.
    const twice = await staff.agent.post(`${INVITE}/${revokedId}/revoke`, {});
    expect(twice.status).toBe(404);
    // A revoked address may be invited again.
    expect((await staff.agent.post(INVITE, { email: revokedEmail, name: 'Karim' })).status).toBe(201);

    // Resend: the first link stops working, the new one works.
    const resentEmail = address();
    const { id: resentId } = await staff.agent.json<{ id: string }>(staff.agent.post(INVITE, { email: resentEmail, name: 'Leïla' }));
    const firstToken = await linkToken(resentEmail);
    expect((await staff.agent.post(`${INVITE}/${resentId}/resend`, {})).status).toBe(200);
    expect(await mailsTo(resentEmail)).toHaveLength(2);
    const secondToken = await linkToken(resentEmail);
    expect(secondToken).not.toBe(firstToken);
    expect((await product.agent().post('/api/v1/staff-invitation/check', { token: firstToken })).status).toBe(400);
    expect((await product.agent().post('/api/v1/staff-invitation/check', { token: secondToken })).status).toBe(200);

    // Expired after seven days: a clear French message; « Renvoyer » gives a new period.
    clock.advance(7 * 86_400_000 + 60_000);
    try {
      const expired = await product
        .agent()
        .post('/api/v1/staff-invitation/accept', { token: secondToken, password: PASSWORD, passwordRepeat: PASSWORD });
      expect(expired.status).toBe(400);
      expect(await errorOf(expired)).toMatchObject({ code: 'INVITATION_EXPIRED', message: expect.stringContaining('a expiré') });
      const listed = await staff.agent.json<{ invitations: { id: string; expired: boolean }[] }>(staff.agent.get(INVITE));
      expect(listed.invitations.find((i) => i.id === resentId)?.expired).toBe(true);
      expect((await staff.agent.post(`${INVITE}/${resentId}/resend`, {})).status).toBe(200);
      const fresh = await linkToken(resentEmail);
      const colleague = product.agent();
      expect(
        (await colleague.post('/api/v1/staff-invitation/accept', { token: fresh, password: PASSWORD, passwordRepeat: PASSWORD })).status,
      ).toBe(200);
      expect(await colleague.json(colleague.get('/api/v1/auth/mfa'))).toEqual({ aal: 'aal1', factors: [] });
    } finally {
      clock.advance(-(7 * 86_400_000 + 60_000));
    }

    // Every action is logged on the staff member who did it.
    const events = await product.database.db
      .select({ event: onboardingEvents.event })
      .from(onboardingEvents)
      .where(and(eq(onboardingEvents.memberId, staff.id), eq(onboardingEvents.context, 'staff_invitation')))
      .orderBy(onboardingEvents.id);
    expect(events.map((e) => e.event)).toEqual(['INVITE', 'REVOKE', 'INVITE', 'INVITE', 'RESEND', 'RESEND']);
  });

  it('an address already in the team, a member’s address, or one already invited: 409 in French, nothing sent', async () => {
    const staff = await staffAtAal2();
    const colleague = await signInStaff(product);
    const someMember = await member();

    const already = await staff.agent.post(INVITE, { email: colleague.email, name: 'Déjà là' });
    expect(already.status).toBe(409);
    expect(await errorOf(already)).toMatchObject({ code: 'ALREADY_STAFF', message: expect.stringContaining('déjà') });
    const memberAddress = await staff.agent.post(INVITE, { email: someMember.email, name: 'Adhérente' });
    expect(memberAddress.status).toBe(409);
    expect((await errorOf(memberAddress)).code).toBe('MEMBER_ACCOUNT');
    // The member's account is untouched: still signs in.
    expect((await someMember.agent.get('/api/v1/user/settings')).status).toBe(200);

    const email = address();
    expect((await staff.agent.post(INVITE, { email, name: 'Nadia' })).status).toBe(201);
    const twice = await staff.agent.post(INVITE, { email, name: 'Nadia' });
    expect(twice.status).toBe(409);
    expect((await errorOf(twice)).message).toContain('Renvoyer');
    expect(await invitationsOf(email)).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await mailsTo(colleague.email)).toEqual([]);
    expect(await mailsTo(someMember.email)).toEqual(expect.not.arrayContaining([expect.objectContaining({ kind: 'staff-invitation' })]));
  });

  it('a malformed or unknown link: 400 in French; an anonymous caller cannot resend or revoke', async () => {
    const malformed = await product.agent().post('/api/v1/staff-invitation/check', { token: 'abc' });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).message).toContain('incomplet');
    const unknown = await product.agent().post('/api/v1/staff-invitation/check', { token: 'A'.repeat(43) });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).code).toBe('INVITATION_INVALID');
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await product.agent().post(`${INVITE}/${id}/resend`, {})).status).toBe(401);
    expect((await product.agent().post(`${INVITE}/${id}/revoke`, {})).status).toBe(401);
  });
});
