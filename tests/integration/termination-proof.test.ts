import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { contractTerminationProofs, contractTerminations } from '#bff/db/credit-notes-schema.ts';
import { onboardingEvents } from '#bff/db/schema.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { terminationRefundDueByMs } from '#machines/onboarding/periods.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';
import { agencyMailsOf, sendUpdate, signUpMember, walkToPaidContract } from '#tests/support/member-walk.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import { proofForm, recordLetter, requestTermination, sampleJpegWithGps, samplePdf } from '#tests/support/termination.ts';
import { TEST_SITE, type TestProduct } from '#tests/support/test-product.ts';

/**
 * Decision 189 over HTTP: the termination's proof is a file (PDF, JPEG or PNG by its bytes, 5 MB
 * at most), stored privately, read by the member herself and by staff (each staff read logged);
 * staff record a request received by letter; the retention job deletes the proof 5 years after
 * the contract's end (the agency's clock moved through `/_local/clock`).
 */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const MOVE = { reason: 'demenagement', explanation: 'Je pars vivre à Montréal pour mon travail dès le mois prochain.' };
const PDF = { bytes: samplePdf(), name: 'attestation-employeur.pdf', type: 'application/pdf' };

/** A member paid in full, active once the withdrawal period is over. */
async function activeMember(prefix = 'justificatif') {
  clock.set(new Date());
  const member = await signUpMember(product, prefix);
  const { signedAt } = await walkToPaidContract({ member, staff, clock, planId: 'plan_serenity_year' });
  clock.set(new Date(Math.max(signedAt + 15 * DAY_MS, deadlinesOfSignature(signedAt).withdrawal.endsAtMs)));
  expect((await sendUpdate(staff.agent, { context: 'meeting_mm', uid: member.id })).body.state).toBe('membre-actif');
  return { member, signedAt };
}

async function rowsOf(memberId: string) {
  return product.database.db.select().from(contractTerminations).where(eq(contractTerminations.memberId, memberId));
}
async function proofOf(terminationId: number) {
  const [row] = await product.database.db
    .select()
    .from(contractTerminationProofs)
    .where(eq(contractTerminationProofs.terminationId, terminationId));
  return row;
}
async function accessLogOf(memberId: string) {
  const result = (await product.database.db.execute(
    sql`SELECT resource, staff_id FROM access_log WHERE member_id = ${memberId}::uuid ORDER BY id`,
  )) as unknown as { rows: { resource: string; staff_id: string }[] };
  return result.rows;
}

describe('the member’s request carries its proof as a file', () => {
  it('refuses what is not a whole PDF, JPEG or PNG of 5 MB at most, and every refusal changes nothing', async () => {
    const { member } = await activeMember();
    const refusedWith = async (file: Parameters<typeof requestTermination>[2], fields = MOVE) => {
      const answer = await requestTermination(member.agent, fields, file);
      expect(await rowsOf(member.id)).toHaveLength(0);
      return answer;
    };
    // Signed out: 401 before anything is read.
    const anonymous = await product.agent().request('POST', '/api/v1/user/terminations', proofForm(MOVE, PDF));
    expect(anonymous.status).toBe(401);
    // The JSON route of the chart's events refuses it: the form is the only way in.
    const json = await sendUpdate(member.agent, { context: 'terminate', ...MOVE });
    expect(json.status).toBe(403);
    expect(json.body.error?.code).toBe('TERMINATION_FORM_REQUIRED');
    // A move needs its proof.
    const missing = await refusedWith(undefined);
    expect(missing.status).toBe(400);
    expect(missing.body.error?.issues?.[0]).toMatchObject({ path: 'justificatif' });
    // A web page named .pdf and declared as a PDF: its bytes say otherwise.
    const disguised = await refusedWith({
      bytes: new Uint8Array(Buffer.from('<html><script>alert(1)</script></html>')),
      name: 'attestation.pdf',
      type: 'application/pdf',
    });
    expect(disguised.status).toBe(400);
    expect(disguised.body.error?.code).toBe('PROOF_UNREADABLE');
    expect(disguised.body.error?.message).toContain('PDF, JPEG ou PNG');
    // A PNG signature on garbage, named .png: not an image that decodes.
    const fakePng = await refusedWith({
      bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.from('pas une image')]),
      name: 'bail.png',
      type: 'image/png',
    });
    expect(fakePng.body.error?.code).toBe('PROOF_UNREADABLE');
    // A truncated PDF, and one with a script.
    expect((await refusedWith({ ...PDF, bytes: PDF.bytes.subarray(0, 200) })).body.error?.code).toBe('PROOF_UNREADABLE');
    const scripted = Buffer.from(samplePdf())
      .toString('latin1')
      .replace('/Type /Catalog', '/Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >>');
    expect((await refusedWith({ ...PDF, bytes: new Uint8Array(Buffer.from(scripted, 'latin1')) })).body.error?.code).toBe(
      'PROOF_ACTIVE_CONTENT',
    );
    // Over 5 MB: 413 in French.
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PDF.bytes);
    const tooBig = await refusedWith({ ...PDF, bytes: big });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error?.message).toContain('5\u00a0Mo');
    // Illness: no document is taken at all (GDPR art. 9).
    const health = await refusedWith(PDF, { reason: 'maladie-invalidite', explanation: 'Une longue maladie m’empêche de poursuivre.' });
    expect(health.status).toBe(400);
    expect(health.body.error?.message).toContain('aucun justificatif médical');
    // A form that is not multipart, a field sent twice.
    const plain = await member.agent.request('POST', '/api/v1/user/terminations', MOVE);
    expect(plain.status).toBe(415);
    const twice = proofForm(MOVE, PDF);
    twice.append('reason', 'autre-motif-grave');
    expect((await member.agent.request('POST', '/api/v1/user/terminations', twice)).status).toBe(400);
    expect((await member.agent.get('/api/v1/user/settings').then((r) => r.json())) as { state: string }).toMatchObject({
      state: 'membre-actif',
    });
  });

  it('a PDF is accepted and kept privately: the member and staff open it, staff’s read logged; another member, nobody else', async () => {
    const { member } = await activeMember();
    const other = await activeMember('autre-membre');
    const asked = await requestTermination(member.agent, MOVE, PDF);
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expect(asked.body.state).toBe('resiliation-demandee');
    const id = asked.body.termination?.id as number;
    expect(asked.body.termination?.proof).toMatchObject({ typeLabel: 'PDF', sizeBytes: PDF.bytes.length });
    // Stored as sent, in the database, never as a public file.
    const stored = await proofOf(id);
    expect(Buffer.from(stored?.bytes ?? []).equals(Buffer.from(PDF.bytes))).toBe(true);
    expect(stored).toMatchObject({ mime: 'application/pdf', memberId: member.id, uploadedBy: member.id });
    // The event log keeps the reason only.
    const events = await product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, member.id));
    expect(JSON.stringify(events.find((e) => e.context === 'terminate')?.payload)).not.toMatch(/Montréal|justificatif/);

    // Her own copy: a download, never rendered in the site's origin.
    const mine = await member.agent.get(`/api/v1/user/terminations/${id}/proof`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('application/pdf');
    expect(mine.headers.get('content-disposition')).toMatch(/^attachment; filename="justificatif-\d+\.pdf"$/);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await mine.arrayBuffer()).equals(Buffer.from(PDF.bytes))).toBe(true);
    // Signed out, or another member: nothing (the same 404 as no proof at all), nothing changed.
    expect((await product.agent().get(`/api/v1/user/terminations/${id}/proof`)).status).toBe(401);
    expect((await other.member.agent.get(`/api/v1/user/terminations/${id}/proof`)).status).toBe(404);
    const replaceOthers = await other.member.agent.request('POST', `/api/v1/user/terminations/${id}/proof`, proofForm({}, PDF));
    expect(replaceOthers.status).toBe(404);
    expect((await proofOf(id))?.uploadedBy).toBe(member.id);
    // Staff's route names the member: the wrong member is 404; each read is logged before the file leaves.
    expect(await accessLogOf(member.id)).toEqual([]);
    expect((await staff.agent.get(`/api/v1/dashboard/members/${other.member.id}/terminations/${id}/proof`)).status).toBe(404);
    const read = await staff.agent.get(`/api/v1/dashboard/members/${member.id}/terminations/${id}/proof`);
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer()).equals(Buffer.from(PDF.bytes))).toBe(true);
    expect(await accessLogOf(member.id)).toEqual([{ resource: 'termination_proof', staff_id: staff.id }]);
    // A member cannot use staff's route.
    expect((await member.agent.get(`/api/v1/dashboard/members/${member.id}/terminations/${id}/proof`)).status).toBe(403);
    // Staff see it on the member's file, with the staff route.
    const detail = await staff.agent.json<{ rights: { termination: { proof: { url: string } | null; channelLabel: string } } }>(
      staff.agent.get(`/api/v1/dashboard/members/${member.id}`),
    );
    expect(detail.rights.termination.proof?.url).toBe(`/api/v1/dashboard/members/${member.id}/terminations/${id}/proof`);
    expect(detail.rights.termination.channelLabel).toBe('En ligne, depuis l’espace membre');

    // She replaces it with a phone photo: re-encoded, its GPS position and device gone.
    const photo = await sampleJpegWithGps();
    const replaced = await member.agent.request(
      'POST',
      `/api/v1/user/terminations/${id}/proof`,
      proofForm({}, { bytes: photo, name: 'bail.jpg', type: 'image/jpeg' }),
    );
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    const image = await proofOf(id);
    expect(image?.mime).toBe('image/jpeg');
    const { default: sharp } = await import('sharp');
    const meta = await sharp(Buffer.from(image?.bytes ?? [])).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(Buffer.from(image?.bytes ?? []).includes(Buffer.from('Modèle X'))).toBe(false);
    expect((await member.agent.get(`/api/v1/user/terminations/${id}/proof`)).headers.get('content-disposition')).toMatch(/^inline;/);

    // Once staff answered, the proof no longer changes.
    expect((await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id })).body.state).toBe('resilie');
    const late = await member.agent.request('POST', `/api/v1/user/terminations/${id}/proof`, proofForm({}, PDF));
    expect(late.status).toBe(409);
    expect((await proofOf(id))?.mime).toBe('image/jpeg');
    // Her export names the proof (its kind and URL), not its bytes.
    const exported = await member.agent.json<{ terminations: { proof: { url: string; type: string } | null }[] }>(
      member.agent.get('/api/v1/user/export'),
    );
    expect(exported.terminations[0]?.proof).toMatchObject({ url: `/api/v1/user/terminations/${id}/proof`, type: 'Image JPEG' });
  });
});

describe('staff record a request received by letter (« Enregistrer une demande de résiliation reçue par courrier »)', () => {
  it('dated the day it was received, with its enclosure scanned; then reviewed like any request', async () => {
    const { member, signedAt } = await activeMember('courrier');
    clock.set(new Date(signedAt + 80 * DAY_MS));
    const now = product.clock.now().getTime();
    const receivedOn = parisDayOf(now - 3 * DAY_MS);
    const letter = {
      receivedOn,
      reason: 'changement-situation-matrimoniale',
      explanation: 'Courrier simple\u00a0: mariage célébré le mois dernier.',
    };
    const scan = { bytes: samplePdf('Acte de mariage'), name: 'scan.pdf', type: 'application/pdf' };
    // Staff only, at aal2; a member cannot record a letter, even her own.
    expect((await recordLetter(member.agent, member.id, letter, scan)).status).toBe(403);
    // A date in the future, or before the signature: refused in French, nothing recorded.
    const future = await recordLetter(staff.agent, member.id, { ...letter, receivedOn: parisDayOf(now + 2 * DAY_MS) });
    expect(future.status).toBe(400);
    expect(JSON.stringify(future.body.error)).toContain('La date de réception ne peut pas être dans le futur');
    const before = await recordLetter(staff.agent, member.id, { ...letter, receivedOn: parisDayOf(signedAt - DAY_MS) });
    expect(before.status).toBe(409);
    expect(before.body.error?.message).toContain('postérieure au jour de la signature');
    // Illness: no document is kept.
    const health = await recordLetter(staff.agent, member.id, { ...letter, reason: 'maladie-invalidite' }, scan);
    expect(health.status).toBe(400);
    expect(await rowsOf(member.id)).toHaveLength(0);

    const recorded = await recordLetter(staff.agent, member.id, letter, scan);
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
    expect(recorded.body.state).toBe('resiliation-demandee');
    const [row] = await rowsOf(member.id);
    const requestedAt = parisDayStartMs(receivedOn);
    expect(row).toMatchObject({ channel: 'letter', recordedBy: staff.id });
    expect(row?.requestedAt.toISOString()).toBe(toIsoInstant(requestedAt));
    expect(row?.dueBy.toISOString()).toBe(toIsoInstant(terminationRefundDueByMs(requestedAt)));
    expect(await proofOf(row?.id ?? 0)).toMatchObject({ mime: 'application/pdf', uploadedBy: staff.id });
    // Her confirmation says it came by letter, at its date.
    const mails = (await agencyMailsOf(product, member.email)).filter((m) => m.kind === 'agency-termination-requested');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('Nous avons bien reçu par courrier');
    // She sees it pending, with its proof; she cannot ask again online meanwhile.
    const mine = await member.agent.json<{ terminations: { byLetter: boolean; pending: boolean; proof: unknown }[] }>(
      member.agent.get('/api/v1/user/terminations'),
    );
    expect(mine.terminations[0]).toMatchObject({ byLetter: true, pending: true, proof: expect.objectContaining({ typeLabel: 'PDF' }) });
    expect((await requestTermination(member.agent, MOVE, PDF)).status).toBe(409);
    // The same review: accepted, the refund counted from the day the letter was received.
    const accepted = await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id });
    expect(accepted.body.state).toBe('resilie');
    const refunds = (await product.database.db.execute(
      sql`SELECT due_by FROM refunds WHERE member_id = ${member.id}::uuid AND reason = 'termination'`,
    )) as unknown as { rows: { due_by: string }[] };
    expect(refunds.rows.length).toBeGreaterThan(0);
    for (const refund of refunds.rows) expect(new Date(refund.due_by).getTime()).toBe(terminationRefundDueByMs(requestedAt));
  });
});

describe('the proof leaves with its retention (5 years after the contract’s end)', () => {
  it('stays through the member’s erasure (3 years after the term), and is deleted once 5 years have passed', async () => {
    const { member } = await activeMember('retention');
    const asked = await requestTermination(member.agent, MOVE, PDF);
    expect(asked.status).toBe(201);
    const id = asked.body.termination?.id as number;
    expect((await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id })).body.state).toBe('resilie');
    const [contract] = (
      (await product.database.db.execute(
        sql`SELECT stopped_at FROM contracts WHERE member_id = ${member.id}::uuid AND stop_reason = 'termination'`,
      )) as unknown as { rows: { stopped_at: string }[] }
    ).rows;
    const end = new Date(contract?.stopped_at ?? 0);
    const moveTo = async (at: Date) => {
      const moved = await product.app.request(`${TEST_SITE}/_local/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_SITE },
        body: JSON.stringify({ to: at.toISOString() }),
      });
      expect(moved.status, await moved.clone().text()).toBe(200);
    };
    const years = (n: number) => new Date(Date.UTC(end.getUTCFullYear() + n, end.getUTCMonth(), end.getUTCDate(), end.getUTCHours()));
    // Three years after the term (signature + 12 months): the member's data is erased, her words too;
    // the proof stays with its request.
    await moveTo(new Date(years(4).getTime() + 60 * DAY_MS));
    const [kept] = await rowsOf(member.id);
    expect(kept?.explanation).toBe('Effacé à la demande du membre');
    expect(await proofOf(id)).toBeDefined();
    // A day before the fifth year is over: still there.
    await moveTo(new Date(years(5).getTime() - DAY_MS));
    expect(await proofOf(id)).toBeDefined();
    // Past it: the retention job deleted the proof; the request's dates, reason and decision stay.
    await moveTo(new Date(years(5).getTime() + DAY_MS));
    expect(await proofOf(id)).toBeUndefined();
    expect(await rowsOf(member.id)).toEqual([expect.objectContaining({ id, reason: 'demenagement', decision: 'accepted' })]);
  }, 240_000);
});
