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
  /** One lead's history and sent answers, under `leads`: a change to a lead asks it again with the lists. */
  leadHistory: (leadId: string) => ['staff', 'leads', 'history', leadId] as const,
  templates: ['staff', 'message-templates'] as const,
  planSetting: ['staff', 'plan-setting'] as const,
  coupons: ['staff', 'coupons'] as const,
  agenda: (du: string, au: string) => ['staff', 'agenda', du, au] as const,
  members: ['staff', 'members'] as const,
  /** The tags in use (with their counts) and the staff accounts, under `members`: a bulk action asks them again. */
  tags: ['staff', 'members', 'tags'] as const,
  memberList: (search: unknown) => ['staff', 'members', 'list', search] as const,
  // One member's file, its messages and candidates: member-file-keys.ts.
};
