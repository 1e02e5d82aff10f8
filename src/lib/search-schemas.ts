import * as v from 'valibot';

/**
 * Search-param schemas of the routes (valibot, used as `validateSearch`). A malformed value never
 * throws: it falls back to `undefined` so a bad link degrades to the default behaviour.
 */
const optionalText = v.fallback(v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(2048))), undefined);

/** `?redirect=/path` after sign-in; sanitised again with `safeRedirect` before use. */
export const RedirectSearchSchema = v.object({ redirect: optionalText });

/** `?token_hash=…&type=recovery[&email=…]` of the recovery mail's link. */
export const UpdatePasswordSearchSchema = v.object({
  token_hash: v.fallback(v.optional(v.pipe(v.string(), v.trim(), v.regex(/^[0-9a-f]{20,128}$/i))), undefined),
  email: optionalText,
  type: optionalText,
});
