/**
 * The areas where no optional cookie is set and no tag runs (decision 134): the member area
 * (`/mon-compte…`, where members read and give their religious practice and family situation,
 * GDPR art. 9) and the back office (`/dashboard…`, issue 21). The tag manager is never loaded
 * there and the cookie banner does not open by itself (« Gérer les cookies » still opens it); the
 * public site, where the choice matters, asks as before. A module of its own: the root layout
 * reads it on every page, without the consent schemas (and valibot) of `consent.ts`.
 */
export function isTagFreeArea(pathname: string | undefined): boolean {
  if (pathname === undefined) return false;
  return ['/mon-compte', '/dashboard'].some((area) => pathname === area || pathname.startsWith(`${area}/`));
}
