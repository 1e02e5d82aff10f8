import { queryOptions } from '@tanstack/react-query';
import { getProgress } from '#src/features/introductions/accompaniment-api.ts';
import { getIntroduction, listIntroductions, listMyIntroductions } from '#src/features/introductions/introductions-api.ts';
import { unwrap } from '#src/lib/query-client.ts';

/**
 * The introductions' query keys and queries (decision 214), in one place: the staff's list and
 * files, the member's proposals. A staff event invalidates `staff` (the file and every list), a
 * member's answer `mine`.
 */
export const introductionKeys = {
  all: ['introductions'] as const,
  staff: ['introductions', 'staff'] as const,
  staffList: (etat: string) => ['introductions', 'staff', 'list', etat] as const,
  staffDetail: (id: string) => ['introductions', 'staff', 'detail', id] as const,
  mine: ['introductions', 'mine'] as const,
  /** The member's « Mon accompagnement » (and the end of her contract): under `mine`, asked again with her proposals. */
  progress: ['introductions', 'mine', 'progress'] as const,
};

export const staffIntroductionsQuery = (etat: string) =>
  queryOptions({ queryKey: introductionKeys.staffList(etat), queryFn: () => unwrap(listIntroductions(etat)) });

export const staffIntroductionQuery = (id: string) =>
  queryOptions({ queryKey: introductionKeys.staffDetail(id), queryFn: () => unwrap(getIntroduction(id)) });

export const myIntroductionsQuery = queryOptions({ queryKey: introductionKeys.mine, queryFn: () => unwrap(listMyIntroductions()) });

export const myProgressQuery = queryOptions({ queryKey: introductionKeys.progress, queryFn: () => unwrap(getProgress()) });
