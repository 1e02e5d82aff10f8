import { useEffect } from 'react';
import type { PageMeta } from '#src/features/public-site/page-meta.ts';

let collected: PageMeta | null = null;

/** The meta of the last page rendered on the server (prerender), then forgotten. */
export function takeCollectedMeta(): PageMeta | null {
  const meta = collected;
  collected = null;
  return meta;
}

/**
 * Whether `<head>` already holds this page's tags: true on a prerendered page, whose HTML has them
 * from the same meta (scripts/prerender.ts), so the code that writes them is not loaded at all.
 */
function headHolds(meta: PageMeta): boolean {
  const description = document.head.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;
  const canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.getAttribute('href') ?? '';
  return (
    document.title === meta.title && description === meta.description && new URL(canonical, window.location.href).pathname === meta.path
  );
}

/**
 * Head tags of a public page (title, description, canonical, Open Graph: page-meta.ts): recorded
 * during the prerender, written into `<head>` after a client-side navigation.
 */
export function usePageMeta(meta: PageMeta): void {
  if (typeof window === 'undefined') collected = meta;
  const { title, description, path, image, imageAlt, type, noindex } = meta;
  useEffect(() => {
    const next: PageMeta = {
      title,
      description,
      path,
      ...(image ? { image } : {}),
      ...(imageAlt ? { imageAlt } : {}),
      ...(type ? { type } : {}),
      ...(noindex ? { noindex } : {}),
    };
    if (headHolds(next)) return;
    void import('#src/features/public-site/page-meta.ts').then(({ applyPageMeta }) => applyPageMeta(next));
  }, [title, description, path, image, imageAlt, type, noindex]);
}
