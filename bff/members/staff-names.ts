import type { MemberRow } from '#bff/members/members.ts';

/** A staff account's display name: the name given at `staff:create`, else the address. */
export function staffName(row: Pick<MemberRow, 'email' | 'onboarding'>): string {
  const name = (row.onboarding as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : row.email;
}
