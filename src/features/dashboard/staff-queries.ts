/**
 * The query keys of the staff's pages (decision 214), in one place: a write invalidates the keys
 * of what it changed. Everything of the staff's starts with `staff`.
 */
export const staffKeys = {
  all: ['staff'] as const,
  team: ['staff', 'team'] as const,
  invitations: ['staff', 'invitations'] as const,
  billing: (filters: unknown, page: number) => ['staff', 'billing', filters, page] as const,
  accessJournal: (filters: unknown) => ['staff', 'access-journal', filters] as const,
  changeRequests: (memberId: string) => ['staff', 'change-requests', memberId] as const,
  presentations: ['staff', 'presentations'] as const,
  today: (scope: string) => ['staff', 'today', scope] as const,
  funnel: ['staff', 'funnel'] as const,
  leadFunnel: ['staff', 'lead-funnel'] as const,
  leads: ['staff', 'leads'] as const,
  leadList: (filters: unknown) => ['staff', 'leads', 'list', filters] as const,
  templates: ['staff', 'message-templates'] as const,
  members: ['staff', 'members'] as const,
  memberList: (search: unknown) => ['staff', 'members', 'list', search] as const,
  /** Everything of one member's file: a write on the file invalidates it all (header, file, tabs). */
  member: (memberId: string) => ['staff', 'member', memberId] as const,
  memberSummary: (memberId: string) => ['staff', 'member', memberId, 'summary'] as const,
  memberDetail: (memberId: string) => ['staff', 'member', memberId, 'detail'] as const,
  memberIntroductions: (memberId: string) => ['staff', 'member', memberId, 'introductions'] as const,
  memberFollowUp: (memberId: string) => ['staff', 'member', memberId, 'follow-up'] as const,
  /** The staff's conversations: all of them (`undefined`) or one member's. */
  messages: ['staff', 'messages'] as const,
  memberMessages: (memberId: string | undefined) => ['staff', 'messages', 'list', memberId ?? null] as const,
  /** A member's candidates (decision 193), their shortlist and never-propose pairs: a list change invalidates all three. */
  candidates: (memberId: string) => ['staff', 'candidates', memberId] as const,
  candidateList: (memberId: string, outside: boolean, filters: unknown, page: number) =>
    ['staff', 'candidates', memberId, 'list', outside, filters, page] as const,
  shortlist: (memberId: string) => ['staff', 'candidates', memberId, 'shortlist'] as const,
  neverPropose: (memberId: string) => ['staff', 'candidates', memberId, 'never'] as const,
};
