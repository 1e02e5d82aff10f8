import { useState } from 'react';
import type { ApiResult } from '#src/lib/api-result.ts';

/**
 * @deprecated Decision 214: the SPA's server data goes through TanStack Query
 * (src/lib/query-client.ts). Kept only for the files rewritten by other work during issue 61 and
 * migrated after it is merged: dashboard-home-page.tsx, member-page.tsx,
 * member-follow-up-section.tsx, leads-page.tsx, introductions/candidates-section.tsx. Do not use it
 * in new code; delete it with their migration.
 */
/**
 * One staff or member action in flight: `run` clears the previous error, marks the action busy,
 * awaits the request, shows its French error if it failed, and otherwise calls `onOk` with the
 * data. Answers whether it succeeded.
 */
export function useRequest() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run<T>(request: () => Promise<ApiResult<T>>, onOk: (data: T) => Promise<void> | void): Promise<boolean> {
    setBusy(true);
    setError(null);
    const result = await request();
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return false;
    }
    await onOk(result.data);
    return true;
  }
  return { busy, error, setError, run };
}
