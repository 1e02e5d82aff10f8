import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { extname, isAbsolute, join, resolve, sep } from 'node:path';
import { type Context, Hono } from 'hono';
import type Sharp from 'sharp';
import { errorBody } from '#bff/http/errors.ts';
import { log } from '#bff/logger.ts';
import { RenderSlots } from '#bff/images/render-slots.ts';

/**
 * The image endpoint (spec §7 "Images", decisions §7): `?url=/images/…&w=&q=` answers a WebP of
 * a local image resized to one of the breakpoint widths (densities 1 and 2), cached on disk. It
 * is no open proxy: only files under the public folders, never an absolute URL or `..`.
 */

/** Image breakpoints of the spec: xs 320, sm 640, md 768, lg 1024, xl 1280, 2xl 1536. */
const IMAGE_BREAKPOINTS = [320, 640, 768, 1024, 1280, 1536] as const;
const IMAGE_DENSITIES = [1, 2] as const;
/** Every width the endpoint renders: each breakpoint at density 1 and 2. */
export const IMAGE_WIDTHS: readonly number[] = [...new Set(IMAGE_BREAKPOINTS.flatMap((w) => IMAGE_DENSITIES.map((d) => w * d)))].sort(
  (a, b) => a - b,
);
const DEFAULT_QUALITY = 100;
/**
 * The only qualities rendered (issue 60): the SPA and the prerender ask none (100 by default);
 * 75 and 80 are the usual `q` of image CDNs (Vercel's default is 75), 50 a light variant. Any
 * other value is refused, so that one image cannot be rendered in a hundred variants.
 */
export const IMAGE_QUALITIES: readonly number[] = [50, 75, 80, 100];
/** Renders at once: per client, in total, and waiting (decision 182). */
export const RENDER_LIMITS = { perClient: 2, total: 2, queue: 8 };
const SOURCE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.avif', '.gif', '.svg']);
const MAX_SOURCE_BYTES = 20 * 1024 * 1024;
/** SVG sources are rasterised at this density at most (dpi). */
const MAX_SVG_DENSITY = 2400;

let sharpLoading: Promise<typeof Sharp> | undefined;
/** sharp (native, ≈ 50–100 ms to import) is loaded at the first image, not at start (decision 080). */
function loadSharp(): Promise<typeof Sharp> {
  sharpLoading ??= import('sharp').then((module) => module.default);
  return sharpLoading;
}

/** The repository's `public/` folder (images of the site, before and without a build). */
const PUBLIC_DIR = join(import.meta.dirname, '..', '..', 'public');

export interface ImageRouteOptions {
  /** `DATA_DIR`: rendered images are kept in `DATA_DIR/image-cache`. */
  dataDir: string;
  /** The built SPA (`dist/client`), searched after `public/`. */
  clientDir?: string | undefined;
  /** Folders images may come from, in order (default: `public/`, then `clientDir`). */
  roots?: readonly (string | undefined)[];
  cacheDir?: string;
  /** Names the client for the per-client render limit (default: one client for all). */
  clientAddress?: (c: Context) => string;
}

export interface ImageMetadata {
  width: number;
  height: number;
  ratio: number;
}

class ImageRequestError extends Error {}

/** Resolves `url` to a file inside one of the roots, or throws `ImageRequestError`. */
function resolveLocalImage(url: string, roots: readonly string[]): string {
  if (!url.startsWith('/') || url.startsWith('//') || url.includes('\\') || /[\0?#]/.test(url)) {
    throw new ImageRequestError('Seules les images locales du site sont acceptées (chemin commençant par /).');
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    throw new ImageRequestError('Chemin d’image invalide.');
  }
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.') || decoded.includes('\\') || decoded.includes('\0')) {
    throw new ImageRequestError('Chemin d’image invalide.');
  }
  if (!SOURCE_EXTENSIONS.has(extname(decoded).toLowerCase())) {
    throw new ImageRequestError('Format d’image non pris en charge.');
  }
  for (const root of roots) {
    const base = realpathOrNull(root);
    if (!base) continue;
    const candidate = resolve(base, `.${decoded}`);
    if (!candidate.startsWith(base + sep)) continue;
    const real = realpathOrNull(candidate);
    if (!real?.startsWith(base + sep)) continue;
    const stats = statSync(real);
    if (stats.isFile() && stats.size <= MAX_SOURCE_BYTES) return real;
  }
  throw new ImageRequestError('Image introuvable.');
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * Width, height and ratio of an image. A failure is logged and gives 0, 0, 0 (spec §8), so a
 * caller can still lay the image out.
 */
export async function imageMetadata(file: string): Promise<ImageMetadata> {
  try {
    const sharp = await loadSharp();
    const { width, height } = await sharp(file).metadata();
    if (!width || !height) throw new Error('dimensions absentes');
    return { width, height, ratio: width / height };
  } catch (error) {
    log.warn('image : métadonnées illisibles', { file, err: error });
    return { width: 0, height: 0, ratio: 0 };
  }
}

/** Renders `file` as a WebP `width` pixels wide (never enlarging a raster source). */
async function renderWebp(file: string, width: number, quality: number): Promise<Buffer> {
  const isSvg = extname(file).toLowerCase() === '.svg';
  const sharp = await loadSharp();
  let input = sharp(file, { animated: false, limitInputPixels: 50_000_000 });
  if (isSvg) {
    // Vector sources are rasterised at the density that gives the asked width, not upscaled.
    const meta = await imageMetadata(file);
    const density = meta.width > 0 ? Math.min(MAX_SVG_DENSITY, Math.max(72, Math.ceil((72 * width) / meta.width))) : 72;
    input = sharp(file, { density, limitInputPixels: 50_000_000 });
  }
  return input.rotate().resize({ width, withoutEnlargement: !isSvg }).webp({ quality, effort: 4 }).toBuffer();
}

function parseIntegerParam(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,5}$/.test(value)) return null;
  return Number(value);
}

export function imageRoutes(options: ImageRouteOptions) {
  const roots = (options.roots ?? [PUBLIC_DIR, options.clientDir])
    .filter((root): root is string => typeof root === 'string' && root !== '')
    .map((root) => (isAbsolute(root) ? root : resolve(root)));
  const cacheDir = resolve(options.cacheDir ?? join(options.dataDir, 'image-cache'));
  const inFlight = new Map<string, Promise<Buffer>>();
  const slots = new RenderSlots(RENDER_LIMITS);
  const clientOf = options.clientAddress ?? (() => 'all');

  const handler = async (c: Context) => {
    const url = c.req.query('url') ?? '';
    const width = parseIntegerParam(c.req.query('w'));
    const qualityParam = c.req.query('q');
    const quality = qualityParam === undefined || qualityParam === '' ? DEFAULT_QUALITY : parseIntegerParam(qualityParam);
    if (width === null || !IMAGE_WIDTHS.includes(width)) {
      return c.json(errorBody('INVALID_WIDTH', `Largeur non autorisée. Valeurs possibles : ${IMAGE_WIDTHS.join(', ')}.`), 400);
    }
    if (quality === null || !IMAGE_QUALITIES.includes(quality)) {
      return c.json(errorBody('INVALID_QUALITY', `Qualité non autorisée. Valeurs possibles : ${IMAGE_QUALITIES.join(', ')}.`), 400);
    }
    let file: string;
    try {
      file = resolveLocalImage(url, roots);
    } catch (error) {
      if (error instanceof ImageRequestError) {
        const status = error.message === 'Image introuvable.' ? 404 : 400;
        return c.json(errorBody(status === 404 ? 'NOT_FOUND' : 'INVALID_URL', error.message), status);
      }
      throw error;
    }
    const stats = statSync(file);
    const key = createHash('sha256').update(`${file}\0${stats.size}\0${stats.mtimeMs}\0${width}\0${quality}`).digest('hex');
    const cached = join(cacheDir, `${key}.webp`);
    let body: Buffer;
    try {
      body = await readFile(cached);
    } catch {
      let pending = inFlight.get(key);
      if (!pending) {
        const slot = slots.tryRun(clientOf(c), async () => {
          // Another request may have rendered it while this one waited for its turn.
          const done = await readFile(cached).catch(() => null);
          if (done) return done;
          const rendered = await renderWebp(file, width, quality);
          mkdirSync(cacheDir, { recursive: true });
          const temporary = `${cached}.${process.pid}.${Date.now()}.tmp`;
          await writeFile(temporary, rendered);
          await rename(temporary, cached);
          return rendered;
        });
        if (slot === 'client' || slot === 'busy') {
          c.header('Retry-After', '5');
          return slot === 'client'
            ? c.json(errorBody('TOO_MANY_RENDERS', 'Trop d’images demandées à la fois : réessayez dans un instant.'), 429)
            : c.json(errorBody('SERVER_BUSY', 'Le serveur prépare déjà beaucoup d’images : réessayez dans un instant.'), 503);
        }
        pending = slot.finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      try {
        body = await pending;
      } catch (error) {
        log.error('image : rendu impossible', { url, err: error });
        return c.json(errorBody('UNPROCESSABLE_IMAGE', 'Cette image ne peut pas être convertie.'), 422);
      }
    }
    return c.body(new Uint8Array(body), 200, {
      'Content-Type': 'image/webp',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  };

  const metadataHandler = async (c: Context) => {
    try {
      const file = resolveLocalImage(c.req.query('url') ?? '', roots);
      c.header('Cache-Control', 'public, max-age=3600');
      return c.json(await imageMetadata(file), 200);
    } catch (error) {
      if (error instanceof ImageRequestError) return c.json(errorBody('INVALID_URL', error.message), 400);
      throw error;
    }
  };

  return new Hono().get('/_image', handler).get('/_vercel/image', handler).get('/_image/metadata', metadataHandler);
}
