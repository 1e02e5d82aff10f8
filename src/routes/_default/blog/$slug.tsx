import { createFileRoute } from '@tanstack/react-router';
import { BlogArticlePage } from '#src/features/public-site/blog-pages.tsx';

/** An unknown article (or a draft without the preview token) throws `notFound()`: the 404 page. */
export const Route = createFileRoute('/_default/blog/$slug')({
  // The content client comes with the page's code (blog-pages.tsx), not with every page's routes.
  loader: async ({ params }) => (await import('#src/features/public-site/content-api.ts')).fetchBlogArticle(params.slug),
  component: function BlogArticleRoute() {
    return <BlogArticlePage article={Route.useLoaderData()} />;
  },
});
