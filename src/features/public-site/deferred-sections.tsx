import type { ComponentProps } from 'react';
import type * as Home from '#src/features/public-site/home-sections.tsx';
import type * as Sections from '#src/features/public-site/public-sections.tsx';
// The sections' styles: imported here, so that each page showing them has their rules inlined.
import '#src/features/public-site/sections.css.ts';
import { DeferredPart, deferred } from '#src/lib/deferred.tsx';

/**
 * The FAQ, testimonials and price list of the public pages, and the home page below its hero:
 * static copy, in the prerendered HTML, whose code and data are loaded as deferred parts
 * (src/lib/deferred.tsx).
 */
const sections = deferred(() => import('#src/features/public-site/public-sections.tsx'));
const home = deferred(() => import('#src/features/public-site/home-sections.tsx'));

export function FaqSection(props: ComponentProps<typeof Sections.FaqSection>) {
  return <DeferredPart part={sections} render={(module) => <module.FaqSection {...props} />} />;
}

export function TestimonialsSection(props: ComponentProps<typeof Sections.TestimonialsSection>) {
  return <DeferredPart part={sections} render={(module) => <module.TestimonialsSection {...props} />} />;
}

export function PlansSection(props: ComponentProps<typeof Sections.PlansSection>) {
  return <DeferredPart part={sections} render={(module) => <module.PlansSection {...props} />} />;
}

export function HomeSections(props: ComponentProps<typeof Home.HomeSections>) {
  return <DeferredPart part={home} render={(module) => <module.HomeSections {...props} />} />;
}
