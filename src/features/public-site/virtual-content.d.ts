/** Modules produced at build time by `scripts/vite-plugin-content.ts`. */
declare module 'virtual:content/pages/*' {
  const page: { title: string; description: string; heading: string; html: string };
  export default page;
}

/** The front matter of `content/pages/<name>.md` without its text (vite.config.ts). */
declare module 'virtual:page-head/*' {
  const head: { title: string; description: string; heading: string };
  export default head;
}

declare module 'virtual:content/data/faq' {
  const faq: { question: string; answer: string }[];
  export default faq;
}

declare module 'virtual:content/data/testimonials' {
  const testimonials: { name: string; city: string; text: string; illustrative: true }[];
  export default testimonials;
}

/** The public price list, computed at build time from machines/onboarding/plans.ts (vite.config.ts). */
declare module 'virtual:public-plans' {
  const publicPlans: {
    monthly: {
      id: string;
      title: string;
      durationMonths: number;
      highlight: boolean;
      price: string;
      cycleLabel: string;
      /** `{{horizon.une-fois}}`: the pay-in-full price under the staff's setting, filled in at serve time. */
      payInFull: string;
      /** `{{horizon.une-fois-detail}}`: the discount, when the setting is the discounted plan. */
      payInFullDetail: string;
      features: string[];
    }[];
    fileFee: { title: string; price: string; description: string };
  };
  export default publicPlans;
}

/** What the public forms render, from machines/public-site/public-forms.ts at build time (vite.config.ts). */
declare module 'virtual:public-form-fields' {
  export const CONTACT_SUBJECTS: readonly string[];
  export const MESSAGE_MAX_LENGTH: number;
}
