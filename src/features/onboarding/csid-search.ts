/**
 * `?csid=` that a payment link's success URL brings back (kept only when it looks like a checkout
 * session id). A route's `validateSearch`: in the first load, so without valibot.
 */
export function validateCsidSearch(search: Record<string, unknown>): { csid?: string } {
  const csid = search.csid;
  return typeof csid === 'string' && /^cs_[A-Za-z0-9_]{1,250}$/.test(csid) ? { csid } : {};
}
