import base from '../../playwright.config.ts';
import { defineConfig } from '@playwright/test';
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'public-site.spec.ts',
  use: { ...base.use, baseURL: 'http://localhost:4312' },
  webServer: { command: 'node --import tsx .serve-mine.tmp.ts', url: 'http://localhost:4312/api/v1/health', reuseExistingServer: false, timeout: 120_000, env: { MY_PORT: '4312', MY_CLIENT_DIR: '/tmp/union-mine/client' }, stdout: 'ignore', stderr: 'pipe' },
});
