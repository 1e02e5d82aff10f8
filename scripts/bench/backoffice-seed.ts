/**
 * The population `npm run bench:backoffice` seeds (issue 64, decisions 204, 213): members across
 * every stage of the chart in the shares of TEMPLATES, with payments, instalments, refunds, tags,
 * introductions and leads in proportion, in a few set-based statements (`generate_series`).
 */
import { emptyRecord, type OnboardingRecord } from '#machines/onboarding/record.ts';
import { planById, type PlanId } from '#machines/onboarding/plans.ts';

interface Template {
  name: string;
  share: number;
  record: Partial<OnboardingRecord>;
  signedDaysAgo?: [number, number];
  plan?: PlanId;
}

const done = {
  profileCompleted: true,
  questionnaireCompleted: true,
  formPersonnalInfoCompleted: true,
  sensitiveDataConsentAt: '2025-01-10T10:00:00.000Z',
};
const chosen = {
  ...done,
  selectedPlanId: 'plan_horizon_year' as PlanId,
  renouncedWithdrawalRight: false,
  preContractInfoAcknowledged: true,
};
const met = {
  ...chosen,
  onboardingMeetingDateSelected: true,
  onboardingMeetingReserved: true,
  onboardingMeetingDate: '2025-01-20T10:00:00.000Z',
  onboardingMeetingDone: true,
};
const signed = { ...met, subscriptionContractFormCompleted: true };
const paid = { ...signed, applicationFeesPaid: true, subscriptionFeesPaid: true };

const TEMPLATES: Template[] = [
  { name: 'profil', share: 10, record: {} },
  { name: 'questionnaire', share: 6, record: { profileCompleted: true } },
  { name: 'formules', share: 5, record: done },
  { name: 'informations', share: 4, record: { ...done, selectedPlanId: 'plan_horizon_year' } },
  { name: 'rendez-vous', share: 3, record: chosen },
  { name: 'rendez-vous confirmé', share: 2, record: { ...chosen, onboardingMeetingDateSelected: true } },
  {
    name: 'entretien',
    share: 4,
    record: {
      ...chosen,
      onboardingMeetingDateSelected: true,
      onboardingMeetingReserved: true,
      onboardingMeetingDate: '2025-01-20T10:00:00.000Z',
    },
  },
  { name: 'contrat', share: 3, record: met },
  { name: 'signature', share: 3, record: { ...met, subscriptionContractFormCompleted: true } },
  { name: 'délai de renonciation', share: 3, record: signed, signedDaysAgo: [0, 5] },
  { name: 'paiement', share: 5, record: signed, signedDaysAgo: [12, 100] },
  { name: 'délai de rétractation', share: 2, record: paid, signedDaysAgo: [11, 12] },
  { name: 'entretien matchmaking', share: 5, record: paid, signedDaysAgo: [20, 150] },
  { name: 'actif', share: 14, record: { ...paid, matchmakingMeetingDone: true }, signedDaysAgo: [20, 300] },
  {
    name: 'actif (mensuel)',
    share: 6,
    record: { ...paid, matchmakingMeetingDone: true },
    signedDaysAgo: [20, 170],
    plan: 'plan_horizon_month',
  },
  { name: 'contrat terminé', share: 10, record: { ...paid, matchmakingMeetingDone: true }, signedDaysAgo: [380, 800] },
  { name: 'renoncé', share: 2, record: { ...signed, contractRenouncedAt: '2025-02-01T10:00:00.000Z' }, signedDaysAgo: [30, 300] },
  { name: 'rétracté', share: 2, record: { ...paid, contractWithdrawnAt: '2025-02-01T10:00:00.000Z' }, signedDaysAgo: [30, 300] },
  {
    name: 'résiliation demandée',
    share: 1,
    record: { ...paid, matchmakingMeetingDone: true, terminationRequestedAt: '2025-03-01T10:00:00.000Z' },
    signedDaysAgo: [60, 300],
  },
  {
    name: 'résilié',
    share: 2,
    record: {
      ...paid,
      matchmakingMeetingDone: true,
      terminationRequestedAt: '2025-03-01T10:00:00.000Z',
      terminatedAt: '2025-03-05T10:00:00.000Z',
    },
    signedDaysAgo: [60, 300],
  },
  { name: 'désactivé', share: 8, record: { ...done, disabled: true } },
];

const FIRST = ['Amina', 'Yacine', 'Sofia', 'Karim', 'Leïla', 'Nadir', 'Inès', 'Samir', 'Maryam', 'Ilyes', 'Nour', 'Rayan'];
const LAST = ['Benali', 'Dupont', 'Haddad', 'Martin', 'Bensaïd', 'Lefèvre', 'Chérif', 'Moreau', 'Rahmani', 'Girard'];

/** What the seed needs of a database client: `pg`'s for PostgreSQL, PGlite's through `openDatabase`. */
export interface SeedClient {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

export async function seed(client: SeedClient, count: number): Promise<number> {
  const started = performance.now();
  if (TEMPLATES.reduce((s, t) => s + t.share, 0) !== 100) throw new Error('template shares must sum to 100');
  const slots = TEMPLATES.flatMap((t, index) => Array.from({ length: t.share }, () => index));
  const templates = TEMPLATES.map((t) => ({
    record: { ...emptyRecord('x', 'x@example.fr', 'femme'), ...t.record, ...(t.plan ? { selectedPlanId: t.plan } : {}) },
    lo: t.signedDaysAgo?.[0] ?? null,
    span: t.signedDaysAgo ? t.signedDaysAgo[1] - t.signedDaysAgo[0] + 1 : null,
  }));
  // One statement: each member takes a template by `i % 100`, its own id, e-mail, gender, name and
  // dates; a signed member's subscriptionDate is spread over its template's range.
  await client.query(
    `WITH t AS (SELECT ordinality - 1 AS k, value AS tpl FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY),
     s AS (SELECT ordinality - 1 AS slot, value::int AS k FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY),
     g AS (
       SELECT i, gen_random_uuid() AS id, CASE WHEN i % 2 = 0 THEN 'femme' ELSE 'homme' END AS gender,
         'membre.' || i || '@bench.example.fr' AS email, s.k
       FROM generate_series(1, $3::int) AS i JOIN s ON s.slot = i % 100
     )
     INSERT INTO members (id, email, gender, role, onboarding, profile, disabled, version, created_at, updated_at)
     SELECT g.id, g.email, g.gender, 'member',
       (t.tpl->'record') || jsonb_build_object('id', g.id::text, 'email', g.email, 'gender', g.gender,
         'subscriptionDate', CASE WHEN t.tpl->>'lo' IS NULL THEN NULL ELSE
           to_jsonb(to_char((now() - make_interval(days => (t.tpl->>'lo')::int + (g.i * 7919) % (t.tpl->>'span')::int, secs => g.i % 80000)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END),
       -- Step 1's birth date (18 to 62 years old), postcode (a département by i) and practice (decision 210's filters).
       jsonb_build_object('firstName', ($4::jsonb)->>(g.i % ${FIRST.length}), 'lastName', ($5::jsonb)->>((g.i / 7) % ${LAST.length}),
         'birthDate', to_char(now() - make_interval(years => 18 + g.i % 45, days => g.i % 360), 'YYYY-MM-DD'),
         'postcode', lpad(((g.i % 95) + 1)::text, 2, '0') || '100',
         'prayerPractice', (ARRAY['cinq-prieres', 'reguliere', 'occasionnelle', 'en-apprentissage'])[1 + g.i % 4]),
       coalesce((t.tpl->'record'->>'disabled')::boolean, false),
       (g.i % 9) + 1,
       now() - make_interval(days => 30 + (g.i * 31) % 900, secs => g.i % 86000),
       now() - make_interval(days => (g.i * 13) % 30, secs => g.i % 86000)
     FROM g JOIN t ON t.k = g.k`,
    [JSON.stringify(templates), JSON.stringify(slots), count, JSON.stringify(FIRST), JSON.stringify(LAST)],
  );
  // Payments: the file fee and the plan of every member who paid them, confirmed 8 days after signing.
  await client.query(
    `INSERT INTO checkout_sessions (id, member_id, offer_id, amount_total, currency, status, payment_status, consumed_at, consumed_by_context, created_at, updated_at, subscription_id)
     SELECT 'cs_' || kind || '_' || m.id, m.id, CASE WHEN kind = 'app' THEN 'file_fee' ELSE m.onboarding->>'selectedPlanId' END,
       CASE WHEN kind = 'app' THEN 9500 WHEN m.onboarding->>'selectedPlanId' = 'plan_horizon_month' THEN ${planById('plan_horizon_month').priceCents} ELSE ${planById('plan_horizon_year').totalCents} END,
       'eur', 'complete', 'paid', at, kind, at, at,
       CASE WHEN kind = 'sub' AND m.onboarding->>'selectedPlanId' = 'plan_horizon_month' THEN 'sub_' || m.id END
     FROM members m, LATERAL (SELECT (m.onboarding->>'subscriptionDate')::timestamptz + interval '8 days' AS at) d,
       (VALUES ('app'), ('sub')) AS k(kind)
     WHERE m.role = 'member' AND (m.onboarding->>'subscriptionFeesPaid')::boolean`,
  );
  // The contracts (decision 175's ledger): one per signature, the payments made under it. A monthly
  // plan's schedule is its contract's: without them no line is expected (decision 213 stores those).
  await client.query(
    `INSERT INTO contracts (member_id, signed_at, plan_id)
     SELECT id, (onboarding->>'subscriptionDate')::timestamptz, onboarding->>'selectedPlanId' FROM members
     WHERE role = 'member' AND onboarding->>'subscriptionDate' IS NOT NULL`,
  );
  await client.query(`UPDATE checkout_sessions s SET contract_id = c.id FROM contracts c WHERE c.member_id = s.member_id`);
  // Monthly plans: instalments 2… paid once a month since.
  await client.query(
    `INSERT INTO instalments (member_id, subscription_id, provider_invoice_id, offer_id, number, amount_cents, status, paid_at, created_at, updated_at, invoice_number)
     SELECT c.member_id, c.subscription_id, 'in_' || c.member_id || '_' || n, c.offer_id, n, c.amount_total, 'paid',
       c.created_at + make_interval(months => n - 1), c.created_at + make_interval(months => n - 1), c.created_at + make_interval(months => n - 1), NULL
     FROM checkout_sessions c, generate_series(2, 6) AS n
     WHERE c.subscription_id IS NOT NULL AND c.created_at + make_interval(months => n - 1) < now()`,
  );
  // Refunds of the members who withdrew.
  await client.query(
    `INSERT INTO refunds (member_id, checkout_session_id, reason, amount_cents, paid_cents, requested_at, due_by, status, completed_at)
     SELECT c.member_id, c.id, 'withdrawal', c.amount_total, c.amount_total, c.created_at + interval '2 days', c.created_at + interval '16 days', 'succeeded', c.created_at + interval '3 days'
     FROM checkout_sessions c JOIN members m ON m.id = c.member_id
     WHERE m.onboarding ? 'contractWithdrawnAt' AND c.consumed_by_context = 'sub'`,
  );
  // Follow-up: a tag on one member in twenty; introductions between active members (one per two)
  // whose contract runs (signed less than five months ago, neither stopped nor terminated): the
  // ending job (decision 194) ends an introduction of a member whose contract ended, and this
  // seed's bare contexts cannot be ended, so such pairs were tried again at every pass (decision 224).
  await client.query(
    `INSERT INTO member_tags (member_id, tag, tag_key) SELECT id, 'prioritaire', 'prioritaire' FROM members WHERE role = 'member' AND abs(hashtext(id::text)) % 20 = 0`,
  );
  await client.query(
    `WITH active AS (SELECT id, gender, row_number() OVER (PARTITION BY gender ORDER BY id) AS n FROM members
                     WHERE role = 'member' AND (onboarding->>'matchmakingMeetingDone')::boolean AND NOT disabled
                       AND (onboarding->>'subscriptionDate')::timestamptz > now() - interval '5 months'
                       AND onboarding->>'contractRenouncedAt' IS NULL AND onboarding->>'contractWithdrawnAt' IS NULL
                       AND onboarding->>'terminatedAt' IS NULL)
     INSERT INTO introductions (id, member_a, member_b, state, context, version, proposed_at, deadline_at)
     SELECT gen_random_uuid(), h.id, f.id, CASE WHEN h.n % 3 = 0 THEN 'proposee.attente-des-reponses' ELSE 'acceptee' END, '{}'::jsonb, 1,
       now() - interval '3 days', now() + interval '4 days'
     FROM active h JOIN active f ON f.gender = 'femme' AND h.gender = 'homme' AND f.n = h.n`,
  );
  // Leads: a contact message for one member in ten.
  await client.query(
    `INSERT INTO contact_messages (name, email, subject, message, created_at)
     SELECT 'Visiteur ' || i, 'visiteur.' || i || '@example.fr', 'Renseignements', 'Bonjour, je voudrais des renseignements.', now() - make_interval(hours => i)
     FROM generate_series(1, $1::int) AS i`,
    [Math.ceil(count / 10)],
  );
  // The access journal: two reads of a member's file per member by two counsellors, over the last year.
  await client.query(
    `INSERT INTO access_log (member_id, staff_id, staff_name, resource, created_at)
     SELECT m.id, CASE WHEN k = 1 THEN '00000000-0000-4000-8000-000000000001'::uuid ELSE '00000000-0000-4000-8000-000000000002'::uuid END,
       CASE WHEN k = 1 THEN 'Conseillère Une' ELSE 'Conseiller Deux' END, 'member_file',
       now() - make_interval(hours => (abs(hashtext(m.id::text || k)) % 8760))
     FROM members m, generate_series(1, 2) AS k WHERE m.role = 'member'`,
  );
  await client.query('ANALYZE');
  return performance.now() - started;
}
