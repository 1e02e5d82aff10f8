import { type Context, Hono } from 'hono';
import { accepts } from 'hono/accepts';
import { html } from 'hono/html';
import * as v from 'valibot';
import { ApiError } from '#bff/http/errors.ts';
import { sameOriginWrites } from '#bff/http/same-origin.ts';
import { readJson } from '#bff/http/validate.ts';
import type { JobOutcome, JobRegistry } from '#bff/scheduled-jobs.ts';
import { type AgencyClock, ClockBackwards } from '#bff/stand-ins/agency-clock.ts';
import { standInDocument } from '#bff/stand-ins/stand-in-layout.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { count } from '#machines/french/plural.ts';
import { parisFields, parisOffsetMs } from '#machines/paris-time.ts';

/**
 * `/_local/clock`, outside production only (decision 170). `GET` answers `{"now": "<ISO>"}`, or
 * the page when the client prefers HTML (`Accept: text/html`, as a browser asks). `POST` with
 * `{"days": n}` or `{"to": "<ISO>"}` (JSON), or the page's form, moves the agency's clock
 * forward, runs every job that became due, sends the mails they queued, and answers the new
 * `{"now"}` (or the page). A write like the API's, from the site's own pages only: an `Origin`
 * (or `Sec-Fetch-Site: same-origin`) is required, and must be the site's.
 */
export interface ClockRouteDeps {
  publicSiteUrl: string;
  clock: AgencyClock;
  jobs: JobRegistry;
  /** Sends the mails the jobs queued, so that the mailbox shows them when the move answers. */
  flushMail: () => Promise<unknown>;
}

const MAX_DAYS = 4000;
const DAY_MS = 24 * 60 * 60 * 1000;
const DAYS_MESSAGE = `Nombre de jours : un entier de 0 à ${MAX_DAYS}.`;
const TO_MESSAGE = 'Date : une date ISO 8601 (2027-01-15T10:00:00Z) ou une date et heure de Paris (2027-01-15T10:00).';

/** A Paris wall time (`YYYY-MM-DDTHH:mm`, what a `datetime-local` field sends) as an instant. */
function parisWallTime(local: string): number {
  const guess = Date.parse(`${local}:00Z`);
  return guess - parisOffsetMs(guess - parisOffsetMs(guess));
}

const Move = v.pipe(
  v.object(
    {
      days: v.optional(
        v.pipe(v.number(DAYS_MESSAGE), v.integer(DAYS_MESSAGE), v.minValue(-MAX_DAYS, DAYS_MESSAGE), v.maxValue(MAX_DAYS, DAYS_MESSAGE)),
      ),
      to: v.optional(
        v.union(
          [v.pipe(v.string(), v.isoTimestamp(), v.transform(Date.parse)), v.pipe(v.string(), v.isoDateTime(), v.transform(parisWallTime))],
          TO_MESSAGE,
        ),
      ),
    },
    'Indiquez un nombre de jours (days) ou une date (to).',
  ),
  v.check(
    (body) => (body.days === undefined) !== (body.to === undefined),
    'Indiquez soit un nombre de jours (days), soit une date (to), pas les deux.',
  ),
);

type MoveInput = v.InferOutput<typeof Move>;

/** The page's form: fields arrive as text; an empty field is absent. */
function fromForm(form: Record<string, unknown>): unknown {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const days = text(form.days);
  return { days: days === undefined ? undefined : Number(days), to: text(form.to) };
}

const longDate = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'full', timeStyle: 'short' });

/** `now` as a `datetime-local` value in Paris time, for the field's minimum. */
function localInputValue(ms: number): string {
  const f = parisFields(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${f.year}-${two(f.month)}-${two(f.day)}T${two(f.hour)}:${two(f.minute)}`;
}

function aheadBy(offsetMs: number): string {
  if (offsetMs < 60_000) return 'à l’heure réelle';
  const days = Math.floor(offsetMs / DAY_MS);
  const hours = Math.floor((offsetMs % DAY_MS) / 3_600_000);
  if (days === 0)
    return hours === 0
      ? 'en avance de moins d’une heure sur l’heure réelle'
      : `en avance de ${count(hours, 'heure', 'heures')} sur l’heure réelle`;
  return `en avance de ${count(days, 'jour', 'jours')}${hours > 0 ? ` et ${count(hours, 'heure', 'heures')}` : ''} sur l’heure réelle`;
}

function page(deps: ClockRouteDeps, message?: { kind: 'status' | 'alert'; text: string; ran?: JobOutcome[] }) {
  const now = deps.clock.now();
  const failed = message?.ran?.filter((o) => !o.ok) ?? [];
  return standInDocument(
    'Horloge de l’agence — simulation locale',
    html`<main aria-labelledby="title">
<p class="badge">Développement et démonstration seulement : en production, l’agence suit l’heure réelle.</p>
<h1 id="title">Horloge de l’agence</h1>
${
  message
    ? message.kind === 'alert'
      ? html`<p role="alert" class="error">${message.text}</p>`
      : html`<div role="status" class="card"><p>${message.text}</p>${
          failed.length > 0
            ? html`<p class="error">Tâches en échec (voir le journal du serveur)&#160;: ${failed.map((o) => o.label).join(', ')}.</p>`
            : ''
        }</div>`
    : ''
}
<section class="card" aria-labelledby="now-title">
<h2 id="now-title">Date de l’agence</h2>
<p class="amount"><time datetime="${now.toISOString()}">${longDate.format(now)}</time></p>
<p class="hint">Heure de Paris, ${aheadBy(deps.clock.offsetMs())}. L’horloge n’avance que vers le futur.</p>
</section>
<form method="post" action="/_local/clock" class="card" aria-labelledby="days-title">
<h2 id="days-title">Avancer de quelques jours</h2>
<label for="days">Nombre de jours</label>
<input id="days" name="days" type="number" inputmode="numeric" min="0" max="${MAX_DAYS}" step="1" value="1" required aria-describedby="days-hint">
<p class="hint" id="days-hint">0 exécute seulement les tâches dues maintenant.</p>
<button type="submit">Avancer l’horloge</button>
</form>
<form method="post" action="/_local/clock" class="card" aria-labelledby="to-title">
<h2 id="to-title">Aller à une date</h2>
<label for="to">Date et heure (Paris)</label>
<input id="to" name="to" type="datetime-local" min="${localInputValue(now.getTime())}" required>
<button type="submit">Aller à cette date</button>
</form>
<section aria-labelledby="jobs-title">
<h2 id="jobs-title">À chaque déplacement</h2>
<p>L’horloge traverse le temps jour après jour. Chaque jour traversé&#160;:</p>
<ul>${deps.jobs.jobs.filter((job) => job.cadence === 'each-day').map((job) => html`<li>${job.label}</li>`)}</ul>
<p>Puis une fois, à l’arrivée&#160;:</p>
<ul>${deps.jobs.jobs.filter((job) => job.cadence === 'at-end').map((job) => html`<li>${job.label}</li>`)}</ul>
<p>Les e-mails envoyés arrivent dans la <a href="/_local/mailbox">boîte mail locale</a>.</p>
</section>
</main>`,
  );
}

async function move(deps: ClockRouteDeps, input: MoveInput) {
  const target = input.to !== undefined ? new Date(input.to) : new Date(deps.clock.now().getTime() + (input.days ?? 0) * DAY_MS);
  const moved = await deps.clock.moveTo(target, deps.jobs);
  await deps.flushMail();
  return moved;
}

const backwardsMessage = (now: Date) =>
  `L’horloge de l’agence ne recule pas : elle est déjà au ${longDate.format(now)}. Choisissez une date plus tardive.`;

export function clockPage(deps: ClockRouteDeps) {
  const wantsPage = (c: Context) =>
    accepts(c, { header: 'Accept', supports: ['application/json', 'text/html'], default: 'application/json' }) === 'text/html';
  return new Hono()
    .use('/clock', async (c, next) => {
      c.header('Cache-Control', 'no-store');
      // Moving the clock is a write: never from another site, and never without saying where from.
      if (c.req.method === 'POST' && c.req.header('origin') === undefined && c.req.header('sec-fetch-site') !== 'same-origin')
        throw new ApiError(
          403,
          'CROSS_SITE_REQUEST',
          'Requête refusée : l’horloge ne se déplace que depuis le site de l’agence (en-tête Origin).',
        );
      await next();
    })
    .use('/clock', sameOriginWrites(deps.publicSiteUrl))
    .get('/clock', (c) => (wantsPage(c) ? c.html(page(deps), 200) : c.json({ now: deps.clock.now().toISOString() }, 200)))
    .post('/clock', async (c) => {
      const type = c.req.header('content-type') ?? '';
      if (/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
        const form = await c.req.parseBody().catch(() => null);
        const parsed = form ? v.safeParse(Move, fromForm(form)) : null;
        if (!parsed?.success) {
          const text = parsed ? (parsed.issues[0]?.message ?? DAYS_MESSAGE) : 'Formulaire illisible.';
          return c.html(page(deps, { kind: 'alert', text }), 400);
        }
        if ((parsed.output.days ?? 0) < 0) return c.html(page(deps, { kind: 'alert', text: backwardsMessage(deps.clock.now()) }), 409);
        try {
          const moved = await move(deps, parsed.output);
          return c.html(
            page(deps, {
              kind: 'status',
              text: `L’horloge est au ${longDate.format(moved.now)}. Les tâches dues ont été exécutées.`,
              ran: moved.ran,
            }),
            200,
          );
        } catch (error) {
          if (error instanceof ClockBackwards) return c.html(page(deps, { kind: 'alert', text: backwardsMessage(error.now) }), 409);
          throw error;
        }
      }
      const input = await readJson(c, Move, 'Déplacement de l’horloge invalide');
      if ((input.days ?? 0) < 0) throw new ApiError(409, 'CLOCK_BACKWARDS', backwardsMessage(deps.clock.now()));
      try {
        const moved = await move(deps, input);
        return c.json({ now: moved.now.toISOString() }, 200);
      } catch (error) {
        if (error instanceof ClockBackwards)
          throw new ApiError(409, 'CLOCK_BACKWARDS', backwardsMessage(error.now), { now: error.now.toISOString() });
        throw error;
      }
    });
}
