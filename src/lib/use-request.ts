import { useState } from 'react';
import type { ApiResult } from '#src/lib/api-result.ts';

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
