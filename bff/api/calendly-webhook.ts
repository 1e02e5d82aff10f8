import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { calendlySigningKey } from '#bff/booking/calendly-settings.ts';
import { CALENDLY_SIGNATURE_HEADER, verifyCalendlySignature } from '#bff/booking/calendly-signature.ts';
import {
  type BookingOutcome,
  CALENDLY_EVENTS,
  type CalendlyEventName,
  InviteeSchema,
  recordInviteeEvent,
} from '#bff/booking/invitee-events.ts';
import { type SyncResult, syncMemberBooking } from '#bff/booking/sync-booking.ts';
import { ApiError } from '#bff/http/errors.ts';
import { log } from '#bff/logger.ts';

/**
 * `POST /api/v1/webhooks/calendly`: `invitee.created` and `invitee.canceled` from Calendly (or the
 * embedded scheduling stand-in). The signature is checked on the raw body; each delivery is
 * de-duplicated (Calendly events have no id: the key is the event name and the invitee's URI) and
 * the booking recorded in one transaction (`bff/booking/invitee-events.ts`); then the member's
 * record follows their bookings (sync-booking.ts). A refusal by the chart is logged and still answered 200.
 */

const EnvelopeSchema = v.object({ event: v.string(), created_at: v.nullish(v.string()), payload: v.unknown() });

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
