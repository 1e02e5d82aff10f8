import { matching, trimmedText } from '#src/lib/search-params.ts';

/**
 * Search-param readers of the routes (`validateSearch`). A malformed value never throws: it falls
 * back to `undefined` so a bad link degrades to the default behaviour.
 */

export interface RedirectSearch {
  redirect?: string;
}

/** `?redirect=/path` after sign-in; sanitised again with `safeRedirect` before use. */
export function RedirectSearchSchema(search: Record<string, unknown>): RedirectSearch {
  return { redirect: trimmedText(search.redirect) };
}

export interface UpdatePasswordSearch {
  token_hash?: string;
  email?: string;
  type?: string;
}

/** `?token_hash=…&type=recovery[&email=…]` of the recovery mail's link. */
export function UpdatePasswordSearchSchema(search: Record<string, unknown>): UpdatePasswordSearch {
  return {
    token_hash: matching(search.token_hash, /^[0-9a-f]{20,128}$/i, true),
    email: trimmedText(search.email),
    type: trimmedText(search.type),
  };
}

export interface ConfirmEmailSearch {
  token_hash?: string;
  type?: string;
}

/** `?token_hash=…&type=email_change` of the e-mail change confirmation link (decision 102), and `type=signup` of the registration's (decision 187). */
export function ConfirmEmailSearchSchema(search: Record<string, unknown>): ConfirmEmailSearch {
  return {
    token_hash: matching(search.token_hash, /^(pkce_)?[0-9a-f]{20,128}$/i, true),
    type: trimmedText(search.type),
  };
}
