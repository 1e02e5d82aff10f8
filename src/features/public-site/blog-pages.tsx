import { Link } from '@tanstack/react-router';
import { CallToAction } from '#src/features/public-site/content-page.tsx';
import { ContentHtml } from '#src/features/public-site/content-html.tsx';
import { type BlogArticle, type BlogSummary, formatArticleDate } from '#src/features/public-site/content-api.ts';
import { usePageMeta } from '#src/features/public-site/use-page-meta.ts';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { imageUrl, ResponsiveImage } from '#src/features/public-site/responsive-image.tsx';
import { container } from '#src/styles/global.css.ts';

const BLOG_META = {
  title: 'Blog : conseils pour un mariage sincère | Union Sincère',
  description:
    'Préparer son mariage, le rôle du wali, choisir son conjoint, premières rencontres : les conseils et repères de l’agence matrimoniale Union Sincère.',
  path: '/blog',
} as const;

function ArticleMeta({ article }: { article: BlogSummary }) {
  return (
    <p className={styles.articleMeta}>
      <time dateTime={article.date}>{formatArticleDate(article.date)}</time> · {article.readingMinutes} min de lecture
    </p>
  );
}

/** `/blog`: the published articles, newest first. */
export function BlogListPage({ articles }: { articles: BlogSummary[] }) {
  usePageMeta(BLOG_META);
  return (
    <>
      <div className={styles.pageHeader}>
        <div className={container}>
          <p className={styles.eyebrow}>Blog</p>
          <h1 className={styles.pageTitle}>Conseils et repères pour votre projet de mariage</h1>
          <p className={styles.lead}>
            Préparer son mariage, associer sa famille, choisir avec discernement, se rencontrer dans le respect : nos articles pour avancer
            sereinement.
          </p>
        </div>
      </div>
      <div className={`${container} ${styles.body}`}>
        {articles.length === 0 ? (
          <p>Aucun article publié pour le moment.</p>
        ) : (
          <ul className={styles.articleList}>
            {articles.map((article, index) => (
              <li key={article.slug} className={styles.articleCard}>
                <ResponsiveImage
                  src={article.cover}
                  alt={article.coverAlt}
                  width={1200}
                  height={630}
                  maxDisplayWidth={400}
                  sizes="(min-width: 768px) 33vw, 100vw"
                  className={styles.articleCardImage}
                  priority={index < 3}
                />
                {article.draft ? <p className={styles.draftBadge}>Brouillon (aperçu)</p> : null}
                <h2 className={styles.articleCardTitle}>
                  <Link to="/blog/$slug" params={{ slug: article.slug }} className={styles.articleCardLink}>
                    {article.title}
                  </Link>
                </h2>
                <ArticleMeta article={article} />
                <p className={styles.cardText}>{article.description}</p>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

/** `/blog/$slug`: one article. */
export function BlogArticlePage({ article }: { article: BlogArticle }) {
  usePageMeta({
    title: `${article.title} | Union Sincère`,
    description: article.description,
    path: `/blog/${article.slug}`,
    image: /\.svg$/i.test(article.cover) ? imageUrl(article.cover, 1280, 80) : article.cover,
    imageAlt: article.coverAlt,
    type: 'article',
    ...(article.draft ? { noindex: true } : {}),
  });
  return (
    <>
      <article aria-labelledby="article-title">
        <div className={styles.pageHeader}>
          <div className={container}>
            <p className={styles.eyebrow}>
              <Link to="/blog">Blog</Link>
            </p>
            {article.draft ? <p className={styles.draftBadge}>Brouillon (aperçu)</p> : null}
            <h1 id="article-title" className={styles.pageTitle}>
              {article.title}
            </h1>
            <p className={styles.lead}>{article.description}</p>
            <ArticleMeta article={article} />
            <ResponsiveImage
              src={article.cover}
              alt={article.coverAlt}
              width={1200}
              height={630}
              maxDisplayWidth={896}
              sizes="(min-width: 960px) 896px, 100vw"
              className={styles.articleCover}
              priority
            />
          </div>
        </div>
        <div className={`${container} ${styles.body}`}>
          <ContentHtml html={article.html} className={styles.prose} />
          <Link to="/blog" className={styles.backLink}>
            ← Tous les articles
          </Link>
        </div>
      </article>
      <CallToAction
        title="Vous souhaitez être accompagné(e) ?"
        text="Découvrez notre accompagnement vers le mariage, sérieux, discret et respectueux de vos valeurs."
      >
        <Link to="/formulaire-inscription" className={styles.ctaButton}>
          Je me pré-inscris
        </Link>
        <Link to="/qui-sommes-nous" className={styles.ctaLink}>
          Découvrir l’agence
        </Link>
      </CallToAction>
    </>
  );
}
