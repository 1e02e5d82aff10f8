import { api, send } from '#src/lib/api-client.ts';

/** « Aujourd’hui » (issue 63, decision 203): the staff's day, for « mes membres » or « toute l’agence ». */
export type TodayScope = 'mine' | 'agency';

export function getToday(scope: TodayScope) {
  return send(api.dashboard.today.$get({ query: { scope } }));
}

type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
type Today = Ok<Awaited<ReturnType<typeof getToday>>>;
export type TodayGroup = Today['groups'][number];
export type TodayItem = TodayGroup['items'][number];

const SCOPE_KEY = 'us-aujourdhui-portee';

/** The toggle's last choice on this browser (« Mes membres » at first). */
export function savedScope(): TodayScope {
  try {
    return globalThis.localStorage?.getItem(SCOPE_KEY) === 'agency' ? 'agency' : 'mine';
  } catch {
    return 'mine';
  }
}

export function saveScope(scope: TodayScope): void {
  try {
    globalThis.localStorage?.setItem(SCOPE_KEY, scope);
  } catch {
    // Private browsing: the choice lasts for the page only.
  }
}
