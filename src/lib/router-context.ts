import type { SessionStore } from '#src/lib/session.ts';

/** What every route's `beforeLoad`/`loader` receives as `context`. */
export interface RouterContext {
  session: SessionStore;
}
