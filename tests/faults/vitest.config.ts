import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vite.config.ts';

/**
 * The fault suites (crash and restart, two instances, PostgreSQL restart, webhook replays) spawn
 * servers and a private PostgreSQL cluster: `npm run test:faults`, run by `.ci/run`, not `npm test`.
 * (mergeConfig concatenates arrays: `include` is replaced afterwards; the base's two projects,
 * decision 199, are dropped so that this `include` is the one that counts.)
 */
const config = mergeConfig(base, defineConfig({ test: {} }));
const { projects: _projects, ...baseTest } = config.test ?? {};
config.test = { ...baseTest, include: ['tests/faults/**/*.test.ts'], fileParallelism: false };
export default config;
