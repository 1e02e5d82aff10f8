import { loadSharp } from '#bff/photos/member-photos.ts';

/**
 * A demo member's picture: never a face. A few coloured geometric shapes and the initial, drawn as
 * an SVG and rasterised by sharp into a PNG that then goes through the product's own photo
 * pipeline (`processPhoto`, `addPhoto`), as an upload would. Deterministic for a seed.
 */

const PALETTES: readonly (readonly [string, string, string])[] = [
  ['#1f4e5f', '#f2c57c', '#ddb967'],
  ['#5b3758', '#f9dbbd', '#ffa5ab'],
  ['#2d3a3a', '#b8d8ba', '#d9dbbc'],
  ['#3d348b', '#f7b801', '#f18701'],
  ['#264653', '#2a9d8f', '#e9c46a'],
  ['#6d597a', '#eaac8b', '#e56b6f'],
  ['#134074', '#8da9c4', '#eef4ed'],
  ['#582f0e', '#a68a64', '#ede0d4'],
];

function avatarSvg(initial: string, seed: number): string {
  const [ground, shape, accent] = PALETTES[seed % PALETTES.length] as readonly [string, string, string];
  const turn = (seed * 37) % 360;
  const letter = initial
    .slice(0, 1)
    .toUpperCase()
    .replace(/[<>&"']/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">
  <rect width="480" height="480" fill="${ground}"/>
  <g transform="rotate(${turn} 240 240)">
    <circle cx="120" cy="110" r="150" fill="${shape}" opacity="0.85"/>
    <rect x="270" y="280" width="260" height="260" rx="40" fill="${accent}" opacity="0.8"/>
    <polygon points="380,40 470,200 290,200" fill="${accent}" opacity="0.6"/>
  </g>
  <circle cx="240" cy="240" r="110" fill="#ffffff" opacity="0.92"/>
  <text x="240" y="240" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-size="120" font-weight="700" fill="${ground}">${letter}</text>
</svg>`;
}

/** The PNG bytes of a demo avatar. */
export async function avatarPng(initial: string, seed: number): Promise<Uint8Array> {
  const sharp = await loadSharp();
  return new Uint8Array(
    await sharp(Buffer.from(avatarSvg(initial, seed)))
      .png()
      .toBuffer(),
  );
}
