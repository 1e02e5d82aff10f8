import { useEffect, useId, useState } from 'react';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { api, send } from '#src/lib/api-client.ts';
import { NO_COUNSELLOR } from '#machines/follow-up/follow-up.ts';

type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
type TagsAnswer = Ok<Awaited<ReturnType<typeof getTags>>>;

/** `GET /api/v1/dashboard/tags`: the tags in use (with how many members) and the staff accounts. */
export function getTags() {
  return send(api.dashboard.tags.$get());
}

/**
 * The member list's follow-up filters (decision 124): by tag, by counsellor (or « Sans
 * conseiller »). The values live in the URL with the other filters of `/dashboard`.
 */
export function FollowUpFilters({
  tag,
  counsellor,
  onChange,
}: {
  tag: string | undefined;
  counsellor: string | undefined;
  onChange: (patch: { tag?: string; counsellor?: string }) => void;
}) {
  const ids = { tag: useId(), counsellor: useId() };
  const [options, setOptions] = useState<TagsAnswer | null>(null);
  useEffect(() => {
    let live = true;
    void getTags().then((result) => {
      if (live && result.ok) setOptions(result.data);
    });
    return () => {
      live = false;
    };
  }, []);
  const tags = options?.tags ?? [];
  return (
    <>
      <label className={styles.control} htmlFor={ids.tag}>
        Étiquette
        <select id={ids.tag} className={styles.input} value={tag ?? ''} onChange={(e) => onChange({ tag: e.target.value || undefined })}>
          <option value="">Toutes les étiquettes</option>
          {tag && !tags.some((t) => t.tag === tag) ? <option value={tag}>{tag}</option> : null}
          {tags.map((t) => (
            <option key={t.tag} value={t.tag}>
              {t.tag} ({t.members})
            </option>
          ))}
        </select>
      </label>
      <label className={styles.control} htmlFor={ids.counsellor}>
        Conseiller
        <select
          id={ids.counsellor}
          className={styles.input}
          value={counsellor ?? ''}
          onChange={(e) => onChange({ counsellor: e.target.value || undefined })}
        >
          <option value="">Tous les conseillers</option>
          <option value={NO_COUNSELLOR}>Sans conseiller</option>
          {(options?.staff ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.self ? `Moi (${s.name})` : s.name}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
