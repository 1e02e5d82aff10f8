/**
 * The query keys of the member's own pages (decision 214), in one place: a write invalidates (or
 * sets, when the server answers with the new state) the keys of what it changed.
 */
export const memberKeys = {
  all: ['member'] as const,
  photos: ['member', 'photos'] as const,
  emailStatus: ['member', 'email-status'] as const,
  terminations: ['member', 'terminations'] as const,
  messages: ['member', 'messages'] as const,
  invoices: ['member', 'invoices'] as const,
  creditNotes: ['member', 'credit-notes'] as const,
  instalments: ['member', 'instalments'] as const,
  answers: ['member', 'answers'] as const,
  guardian: ['member', 'guardian'] as const,
  presentation: ['member', 'presentation'] as const,
};
