import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { type SelectOption, SelectField, staffOptions } from '#src/features/dashboard/select-field.tsx';
import { api, send } from '#src/lib/api-client.ts';
import { NO_COUNSELLOR } from '#machines/follow-up/follow-up.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { unwrap } from '#src/lib/query-client.ts';

/** `GET /api/v1/dashboard/tags`: the tags in use (with how many members) and the staff accounts. */
function getTags() {
  return send(api.dashboard.tags.$get());
}

/** The tags and the staff accounts, asked once for the filters, the bulk bar and the candidates' filters. */
export const tagsQuery = { queryKey: staffKeys.tags, queryFn: () => unwrap(getTags()) };

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
  const options = useQuery(tagsQuery).data;
  const tags = options?.tags ?? [];
  const tagOptions: SelectOption[] = [
    { value: '', label: 'Toutes les étiquettes' },
    // A tag from the URL that no member carries any more stays shown as chosen.
    ...(tag && !tags.some((t) => t.tag === tag) ? [{ value: tag, label: tag }] : []),
    ...tags.map((t) => ({ value: t.tag, label: `${t.tag} (${t.members})` })),
  ];
  const counsellorOptions: SelectOption[] = [
    { value: '', label: 'Tous les conseillers' },
    { value: NO_COUNSELLOR, label: 'Sans conseiller' },
    ...staffOptions(options?.staff ?? []),
  ];
  return (
    <>
      <SelectField
        id={ids.tag}
        label="Étiquette"
        value={tag ?? ''}
        onChange={(value) => onChange({ tag: value || undefined })}
        options={tagOptions}
      />
      <SelectField
        id={ids.counsellor}
        label="Conseiller"
        value={counsellor ?? ''}
        onChange={(value) => onChange({ counsellor: value || undefined })}
        options={counsellorOptions}
      />
    </>
  );
}
