import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { html } from 'hono/html';
import * as v from 'valibot';
import { calendlySigningKey } from '#bff/booking/calendly-settings.ts';
import { CALENDLY_SIGNATURE_HEADER, calendlySignatureHeader } from '#bff/booking/calendly-signature.ts';
import type { Config } from '#bff/config.ts';
import type { StandInDeps } from '#bff/stand-ins/checkout-stand-in.ts';
import { standInDocument } from '#bff/stand-ins/stand-in-layout.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

/**
 * The embedded Calendly stand-in (decisions §2): `/_local/booking` takes a scheduling page's URL
 * parameters (`name`, `email`, `utm_content`, `embed_domain`), lists 15-minute slots over the
 * next days (from the product's clock), and on booking posts a signed `invitee.created` webhook
 * to the product's own endpoint, then shows a confirmation whose script (`/_local/booking.js`,
 * no inline script) sends `calendly.event_scheduled` to the embedding page. Its cancel and
 * reschedule links post `invitee.canceled` (then `invitee.created` for a reschedule).
 * Stateless: a booking's cancel and reschedule links carry its reference.
 */

const MEETING_MINUTES = 15;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Slot starts, in UTC (10:00, 11:30, 14:00 and 16:30 in Paris in winter). */
const SLOT_TIMES_UTC: readonly [number, number][] = [
  [9, 0],
  [10, 30],
  [13, 0],
  [15, 30],
];
const SLOT_DAYS = 4;
const EVENT_NAME = 'Entretien découverte (15 min)';

const parisDateTime = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'full', timeStyle: 'short' });
const parisDay = frenchDateFormat({ timeZone: 'Europe/Paris', weekday: 'long', day: 'numeric', month: 'long' });
const parisTime = frenchDateFormat({ timeZone: 'Europe/Paris', timeStyle: 'short' });

/** The slots offered at `now`: from tomorrow, a few each day, Sundays excepted. */
function availableSlots(now: Date): Date[] {
  const slots: Date[] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let day = 1; slots.length < SLOT_DAYS * SLOT_TIMES_UTC.length && day <= SLOT_DAYS + 2; day += 1) {
    const date = new Date(today + day * DAY_MS);
    if (date.getUTCDay() === 0) continue;
    for (const [hours, minutes] of SLOT_TIMES_UTC) slots.push(new Date(today + day * DAY_MS + (hours * 60 + minutes) * MINUTE_MS));
  }
  return slots;
}

/** A booking's reference, carried by its cancel and reschedule links. */
const ReferenceSchema = v.object({
  i: v.pipe(v.string(), v.uuid()),
  e: v.pipe(v.string(), v.uuid()),
  s: v.pipe(v.string(), v.isoTimestamp()),
  c: v.pipe(v.string(), v.isoTimestamp()),
  n: v.pipe(v.string(), v.maxLength(300)),
  m: v.pipe(v.string(), v.maxLength(320)),
  u: v.nullable(v.pipe(v.string(), v.maxLength(150))),
});
type BookingReference = v.InferOutput<typeof ReferenceSchema>;

function encodeReference(reference: BookingReference): string {
  return Buffer.from(JSON.stringify(reference), 'utf8').toString('base64url');
}

function decodeReference(token: string | undefined): BookingReference | null {
  if (!token || token.length > 2000) return null;
  try {
    const parsed = v.safeParse(ReferenceSchema, JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

function uris(site: string, reference: BookingReference) {
  const event = `${site}/_local/calendly/scheduled_events/${reference.e}`;
  const token = encodeReference(reference);
  return {
    event,
    invitee: `${event}/invitees/${reference.i}`,
    cancel: `${site}/_local/booking/cancellations/${token}`,
    reschedule: `${site}/_local/booking/reschedulings/${token}`,
  };
}

/** An `invitee.*` webhook body in Calendly's shape. */
function inviteeWebhook(
  site: string,
  name: 'invitee.created' | 'invitee.canceled',
  reference: BookingReference,
  now: Date,
  extra: { rescheduled?: boolean; oldInvitee?: string | null; newInvitee?: string | null; reason?: string | null } = {},
) {
  const links = uris(site, reference);
  const canceled = name === 'invitee.canceled';
  const start = new Date(reference.s);
  const end = new Date(start.getTime() + MEETING_MINUTES * MINUTE_MS);
  return {
    event: name,
    created_at: now.toISOString(),
    created_by: `${site}/_local/calendly/users/agence`,
    payload: {
      uri: links.invitee,
      email: reference.m,
      name: reference.n,
      first_name: null,
      last_name: null,
      status: canceled ? 'canceled' : 'active',
      timezone: 'Europe/Paris',
      event: links.event,
      scheduled_event: {
        uri: links.event,
        name: EVENT_NAME,
        status: canceled && !extra.rescheduled ? 'canceled' : 'active',
        start_time: start.toISOString(),
        end_time: end.toISOString(),
        event_type: `${site}/_local/calendly/event_types/entretien-decouverte`,
        location: { type: 'outbound_call', location: null },
        invitees_counter: { total: 1, active: canceled ? 0 : 1, limit: 1 },
        created_at: reference.c,
        updated_at: now.toISOString(),
        event_memberships: [],
        event_guests: [],
      },
      tracking: { utm_campaign: null, utm_source: null, utm_medium: null, utm_content: reference.u, utm_term: null, salesforce_uuid: null },
      questions_and_answers: [],
      cancel_url: links.cancel,
      reschedule_url: links.reschedule,
      rescheduled: extra.rescheduled === true,
      old_invitee: extra.oldInvitee ?? null,
      new_invitee: extra.newInvitee ?? null,
      cancellation: canceled
        ? { canceled_by: reference.n, reason: extra.reason ?? null, canceler_type: 'invitee', created_at: now.toISOString() }
        : undefined,
      text_reminder_number: null,
      no_show: null,
      payment: null,
      reconfirmation: null,
      routing_form_submission: null,
      created_at: reference.c,
      updated_at: now.toISOString(),
    },
  };
}

/** The origin to send window messages to: the product's own site, when it embeds the page. */
function messageOrigin(config: Config, embedDomain: string | undefined): string {
  const site = new URL(config.publicSiteUrl);
  return embedDomain === site.host || embedDomain === site.hostname ? site.origin : '';
}

const FormSchema = v.object({
  start: v.pipe(v.string('Choisissez un créneau.'), v.isoTimestamp('Choisissez un créneau.')),
  name: v.pipe(v.string('Indiquez votre nom.'), v.trim(), v.minLength(1, 'Indiquez votre nom.'), v.maxLength(300, 'Nom trop long.')),
  email: v.pipe(
    v.string('Adresse e-mail invalide.'),
    v.trim(),
    v.maxLength(320, 'Adresse e-mail invalide.'),
    v.email('Adresse e-mail invalide.'),
  ),
  utm_content: v.optional(v.pipe(v.string(), v.maxLength(150))),
  embed_domain: v.optional(v.pipe(v.string(), v.maxLength(255))),
  reschedule: v.optional(v.string()),
});

const BOOKING_SCRIPT = `(function () {
  'use strict';
  var meta = document.getElementById('calendly-stand-in');
  if (!meta) return;
  var origin = meta.getAttribute('data-target-origin');
  var target = window.parent !== window ? window.parent : window.opener;
  function send(message) {
    if (origin && target) target.postMessage(message, origin);
  }
  var page = meta.getAttribute('data-page');
  if (page === 'slots') {
    send({ event: 'calendly.event_type_viewed', payload: {} });
    var inputs = document.querySelectorAll('input[name="start"]');
    for (var i = 0; i < inputs.length; i += 1) {
      inputs[i].addEventListener('change', function () { send({ event: 'calendly.date_and_time_selected', payload: {} }); });
    }
  } else if (page === 'scheduled') {
    send({
      event: 'calendly.event_scheduled',
      payload: { event: { uri: meta.getAttribute('data-event-uri') }, invitee: { uri: meta.getAttribute('data-invitee-uri') } },
    });
  }
  send({ event: 'calendly.page_height', payload: { height: document.documentElement.scrollHeight + 'px' } });
})();
`;

export function bookingStandIn(deps: StandInDeps) {
  const { config } = deps;
  const site = config.publicSiteUrl;

  async function deliver(body: unknown): Promise<Response> {
    const payload = JSON.stringify(body);
    const key = await calendlySigningKey(config, deps.db);
    const signature = calendlySignatureHeader(payload, key, deps.clock.now().getTime() / 1000);
    return deps.dispatch(
      new Request(`${site}/api/v1/webhooks/calendly`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [CALENDLY_SIGNATURE_HEADER]: signature,
          'user-agent': 'Calendly Webhooks (stand-in)',
        },
        body: payload,
      }),
    );
  }

  function slotsPage(query: Record<string, string | undefined>, error?: string) {
    const now = deps.clock.now();
    const slots = availableSlots(now);
    const previous = decodeReference(query.reschedule);
    const origin = messageOrigin(config, query.embed_domain);
    let lastDay = '';
    return standInDocument(
      'Prendre rendez-vous — Union Sincère',
      html`<main aria-labelledby="title">
<div id="calendly-stand-in" hidden data-page="slots" data-target-origin="${origin}"></div>
<p class="badge">Simulation locale de Calendly : aucun rendez-vous n’est pris ailleurs.</p>
<h1 id="title">${EVENT_NAME}</h1>
<p>Un appel de ${MEETING_MINUTES} minutes avec une conseillère de l’agence, par téléphone ou en visioconférence.</p>
${previous ? html`<p class="card">Vous reprogrammez votre rendez-vous du ${parisDateTime.format(new Date(previous.s))}.</p>` : ''}
${error ? html`<p role="alert" class="error">${error}</p>` : ''}
<form method="post" action="/_local/booking">
<input type="hidden" name="utm_content" value="${query.utm_content ?? previous?.u ?? ''}">
<input type="hidden" name="embed_domain" value="${query.embed_domain ?? ''}">
<input type="hidden" name="reschedule" value="${previous ? (query.reschedule ?? '') : ''}">
<fieldset><legend>Choisissez un créneau (heure de Paris)</legend>
${slots.map((slot, index) => {
  const day = parisDay.format(slot);
  const heading = day !== lastDay ? html`<p><strong>${day}</strong></p>` : '';
  lastDay = day;
  return html`${heading}<div class="slot"><input type="radio" id="slot-${index}" name="start" value="${slot.toISOString()}" required>
<label for="slot-${index}">${parisTime.format(slot)}</label></div>`;
})}
</fieldset>
<label for="name">Nom</label>
<input id="name" name="name" type="text" autocomplete="name" required value="${query.name ?? previous?.n ?? ''}">
<label for="email">Adresse e-mail</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${query.email ?? previous?.m ?? ''}">
<button type="submit">Confirmer le rendez-vous</button>
</form>
</main>`,
      { script: '/_local/booking.js' },
    );
  }

  return new Hono()
    .get('/booking.js', (c) => {
      c.header('Content-Type', 'text/javascript; charset=utf-8');
      c.header('Cache-Control', 'no-cache');
      return c.body(BOOKING_SCRIPT);
    })
    .get('/booking', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.html(slotsPage(c.req.query()), 200);
    })
    .post('/booking', async (c) => {
      c.header('Cache-Control', 'no-store');
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const strings = Object.fromEntries(Object.entries(form).filter(([, value]) => typeof value === 'string')) as Record<string, string>;
      const parsed = v.safeParse(FormSchema, strings);
      const now = deps.clock.now();
      if (!parsed.success) return c.html(slotsPage(strings, parsed.issues[0].message), 400);
      const input = parsed.output;
      if (!availableSlots(now).some((slot) => slot.toISOString() === new Date(input.start).toISOString())) {
        return c.html(slotsPage(strings, 'Ce créneau n’est plus disponible, choisissez-en un autre.'), 409);
      }
      const reference: BookingReference = {
        i: randomUUID(),
        e: randomUUID(),
        s: new Date(input.start).toISOString(),
        c: now.toISOString(),
        n: input.name,
        m: input.email,
        u: input.utm_content || null,
      };
      const links = uris(site, reference);
      const previous = decodeReference(input.reschedule);
      if (previous) {
        // A reschedule: Calendly cancels the old invitee (rescheduled: true) and creates the new one.
        const old = uris(site, previous);
        await deliver(
          inviteeWebhook(site, 'invitee.canceled', previous, now, {
            rescheduled: true,
            newInvitee: links.invitee,
            reason: 'Rendez-vous reprogrammé',
          }),
        );
        const created = await deliver(inviteeWebhook(site, 'invitee.created', reference, now, { oldInvitee: old.invitee }));
        if (!created.ok) return c.html(slotsPage(strings, 'La réservation n’a pas pu être enregistrée. Réessayez.'), 502);
      } else {
        const created = await deliver(inviteeWebhook(site, 'invitee.created', reference, now));
        if (!created.ok) return c.html(slotsPage(strings, 'La réservation n’a pas pu être enregistrée. Réessayez.'), 502);
      }
      const confirmed = new URL(`${site}/_local/booking/confirmed/${encodeReference(reference)}`);
      if (input.embed_domain) confirmed.searchParams.set('embed_domain', input.embed_domain);
      return c.redirect(`${confirmed.pathname}${confirmed.search}`, 303);
    })
    .get('/booking/confirmed/:token', (c) => {
      c.header('Cache-Control', 'no-store');
      const reference = decodeReference(c.req.param('token'));
      if (!reference) return c.html(standInDocument('Rendez-vous introuvable', html`<main><h1>Rendez-vous introuvable</h1></main>`), 404);
      const links = uris(site, reference);
      return c.html(
        standInDocument(
          'Rendez-vous confirmé — Union Sincère',
          html`<main aria-labelledby="title">
<div id="calendly-stand-in" hidden data-page="scheduled" data-target-origin="${messageOrigin(config, c.req.query('embed_domain'))}"
 data-event-uri="${links.event}" data-invitee-uri="${links.invitee}"></div>
<h1 id="title">Rendez-vous confirmé</h1>
<p role="status">${EVENT_NAME} le <strong>${parisDateTime.format(new Date(reference.s))}</strong> (heure de Paris).</p>
<p>Une confirmation est envoyée à ${reference.m}.</p>
<p><a href="${links.reschedule}">Reprogrammer</a> · <a href="${links.cancel}">Annuler ce rendez-vous</a></p>
</main>`,
          { script: '/_local/booking.js' },
        ),
        200,
      );
    })
    .get('/booking/reschedulings/:token', (c) => {
      const reference = decodeReference(c.req.param('token'));
      if (!reference) return c.html(standInDocument('Rendez-vous introuvable', html`<main><h1>Rendez-vous introuvable</h1></main>`), 404);
      return c.redirect(`/_local/booking?reschedule=${encodeURIComponent(c.req.param('token'))}`, 303);
    })
    .get('/booking/cancellations/:token', (c) => {
      c.header('Cache-Control', 'no-store');
      const reference = decodeReference(c.req.param('token'));
      if (!reference) return c.html(standInDocument('Rendez-vous introuvable', html`<main><h1>Rendez-vous introuvable</h1></main>`), 404);
      return c.html(
        standInDocument(
          'Annuler le rendez-vous — Union Sincère',
          html`<main aria-labelledby="title">
<h1 id="title">Annuler le rendez-vous</h1>
<p>${EVENT_NAME} le <strong>${parisDateTime.format(new Date(reference.s))}</strong>.</p>
<form method="post">
<label for="reason">Motif (facultatif)</label>
<textarea id="reason" name="reason" rows="3" maxlength="500"></textarea>
<button type="submit">Confirmer l’annulation</button>
</form>
</main>`,
        ),
        200,
      );
    })
    .post('/booking/cancellations/:token', async (c) => {
      c.header('Cache-Control', 'no-store');
      const reference = decodeReference(c.req.param('token'));
      if (!reference) return c.html(standInDocument('Rendez-vous introuvable', html`<main><h1>Rendez-vous introuvable</h1></main>`), 404);
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const reason = typeof form.reason === 'string' && form.reason.trim() ? form.reason.trim().slice(0, 500) : null;
      const delivered = await deliver(inviteeWebhook(site, 'invitee.canceled', reference, deps.clock.now(), { reason }));
      if (!delivered.ok) {
        return c.html(
          standInDocument('Annulation impossible', html`<main><h1>L’annulation n’a pas pu être enregistrée</h1><p>Réessayez.</p></main>`),
          502,
        );
      }
      return c.html(
        standInDocument(
          'Rendez-vous annulé — Union Sincère',
          html`<main aria-labelledby="title">
<h1 id="title">Rendez-vous annulé</h1>
<p role="status">Votre rendez-vous du ${parisDateTime.format(new Date(reference.s))} est annulé.</p>
<p><a href="${site}/mon-compte/inscription/prendre-un-rendez-vous">Choisir un autre créneau</a></p>
</main>`,
        ),
        200,
      );
    });
}
