import type { ComponentProps } from 'react';
import type * as Sections from '#src/features/public-site/public-sections.tsx';
import { DeferredPart, deferred } from '#src/lib/deferred.tsx';

/**
 * The FAQ, testimonials and price list of the public pages: static copy, in the prerendered HTML,
 * whose code and data are loaded as a deferred part (src/lib/deferred.tsx).
 */
const sections = deferred(() => import('#src/features/public-site/public-sections.tsx'));

export function FaqSection(props: ComponentProps<typeof Sections.FaqSection>) {
  return <DeferredPart part={sections} render={(module) => <module.FaqSection {...props} />} />;
}

export function TestimonialsSection(props: ComponentProps<typeof Sections.TestimonialsSection>) {
  return <DeferredPart part={sections} render={(module) => <module.TestimonialsSection {...props} />} />;
}

export function PlansSection(props: ComponentProps<typeof Sections.PlansSection>) {
  return <DeferredPart part={sections} render={(module) => <module.PlansSection {...props} />} />;
}
