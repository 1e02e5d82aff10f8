import { useRouter } from '@tanstack/react-router';
import type { MouseEvent } from 'react';
import { siteHtml } from '#src/features/public-site/site-values.ts';

/**
 * HTML rendered at build time from the site's Markdown (trusted, our own copy). Links to other
 * pages of the site navigate inside the SPA instead of reloading the page. Its `{{…}}` tokens (the
 * agency's identity, the offers) are filled in from the page's values (site-values.ts).
 */
export function ContentHtml({ html, className }: { html: string; className?: string }) {
  const router = useRouter();

  function onClick(event: MouseEvent<HTMLDivElement>) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!anchor || !href || anchor.target || anchor.hasAttribute('download')) return;
    if (!href.startsWith('/') || href.startsWith('//')) return;
    event.preventDefault();
    void router.navigate({ href });
  }

  // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: delegates clicks of the links inside (keyboard activation of a link fires click too)
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own Markdown, rendered at build time
  return <div className={className} onClick={onClick} dangerouslySetInnerHTML={{ __html: siteHtml(html) }} />;
}
