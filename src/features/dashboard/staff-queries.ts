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
};
