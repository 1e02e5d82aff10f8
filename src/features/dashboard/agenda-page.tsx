import { getRouteApi, Link } from '@tanstack/react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as own from '#src/features/dashboard/agenda.css.ts';
import { byDay, type Period, periodOf, periodTitle, timeOf } from '#src/features/dashboard/agenda-view.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { api, send } from '#src/lib/api-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { srOnly } from '#src/styles/global.css.ts';
import { parisDayOf } from '#machines/agenda/agenda.ts';

const route = getRouteApi('/dashboard/_staff/agenda');

/** `GET /api/v1/dashboard/agenda?du&au`: the meetings of the period. */
function getAgenda(du: string, au: string) {
  return send(api.dashboard.agenda.$get({ query: { du, au } }));
}
type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
export type AgendaItem = Ok<Awaited<ReturnType<typeof getAgenda>>>['items'][number];

/** One meeting: its time, kind, member(s) with a link to each file, place, and the introduction to open. */
function AgendaEntry({ item }: { item: AgendaItem }) {
  return (
    <li className={own.item} data-testid="agenda-item">
      <span className={own.time}>
        {timeOf(item.at)}
        {item.endAt ? <span className={styles.muted}> – {timeOf(item.endAt)}</span> : null}
      </span>
      <div className={own.body}>
        <span>
          <span className={styles.badge.neutral}>{item.kindLabel}</span>
        </span>
        <span>
          {item.members.map((m, i) => (
            <span key={m.id}>
              {i > 0 ? ' et ' : null}
              <Link to="/dashboard/member/$memberId" params={{ memberId: m.id }}>
                {m.name}
              </Link>
            </span>
          ))}
        </span>
        {item.place ? <span className={styles.muted}>Lieu : {item.place}</span> : null}
        {item.introductionId ? (
          <span className={styles.muted}>
            {item.detail ? `${item.detail} · ` : null}
            <Link to="/dashboard/mises-en-relation/$id" params={{ id: item.introductionId }}>
              Voir la mise en relation
            </Link>
          </span>
        ) : null}
      </div>
    </li>
  );
}

/** The days of the period and their meetings; a French word for an empty day or period. */
export function AgendaDays({ period, items }: { period: Period; items: AgendaItem[] }) {
  if (items.length === 0) {
    return <p role="status">{period.view === 'jour' ? 'Aucun rendez-vous ce jour-là.' : 'Aucun rendez-vous cette semaine.'}</p>;
  }
  return (
    <div className={own.days}>
      {byDay(period, items).map((d) => (
        <section key={d.day} aria-labelledby={`jour-${d.day}`}>
          {/* A day view's title is already the day. */}
          <h3 id={`jour-${d.day}`} className={period.view === 'jour' ? srOnly : own.dayTitle}>
            {d.title}
          </h3>
          {d.items.length === 0 ? (
            <p className={styles.muted}>Aucun rendez-vous.</p>
          ) : (
            <ul className={styles.messages} aria-label={`Rendez-vous du ${d.title.toLowerCase()}`}>
              {d.items.map((item) => (
                <AgendaEntry key={item.key} item={item} />
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}

/**
 * `/dashboard/agenda`: the meetings of a day or a week (Paris time) — onboarding and matchmaking
 * meetings booked by members, introductions' first meetings — with previous / today / next.
 */
export function AgendaPage() {
  const search = route.useSearch();
  const period = periodOf(search.vue, search.jour, Date.now());
  const { du, au } = period;
  // Another day or week: the one shown stays until the new one arrives.
  const query = useQuery({
    queryKey: staffKeys.agenda(du, au),
    queryFn: async () => (await unwrap(getAgenda(du, au))).items,
    placeholderData: keepPreviousData,
  });
  const items: AgendaItem[] | null = query.data ?? null;
  const error = errorMessage(query.error);
  const loading = query.isFetching;

  const today = parisDayOf(Date.now());
  const unit = period.view === 'jour' ? 'jour' : 'semaine';
  return (
    <div className={styles.page}>
      <div>
        <h1 className={styles.title}>Agenda</h1>
        <p className={styles.text}>
          Les entretiens réservés par les membres et les premières rencontres des mises en relation, à l’heure de Paris.
        </p>
      </div>
      <section className={styles.card} aria-labelledby="agenda-title" aria-busy={loading}>
        <div className={own.toolbar}>
          <h2 id="agenda-title" className={styles.cardTitle} aria-live="polite">
            {periodTitle(period)}
          </h2>
          <nav aria-label="Période affichée" className={own.group}>
            <Link
              to="/dashboard/agenda"
              search={{ vue: 'jour', jour: period.day }}
              className={own.navLink}
              aria-current={period.view === 'jour' ? 'page' : undefined}
            >
              Jour
            </Link>
            <Link
              to="/dashboard/agenda"
              search={{ vue: 'semaine', jour: period.day }}
              className={own.navLink}
              aria-current={period.view === 'semaine' ? 'page' : undefined}
            >
              Semaine
            </Link>
          </nav>
          <nav aria-label="Changer de période" className={own.group}>
            <Link to="/dashboard/agenda" search={{ vue: period.view, jour: period.previous }} className={own.navLink}>
              {unit === 'jour' ? 'Jour précédent' : 'Semaine précédente'}
            </Link>
            <Link to="/dashboard/agenda" search={{ vue: period.view, jour: today }} className={own.navLink}>
              Aujourd’hui
            </Link>
            <Link to="/dashboard/agenda" search={{ vue: period.view, jour: period.next }} className={own.navLink}>
              {unit === 'jour' ? 'Jour suivant' : 'Semaine suivante'}
            </Link>
          </nav>
        </div>
        <FormAlert tone="error">{error}</FormAlert>
        {items ? <AgendaDays period={period} items={items} /> : <p className={styles.muted}>Chargement…</p>}
      </section>
    </div>
  );
}
