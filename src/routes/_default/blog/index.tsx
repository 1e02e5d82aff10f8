import { createFileRoute } from '@tanstack/react-router';
import { BlogListPage } from '#src/features/public-site/blog-pages.tsx';

export const Route = createFileRoute('/_default/blog/')({
  // The content client comes with the page's code (blog-pages.tsx), not with every page's routes.
  loader: async () => (await import('#src/features/public-site/content-api.ts')).fetchBlogList(),
  component: function BlogListRoute() {
    return <BlogListPage articles={Route.useLoaderData()} />;
  },
});
