import { createFileRoute } from '@tanstack/react-router';
import { BlogListPage } from '#src/features/public-site/blog-pages.tsx';
import { fetchBlogList } from '#src/features/public-site/content-api.ts';

export const Route = createFileRoute('/_default/blog/')({
  loader: () => fetchBlogList(),
  component: function BlogListRoute() {
    return <BlogListPage articles={Route.useLoaderData()} />;
  },
});
