import type { MemberRow } from '#bff/members/members.ts';

/** Who is calling, as proven by a verified access token and the member record. */
export interface Caller {
  id: string;
  email: string;
  role: 'homme' | 'femme' | 'staff';
  aal: 'aal1' | 'aal2';
  sessionId: string;
  /** The member row, shared by concurrent requests through the member cache: read-only. */
  member: Readonly<MemberRow>;
  /** Set while matchmaking is paused by a withdrawn sensitive-data consent (decision 070). */
  matchmakingPausedAt: Date | null;
}
