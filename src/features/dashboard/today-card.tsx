import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { frenchDateFormat, frenchTimeFormat } from '#machines/french/dates.ts';
import { count } from '#machines/french/plural.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { getToday, saveScope, savedScope, type TodayGroup, type TodayItem, type TodayScope } from '#src/features/dashboard/today-api.ts';
import * as own from '#src/features/dashboard/today.css.ts';
import { TodayFrame, WaitingGroups } from '#src/features/dashboard/today-frame.tsx';
import { TODAY_GROUP_WORDS } from '#machines/staff/today-groups.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { useSession } from '#src/lib/use-session.ts';

const TIME_ZONE = 'Europe/Paris';
const dayInWords = frenchDateFormat({ timeZone: TIME_ZONE, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const shortDay = frenchDateFormat({ timeZone: TIME_ZONE, weekday: 'long', day: 'numeric', month: 'long' });
const time = frenchTimeFormat(TIME_ZONE);

type GroupId = TodayGroup['id'];

/** The screen that lists all of each group's kind (titles and empty texts: `TODAY_GROUP_WORDS`). */
const SCREENS: Record<GroupId, ReactNode> = {
  meetings: <Link to="/dashboard/agenda">Ouvrir l’agenda</Link>,
  toValidate: <Link to="/dashboard/agenda">Ouvrir l’agenda</Link>,
  answers: <Link to="/dashboard/mises-en-relation">Voir les mises en relation</Link>,
  presentations: <a href="#presentations-title">Aller aux présentations</a>,
  leads: <Link to="/dashboard/prospects">Ouvrir les prospects</Link>,
  messages: <Link to="/dashboard/message-direct">Ouvrir les messages</Link>,
  terminations: (
    <Link to="/dashboard" search={{ step: 'resiliation-demandee' }}>
      Voir ces membres
    </Link>
  ),
  payments: <Link to="/dashboard/facturation">Ouvrir la facturation</Link>,
};

/** The member page's card each section of a link lands on. */
const ANCHORS = {
  actions: 'actions-title',
  profil: 'profile-title',
  'rendez-vous': 'meetings-title',
  contrat: 'rights-title',
  paiements: 'billing-title',
} as const;

/** The item's words, as a link one click away from what to do. */
function ItemLink({ item, children }: { item: TodayItem; children: ReactNode }) {
  const link = item.link;
  switch (link.kind) {
    case 'member':
      return (
        <Link to="/dashboard/member/$memberId" params={{ memberId: link.memberId }} hash={ANCHORS[link.section]}>
          {children}
        </Link>
      );
    case 'introduction':
      return (
        <Link to="/dashboard/mises-en-relation/$id" params={{ id: link.introductionId }}>
          {children}
        </Link>
      );
    case 'messages':
      return (
        <Link to="/dashboard/message-direct" search={{ memberId: link.memberId }}>
          {children}
        </Link>
      );
    default:
      return <Link to="/dashboard/prospects">{children}</Link>;
  }
}

/** « aujourd’hui à 14:30 », « demain à 9:00 », « hier », else the day in words. */
function dayWords(ms: number, nowMs: number): string {
  const day = parisDayOf(ms);
  const today = parisDayOf(nowMs);
  const next = (n: number) => parisDayOf(parisDayStartMs(today) + n * 86_400_000 + 3 * 3_600_000);
  if (day === today) return 'aujourd’hui';
  if (day === next(1)) return 'demain';
  if (day === next(-1)) return 'hier';
  return `le ${shortDay.format(ms)}`;
}

function whenOf(group: GroupId, item: TodayItem, nowMs: number): string | null {
  if (item.day !== null) {
    const ms = parisDayStartMs(item.day) + 12 * 3_600_000;
    return `Relance prévue ${dayWords(ms, nowMs)}`;
  }
  if (item.at === null) return null;
  const ms = Date.parse(item.at);
  const at = `${dayWords(ms, nowMs)} à ${time.format(ms)}`;
  switch (group) {
    case 'meetings':
      return at.charAt(0).toUpperCase() + at.slice(1);
    case 'toValidate':
      return `Prévu ${at}`;
    case 'answers':
      return item.label.startsWith('Retour') ? `Rencontre tenue ${at}` : `Délai de réponse : ${at}`;
    case 'presentations':
      return `Écrite ${at}`;
    case 'messages':
      return `Dernier message ${at}`;
    case 'terminations':
      return `À décider avant ${dayWords(ms, nowMs)} (deux mois après la demande)`;
    case 'payments':
      return item.label.startsWith('Mensualité') ? `Échec ${at}` : `À rembourser avant ${dayWords(ms, nowMs)}`;
    default:
      return at;
  }
}

function Group({ group, nowMs }: { group: TodayGroup; nowMs: number }) {
  const words = TODAY_GROUP_WORDS[group.id];
  const titleId = `today-${group.id}`;
  return (
    <section className={own.group} aria-labelledby={titleId} data-testid={`today-${group.id}`}>
      <div className={own.groupHead}>
        <h3 id={titleId} className={own.groupTitle}>
          {words.title} {group.total > 0 ? <span className={styles.muted}>({group.total})</span> : null}
        </h3>
        <span className={styles.muted}>{SCREENS[group.id]}</span>
      </div>
      {group.items.length === 0 ? (
        <p className={styles.muted}>{words.empty}</p>
      ) : (
        <ul className={own.items}>
          {group.items.map((item) => {
            const when = whenOf(group.id, item, nowMs);
            return (
              <li key={item.key} className={own.item}>
                <span>
                  <ItemLink item={item}>
                    {item.label} — {item.people.join(' et ')}
                  </ItemLink>{' '}
                  {item.overdue ? <span className={styles.badge.warning}>en retard</span> : null}
                </span>
                {when || item.detail ? <span className={own.when}>{[when, item.detail].filter(Boolean).join(' · ')}</span> : null}
              </li>
            );
          })}
          {group.total > group.items.length ? (
            <li className={styles.muted}>et {count(group.total - group.items.length, 'autre', 'autres')}…</li>
          ) : null}
        </ul>
      )}
    </section>
  );
}

/**
 * « Aujourd’hui » (issue 63, decision 203): what needs a person today, grouped, each item one
 * click away from its screen, for « Mes membres » (the members one follows, and the leads of
 * nobody or one's own) or « Toute l’agence ». Loaded after the dashboard's first paint.
 */
export function TodayCard() {
  // A counsellor's day is their members' (decision 206): the toggle is the administration's.
  const agencyWide = useSession().user?.staffRole === 'administration';
  const [chosen, setScope] = useState<TodayScope>(savedScope);
  const scope = agencyWide ? chosen : 'mine';
  const today = useQuery({ queryKey: staffKeys.today(scope), queryFn: () => unwrap(getToday(scope)), placeholderData: keepPreviousData });
  const { data } = today;
  const error = errorMessage(today.error);
  const loading = today.isFetching;
  const nowMs = data ? Date.parse(data.at) : Date.now();
  const choose = (next: TodayScope) => {
    saveScope(next);
    setScope(next);
  };
  const total = data?.groups.reduce((sum, g) => sum + g.total, 0) ?? null;
  return (
    <TodayFrame
      busy={loading}
      date={`${dayInWords.format(nowMs)}${total === null ? '' : ` — ${total === 0 ? 'rien en attente' : count(total, 'chose à faire', 'choses à faire')}`}`}
      toggle={
        agencyWide ? (
          // biome-ignore lint/a11y/useSemanticElements: two toggle buttons, not a form's radio group
          <div className={own.toggle} role="group" aria-label="Portée">
            <button type="button" className={own.toggleButton} aria-pressed={scope === 'mine'} onClick={() => choose('mine')}>
              Mes membres
            </button>
            <button type="button" className={own.toggleButton} aria-pressed={scope === 'agency'} onClick={() => choose('agency')}>
              Toute l’agence
            </button>
          </div>
        ) : null
      }
    >
      <FormAlert tone="error">{error}</FormAlert>
      {data ? (
        <div className={own.groups}>
          {data.groups.map((g) => (
            <Group key={g.id} group={g} nowMs={nowMs} />
          ))}
        </div>
      ) : error ? null : (
        <WaitingGroups />
      )}
    </TodayFrame>
  );
}
