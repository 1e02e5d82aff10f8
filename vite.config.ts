import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { contentPlugin } from './scripts/vite-plugin-content.ts';
import { versionPlugin } from './scripts/vite-plugin-version.ts';

export default defineConfig({
  plugins: [
    // The route generator rewrites src/route-tree.gen.ts; tests need no route tree.
    !process.env.VITEST &&
      tanstackRouter({
        target: 'react',
        autoCodeSplitting: true,
        routesDirectory: 'src/routes',
        generatedRouteTree: 'src/route-tree.gen.ts',
      }),
    react(),
    vanillaExtractPlugin(),
    contentPlugin(),
    versionPlugin(),
  ],
  build: { outDir: 'dist/client', sourcemap: false, target: 'es2022', manifest: true },
  test: {
    include: ['{src,bff,machines,tests/unit,tests/integration,tests/security,scripts}/**/*.test.{ts,tsx}'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
