import { useEffect, useRef, useState } from 'react';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { formatParis } from '#src/features/onboarding/step-page.tsx';
import { count } from '#machines/french/plural.ts';

const MINUTE_MS = 60_000;

/**
 * The time left in words, its two largest units (« 4 jours et 3 heures », « 2 heures et 5 minutes »,
 * « 5 minutes »); minutes rounded up, so the last one reads « 1 minute ». The end date is shown below.
 */
export function timeLeft(ms: number): string {
  const total = Math.max(1, Math.ceil(ms / MINUTE_MS));
  const days = Math.floor(total / (24 * 60));
  const hours = Math.floor((total % (24 * 60)) / 60);
  const minutes = total % 60;
  const [first, second] = days
    ? [count(days, 'jour', 'jours'), hours ? count(hours, 'heure', 'heures') : '']
    : hours
      ? [count(hours, 'heure', 'heures'), minutes ? count(minutes, 'minute', 'minutes') : '']
      : [count(minutes, 'minute', 'minutes'), ''];
  return second ? `${first} et ${second}` : first;
}

/**
 * Time left until `until` (ms), refreshed every 30 s; the end date (Paris time) is always shown.
 * Not a live region: a ticking announcement would be noise.
 */
export function Countdown({ until, label, onDone }: { until: number; label: string; onDone?: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const left = until - now;
  const done = useRef(false);
  useEffect(() => {
    if (left > 0 || done.current) return;
    done.current = true; // once: the caller reloads the session
    onDone?.();
  }, [left, onDone]);
  return (
    <div>
      <p>{label}</p>
      <p className={styles.countdown}>{left > 0 ? `Encore ${timeLeft(left)}` : 'C’est le moment.'}</p>
      <p className={styles.cycle}>
        Échéance : <time dateTime={new Date(until).toISOString()}>{formatParis(until)}</time> (heure de Paris)
      </p>
    </div>
  );
}
