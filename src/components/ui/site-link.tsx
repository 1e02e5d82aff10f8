import { Link } from '@tanstack/react-router';
import type { ComponentProps } from 'react';

type LinkProps = ComponentProps<typeof Link>;

export type SiteLinkProps = Omit<LinkProps, 'to' | 'params' | 'search'> & { to: string };

/**
 * A router link to a path held as plain data (menus, footers). The menus name pages that other
 * features own; a path without a route still renders the 404 page, so the cast is safe at runtime.
 * Prefer `<Link>` with a literal `to` everywhere else (it is type-checked against the route tree).
 */
export function SiteLink({ to, ...rest }: SiteLinkProps) {
  return <Link {...(rest as LinkProps)} to={to as LinkProps['to']} />;
}
