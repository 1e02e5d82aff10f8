import { describe, expect, it, vi } from 'vitest';
import { createVersionChecker } from '#src/lib/version-check.ts';

describe('new version detection', () => {
  it('announces a different live build once, and ignores the same build and failed reads', async () => {
    const live: (string | null | Error)[] = ['b1', null, new Error('offline'), 'b2', 'b3'];
    const onNewVersion = vi.fn();
    const checker = createVersionChecker({
      current: 'b1',
      fetchVersion: async () => {
        const next = live.shift();
        if (next instanceof Error) throw next;
        return next ?? null;
      },
      onNewVersion,
    });
    expect(await checker.check()).toBe(false); // same build
    expect(await checker.check()).toBe(false); // unreadable
    expect(await checker.check()).toBe(false); // offline
    expect(onNewVersion).not.toHaveBeenCalled();
    expect(await checker.check()).toBe(true);
    expect(onNewVersion).toHaveBeenCalledWith('b2');
    expect(await checker.check()).toBe(true);
    expect(onNewVersion).toHaveBeenCalledTimes(1);
  });
});
