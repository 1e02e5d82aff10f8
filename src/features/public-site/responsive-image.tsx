/** Image breakpoints of the spec (xs 320 … 2xl 1536) at densities 1 and 2: the widths `/_image` renders. */
const IMAGE_WIDTHS = [320, 640, 768, 1024, 1280, 1536, 2048, 2560, 3072] as const;

export interface ResponsiveImageProps {
  src: string;
  alt: string;
  /** Intrinsic size (sets the aspect ratio, so the layout does not shift while loading). */
  width: number;
  height: number;
  /** Largest width the image is shown at, in CSS pixels (srcset goes up to twice it). */
  maxDisplayWidth: number;
  /** The `sizes` attribute, e.g. `(min-width: 1024px) 40vw, 100vw`. */
  sizes: string;
  className?: string;
  /** Above the fold: load now, with high priority. */
  priority?: boolean;
  quality?: number;
}

/** `/_image?url=…&w=…&q=…` */
export function imageUrl(src: string, width: number, quality?: number): string {
  const params = new URLSearchParams({ url: src, w: String(width) });
  if (quality !== undefined) params.set('q', String(quality));
  return `/_image?${params.toString()}`;
}

/** The srcset of a raster image: every rendered width up to twice the largest display width. */
export function imageSrcSet(src: string, maxDisplayWidth: number, quality?: number): { src: string; srcSet: string } {
  const widths = IMAGE_WIDTHS.filter((w) => w <= maxDisplayWidth * 2);
  const usable = widths.length > 0 ? widths : [IMAGE_WIDTHS[0]];
  const middle = usable.find((w) => w >= maxDisplayWidth) ?? usable[usable.length - 1] ?? IMAGE_WIDTHS[0];
  return { src: imageUrl(src, middle, quality), srcSet: usable.map((w) => `${imageUrl(src, w, quality)} ${w}w`).join(', ') };
}

/**
 * An image of the site. Raster images go through the image endpoint (WebP, breakpoint widths,
 * `srcset`/`sizes`); vector images (SVG) are served as they are: they are sharp at any size and
 * far smaller than any raster rendering.
 */
export function ResponsiveImage({
  src,
  alt,
  width,
  height,
  maxDisplayWidth,
  sizes,
  className,
  priority = false,
  quality,
}: ResponsiveImageProps) {
  const loading = priority ? 'eager' : 'lazy';
  const fetchPriority = priority ? 'high' : 'auto';
  // Vector images are served as they are; raster ones through the image endpoint, per width.
  const responsive = /\.svg$/i.test(src) ? { src } : { ...imageSrcSet(src, maxDisplayWidth, quality), sizes };
  return (
    <img
      {...responsive}
      alt={alt}
      width={width}
      height={height}
      className={className}
      loading={loading}
      fetchPriority={fetchPriority}
      decoding="async"
    />
  );
}
