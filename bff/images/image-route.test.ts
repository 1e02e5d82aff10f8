import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, imageMetadata, imageRoutes } from '#bff/images/image-route.ts';
import { createLogger, currentLogger, setLogger } from '#bff/logger.ts';
import { startTestProduct } from '#tests/support/test-product.ts';

type Product = Awaited<ReturnType<typeof startTestProduct>>;
let product: Product;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'union-images-'));
  product = await startTestProduct({ env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await product.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (path: string) => product.agent().get(path);

describe('GET /_image (and /_vercel/image)', () => {
  it('offers the breakpoint widths at densities 1 and 2 only', () => {
    expect(IMAGE_WIDTHS).toEqual([320, 640, 768, 1024, 1280, 1536, 2048, 2560, 3072]);
  });

  it('renders a local image as a WebP of the asked width, cached for a year', async () => {
    const response = await get('/_image?url=/images/hero.svg&w=640');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(640);
    expect(meta.height).toBe(480); // hero.svg is 1200 × 900
  });

  it('serves the spec path /_vercel/image the same way, at density 2', async () => {
    const response = await get('/_vercel/image?url=%2Fimages%2Fog-default.svg&w=2560&q=80');
    expect(response.status).toBe(200);
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 2560, 1344]);
  });

  it('uses quality 100 by default (a lower q gives a smaller file)', async () => {
    const best = await (await get('/_image?url=/images/hero.svg&w=1024')).arrayBuffer();
    const explicit = await (await get('/_image?url=/images/hero.svg&w=1024&q=100')).arrayBuffer();
    const low = await (await get('/_image?url=/images/hero.svg&w=1024&q=50')).arrayBuffer();
    expect(best.byteLength).toBe(explicit.byteLength);
    expect(low.byteLength).toBeLessThan(best.byteLength);
  });

  it('keeps rendered images on disk under DATA_DIR/image-cache and answers the same bytes again', async () => {
    const first = Buffer.from(await (await get('/_image?url=/images/hero.svg&w=320&q=75')).arrayBuffer());
    const files = readdirSync(join(dataDir, 'image-cache')).filter((f) => f.endsWith('.webp'));
    expect(files.length).toBeGreaterThan(0);
    const second = Buffer.from(await (await get('/_image?url=/images/hero.svg&w=320&q=75')).arrayBuffer());
    expect(second.equals(first)).toBe(true);
    expect(readdirSync(join(dataDir, 'image-cache')).filter((f) => f.endsWith('.webp'))).toHaveLength(files.length);
  });

  it.each([
    ['a width off the breakpoints', '/_image?url=/images/hero.svg&w=500', 'INVALID_WIDTH'],
    ['no width', '/_image?url=/images/hero.svg', 'INVALID_WIDTH'],
    ['a width that is not a number', '/_image?url=/images/hero.svg&w=640px', 'INVALID_WIDTH'],
    ['quality 0', '/_image?url=/images/hero.svg&w=640&q=0', 'INVALID_QUALITY'],
    ['quality 101', '/_image?url=/images/hero.svg&w=640&q=101', 'INVALID_QUALITY'],
    ['quality -5', '/_image?url=/images/hero.svg&w=640&q=-5', 'INVALID_QUALITY'],
    ['no url', '/_image?w=640', 'INVALID_URL'],
    ['a remote URL', '/_image?url=https://example.com/photo.png&w=640', 'INVALID_URL'],
    ['a protocol-relative URL', '/_image?url=//example.com/photo.png&w=640', 'INVALID_URL'],
    ['a parent folder', '/_image?url=/images/../../package.json&w=640', 'INVALID_URL'],
    ['an encoded parent folder', '/_image?url=/images/%252e%252e/%252e%252e/bff/x.png&w=640', 'INVALID_URL'],
    ['a backslash', '/_image?url=/images\\..\\..\\x.png&w=640', 'INVALID_URL'],
    ['a file that is not an image', '/_image?url=/favicon.txt&w=640', 'INVALID_URL'],
    ['a relative path', '/_image?url=images/hero.svg&w=640', 'INVALID_URL'],
  ])('refuses %s with 400', async (_name, path, code) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string; message: string } }).error.code).toBe(code);
  });

  it('answers 404 for a local image that does not exist', async () => {
    const response = await get('/_image?url=/images/absente.png&w=640');
    expect(response.status).toBe(404);
  });
});

describe('image sources and metadata', () => {
  let root: string;
  let outside: string;
  let app: ReturnType<typeof imageRoutes>;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'union-img-root-'));
    outside = mkdtempSync(join(tmpdir(), 'union-img-outside-'));
    mkdirSync(join(root, 'images'));
    await sharp({ create: { width: 400, height: 200, channels: 3, background: '#15803d' } })
      .png()
      .toFile(join(root, 'images', 'small.png'));
    await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .png()
      .toFile(join(outside, 'secret.png'));
    writeFileSync(join(root, 'images', 'broken.png'), 'not an image');
    symlinkSync(join(outside, 'secret.png'), join(root, 'images', 'link.png'));
    app = imageRoutes({ dataDir: root, roots: [root], cacheDir: join(root, 'cache') });
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('never enlarges a raster image', async () => {
    const response = await app.request('/_image?url=/images/small.png&w=1280');
    expect(response.status).toBe(200);
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 400, 200]);
  });

  it('refuses a symbolic link that leads outside the public folder', async () => {
    expect((await app.request('/_image?url=/images/link.png&w=320')).status).toBe(404);
  });

  it('gives width, height and ratio, and 0, 0, 0 with a logged warning when the metadata cannot be read', async () => {
    const ok = await app.request('/_image/metadata?url=/images/small.png');
    expect(await ok.json()).toEqual({ width: 400, height: 200, ratio: 2 });
    const lines: string[] = [];
    const previous = currentLogger();
    setLogger(createLogger('warn', { write: (line: string) => void lines.push(line) }));
    try {
      expect(await imageMetadata(join(root, 'images', 'broken.png'))).toEqual({ width: 0, height: 0, ratio: 0 });
      const [entry] = lines.map((line) => JSON.parse(line) as { level: string; msg: string; file: string });
      expect(entry).toMatchObject({ level: 'warn', msg: 'image : métadonnées illisibles' });
      expect(entry?.file).toContain('broken.png');
      const response = await app.request('/_image/metadata?url=/images/broken.png');
      expect(await response.json()).toEqual({ width: 0, height: 0, ratio: 0 });
    } finally {
      setLogger(previous);
    }
  });

  it('answers 422, not 500, when an image cannot be converted', async () => {
    const lines: string[] = [];
    const previous = currentLogger();
    setLogger(createLogger('warn', { write: (line: string) => void lines.push(line) }));
    try {
      const response = await app.request('/_image?url=/images/broken.png&w=320');
      expect(response.status).toBe(422);
      expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('image : rendu impossible');
    } finally {
      setLogger(previous);
    }
  });
});
