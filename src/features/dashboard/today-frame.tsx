import type { ReactNode } from 'react';
import { TODAY_GROUP_IDS, TODAY_GROUP_WORDS } from '#machines/staff/today-groups.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import * as own from '#src/features/dashboard/today.css.ts';

/**
 * « Aujourd’hui »'s card around its groups: drawn the same before its code and its answer arrive
 * (the dashboard's first paint) and after, so that nothing below it moves when they come.
 */
export function TodayFrame({
  busy,
  date,
  toggle,
  children,
}: {
  busy: boolean;
  /** The day in words and what waits; a no-break space holds its line before the answer. */
  date: string;
  toggle: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={styles.card} aria-labelledby="today-title" aria-busy={busy} data-testid="today">
      <div className={own.head}>
        <div>
          <h2 id="today-title" className={styles.cardTitle}>
            Aujourd’hui
          </h2>
          <p className={styles.muted}>{date}</p>
        </div>
        {toggle}
      </div>
      {children}
    </section>
  );
}

/** The scope toggle's place while the card's code loads: the same two buttons, inert. */
export function WaitingToggle() {
  return (
    <div className={own.toggle} aria-hidden="true">
      <span className={own.toggleButton}>Mes membres</span>
      <span className={own.toggleButton}>Toute l’agence</span>
    </div>
  );
}

/** The eight groups' titles, each with a « — » in place of its items, until the answer comes. */
export function WaitingGroups() {
  return (
    <div className={own.groups}>
      {TODAY_GROUP_IDS.map((id) => (
        <section key={id} className={own.group} aria-labelledby={`today-${id}`}>
          <div className={own.groupHead}>
            <h3 id={`today-${id}`} className={own.groupTitle}>
              {TODAY_GROUP_WORDS[id].title}
            </h3>
          </div>
          <p className={styles.muted} aria-hidden="true">
            —
          </p>
        </section>
      ))}
    </div>
  );
}
