import type { Plugin } from 'vite';

/**
 * Gives each build an id: compiled into the SPA as `__BUILD_ID__` and written to
 * `dist/client/version.json`, which the SPA polls to offer a reload when a newer build is live.
 */
export function versionPlugin(buildId = process.env.BUILD_ID ?? Date.now().toString(36)): Plugin {
  return {
    name: 'union-version',
    config: () => ({ define: { __BUILD_ID__: JSON.stringify(buildId) } }),
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: `${JSON.stringify({ version: buildId, builtAt: new Date().toISOString() })}\n`,
      });
    },
  };
}
