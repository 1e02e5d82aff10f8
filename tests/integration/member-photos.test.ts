import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { accessLog } from '#bff/db/access-log-schema.ts';
import { memberPhotos } from '#bff/db/photos-schema.ts';
import { MAX_PHOTO_BYTES } from '#bff/photos/member-photos.ts';
import {
  acceptIntroduction,
  type ActiveMember,
  introduceMembers,
  introductionsOf,
  startWithActiveMembers,
  uploadPhoto,
} from '#tests/support/active-member.ts';
import type { startTestProduct, TestAgent } from '#tests/support/test-product.ts';

/**
 * Members' photos over HTTP (issue 22, decision 116): uploaded photos are checked by their bytes,
 * re-encoded without metadata and resized; nobody sees them before both sides of an introduction
 * accepted; the URL of one introduction opens only the other side's photos, for that side only;
 * erasure deletes them.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let youssef: ActiveMember;
let karim: ActiveMember;
let sarah: ActiveMember;

type OwnPhoto = { id: string; position: number; width: number; height: number; url: string; thumbnailUrl: string };
type View = { id: string; state: string; photos: { id: string; url: string }[]; contact: unknown };

const upload = (m: ActiveMember, bytes: Uint8Array, contentType?: string) => uploadPhoto(product, m, bytes, contentType);
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;
const mine = (m: ActiveMember) => introductionsOf<View>(m);
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

/** A 3000×2000 JPEG taken "on its side" (EXIF orientation 6), with an author and a copyright in EXIF. */
async function phoneJpeg(): Promise<Uint8Array> {
  const buffer = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: { r: 180, g: 90, b: 40 } } })
    .withExif({ IFD0: { Artist: 'Amina Exemple', Copyright: 'Secret de famille', Make: 'Téléphone' } })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
  return new Uint8Array(buffer);
}
const png = async () =>
  new Uint8Array(
    await sharp({ create: { width: 400, height: 300, channels: 4, background: '#3366aa' } })
      .png()
      .toBuffer(),
  );
const webp = async () =>
  new Uint8Array(
    await sharp({ create: { width: 600, height: 900, channels: 3, background: '#22aa44' } })
      .webp()
      .toBuffer(),
  );

async function uploaded(m: ActiveMember, bytes: Uint8Array, contentType?: string): Promise<OwnPhoto> {
  const response = await upload(m, bytes, contentType);
  const body = (await response.json()) as { photo: OwnPhoto };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.photo;
}

const introduce = (a: ActiveMember, b: ActiveMember) => introduceMembers(staff, clock, a, b);
const accept = (m: ActiveMember, id: string) => acceptIntroduction(clock, m, id);

beforeAll(async () => {
  ({
    product,
    staff,
    members: [amina, youssef, karim, sarah],
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Youssef', 'homme', 32],
    ['Karim', 'homme', 33],
    ['Sarah', 'femme', 28],
  ]));
}, 120_000);
afterAll(() => product.stop());

describe('members’ photos', () => {
  let first: OwnPhoto;
  let second: OwnPhoto;
  let sarahPhoto: OwnPhoto;
  let aminaYoussef: string;
  let sarahKarim: string;

  it('a phone JPEG with EXIF is stored upright, at most 1200 px, as WebP, without any metadata', async () => {
    const original = await phoneJpeg();
    const before = await sharp(original).metadata();
    expect(before.exif, 'the test photo carries EXIF').toBeDefined();
    expect(before.orientation).toBe(6);

    first = await uploaded(amina, original);
    // Orientation 6: the 3000×2000 sensor image is a 2000×3000 portrait, scaled to 800×1200.
    expect(first).toMatchObject({ position: 1, width: 800, height: 1200 });

    const response = await amina.agent.get(first.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const stored = await bytesOf(response);
    const after = await sharp(stored).metadata();
    expect(after).toMatchObject({ format: 'webp', width: 800, height: 1200 });
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(Buffer.from(stored).includes('Secret de famille')).toBe(false);

    const thumb = await amina.agent.get(first.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(await sharp(await bytesOf(thumb)).metadata()).toMatchObject({ format: 'webp', width: 213, height: 320 });

    const list = await amina.agent.json<{ photos: OwnPhoto[]; max: number }>(amina.agent.get('/api/v1/user/photos'));
    expect(list.max).toBe(3);
    expect(list.photos.map((p) => p.id)).toEqual([first.id]);
  });

  it('checks the bytes, not the name: a text file named .jpg is refused in French; a real PNG sent as image/jpeg is taken', async () => {
    const text = new TextEncoder().encode('Ceci est un fichier texte renommé photo.jpg, pas une image.');
    const refused = await upload(amina, text, 'image/jpeg');
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ code: 'PHOTO_UNREADABLE', message: expect.stringContaining('JPEG, PNG ou WebP') });
    // A PNG signature followed by garbage: not decodable either.
    const fake = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new TextEncoder().encode('pas vraiment un png')]);
    expect((await upload(amina, fake, 'image/png')).status).toBe(400);
    // A GIF (another real format) is not one of the three.
    const gif = new Uint8Array(
      await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
        .gif()
        .toBuffer(),
    );
    expect((await upload(amina, gif, 'image/gif')).status).toBe(400);
    expect((await upload(amina, new Uint8Array(), 'image/jpeg')).status).toBe(400);

    second = await uploaded(amina, await png(), 'image/jpeg');
    expect(second).toMatchObject({ position: 2, width: 400, height: 300 });
    expect((await sharp(await bytesOf(await amina.agent.get(second.url))).metadata()).format).toBe('webp');
  });

  it('refuses a photo over 8 MB (413, in French), and a fourth photo (409)', async () => {
    const big = new Uint8Array(MAX_PHOTO_BYTES + 1024);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const tooBig = await upload(amina, big);
    expect(tooBig.status).toBe(413);
    expect(await errorOf(tooBig)).toMatchObject({ code: 'PHOTO_TOO_LARGE', message: expect.stringContaining('8 Mo') });

    const third = await uploaded(amina, await webp(), 'image/webp');
    expect(third.position).toBe(3);
    const fourth = await upload(amina, await png(), 'image/png');
    expect(fourth.status).toBe(409);
    expect((await errorOf(fourth)).message).toContain('3 photos');
    // Deleting one makes room; its URL is gone.
    const deleted = await amina.agent.request('DELETE', `/api/v1/user/photos/${third.id}`);
    expect(deleted.status).toBe(200);
    expect((await amina.agent.get(third.url)).status).toBe(404);
    expect((await amina.agent.request('DELETE', `/api/v1/user/photos/${third.id}`)).status).toBe(404);
    const rows = await product.database.db.select({ id: memberPhotos.id }).from(memberPhotos).where(eq(memberPhotos.memberId, amina.id));
    expect(rows.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
  });

  it('limits the decodings: 30 image-looking uploads per member and hour, then a French 429', async () => {
    const broken = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]);
    for (let i = 0; i < 30; i += 1) expect((await upload(karim, broken)).status).toBe(400);
    const limited = await upload(karim, broken);
    expect(limited.status).toBe(429);
    expect((await errorOf(limited)).message).toMatch(/^Trop de tentatives/);
    // What does not even look like an image is refused without counting.
    expect((await upload(karim, new TextEncoder().encode('texte'))).status).toBe(400);
  });

  it('a member never opens another member’s own photo URL, nor deletes it', async () => {
    expect((await youssef.agent.get(first.url)).status).toBe(404);
    expect((await youssef.agent.request('DELETE', `/api/v1/user/photos/${first.id}`)).status).toBe(404);
    expect((await youssef.agent.get('/api/v1/user/photos/pas-un-id')).status).toBe(400);
    // Staff read members' photos from the dashboard, not here.
    expect((await staff.get(first.url)).status).toBe(403);
  });

  it('the other side gets nothing before both accepted (404), and the photos once both did', async () => {
    sarahPhoto = await uploaded(sarah, await png(), 'image/png');
    aminaYoussef = await introduce(amina, youssef);
    const photoUrl = `/api/v1/user/introductions/${aminaYoussef}/photos/${first.id}`;

    expect((await mine(youssef)).find((v) => v.id === aminaYoussef)?.photos).toEqual([]);
    expect((await youssef.agent.get(photoUrl)).status).toBe(404);

    await accept(amina, aminaYoussef);
    expect((await mine(youssef)).find((v) => v.id === aminaYoussef)?.photos).toEqual([]);
    const early = await youssef.agent.get(photoUrl);
    expect(early.status).toBe(404);
    expect((await errorOf(early)).message).toBe('Photo introuvable.');

    await accept(youssef, aminaYoussef);
    const view = (await mine(youssef)).find((v) => v.id === aminaYoussef);
    expect(view?.state).toBe('acceptee');
    expect(view?.photos).toEqual([
      { id: first.id, url: photoUrl },
      { id: second.id, url: `/api/v1/user/introductions/${aminaYoussef}/photos/${second.id}` },
    ]);
    const response = await youssef.agent.get(photoUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect((await sharp(await bytesOf(response)).metadata()).exif).toBeUndefined();
    // Youssef has no photos: Amina's view lists none.
    expect((await mine(amina)).find((v) => v.id === aminaYoussef)?.photos).toEqual([]);
  });

  it('a third member gets 404 with any introduction id; one introduction’s URL opens no one else’s photo', async () => {
    // Karim: not a side of Amina–Youssef.
    expect((await karim.agent.get(`/api/v1/user/introductions/${aminaYoussef}/photos/${first.id}`)).status).toBe(404);
    // Sarah and Karim, mutually accepted: Karim's own introduction does not open Amina's photo.
    sarahKarim = await introduce(sarah, karim);
    await accept(sarah, sarahKarim);
    await accept(karim, sarahKarim);
    expect((await karim.agent.get(`/api/v1/user/introductions/${sarahKarim}/photos/${sarahPhoto.id}`)).status).toBe(200);
    expect((await karim.agent.get(`/api/v1/user/introductions/${sarahKarim}/photos/${first.id}`)).status).toBe(404);
    // Youssef's introduction with Amina does not open Sarah's photo, nor his own side's.
    expect((await youssef.agent.get(`/api/v1/user/introductions/${aminaYoussef}/photos/${sarahPhoto.id}`)).status).toBe(404);
    expect((await youssef.agent.get(`/api/v1/user/introductions/${sarahKarim}/photos/${sarahPhoto.id}`)).status).toBe(404);
    // Amina's own photo through her introduction: it is not the OTHER side's.
    expect((await amina.agent.get(`/api/v1/user/introductions/${aminaYoussef}/photos/${first.id}`)).status).toBe(404);
    // Unknown ids are the same 404; malformed ones a French 400.
    expect((await youssef.agent.get(`/api/v1/user/introductions/${crypto.randomUUID()}/photos/${first.id}`)).status).toBe(404);
    const bad = await youssef.agent.get(`/api/v1/user/introductions/${aminaYoussef}/photos/x`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe('Paramètres invalides');
  });

  it('staff at aal2 read a member’s photo, recorded in the access log', async () => {
    const list = await staff.json<{ photos: { id: string; url: string }[] }>(staff.get(`/api/v1/dashboard/members/${amina.id}/photos`));
    expect(list.photos.map((p) => p.url)).toEqual([
      `/api/v1/dashboard/members/${amina.id}/photos/${first.id}`,
      `/api/v1/dashboard/members/${amina.id}/photos/${second.id}`,
    ]);
    // Listing reads no photo: nothing logged yet.
    expect(
      (await product.database.db.select().from(accessLog).where(eq(accessLog.memberId, amina.id))).map((e) => e.resource),
    ).not.toContain('member_photo');
    const response = await staff.get(`/api/v1/dashboard/members/${amina.id}/photos/${first.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const log = await product.database.db.select().from(accessLog).where(eq(accessLog.memberId, amina.id));
    expect(log.map((e) => e.resource)).toContain('member_photo');
    // Another member's id with this photo: 404.
    expect((await staff.get(`/api/v1/dashboard/members/${youssef.id}/photos/${first.id}`)).status).toBe(404);
    expect((await youssef.agent.get(`/api/v1/dashboard/members/${amina.id}/photos/${first.id}`)).status).toBe(403);
  });

  it('the export lists the photos (metadata, no bytes); erasure deletes them and closes every URL', async () => {
    const data = await amina.agent.json<{ photos: { position: number; width: number; download: string }[] }>(
      amina.agent.get('/api/v1/user/export'),
    );
    expect(data.photos).toEqual([
      expect.objectContaining({ position: 1, width: 800, download: first.url }),
      expect.objectContaining({ position: 2, width: 400, download: second.url }),
    ]);
    const erased = await amina.agent.post('/api/v1/user/erase', { email: amina.email });
    expect(erased.status, await erased.clone().text()).toBe(200);
    const [left] = (
      (await product.database.db.execute(
        sql`SELECT count(*)::int AS n FROM member_photos WHERE member_id = ${amina.id}::uuid`,
      )) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    expect(left?.n).toBe(0);
    expect((await youssef.agent.get(`/api/v1/user/introductions/${aminaYoussef}/photos/${first.id}`)).status).toBe(404);
    expect((await mine(youssef)).find((v) => v.id === aminaYoussef)?.photos).toEqual([]);
    // Sarah's photo is untouched.
    expect((await karim.agent.get(`/api/v1/user/introductions/${sarahKarim}/photos/${sarahPhoto.id}`)).status).toBe(200);
  });
});
