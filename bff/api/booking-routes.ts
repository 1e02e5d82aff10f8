import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { requireCaller, requireMember } from '#bff/auth/guards.ts';
import { embedDomain, schedulingPageBase } from '#bff/booking/calendly-settings.ts';
import { latestActiveBooking } from '#bff/booking/sync-booking.ts';
import { ApiError } from '#bff/http/errors.ts';
import { recordOf } from '#bff/members/members.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey, topStateOf } from '#machines/onboarding/steps.ts';

const ProfileNames = v.object({ firstName: v.string(), lastName: v.string() });

/** The member's name for the scheduling page, from their saved profile (step 1). */
function fullNameOf(profile: unknown): string | null {
  const parsed = v.safeParse(ProfileNames, profile);
  return parsed.success ? `${parsed.output.firstName} ${parsed.output.lastName}`.trim() : null;
}

/**
 * The member's booking of the onboarding meeting: the scheduling page link, prefilled with their
 * name, e-mail and id (`utm_content`, echoed by Calendly in its webhooks), and their booking.
 */
export function bookingRoutes(deps: ApiDeps) {
  return new Hono()
    .get('/user/booking-link', async (c) => {
      const caller = await requireMember(c, deps);
      const state = stateFromRecord(recordOf(caller.member), deps.clock.now().getTime());
      if (topStateOf(state) !== 'prendre-un-rendez-vous') {
        throw new ApiError(409, 'BOOKING_NOT_EXPECTED', 'La prise de rendez-vous n’est pas disponible à cette étape.', {
          state: stateKey(state),
        });
      }
      const url = new URL(schedulingPageBase(deps.config));
      const name = fullNameOf(caller.member.profile);
      if (name) url.searchParams.set('name', name);
      url.searchParams.set('email', caller.email);
      url.searchParams.set('utm_content', caller.id);
      url.searchParams.set('embed_domain', embedDomain(deps.config));
      c.header('Cache-Control', 'private, no-store');
      return c.json({ url: url.toString(), origin: url.origin }, 200);
    })
    .get('/user/booking', async (c) => {
      const caller = await requireCaller(c, deps);
      const booking = caller.role === 'staff' ? null : await latestActiveBooking(deps.database.db, caller.id);
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          booking: booking && {
            startTime: booking.startTime.toISOString(),
            endTime: booking.endTime.toISOString(),
            cancelUrl: booking.cancelUrl,
            rescheduleUrl: booking.rescheduleUrl,
          },
        },
        200,
      );
    });
}
