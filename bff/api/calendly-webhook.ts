import { and, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { bookingFactsOf, bookingKindAtRecording } from '#machines/agenda/booking-kind.ts';
import { calendlySigningKey } from '#bff/booking/calendly-settings.ts';
import { CALENDLY_SIGNATURE_HEADER, verifyCalendlySignature } from '#bff/booking/calendly-signature.ts';
import { type SyncResult, syncMemberBooking } from '#bff/booking/sync-booking.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { recordWebhookEventOnce } from '#bff/db/webhook-events.ts';
import { ApiError } from '#bff/http/errors.ts';
import { log } from '#bff/logger.ts';

/**
 * `POST /api/v1/webhooks/calendly`: `invitee.created` and `invitee.canceled` from Calendly (or the
 * embedded scheduling stand-in). The signature is checked on the raw body; each delivery is
 * de-duplicated (Calendly events have no id: the key is the event name and the invitee's URI) and
 * the booking recorded in one transaction; then the member's record follows their bookings
 * (sync-booking.ts). A refusal by the chart is logged and still answered 200.
 */

const CALENDLY_EVENTS = ['invitee.created', 'invitee.canceled'] as const;
type CalendlyEventName = (typeof CALENDLY_EVENTS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const text = (max: number) => v.nullish(v.pipe(v.string(), v.maxLength(max)));
const instant = v.pipe(
  v.string(),
  v.maxLength(40),
  v.check((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(Date.parse(value))),
);

const EnvelopeSchema = v.object({ event: v.string(), created_at: v.nullish(v.string()), payload: v.unknown() });

/** The fields of an invitee payload the product reads (Calendly webhook payload). */
const InviteeSchema = v.object({
  uri: v.pipe(v.string(), v.minLength(1), v.maxLength(500)),
  email: text(320),
  name: text(300),
  status: text(20),
  rescheduled: v.nullish(v.boolean()),
  scheduled_event: v.object({ uri: v.pipe(v.string(), v.minLength(1), v.maxLength(500)), start_time: instant, end_time: instant }),
  tracking: v.nullish(v.object({ utm_content: text(150) })),
  cancel_url: text(1000),
  reschedule_url: text(1000),
  created_at: v.nullish(instant),
});
type CalendlyInvitee = v.InferOutput<typeof InviteeSchema>;

export type BookingOutcome = 'recorded' | 'duplicate' | 'ignored';

async function memberFromTracking(db: Db, invitee: CalendlyInvitee): Promise<{ id: string; onboarding: unknown } | null> {
  const reference = invitee.tracking?.utm_content ?? null;
  if (reference === null || !UUID.test(reference)) return null;
  const [row] = await db
    .select({ id: members.id, onboarding: members.onboarding })
    .from(members)
    .where(and(eq(members.id, reference.toLowerCase()), eq(members.role, 'member')))
    .limit(1);
  return row ?? null;
}

/**
 * Records one verified delivery: the webhook row (insert-if-absent) and the booking, in one
 * transaction. A booking once canceled stays canceled, whichever event arrives first.
 */
async function recordInviteeEvent(
  db: Db,
  name: CalendlyEventName,
  invitee: CalendlyInvitee,
  envelope: unknown,
  now: Date,
): Promise<{ outcome: BookingOutcome; memberId: string | null }> {
  const member = await memberFromTracking(db, invitee);
  const memberId = member?.id ?? null;
  // Which meeting this is, decided once from the member's record now (decision 128).
  const kind = member ? bookingKindAtRecording(Date.parse(invitee.scheduled_event.start_time), bookingFactsOf(member.onboarding)) : null;
  return db.transaction(async (tx) => {
    if (!(await recordWebhookEventOnce(tx, { provider: 'calendly', id: `${name}:${invitee.uri}`, type: name, payload: envelope }, now))) {
      const [known] = await tx.select({ memberId: bookings.memberId }).from(bookings).where(eq(bookings.inviteeUri, invitee.uri)).limit(1);
      return { outcome: 'duplicate' as const, memberId: known?.memberId ?? memberId };
    }
    const canceled = name === 'invitee.canceled';
    const b = bookings;
    await tx
      .insert(b)
      .values({
        inviteeUri: invitee.uri,
        memberId,
        eventUri: invitee.scheduled_event.uri,
        startTime: new Date(invitee.scheduled_event.start_time),
        endTime: new Date(invitee.scheduled_event.end_time),
        status: canceled ? 'canceled' : 'active',
        inviteeEmail: invitee.email ?? null,
        inviteeName: invitee.name ?? null,
        cancelUrl: invitee.cancel_url ?? null,
        rescheduleUrl: invitee.reschedule_url ?? null,
        rescheduled: invitee.rescheduled === true,
        kind,
        bookedAt: invitee.created_at ? new Date(invitee.created_at) : null,
        canceledAt: canceled ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: b.inviteeUri,
        set: {
          memberId: sql`coalesce(${b.memberId}, excluded.member_id)`,
          kind: sql`coalesce(${b.kind}, excluded.kind)`,
          cancelUrl: sql`coalesce(${b.cancelUrl}, excluded.cancel_url)`,
          rescheduleUrl: sql`coalesce(${b.rescheduleUrl}, excluded.reschedule_url)`,
          bookedAt: sql`coalesce(${b.bookedAt}, excluded.booked_at)`,
          status: canceled ? 'canceled' : sql`${b.status}`,
          rescheduled: sql`${b.rescheduled} or excluded.rescheduled`,
          canceledAt: canceled ? sql`coalesce(${b.canceledAt}, excluded.canceled_at)` : sql`${b.canceledAt}`,
          updatedAt: now,
        },
      });
    return { outcome: 'recorded' as const, memberId };
  });
}

function invalidSignature(): ApiError {
  return new ApiError(400, 'INVALID_SIGNATURE', 'Signature du webhook invalide.');
}

export function calendlyWebhookRoutes(deps: ApiDeps) {
  return new Hono().post('/webhooks/calendly', async (c) => {
    const body = await c.req.text();
    const key = await calendlySigningKey(deps.config, deps.database.db);
    const now = deps.clock.now();
    const check = verifyCalendlySignature(c.req.header(CALENDLY_SIGNATURE_HEADER), body, key, now.getTime());
    if (check !== 'valid') throw invalidSignature();
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new ApiError(400, 'INVALID_EVENT', 'Événement de réservation illisible.');
    }
    const envelope = v.safeParse(EnvelopeSchema, json);
    if (!envelope.success) throw new ApiError(400, 'INVALID_EVENT', 'Événement de réservation illisible.');
    const name = envelope.output.event;
    if (!(CALENDLY_EVENTS as readonly string[]).includes(name))
      return c.json({ received: true, outcome: 'ignored' as BookingOutcome }, 200);
    const invitee = v.safeParse(InviteeSchema, envelope.output.payload);
    if (!invitee.success) throw new ApiError(400, 'INVALID_EVENT', 'Événement de réservation illisible.');

    const { outcome, memberId } = await recordInviteeEvent(deps.database.db, name as CalendlyEventName, invitee.output, json, now);
    let sync: SyncResult | null = null;
    if (memberId) {
      // Also on a duplicate: the sync is idempotent, and a retried delivery repairs a failed one.
      sync = await syncMemberBooking(deps.database.db, memberId, {
        now,
        verifyPayment: deps.verifyPayment,
        mail: { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency },
      });
      if (sync.applied.length > 0) deps.mailQueued();
    } else {
      log.warn('rendez-vous sans membre (utm_content absent ou inconnu)', { event: name, invitee: invitee.output.uri });
    }
    return c.json({ received: true, outcome, applied: sync?.applied ?? [], refused: sync?.refused ?? null }, 200);
  });
}
