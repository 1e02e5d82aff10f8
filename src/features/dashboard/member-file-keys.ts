/**
 * The query keys of one member's file (decision 214), under `staffKeys.all` (`['staff', …]`): a
 * write on the file invalidates `memberFileKeys.member(id)` (header, file, tabs). Apart from
 * `staff-queries.ts` so that the file's page carries them in its own chunk (its shell's file
 * ceiling, decision 159).
 */
export const memberFileKeys = {
  member: (memberId: string) => ['staff', 'member', memberId] as const,
  summary: (memberId: string) => ['staff', 'member', memberId, 'summary'] as const,
  detail: (memberId: string) => ['staff', 'member', memberId, 'detail'] as const,
  introductions: (memberId: string) => ['staff', 'member', memberId, 'introductions'] as const,
  followUp: (memberId: string) => ['staff', 'member', memberId, 'follow-up'] as const,
  /** The « Facturation » card and its invoices and credit notes: asked again with the rest of the file after a write on it. */
  billing: (memberId: string) => ['staff', 'member', memberId, 'billing'] as const,
  documents: (memberId: string) => ['staff', 'member', memberId, 'documents'] as const,
  accessLog: (memberId: string) => ['staff', 'member', memberId, 'access-log'] as const,
  photos: (memberId: string) => ['staff', 'member', memberId, 'photos'] as const,
  /** The staff's conversations (`['staff', 'messages', …]`): all of them (`undefined`) or one member's. */
  messages: ['staff', 'messages'] as const,
  memberMessages: (memberId: string | undefined) => ['staff', 'messages', 'list', memberId ?? null] as const,
  /** A member's candidates (decision 193), their shortlist and never-propose pairs: a list change invalidates all three. */
  candidates: (memberId: string) => ['staff', 'candidates', memberId] as const,
  candidateList: (memberId: string, outside: boolean, filters: unknown, page: number) =>
    ['staff', 'candidates', memberId, 'list', outside, filters, page] as const,
  shortlist: (memberId: string) => ['staff', 'candidates', memberId, 'shortlist'] as const,
  neverPropose: (memberId: string) => ['staff', 'candidates', memberId, 'never'] as const,
};
