import { createFileRoute } from '@tanstack/react-router';
import { BlogArticlePage } from '#src/features/public-site/blog-pages.tsx';
import { fetchBlogArticle } from '#src/features/public-site/content-api.ts';

/** An unknown article (or a draft without the preview token) throws `notFound()`: the 404 page. */
export const Route = createFileRoute('/_default/blog/$slug')({
  loader: ({ params }) => fetchBlogArticle(params.slug),
  component: function BlogArticleRoute() {
    return <BlogArticlePage article={Route.useLoaderData()} />;
  },
});
