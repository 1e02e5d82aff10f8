import { queryOptions } from '@tanstack/react-query';
import { api, send } from '#src/lib/api-client.ts';
import { unwrap } from '#src/lib/query-client.ts';
import type { ConsentKind } from '#machines/privacy/consent-texts.ts';

/** `GET /api/v1/user/consents`: the latest state of each consent, and whether matchmaking is paused. */
const fetchConsents = () => send(api.user.consents.$get());

/** The privacy feature's query keys (decision 214). */
export const privacyKeys = { consents: ['privacy', 'consents'] as const };

/** The member's consents and pause, shared by the account home and « Mon profil ». */
export const consentsQuery = queryOptions({ queryKey: privacyKeys.consents, queryFn: () => unwrap(fetchConsents()) });

/** `POST /api/v1/user/consents/withdraw`. */
export const withdrawConsent = (kind: ConsentKind) => send(api.user.consents.withdraw.$post({ json: { kind } }));

/** `POST /api/v1/user/erase`: the re-typed e-mail must match the account's. */
export const eraseAccount = (email: string) => send(api.user.erase.$post({ json: { email } }));

/** A plain link: the browser downloads the JSON (Content-Disposition: attachment) with the session cookie. */
export const EXPORT_URL = '/api/v1/user/export';
export const SIGNED_CONTRACT_URL = '/api/v1/user/contract/signed.pdf';
