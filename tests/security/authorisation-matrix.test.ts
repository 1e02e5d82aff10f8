import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLER_NAMES,
  type CallerName,
  type Callers,
  calendlySignature,
  makeCallers,
  rawRequest,
  type SecurityProduct,
  signUpMember,
  startTestProduct,
  stripeSignature,
} from '#tests/security/support.ts';
import { endingCases, type Env, otherPhotoUrl, proposeDuringRenunciation, setUpPair, viewOf } from '#tests/support/ended-introductions.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { STAFF_ROUTE_POLICY } from '#bff/auth/staff-policy.ts';
import type { TestAgent } from '#tests/support/test-product.ts';

/**
 * Authorisation matrix: every endpoint of the product API (read from the Hono app's routes, so a
 * new endpoint missing here fails) × the six callers. "Passes" means the request reached the
 * handler's business logic: anything but 401/403 and the refusals listed in REFUSALS. Each row
 * says which callers are meant to pass; every other caller must be refused.
 */

type Access = 'public' | 'signed-in' | 'member-only' | 'staff-enrol' | 'member-or-staff-aal2' | 'staff-aal2' | 'signature-only';

const INTENDED: Record<Access, CallerName[]> = {
  public: [...CALLER_NAMES],
  // Any live session: members and staff (a disabled account is refused whatever its session).
  'signed-in': ['member', 'other member', 'staff aal1', 'staff aal2', 'counsellor'],
  'member-only': ['member', 'other member'],
  // Staff enrol their TOTP factor while at aal1: that is how they reach aal2.
  'staff-enrol': ['staff aal1', 'staff aal2', 'counsellor'],
  // The member's own record, or staff at aal2 acting for them (the counsellor: `member` is theirs).
  'member-or-staff-aal2': ['member', 'staff aal2', 'counsellor'],
  // The administration; the counsellor too where the roles' table opens the route to the whole team.
  'staff-aal2': ['staff aal2'],
  // A cookie never opens a webhook: only the provider's signature does (checked separately below).
  'signature-only': [],
};

interface Row {
  access: Access;
  /** Builds the request; `target` is the member whose data the row is about ("member"). */
  request: (c: { target: string; otherId: string }) => { body?: unknown; query?: string };
  /** Handler answers that are refusals although not 401/403 (e.g. staff asking a member's contract). */
  refusals?: string[];
  /** Extra check on a passing answer: the data returned is the caller's own. */
  ownData?: (body: Record<string, unknown>, callerId: string | null, caller: CallerName) => void;
}

const MATRIX: Record<string, Row> = {
  'GET /api/v1/health': { access: 'public', request: () => ({}) },
  // Readiness (decision 107): the database answers, or 503; nothing about anyone.
  'GET /api/v1/ready': { access: 'public', request: () => ({}) },
  // Who is signed in: everyone may ask, and only ever learns about their own session.
  'GET /api/v1/auth/session': {
    access: 'public',
    request: () => ({}),
    ownData: (body, id, caller) => expect((body.user as { id?: string } | null)?.id ?? null).toBe(caller === 'disabled member' ? null : id),
  },
  'POST /api/v1/auth/signin': { access: 'public', request: () => ({ body: { email: 'personne@example.fr', password: 'pas-le-bon-mot' } }) },
  'POST /api/v1/auth/pass-recovery': { access: 'public', request: () => ({ body: { ctx: 'reco', email: 'personne@example.fr' } }) },
  // The spec's sign-up endpoint (a new member creates their account): public despite its path.
  'POST /api/v1/dashboard/subscription': {
    access: 'public',
    request: () => ({ body: { context: 'init', email: 'pas-un-email', role: 'femme', password: 'x' } }),
  },
  // The registration's confirmation link (decision 187): opened signed out, on any device.
  'POST /api/v1/auth/confirmation': { access: 'public', request: () => ({ body: { tokenHash: 'ab'.repeat(28) } }) },
  'POST /api/v1/auth/confirmation/resend': { access: 'public', request: () => ({ body: { email: 'personne@example.fr' } }) },
  'POST /api/v1/subscription/pre-subscription': { access: 'public', request: () => ({ body: { gender: 'x' } }) },
  'GET /api/v1/subscription/offers': { access: 'public', request: () => ({}) },
  // The pre-registration's sign-up link (decision 127): an unknown token reads nothing (404).
  'GET /api/v1/subscription/invitation': { access: 'public', request: () => ({ query: `invitation=${'A'.repeat(43)}` }) },
  'POST /api/v1/contact': { access: 'public', request: () => ({ body: {} }) },
  'POST /api/v1/consent': { access: 'public', request: () => ({ body: {} }) },
  'GET /api/v1/public-config': { access: 'public', request: () => ({}) },
  'GET /api/v1/content/query': { access: 'public', request: () => ({ query: 'collection=blog' }) },
  'GET /api/v1/content/navigation': { access: 'public', request: () => ({ query: 'collection=blog' }) },
  'GET /api/v1/user/settings': {
    access: 'signed-in',
    request: () => ({}),
    ownData: (body, id) => expect(body.id).toBe(id),
  },
  'GET /api/v1/auth/mfa': { access: 'signed-in', request: () => ({}) },
  'POST /api/v1/auth/mfa/enroll': { access: 'staff-enrol', request: () => ({ body: {} }) },
  'POST /api/v1/auth/mfa/verify': {
    access: 'signed-in',
    request: () => ({ body: { factorId: '00000000-0000-4000-8000-000000000000', code: '123456' } }),
  },
  // An event naming the member: they and staff aal2 may send it; another member may not.
  'POST /api/v1/user/update': {
    access: 'member-or-staff-aal2',
    request: ({ target }) => ({ body: { context: 'onb_meet_resa', status: true, uid: target } }),
  },
  'GET /api/v1/user/payment-link': { access: 'member-only', request: () => ({ query: 'offer=file_fee' }) },
  'GET /api/v1/user/booking-link': { access: 'member-only', request: () => ({}) },
  'GET /api/v1/user/booking': { access: 'signed-in', request: () => ({}) },
  'GET /api/v1/user/contract.pdf': { access: 'member-only', request: () => ({}), refusals: ['CONTRACT_NOT_FOUND'] },
  'GET /api/v1/user/contract/signed.pdf': { access: 'member-only', request: () => ({}) },
  // The contract read, then signed by a one-time code (decision 109): the member's own only.
  'GET /api/v1/user/contract': { access: 'member-only', request: () => ({}), refusals: ['CONTRACT_NOT_FOUND'] },
  'GET /api/v1/user/contract-preview.pdf': { access: 'member-only', request: () => ({}), refusals: ['CONTRACT_NOT_FOUND'] },
  'POST /api/v1/user/contract/signature-code': { access: 'member-only', request: () => ({ body: {} }), refusals: ['CONTRACT_NOT_FOUND'] },
  'POST /api/v1/user/contract/sign': {
    access: 'member-only',
    request: () => ({ body: { code: '123456' } }),
    refusals: ['CONTRACT_NOT_FOUND'],
  },
  // Invoices (decision 110): the member's own only; staff read them from the dashboard (404 here).
  // `:file` stays literal: a member passes the guard and gets the handler's 400.
  'GET /api/v1/user/invoices': { access: 'member-only', request: () => ({}), refusals: ['INVOICE_NOT_FOUND'] },
  'GET /api/v1/user/invoices/:file': { access: 'member-only', request: () => ({}), refusals: ['INVOICE_NOT_FOUND'] },
  // Credit notes (decision 119): the member's own; staff read them on the member page.
  'GET /api/v1/user/credit-notes': { access: 'member-only', request: () => ({}), refusals: ['CREDIT_NOTE_NOT_FOUND'] },
  'GET /api/v1/user/credit-notes/:file': { access: 'member-only', request: () => ({}), refusals: ['CREDIT_NOTE_NOT_FOUND'] },
  'GET /api/v1/user/messages': { access: 'signed-in', request: () => ({}) },
  'GET /api/v1/user/consents': { access: 'member-only', request: () => ({}) },
  // A valid body (validation may run before the guard): a consent that cannot be withdrawn → 409.
  'POST /api/v1/user/consents/withdraw': { access: 'member-only', request: () => ({ body: { kind: 'contract_terms' } }) },
  'GET /api/v1/user/export': {
    access: 'member-only',
    request: () => ({}),
    ownData: (body, id) => expect(JSON.stringify(body)).toContain(id as string),
  },
  // A wrong confirmation address: refused by the handler before anything is erased.
  'POST /api/v1/user/erase': { access: 'member-only', request: () => ({ body: { email: 'pas-moi@example.fr' } }) },
  // Mon profil (decision 102): a wrong current password is the handler's refusal, after the guard.
  'GET /api/v1/user/email': { access: 'member-only', request: () => ({}) },
  'POST /api/v1/user/email': {
    access: 'member-only',
    request: () => ({ body: { newEmail: 'ailleurs@example.fr', currentPassword: 'pas-le-bon' } }),
  },
  'POST /api/v1/user/password': {
    access: 'member-only',
    request: () => ({
      body: { currentPassword: 'pas-le-bon', newPassword: 'nouveau-jardin-2026', newPasswordRepeat: 'nouveau-jardin-2026' },
    }),
  },
  // The link of the confirmation mail may be opened signed out, on another device.
  'POST /api/v1/user/email/confirm': { access: 'public', request: () => ({ body: { tokenHash: 'ab'.repeat(28) } }) },
  'GET /api/v1/dashboard/funnel': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/members': { access: 'staff-aal2', request: () => ({}) },
  // The list's CSV and its bulk actions (decision 210): a tag on the member (the counsellor's own in the matrix).
  'GET /api/v1/dashboard/member-list/export': { access: 'staff-aal2', request: () => ({ query: 'gender=femme' }) },
  'POST /api/v1/dashboard/member-list/bulk': {
    access: 'staff-aal2',
    request: ({ target }) => ({ body: { action: 'etiquette', ids: [target], tag: 'Matrice' } }),
  },
  'GET /api/v1/dashboard/members/:id': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/members/:id/contract.pdf': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/members/:id/invoices': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/members/:id/invoices/:file': { access: 'staff-aal2', request: () => ({}) },
  // Billing (decision 120): the member's own schedule; one member's billing and the agency's, with its CSV, for staff at aal2.
  'GET /api/v1/user/instalments': { access: 'member-only', request: () => ({}), refusals: ['NOT_A_MEMBER'] },
  'GET /api/v1/dashboard/members/:id/billing': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/billing': { access: 'staff-aal2', request: () => ({ query: 'status=echouee' }) },
  'GET /api/v1/dashboard/billing/export': { access: 'staff-aal2', request: () => ({ query: 'kind=instalment' }) },
  'GET /api/v1/dashboard/members/:id/credit-notes': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/members/:id/credit-notes/:file': { access: 'staff-aal2', request: () => ({}) },
  // Who on the staff read this member's file (decision 107): staff at aal2 only.
  'GET /api/v1/dashboard/members/:id/access-log': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/members/:id/messages': { access: 'staff-aal2', request: () => ({ body: { subject: 42 } }) },
  'GET /api/v1/dashboard/messages': { access: 'staff-aal2', request: () => ({}) },
  // Two-way messages, unread counts, recipient search and templates (decision 121). A member writes,
  // counts and marks read only their own conversation (the id comes from the session); staff mark
  // read only what members wrote. Template `:id` is a member's uuid: past the guard the handler answers 400.
  'POST /api/v1/user/messages': { access: 'member-only', request: () => ({ body: { body: '   ' } }) },
  'GET /api/v1/user/messages/unread': {
    access: 'member-only',
    request: () => ({}),
    ownData: (body) => expect(body).toEqual({ unread: 0 }),
  },
  'POST /api/v1/user/messages/read': { access: 'member-only', request: () => ({ body: {} }) },
  'GET /api/v1/dashboard/messages/unread': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/members/:id/messages/read': { access: 'staff-aal2', request: () => ({ body: {} }) },
  'GET /api/v1/dashboard/member-search': { access: 'staff-aal2', request: () => ({ query: 'q=exemple' }) },
  'GET /api/v1/dashboard/message-templates': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/message-templates': { access: 'staff-aal2', request: () => ({ body: { title: 'Essai', body: '{inconnu}' } }) },
  'PUT /api/v1/dashboard/message-templates/:id': { access: 'staff-aal2', request: () => ({ body: { title: 'Essai', body: 'Bonjour' } }) },
  'DELETE /api/v1/dashboard/message-templates/:id': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/message-templates/:id/fill': { access: 'staff-aal2', request: ({ target }) => ({ query: `memberId=${target}` }) },
  'GET /api/v1/dashboard/settings/plans': { access: 'staff-aal2', request: () => ({}) },
  'PUT /api/v1/dashboard/settings/plans': { access: 'staff-aal2', request: () => ({ body: { payInFull: 'neither' } }) },
  // Codes for the file fee (decision 195): bodies that write nothing once past the guard.
  'GET /api/v1/dashboard/coupons': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/coupons': { access: 'staff-aal2', request: () => ({ body: { code: '' } }) },
  'PATCH /api/v1/dashboard/coupons/:id': { access: 'staff-aal2', request: () => ({ body: { active: 'oui' } }) },
  // The team (decision 103). `:id` is a member's: past the guard the handler answers 404 (not staff), resetting nothing.
  'GET /api/v1/dashboard/staff': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/staff/:id/reset-mfa': { access: 'staff-aal2', request: () => ({ body: {} }) },
  // Disabling / re-enabling a colleague (decision 124): past the guard a member's id is 404, changing nothing.
  'POST /api/v1/dashboard/staff/:id/disable': { access: 'staff-aal2', request: () => ({ body: {} }) },
  'POST /api/v1/dashboard/staff/:id/enable': { access: 'staff-aal2', request: () => ({ body: {} }) },
  // Roles (decision 206): the administration changes them; its journal of every staff read.
  'PUT /api/v1/dashboard/staff/:id/role': { access: 'staff-aal2', request: () => ({ body: { role: 'chef' } }) },
  'GET /api/v1/dashboard/access-journal': { access: 'staff-aal2', request: () => ({ query: 'du=2026-01-01' }) },
  'GET /api/v1/dashboard/access-journal/export': { access: 'staff-aal2', request: () => ({ query: 'quoi=member_file' }) },
  // Inviting colleagues (decision 126). `:id` is a member's, not an invitation's: past the guard 404, changing nothing.
  'GET /api/v1/dashboard/staff-invitations': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/staff-invitations': {
    access: 'staff-aal2',
    request: () => ({ body: { email: 'matrice.invitation@agence.example.fr', name: 'Matrice' } }),
  },
  'POST /api/v1/dashboard/staff-invitations/:id/resend': { access: 'staff-aal2', request: () => ({ body: {} }) },
  'POST /api/v1/dashboard/staff-invitations/:id/revoke': { access: 'staff-aal2', request: () => ({ body: {} }) },
  // The invited colleague is not signed in: the link's secret is the only key (an unknown one is 400).
  'POST /api/v1/staff-invitation/check': { access: 'public', request: () => ({ body: { token: 'A'.repeat(43) } }) },
  'POST /api/v1/staff-invitation/accept': {
    access: 'public',
    request: () => ({ body: { token: 'A'.repeat(43), password: 'matrice-solide-2026', passwordRepeat: 'matrice-solide-2026' } }),
  },
  // The leads inbox (decision 112). `:id` is a member's, not a lead's: past the guard the handler answers 404 (or 400), changing nothing.
  'GET /api/v1/dashboard/leads': { access: 'staff-aal2', request: () => ({ query: 'status=nouveau' }) },
  'GET /api/v1/dashboard/leads-funnel': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/leads/:id/history': { access: 'staff-aal2', request: () => ({}) },
  'PATCH /api/v1/dashboard/leads/:id': { access: 'staff-aal2', request: () => ({ body: { status: 'contacte' } }) },
  'POST /api/v1/dashboard/leads/:id/notes': { access: 'staff-aal2', request: () => ({ body: { body: 'Une note.' } }) },
  'POST /api/v1/dashboard/leads/:id/answers/preview': {
    access: 'staff-aal2',
    request: () => ({ body: { subject: 'Votre message', body: 'Bonjour {prenom}.' } }),
  },
  'POST /api/v1/dashboard/leads/:id/answers': {
    access: 'staff-aal2',
    request: () => ({ body: { subject: 'Votre message', body: 'Bonjour.' } }),
  },
  'POST /api/v1/dashboard/leads/:id/erase': { access: 'staff-aal2', request: () => ({}) },
  // A member's follow-up by staff (decision 124): notes, counsellor, tags. `:noteId` and `:tag` stay
  // literal: past the guard the handler answers 400, changing nothing.
  'GET /api/v1/dashboard/tags': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/members/:id/follow-up': { access: 'staff-aal2', request: () => ({}) },
  // The file's header and its introductions (issue 63 point 2, decision 209).
  'GET /api/v1/dashboard/members/:id/summary': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/members/:id/introductions': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/members/:id/notes': { access: 'staff-aal2', request: () => ({ body: { body: '' } }) },
  'PATCH /api/v1/dashboard/members/:id/notes/:noteId': { access: 'staff-aal2', request: () => ({ body: { body: 'Modifiée.' } }) },
  'DELETE /api/v1/dashboard/members/:id/notes/:noteId': { access: 'staff-aal2', request: () => ({}) },
  'PUT /api/v1/dashboard/members/:id/counsellor': { access: 'staff-aal2', request: () => ({ body: { counsellorId: 'personne' } }) },
  'POST /api/v1/dashboard/members/:id/tags': { access: 'staff-aal2', request: () => ({ body: { tag: '' } }) },
  'DELETE /api/v1/dashboard/members/:id/tags/:tag': { access: 'staff-aal2', request: () => ({}) },
  // Introductions (issue 22, decision 114). `:id` is a member's, not an introduction's: past the guard
  // the handler answers 404 (or 409 for a proposal of two members who are not active), changing nothing.
  'GET /api/v1/user/introductions': {
    access: 'member-only',
    request: () => ({}),
    ownData: (body) => expect(body.introductions).toEqual([]),
  },
  'POST /api/v1/user/introductions/:id/events': { access: 'member-only', request: () => ({ body: { type: 'ACCEPT' } }) },
  // Decision 196: the member's own choice of contact for one introduction of theirs; `:id` stays literal past the guard (404).
  'PUT /api/v1/user/introductions/:id/contact': { access: 'member-only', request: () => ({ body: { via: 'moi' } }) },
  'GET /api/v1/dashboard/members/:id/candidates': { access: 'staff-aal2', request: () => ({ query: 'limit=5' }) },
  'GET /api/v1/dashboard/introductions': { access: 'staff-aal2', request: () => ({ query: 'etat=toutes' }) },
  'POST /api/v1/dashboard/introductions': { access: 'staff-aal2', request: ({ target, otherId }) => ({ body: { a: target, b: otherId } }) },
  'GET /api/v1/dashboard/introductions/:id': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/introductions/:id/events': {
    access: 'staff-aal2',
    request: () => ({ body: { type: 'CLOSE', note: 'Une note.' } }),
  },
  // Decision 205: a member's feedback heard by phone, recorded by staff; `:id` stays literal past the guard (404).
  'POST /api/v1/dashboard/introductions/:id/feedback': {
    access: 'staff-aal2',
    request: () => ({ body: { side: 'a', outcome: 'continuer' } }),
  },
  // Photos (decision 116). A member's own only (`:id` is a member's, not a photo's: 404 past the
  // guard); another's only through a mutually accepted introduction (literal `:introId`: 400).
  'GET /api/v1/user/photos': {
    access: 'member-only',
    request: () => ({}),
    ownData: (body) => expect(body.photos).toEqual([]),
  },
  'POST /api/v1/user/photos': { access: 'member-only', request: () => ({ body: {} }) },
  'GET /api/v1/user/photos/:id': { access: 'member-only', request: () => ({}) },
  'DELETE /api/v1/user/photos/:id': { access: 'member-only', request: () => ({}) },
  'GET /api/v1/user/introductions/:introId/photos/:photoId': { access: 'member-only', request: () => ({}) },
  'GET /api/v1/dashboard/members/:id/photos': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/members/:id/photos/:photoId': { access: 'staff-aal2', request: () => ({}) },
  // Termination requests and their proof (decision 189). The member's own only, keyed by the session;
  // a JSON body past the guard is refused (415: a form is expected) and a member's uuid as `:id` is
  // not a request's (400), changing nothing. Staff record a letter and open a proof, each read logged;
  // `:terminationId` stays literal past the guard (400).
  'POST /api/v1/user/terminations': { access: 'member-only', request: () => ({ body: {} }) },
  'GET /api/v1/user/terminations': {
    access: 'member-only',
    request: () => ({}),
    ownData: (body) => expect(body.terminations).toEqual([]),
  },
  'POST /api/v1/user/terminations/:id/proof': { access: 'member-only', request: () => ({ body: {} }) },
  'GET /api/v1/user/terminations/:id/proof': { access: 'member-only', request: () => ({}) },
  'POST /api/v1/dashboard/members/:id/terminations': { access: 'staff-aal2', request: () => ({ body: {} }) },
  'GET /api/v1/dashboard/members/:id/terminations/:terminationId/proof': { access: 'staff-aal2', request: () => ({}) },
  // The staff agenda (decision 122): every member's meetings, staff only.
  'GET /api/v1/dashboard/agenda': { access: 'staff-aal2', request: () => ({ query: 'du=2026-11-23&au=2026-11-29' }) },
  // « Aujourd’hui » (issue 63, decision 203): what needs a person today, mine or the agency's.
  'GET /api/v1/dashboard/today': { access: 'staff-aal2', request: () => ({ query: 'scope=agency' }) },
  // The member's guardian and « Mon accompagnement » (decision 117): the caller's own only, keyed by the session.
  'GET /api/v1/user/guardian': {
    access: 'member-only',
    request: () => ({}),
    ownData: (body) => expect(Object.keys(body)).toEqual(['guardian']),
  },
  'PUT /api/v1/user/guardian': {
    access: 'member-only',
    request: () => ({ body: { name: 'Ahmed', relation: 'pere', phone: '0612345678', receives: 'rien', informed: true } }),
  },
  'DELETE /api/v1/user/guardian': { access: 'member-only', request: () => ({}) },
  'GET /api/v1/user/progress': {
    access: 'member-only',
    request: () => ({}),
    ownData: (body) => expect(body.introductions).toEqual([]),
  },
  // « Mon profil » (decision 123): the caller's own answers only, keyed by the session; past the guard
  // a fresh member has no step done (409) or sends an incomplete section (400), changing nothing.
  'GET /api/v1/user/answers': {
    access: 'member-only',
    request: () => ({}),
    ownData: (body) => expect(body.changeRequests).toEqual([]),
  },
  // Step 1's pre-fill (decision 127): the caller's own linked pre-registration, none here.
  'GET /api/v1/user/prefill': { access: 'member-only', request: () => ({}), ownData: (body) => expect(body.profile).toBeNull() },
  'PUT /api/v1/user/answers': { access: 'member-only', request: () => ({ body: { section: 'profil', city: 'Lyon' } }) },
  'POST /api/v1/user/change-requests': { access: 'member-only', request: () => ({ body: { section: 'questionnaire' } }) },
  'GET /api/v1/dashboard/members/:id/change-requests': { access: 'staff-aal2', request: () => ({}) },
  // `:requestId` is literal past the guard: 404, nothing decided.
  'POST /api/v1/dashboard/change-requests/:requestId': { access: 'staff-aal2', request: () => ({ body: { decision: 'decline' } }) },
  // The presentation (decision 128): the caller's own only; staff read a member's, logged.
  'GET /api/v1/user/presentation': {
    access: 'member-only',
    request: () => ({}),
    ownData: (body) => expect(body.presentation).toBeNull(),
  },
  'PUT /api/v1/user/presentation': { access: 'member-only', request: () => ({ body: { presentation: 'Mon numéro : 06 12 34 56 78' } }) },
  'GET /api/v1/dashboard/members/:id/presentation': { access: 'staff-aal2', request: () => ({}) },
  // The review of presentations (decision 200): staff at aal2 only, the queue and the decision.
  'GET /api/v1/dashboard/presentations': { access: 'staff-aal2', request: () => ({}) },
  // Staff's candidate lists (decision 201): the shortlist and the pairs never to propose, staff at aal2 only.
  'GET /api/v1/dashboard/members/:id/shortlist': { access: 'staff-aal2', request: () => ({}) },
  'PUT /api/v1/dashboard/members/:id/shortlist/:otherId': { access: 'staff-aal2', request: () => ({}) },
  'DELETE /api/v1/dashboard/members/:id/shortlist/:otherId': { access: 'staff-aal2', request: () => ({}) },
  'GET /api/v1/dashboard/members/:id/never-propose': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/members/:id/never-propose': {
    access: 'staff-aal2',
    request: ({ otherId }) => ({ body: { otherId, reason: 'Cousins germains.' } }),
  },
  'DELETE /api/v1/dashboard/members/:id/never-propose/:otherId': { access: 'staff-aal2', request: () => ({}) },
  'POST /api/v1/dashboard/members/:id/presentation/review': {
    access: 'staff-aal2',
    request: () => ({ body: { decision: 'approuver', updatedAt: '2026-12-07T10:00:00.000Z' } }),
  },
  // Staff re-enable an enabled member: a no-op that only staff aal2 may perform.
  'POST /api/v1/auth/ban': { access: 'staff-aal2', request: ({ otherId }) => ({ body: { disable: false, uid: otherId } }) },
  'POST /api/v1/webhooks/stripe': {
    access: 'signature-only',
    request: () => ({ body: { id: 'evt_1', type: 'checkout.session.completed' } }),
    refusals: ['INVALID_SIGNATURE'],
  },
  'POST /api/v1/webhooks/calendly': {
    access: 'signature-only',
    request: () => ({ body: { event: 'invitee.created', payload: {} } }),
    refusals: ['INVALID_SIGNATURE'],
  },
  // A page with a button: it signs no one out.
  'GET /api/v1/auth/signout': { access: 'public', request: () => ({}) },
  // Last: it ends every caller's session.
  'POST /api/v1/auth/signout': { access: 'public', request: () => ({ body: {} }) },
};

/** Routes outside the product API, and who guards them (checked below or by their own suites). */
const OTHER_ROUTES: [RegExp, string][] = [
  [/^\/auth\/v1\/admin(\/|$)/, 'embedded auth admin API: service-role key only'],
  [/^\/auth\/v1\//, 'embedded auth service (Supabase Auth API, apikey + user JWT)'],
  [/^\/_local\/clock$/, 'the agency’s movable clock: outside production only, writes with the site’s Origin (agency-clock tests)'],
  [/^\/_local\//, 'embedded stand-ins (mailbox, checkout, booking): only without hosted services'],
  [/^\/_image|^\/_vercel\/image/, 'image endpoint: public, local sources only'],
  [/^\/api\/\*$|^\/\*$/, 'fallbacks'],
];

/**
 * The embedded auth service's routes (besides /admin, checked below): `key` ones take the anon key
 * (sign-in, recovery, links, discovery), `user` ones a user's access token. A new route must be
 * added here, or the matrix fails.
 */
const AUTH_ROUTES: Record<string, 'key' | 'user'> = {
  'GET /.well-known/jwks.json': 'key',
  'GET /settings': 'key',
  'GET /health': 'key',
  'POST /signup': 'key',
  'POST /token': 'key',
  'POST /recover': 'key',
  'POST /verify': 'key',
  'POST /resend': 'key',
  'GET /verify': 'key',
  'GET /user': 'user',
  'PUT /user': 'user',
  'POST /logout': 'user',
  'GET /reauthenticate': 'user',
  'POST /factors': 'user',
  'POST /factors/:id/challenge': 'user',
  'POST /factors/:id/verify': 'user',
  'DELETE /factors/:id': 'user',
};

/** The access token inside an agent's @supabase/ssr session cookie (possibly chunked, base64-). */
function accessTokenOf(cookies: Map<string, string>): string {
  const names = [...cookies.keys()].filter((name) => /^sb-.*-auth-token(\.\d+)?$/.test(name)).sort();
  const raw = names.map((name) => cookies.get(name) ?? '').join('');
  const json = raw.startsWith('base64-') ? Buffer.from(raw.slice(7), 'base64url').toString() : decodeURIComponent(raw);
  return (JSON.parse(json) as { access_token: string }).access_token;
}

let product: SecurityProduct;
let callers: Callers;
beforeAll(async () => {
  product = await startTestProduct();
  callers = await makeCallers(product);
});
afterAll(() => product.stop());

/** Who may pass a row: its access, and for staff routes the roles' table (decision 206). */
function intended(key: string, row: Row): CallerName[] {
  const callers = INTENDED[row.access];
  return row.access === 'staff-aal2' && STAFF_ROUTE_POLICY[key]?.who === 'equipe' ? [...callers, 'counsellor'] : callers;
}

function apiRoutes(): string[] {
  const keys = new Set<string>();
  for (const route of product.app.routes) {
    if (route.method === 'ALL') continue;
    keys.add(`${route.method} ${route.path}`);
  }
  return [...keys].filter((k) => k.split(' ')[1]?.startsWith('/api/v1/'));
}

async function answer(caller: CallerName, key: string, row: Row) {
  const [method, path] = key.split(' ') as [string, string];
  const { body, query } = row.request({ target: callers.ids.member as string, otherId: callers.ids['other member'] as string });
  const agent = callers.agents[caller];
  const concrete = path.replace(':id', callers.ids.member as string);
  const url = query ? `${concrete}?${query}` : concrete;
  const response = await agent.request(method, url, body);
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // PDF or empty body
  }
  return { status: response.status, json };
}

const refused = (row: Row, status: number, json: Record<string, unknown>) =>
  status === 401 || status === 403 || (row.refusals ?? []).includes(String((json.error as { code?: unknown } | undefined)?.code));

describe('authorisation matrix', () => {
  it('covers every /api/v1 endpoint of the app, and nothing else', () => {
    const routes = apiRoutes().sort();
    const missing = routes.filter((r) => !(r in MATRIX));
    const stale = Object.keys(MATRIX).filter((r) => !routes.includes(r));
    expect(missing, 'endpoints without a row in the authorisation matrix').toEqual([]);
    expect(stale, 'matrix rows for endpoints that no longer exist').toEqual([]);
  });

  it('classifies every other route of the app', () => {
    const unclassified = [...new Set(product.app.routes.map((r) => r.path))]
      .filter((p) => !p.startsWith('/api/v1/'))
      .filter((p) => !OTHER_ROUTES.some(([pattern]) => pattern.test(p)));
    expect(unclassified).toEqual([]);
  });

  // Guard first (decisions 060, 154). Before the rows: the last row signs every caller out.: a caller who may not use a route learns 401, never what its body lacks.
  it('every route closed to anonymous callers answers 401 before it reads the body, whatever the body', async () => {
    const answers: Record<string, number> = {};
    for (const [key, row] of Object.entries(MATRIX)) {
      const [method, path] = key.split(' ') as [string, string];
      if (method === 'GET' || row.access === 'public' || row.access === 'signature-only') continue;
      const url = path.replace(':id', callers.ids.member as string).replace(/:\w+/g, 'x');
      for (const [label, body] of [
        ['{}', {}],
        ['broken JSON', '{"'],
        ['a list', []],
      ] as const) {
        answers[`${key} with ${label}`] = (await callers.agents.anonymous.request(method, url, body)).status;
      }
    }
    expect(Object.keys(answers).length).toBeGreaterThan(60);
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((k) => [k, 401])));
  });

  it('a body that is not JSON is refused in French on every route that reads one, by a caller who may use it', async () => {
    const answers: Record<string, string> = {};
    for (const [key, row] of Object.entries(MATRIX)) {
      const [method, path] = key.split(' ') as [string, string];
      const { body } = row.request({ target: callers.ids.member as string, otherId: callers.ids['other member'] as string });
      // An empty body marks a route that reads none (or, for photos, a file: tested in its own suite).
      if (body === undefined || JSON.stringify(body) === '{}' || row.access === 'signature-only') continue;
      const agent = callers.agents[INTENDED[row.access][0] as CallerName];
      const url = path
        .replace(':id', callers.ids.member as string)
        .replace(/:(\w+)/g, (_, name: string) =>
          name === 'requestId' || name === 'noteId' ? '1' : '00000000-0000-4000-8000-000000000000',
        );
      const broken = await agent.request(method, url, '{"');
      const plain = await agent.request(method, url, JSON.stringify(body), { 'content-type': 'text/plain' });
      const code = async (r: Response) => ((await r.json()) as { error?: { code?: string } }).error?.code;
      answers[key] = `${broken.status} ${await code(broken)}, ${plain.status} ${await code(plain)}`;
    }
    expect(Object.keys(answers).length).toBeGreaterThanOrEqual(35);
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((k) => [k, '400 INVALID_JSON, 415 UNSUPPORTED_MEDIA_TYPE'])));
  });

  for (const [key, row] of Object.entries(MATRIX)) {
    it(`${key}: only ${row.access} callers pass`, async () => {
      const outcome: Record<string, string> = {};
      const expected: Record<string, string> = {};
      for (const caller of CALLER_NAMES) {
        const { status, json } = await answer(caller, key, row);
        expect(status, `${caller}: ${JSON.stringify(json)}`).toBeLessThan(500);
        const passed = !refused(row, status, json);
        outcome[caller] = passed ? `pass (${status})` : `refused (${status})`;
        expected[caller] = intended(key, row).includes(caller) ? `pass (${status})` : `refused (${status})`;
        if (passed && row.ownData && status === 200) row.ownData(json, callers.ids[caller], caller);
      }
      expect(outcome).toEqual(expected);
    });
  }

  it('webhooks pass with the provider’s signature only', async () => {
    const stripeBody = JSON.stringify({
      id: 'evt_matrix_1',
      object: 'event',
      type: 'customer.created',
      livemode: false,
      created: 0,
      data: { object: {} },
    });
    const forged = await rawRequest(product, 'POST', '/api/v1/webhooks/stripe', {
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: stripeBody,
    });
    expect(forged.status).toBe(400);
    const signed = await rawRequest(product, 'POST', '/api/v1/webhooks/stripe', {
      headers: { 'content-type': 'application/json', 'stripe-signature': await stripeSignature(product, stripeBody) },
      body: stripeBody,
    });
    expect(signed.status).toBe(200);

    const calendlyBody = JSON.stringify({ event: 'routing_form_submission.created', payload: {} });
    const forgedC = await rawRequest(product, 'POST', '/api/v1/webhooks/calendly', {
      headers: {
        'content-type': 'application/json',
        'calendly-webhook-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body: calendlyBody,
    });
    expect(forgedC.status).toBe(400);
    const signedC = await rawRequest(product, 'POST', '/api/v1/webhooks/calendly', {
      headers: { 'content-type': 'application/json', 'calendly-webhook-signature': await calendlySignature(product, calendlyBody) },
      body: calendlyBody,
    });
    expect(signedC.status).toBe(200);
  });

  it('every /auth/v1 route is classified, user routes refuse the anon key and forged tokens, none answers 5xx', async () => {
    const routes = [
      ...new Set(
        product.app.routes
          .filter((r) => r.method !== 'ALL' && r.path.startsWith('/auth/v1/') && !r.path.startsWith('/auth/v1/admin/'))
          .map((r) => `${r.method} ${r.path.replace(/^\/auth\/v1/, '')}`),
      ),
    ].sort();
    const unclassified = routes.filter((key) => !(key in AUTH_ROUTES));
    expect(unclassified, 'embedded auth routes without a row in AUTH_ROUTES').toEqual([]);
    // A member of its own: the matrix rows above signed the usual ones out.
    const memberToken = accessTokenOf((await signUpMember(product)).agent.cookies);
    const anonKey = product.auth.anonKey;
    const forged = [
      'forged.token.value',
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(`{"sub":"${callers.ids.member}","role":"authenticated"}`).toString('base64url')}.`,
      memberToken.replace(/\.[^.]*$/, '.AAAA'),
    ];
    for (const key of routes) {
      const [method, path] = key.split(' ') as [string, string];
      const url = `/auth/v1${path.replace(':id', '00000000-0000-4000-8000-000000000000')}`;
      const send = (authorization: string | undefined) =>
        rawRequest(product, method, url, {
          headers: { apikey: anonKey, 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
        });
      const tries: [string, string | undefined][] = [
        ['no token', undefined],
        ['anon key', `Bearer ${anonKey}`],
        ...forged.map((token, i): [string, string] => [`forged ${i}`, `Bearer ${token}`]),
      ];
      for (const [label, authorization] of tries) {
        const response = await send(authorization);
        expect(response.status, `${key} with ${label}`).toBeLessThan(500);
        if (AUTH_ROUTES[key] === 'user') expect([401, 403], `${key} with ${label}`).toContain(response.status);
      }
      // (Signing out with it would end the session the other rows use.)
      if (AUTH_ROUTES[key] === 'user' && key !== 'POST /logout') {
        // The member's own token gets past authentication (what the route then says is its business).
        const own = await send(`Bearer ${memberToken}`);
        expect([401, 403], `${key} with the member's token: ${await own.clone().text()}`).not.toContain(own.status);
        expect(own.status, `${key} with the member's token`).toBeLessThan(500);
      }
    }
  });

  it('the embedded auth admin API refuses anything but the service-role key', async () => {
    const adminRoutes = [
      ...new Set(
        product.app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/auth/v1/admin/')).map((r) => `${r.method} ${r.path}`),
      ),
    ];
    expect(adminRoutes.length).toBeGreaterThan(0);
    const anonKey = product.auth.anonKey;
    for (const key of adminRoutes) {
      const [method, path] = key.split(' ') as [string, string];
      const url = path.replace(':id', callers.ids.member as string);
      const attempts: Record<string, string>[] = [
        {},
        { apikey: anonKey, authorization: `Bearer ${anonKey}` },
        { apikey: anonKey, authorization: 'Bearer forged.token.value' },
      ];
      for (const headers of attempts) {
        const response = await rawRequest(product, method, url, {
          headers: { ...headers, 'content-type': 'application/json' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
        });
        expect([401, 403], `${key} with ${JSON.stringify(Object.keys(headers))}`).toContain(response.status);
      }
    }
  });
});

/**
 * An introduction that ended (issue 62 point 3, decision 194): one row per cause. Two members of a
 * mutually accepted introduction (photos released, contact shared; one acceptance for a decline or
 * an expiry), the cause applied through the API or the agency's clock; then each side's photo, at
 * the URL the other side was given, is refused to every caller — the two former sides (404), a
 * third member, staff and the matrix's callers (401/403/404) — and neither side's introductions hold
 * the other's contact. After the main matrix: its last rows signed its callers out, and the clock
 * moves here must not run under its rows.
 */
describe('an ended introduction: each side’s photo and contact, one row per cause', () => {
  let env: Env;
  let third: Awaited<ReturnType<typeof setUpPair>>['a'];
  beforeAll(async () => {
    const staff = await signInStaff(product);
    await staff.passTotp();
    env = { product, staff: staff.agent };
    // A member of a pair of their own, signed in: a third party to every pair below.
    third = (await setUpPair(env, { mutual: false })).a;
  }, 120_000);

  for (const c of endingCases) {
    it(`${c.name}: nobody reads a photo, nobody has the contact`, async () => {
      const pair = await setUpPair(env, c);
      await c.apply(env, pair);
      await c.after?.(env, pair);
      const agents: [string, TestAgent][] = [
        ...CALLER_NAMES.map((name): [string, TestAgent] => [name, callers.agents[name]]),
        ['a third member', third.agent],
        ['staff of this pair', env.staff],
        ['side a', pair.a.agent],
        ['side b', pair.b.agent],
      ];
      const outcome: Record<string, string> = {};
      for (const viewer of ['a', 'b'] as const) {
        const url = otherPhotoUrl(pair, viewer);
        for (const [name, agent] of agents) {
          const { status } = await agent.get(url);
          expect(status, `${name} on ${viewer === 'a' ? 'b' : 'a'}’s photo`).toBeLessThan(500);
          outcome[`${name} → photo of ${viewer === 'a' ? 'b' : 'a'}`] = status === 200 ? 'pass' : 'refused';
        }
      }
      expect(outcome).toEqual(Object.fromEntries(Object.keys(outcome).map((k) => [k, 'refused'])));
      expect((await viewOf(pair.a, pair.introductionId))?.contact).toBeNull();
      if (c.gone !== 'b') expect((await viewOf(pair.b, pair.introductionId))?.contact).toBeNull();
    }, 120_000);
  }

  it('contrat renoncé: no row needed, since nobody in the renunciation period can be proposed (decision 212)', async () => {
    const refused = await proposeDuringRenunciation(env);
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INTRODUCTION_REFUSED');
    expect(body.error.message).toContain('l’accompagnement n’a pas encore commencé');
  }, 120_000);
});

/**
 * « Contact through my walī only » (issue 62 point 4, decision 196): the server decides what is
 * released. One row per way the choice is made (in the settings, for this introduction only) and one
 * where the introduction's own choice gives her own contact back: after mutual acceptance, the other
 * member's answers (`/user/introductions`, `/user/progress`) hold the walī's phone and never her
 * phone or e-mail — or hers, when she chose so.
 */
describe('contact through the walī only: what the other member’s answers hold', () => {
  let env: Env;
  const WALI_PHONE = '+33655443322';
  beforeAll(async () => {
    const staff = await signInStaff(product);
    await staff.passTotp();
    env = { product, staff: staff.agent };
  }, 120_000);

  const rows: { name: string; settings: 'moi' | 'wali'; forThis: 'moi' | 'wali' | null; shown: 'wali' | 'moi' }[] = [
    { name: 'chosen in her settings', settings: 'wali', forThis: null, shown: 'wali' },
    { name: 'chosen for this introduction only', settings: 'moi', forThis: 'wali', shown: 'wali' },
    { name: 'her own contact chosen for this introduction, over her settings', settings: 'wali', forThis: 'moi', shown: 'moi' },
  ];
  for (const row of rows) {
    it(`${row.name}: the other member reads ${row.shown === 'wali' ? 'the walī’s phone and not hers' : 'her own contact'}`, async () => {
      const pair = await setUpPair(env, {
        mutual: false,
        before: async (_env, { a }) => {
          const body = { name: 'Ahmed Walī', relation: 'pere', email: '', phone: '06 55 44 33 22', receives: 'rien', informed: true };
          const put = await a.agent.request('PUT', '/api/v1/user/guardian', { ...body, contactVia: row.settings });
          expect(put.status, await put.clone().text()).toBe(200);
        },
      });
      if (row.forThis) {
        const chosen = await pair.a.agent.request('PUT', `/api/v1/user/introductions/${pair.introductionId}/contact`, { via: row.forThis });
        expect(chosen.status, await chosen.clone().text()).toBe(200);
      }
      const accepted = await pair.b.agent.post(`/api/v1/user/introductions/${pair.introductionId}/events`, { type: 'ACCEPT' });
      expect(accepted.status, await accepted.clone().text()).toBe(200);
      const answers = (
        await Promise.all(['/api/v1/user/introductions', '/api/v1/user/progress'].map((u) => pair.b.agent.get(u).then((r) => r.text())))
      ).join('\n');
      const hers = [pair.a.email, pair.a.phone, `0${pair.a.phone.slice(3)}`];
      if (row.shown === 'wali') {
        expect(answers).toContain(WALI_PHONE);
        for (const secret of hers) expect(answers).not.toContain(secret);
      } else {
        expect(answers).toContain(pair.a.email);
        expect(answers).toContain(pair.a.phone);
      }
    }, 120_000);
  }
});
