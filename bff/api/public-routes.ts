import { readPayInFull } from '#bff/onboarding/plan-settings.ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { type Collection, collections, type ContentStore, loadContent, SLUG_PATTERN } from '#bff/content/content-store.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { clientAddress, LIMITS, type Limit } from '#bff/http/rate-limit.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { storeContactMessage, storeCookieChoice, storePreSubscription } from '#bff/leads/public-forms.ts';
import {
  INVITATION_INVALID_MESSAGE,
  InvitationSchema,
  invitationOf,
  newSignupToken,
  preRegistrationMail,
} from '#bff/members/signup-prefill.ts';
import type { Gender } from '#machines/auth/credentials.ts';
import { CONSENT_VERSION, ConsentProofSchema } from '#machines/public-site/consent.ts';
import { ContactSchema, PreSubscriptionSchema } from '#machines/public-site/public-forms.ts';
import { activePlans, fileFee, plans } from '#machines/onboarding/plans.ts';
import { consentTexts } from '#machines/privacy/consent-texts.ts';

/** Proofs of consent: a visitor changes their mind a few times at most. */
const CONSENT_LIMIT: Limit = { name: 'consent-ip', points: 30, durationSeconds: 10 * 60 };

/** Key of the `settings` row holding which pay-in-full plan is offered (`cash` or `cashback`). */

const queryHook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};

const CollectionSchema = v.picklist(collections, 'Collection inconnue (blog ou pages)');
const ContentQuery = v.object({
  collection: CollectionSchema,
  slug: v.optional(v.pipe(v.string(), v.maxLength(120, 'Identifiant invalide'), v.regex(SLUG_PATTERN, 'Identifiant invalide'))),
});
const NavigationQuery = v.object({ collection: CollectionSchema });
const InvitationQuery = v.object({ invitation: InvitationSchema });

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when the request carries the configured preview token (constant-time comparison). */
function hasPreviewToken(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header) return false;
  return timingSafeEqual(digest(header), digest(token));
}

const contactMailText = (input: v.InferOutput<typeof ContactSchema>, at: Date) =>
  [
    'Nouveau message reçu par le formulaire de contact du site.',
    '',
    `Nom : ${input.name}`,
    `E-mail : ${input.email}`,
    `Objet : ${input.subject}`,
    `Date : ${at.toISOString()}`,
    '',
    input.message,
    '',
    '—',
    `Répondez directement à ${input.email}.`,
  ].join('\n');

/**
 * The public site's API: pre-registration, offers, contact, the content API (blog and pages) and
 * the proof of cookie consent. Forms are validated with the schemas the SPA uses, rate limited
 * per address, and never answer 5xx on bad input.
 */
export function publicRoutes(deps: ApiDeps, content: ContentStore = loadContent()) {
  const ip = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, deps.config.trustProxy);

  return new Hono()
    .post('/subscription/pre-subscription', jsonBody(PreSubscriptionSchema), async (c) => {
      const input = c.req.valid('json');
      await deps.rateLimit(LIMITS.publicFormPerIp, ip(c));
      const now = deps.clock.now();
      // The sign-up link's token (decision 127): mailed to the visitor, only its hash is kept.
      const link = newSignupToken(now);
      const mail = preRegistrationMail({ siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency }, input.email, link.token);
      const rows = await storePreSubscription(deps.database.db, input, link, mail, now);
      deps.mailQueued();
      return c.json(
        rows.map((row) => ({ id: row.id })),
        201,
      );
    })
    .get('/subscription/invitation', vValidator('query', InvitationQuery, queryHook), async (c) => {
      // The sign-up page reads what its link stands for: the address and the gender, nothing else.
      const { invitation } = c.req.valid('query');
      await deps.rateLimit(LIMITS.publicFormPerIp, ip(c));
      const row = await invitationOf(deps.database.db, invitation, deps.clock.now());
      c.header('Cache-Control', 'private, no-store');
      if (!row) throw new ApiError(404, 'INVITATION_INVALID', INVITATION_INVALID_MESSAGE);
      return c.json({ email: row.email, gender: row.gender as Gender }, 200);
    })
    .get('/subscription/offers', async (c) => {
      const setting = await readPayInFull(deps.database.db);
      c.header('Cache-Control', 'no-cache');
      return c.json({ plans: activePlans(setting), allPlans: plans, fileFee, payInFull: setting }, 200);
    })
    .post('/contact', jsonBody(ContactSchema), async (c) => {
      const input = c.req.valid('json');
      await deps.rateLimit(LIMITS.publicFormPerIp, ip(c));
      const now = deps.clock.now();
      // Stored for the leads inbox (decision 112) and mailed to the agency, in one transaction.
      await storeContactMessage(
        deps.database.db,
        input,
        { to: deps.config.agencyEmail, subject: `[Contact] ${input.subject}`, text: contactMailText(input, now), kind: 'contact' },
        now,
      );
      deps.mailQueued();
      return c.json({ ok: true as const }, 201);
    })
    .post('/consent', jsonBody(ConsentProofSchema), async (c) => {
      const input = c.req.valid('json');
      await deps.rateLimit(CONSENT_LIMIT, ip(c));
      if (input.version !== consentTexts.cookies.current) {
        throw new ApiError(409, 'CONSENT_VERSION_OUTDATED', 'Le bandeau a changé : rechargez la page pour refaire votre choix.');
      }
      const now = deps.clock.now();
      // The choice in detail, and the consent record (version, text hash, date, anonymous id).
      const row = await storeCookieChoice(deps.database.db, input, now);
      if (!row) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
      return c.json({ id: row.id, createdAt: row.createdAt.toISOString() }, 201);
    })
    .get('/public-config', (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.json({ gtmId: deps.config.gtmId ?? null, consentVersion: CONSENT_VERSION, siteUrl: deps.config.publicSiteUrl }, 200);
    })
    .route('/', contentRoutes(deps.config.contentPreviewToken, content));
}

/**
 * The content API (blog articles and site pages as JSON). Drafts only with the preview token.
 * Also used in-process by the prerender (`scripts/prerender.ts`) to feed the blog pages.
 */
export function contentRoutes(previewToken: string | undefined, content: ContentStore = loadContent()) {
  return new Hono()
    .get('/content/query', vValidator('query', ContentQuery, queryHook), (c) => {
      const { collection, slug } = c.req.valid('query');
      const preview = hasPreviewToken(c.req.header('x-preview-token'), previewToken);
      c.header('Cache-Control', preview ? 'no-store' : 'public, max-age=300');
      c.header('Vary', 'x-preview-token');
      if (slug === undefined) return c.json({ collection, items: content.list(collection as Collection, preview) }, 200);
      const document = content.get(collection as Collection, slug, preview);
      if (!document) {
        throw new ApiError(404, 'NOT_FOUND', collection === 'blog' ? 'Article introuvable' : 'Page introuvable');
      }
      return c.json(document, 200);
    })
    .get('/content/navigation', vValidator('query', NavigationQuery, queryHook), (c) => {
      const { collection } = c.req.valid('query');
      const preview = hasPreviewToken(c.req.header('x-preview-token'), previewToken);
      c.header('Cache-Control', preview ? 'no-store' : 'public, max-age=300');
      c.header('Vary', 'x-preview-token');
      const items = content
        .list(collection as Collection, preview)
        .map(({ slug, path, title, date, draft }) => ({ slug, path, title, date, draft }));
      return c.json({ collection, items }, 200);
    });
}
