/** Modules produced at build time by `scripts/vite-plugin-content.ts`. */
declare module 'virtual:content/pages/*' {
  const page: { title: string; description: string; heading: string; html: string };
  export default page;
}

declare module 'virtual:content/data/faq' {
  const faq: { question: string; answer: string }[];
  export default faq;
}

declare module 'virtual:content/data/testimonials' {
  const testimonials: { name: string; city: string; text: string; illustrative: true }[];
  export default testimonials;
}
