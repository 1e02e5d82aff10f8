import { describe, expect, it, vi } from 'vitest';
import { createSessionStore, type SessionUser, type SettingsOutcome } from '#src/lib/session.ts';
import { toSessionUser } from '#src/lib/session-settings.ts';
import { SUBSCRIPTION_NOT_STARTED } from '#tests/support/session-user.ts';

const member: SessionUser = {
  id: 'u1',
  email: 'amina@example.fr',
  role: 'femme',
  aal: 'aal1',
  selectedPlanId: null,
  meeting: false,
  subscription: SUBSCRIPTION_NOT_STARTED,
};

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('session store', () => {
  it('starts unknown, loads once and answers ensure() from memory', async () => {
    const load = vi.fn(async (): Promise<SettingsOutcome> => ({ kind: 'signed-in', user: member }));
    const store = createSessionStore(load);
    expect(store.getSnapshot()).toMatchObject({ status: 'unknown', user: null, loading: false });
    const [a, b] = await Promise.all([store.ensure(), store.ensure()]);
    expect(a).toBe(b);
    expect(a).toMatchObject({ status: 'signed-in', user: member, aal: 'aal1', loading: false });
    await store.ensure();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('notifies subscribers: loading, then the outcome', async () => {
    const store = createSessionStore(async () => ({ kind: 'signed-out' }));
    const seen: string[] = [];
    const unsubscribe = store.subscribe(() => seen.push(`${store.getSnapshot().status}:${store.getSnapshot().loading}`));
    await store.ensure();
    unsubscribe();
    expect(seen).toEqual(['unknown:true', 'signed-out:false']);
  });

  it('goes signed-in → signed-out on refresh after a 401, and on clear()', async () => {
    let outcome: SettingsOutcome = { kind: 'signed-in', user: member };
    const store = createSessionStore(async () => outcome);
    await store.ensure();
    outcome = { kind: 'signed-out' };
    expect(await store.refresh()).toMatchObject({ status: 'signed-out', user: null, aal: null });
    outcome = { kind: 'signed-in', user: { ...member, aal: 'aal2', role: 'staff' } };
    expect(await store.refresh()).toMatchObject({ status: 'signed-in', aal: 'aal2' });
    store.clear();
    expect(store.getSnapshot()).toMatchObject({ status: 'signed-out', user: null });
  });

  it('records a failed load, tells the failure listeners, and retries on the next ensure()', async () => {
    const outcomes: SettingsOutcome[] = [
      { kind: 'failed', error: { status: 500, code: 'INTERNAL', message: 'boom' } },
      { kind: 'signed-in', user: member },
    ];
    const store = createSessionStore(
      async () => outcomes.shift() ?? { kind: 'signed-out' },
      () => new Date('2025-01-01T00:00:00Z'),
    );
    const onFailure = vi.fn();
    store.onFailure(onFailure);
    const failed = await store.ensure();
    expect(failed).toMatchObject({ status: 'failed', user: null });
    expect(failed.errors).toEqual([{ status: 500, code: 'INTERNAL', message: 'boom', at: '2025-01-01T00:00:00.000Z' }]);
    expect(onFailure).toHaveBeenCalledOnce();
    const retried = await store.ensure();
    expect(retried).toMatchObject({ status: 'signed-in', user: member });
    expect(retried.errors).toHaveLength(1);
  });

  it('turns a thrown loader into a failure', async () => {
    const store = createSessionStore(async () => {
      throw new Error('offline');
    });
    expect(await store.ensure()).toMatchObject({ status: 'failed', errors: [{ code: 'LOAD_FAILED', message: 'offline' }] });
  });

  it('ignores a stale answer: the latest refresh and a local sign-out win', async () => {
    const first = deferred<SettingsOutcome>();
    const second = deferred<SettingsOutcome>();
    const queue = [first.promise, second.promise];
    const store = createSessionStore(() => queue.shift() ?? Promise.resolve({ kind: 'signed-out' }));
    const a = store.refresh();
    const b = store.refresh();
    second.resolve({ kind: 'signed-out' });
    await b;
    first.resolve({ kind: 'signed-in', user: member });
    await a;
    expect(store.getSnapshot().status).toBe('signed-out');

    const late = deferred<SettingsOutcome>();
    const store2 = createSessionStore(() => late.promise);
    const pending = store2.refresh();
    store2.clear();
    late.resolve({ kind: 'signed-in', user: member });
    await pending;
    expect(store2.getSnapshot().status).toBe('signed-out');
  });
});

describe('toSessionUser', () => {
  it('needs an id', () => {
    expect(toSessionUser({ email: 'x@y.fr' })).toBeNull();
    expect(toSessionUser(null)).toBeNull();
    expect(toSessionUser({ id: 'u1', email: 'x@y.fr', role: 'homme', aal: 'aal2', subscription: {} })).toMatchObject({
      id: 'u1',
      aal: 'aal2',
      meeting: false,
    });
    expect(toSessionUser({ id: 'u1', meeting: true })?.meeting).toBe(true);
  });
});
