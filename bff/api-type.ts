import type { createApi } from '#bff/api/api.ts';
import type { staffIntroduction } from '#bff/introductions/introductions.ts';

/** The API's type for Hono's typed client (`hc<ApiType>('/api/v1')`): the SPA's only import from bff/. */
export type ApiType = ReturnType<typeof createApi>;

/**
 * The answers of the routes the SPA calls with plain `fetch` (no typed client in those pages'
 * bundles, decision 151): the server's own view types, so that the SPA's copy cannot drift.
 */
export type { MemberIntroductionView, StaffIntroductionItem } from '#bff/introductions/introductions.ts';
export type { MemberProgress } from '#bff/introductions/progress.ts';
export type { OwnPhoto } from '#bff/photos/member-photos.ts';
export type { TerminationView } from '#bff/onboarding/contract-rights.ts';
export type { ContractDocument, Section as ContractSection } from '#bff/contract/contract-text.ts';
export type { ConsentStatus } from '#bff/privacy/consents.ts';
export type { FieldChange } from '#bff/db/change-requests-schema.ts';
export type { SettingsView } from '#bff/members/members.ts';

/** One introduction as staff read it: the item, notes, context and log. */
export type StaffIntroductionDetail = NonNullable<Awaited<ReturnType<typeof staffIntroduction>>>;
