import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '#bff/db/schema.ts';
import { SITE_URL_PLACEHOLDER } from '#bff/site/site-files.ts';
import { writeBuiltSite } from '#tests/support/built-site.ts';
import { signUpMember } from '#tests/support/member-walk.ts';
import { signInStaff, type StaffSession } from '#tests/support/staff.ts';
import { startTestProduct, type TestProduct } from '#tests/support/test-product.ts';

/**
 * A member's file names its two staff-only answers in a Link header (decision 135), fetched by the
 * browser with the page. Only a caller their guard lets through gets it (decision 160): anyone else
 * would see two 401s or 403s in the console before the page's guard sends them elsewhere.
 */
let dir: string;
let product: TestProduct;
let staff: StaffSession;
const MEMBER_FILE = '/dashboard/member/0b6c9f7e-2f6e-4a53-9a43-1d2f3c4b5a69';
const LINK =
  '</api/v1/dashboard/members/0b6c9f7e-2f6e-4a53-9a43-1d2f3c4b5a69>; rel=preload; as=fetch; crossorigin, ' +
  '</api/v1/dashboard/members/0b6c9f7e-2f6e-4a53-9a43-1d2f3c4b5a69/follow-up>; rel=preload; as=fetch; crossorigin';

beforeAll(async () => {
  const page = (title: string) =>
    `<!doctype html><html lang="fr"><head><title>${title}</title><link rel="canonical" href="${SITE_URL_PLACEHOLDER}/x" /></head><body>${title}</body></html>`;
  dir = writeBuiltSite('us-preload-', {
    'index.html': page('Accueil'),
    'spa.html': page('Espace'),
    'spa/dashboard_member_memberId.html': page('Fiche'),
    '404.html': page('Page introuvable'),
    'sitemap.xml': '<urlset/>',
    'robots.txt': 'User-agent: *\n',
    'prerender-manifest.json': JSON.stringify({
      pages: ['/'],
      prerenderedPatterns: ['/'],
      spaRoutes: ['/connexion', '/dashboard/member/$memberId'],
      spaShells: [
        {
          pattern: '/dashboard/member/$memberId',
          file: 'spa/dashboard_member_memberId.html',
          data: ['/api/v1/dashboard/members/$memberId', '/api/v1/dashboard/members/$memberId/follow-up'],
        },
      ],
    }),
  });
  product = await startTestProduct({ clientDir: dir });
  staff = await signInStaff(product);
});

afterAll(async () => {
  await product?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a member’s file preloads its answers for staff only (decision 160)', () => {
  it('names nothing to a visitor, a forged or stale cookie, or a member, and says the answer depends on the cookie', async () => {
    const visitor = product.agent();
    const anonymous = await visitor.get(MEMBER_FILE);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.text()).toContain('Fiche');
    expect(anonymous.headers.get('link')).toBeNull();
    expect(anonymous.headers.get('vary')).toBe('Accept-Encoding, Cookie');

    const forged = await visitor.get(MEMBER_FILE, { cookie: 'sb-127-auth-token=base64-eyJhY2Nlc3NfdG9rZW4iOiJ4In0' });
    expect(forged.status).toBe(200);
    expect(forged.headers.get('link')).toBeNull();

    const member = await signUpMember(product, 'preload');
    const asMember = await member.agent.get(MEMBER_FILE);
    expect(asMember.status).toBe(200);
    expect(asMember.headers.get('link')).toBeNull();
  });

  it('names nothing to staff before their second factor, and both answers once it is passed', async () => {
    const before = await staff.agent.get(MEMBER_FILE);
    expect(before.status).toBe(200);
    expect(before.headers.get('link')).toBeNull();
    await staff.passTotp();
    const after = await staff.agent.get(MEMBER_FILE);
    expect(after.status).toBe(200);
    expect(after.headers.get('link')).toBe(LINK);
    expect(after.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    // A path whose parameter is not a plain id names nothing, even to staff.
    expect((await staff.agent.get('/dashboard/member/a;b')).headers.get('link')).toBeNull();
  });

  it('names nothing once the session has ended, though the browser still sends its cookie', async () => {
    const kept = new Map(staff.agent.cookies);
    expect((await staff.agent.post('/api/v1/auth/signout', {})).status).toBeLessThan(400);
    for (const [name, value] of kept) staff.agent.cookies.set(name, value);
    const ended = await staff.agent.get(MEMBER_FILE);
    expect(ended.status).toBe(200);
    expect(ended.headers.get('link')).toBeNull();
  });

  it('names nothing to a staff account disabled since it passed its second factor, and signs it out', async () => {
    const colleague = await signInStaff(product);
    await colleague.passTotp();
    expect((await colleague.agent.get(MEMBER_FILE)).headers.get('link')).toBe(LINK);
    await product.database.db.update(members).set({ disabled: true }).where(eq(members.id, colleague.id));
    const disabled = await colleague.agent.get(MEMBER_FILE);
    // The page itself still loads (its guard then shows the sign-in page); no hint, no error.
    expect(disabled.status).toBe(200);
    expect(await disabled.text()).toContain('Fiche');
    expect(disabled.headers.get('link')).toBeNull();
    // Signed out like anywhere else a disabled account calls (decision 100): its cookies cleared.
    expect(colleague.agent.cookies.size).toBe(0);
  });
});
