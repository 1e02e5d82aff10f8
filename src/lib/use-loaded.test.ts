import { describe, expect, it } from 'vitest';
import type { ApiFailure, ApiResult } from '#src/lib/api-result.ts';
import { createLoader, initialLoaded, type Loaded, type Loader, startLoader } from '#src/lib/use-loaded.ts';

/** A component's state as `setState` would hold it. */
function fakeState<T>(initial: Loaded<T> = initialLoaded<T>()) {
  const box = { state: initial };
  const update = (change: (state: Loaded<T>) => Loaded<T>) => {
    box.state = change(box.state);
  };
  return { box, update };
}

/** A request whose answer the test gives when it wants. */
function pending<T>() {
  let answer: (result: ApiResult<T>) => void = () => {};
  const promise = new Promise<ApiResult<T>>((resolve) => {
    answer = resolve;
  });
  return { request: () => promise, answer };
}

const ok = <T>(data: T): ApiResult<T> => ({ ok: true, status: 200, data });
const failed = (message: string): ApiResult<never> => ({
  ok: false,
  error: { status: 500, code: 'x', message, fieldErrors: {} } satisfies ApiFailure,
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('useLoaded: a page loads its list', () => {
  it('shows nothing until the first success, then the data; a failure shows its French message and keeps the data', async () => {
    const { box, update } = fakeState<string[]>();
    const loader = createLoader(update);
    expect(box.state).toEqual({ data: null, error: null, loading: false });

    const first = pending<string[]>();
    const loading = loader.load(first.request);
    expect(box.state).toEqual({ data: null, error: null, loading: true });
    first.answer(failed('Impossible de joindre le serveur.'));
    await loading;
    expect(box.state).toEqual({ data: null, error: 'Impossible de joindre le serveur.', loading: false });

    await loader.load(async () => ok(['a']));
    expect(box.state).toEqual({ data: ['a'], error: null, loading: false });

    await loader.load(async () => failed('Ressource introuvable.'));
    expect(box.state).toEqual({ data: ['a'], error: 'Ressource introuvable.', loading: false });

    await loader.load(async () => ok(['b']));
    expect(box.state).toEqual({ data: ['b'], error: null, loading: false });
  });

  it('reload() resolves once the answer is shown', async () => {
    const { box, update } = fakeState<number>();
    const loader = createLoader(update);
    const answer = pending<number>();
    let done = false;
    const reloading = loader.load(answer.request).then(() => {
      done = true;
    });
    await settle();
    expect(done).toBe(false);
    answer.answer(ok(7));
    await reloading;
    expect(box.state.data).toBe(7);
  });

  it('a late answer of an earlier load never overwrites a newer one', async () => {
    const { box, update } = fakeState<string>();
    const loader = createLoader(update);
    const older = pending<string>();
    const newer = pending<string>();
    const first = loader.load(older.request);
    const second = loader.load(newer.request);
    newer.answer(ok('newer'));
    await second;
    expect(box.state).toEqual({ data: 'newer', error: null, loading: false });
    older.answer(failed('trop tard'));
    await first;
    expect(box.state).toEqual({ data: 'newer', error: null, loading: false });
  });

  it('loads on mount; when the inputs change, the old input’s late answer is dropped; nothing after unmount', async () => {
    const { box, update } = fakeState<string>();
    let kept: Loader<string> | null = null;
    const keep = (loader: Loader<string>) => {
      kept = loader;
    };
    const forA = pending<string>();
    const stopA = startLoader(update, forA.request, true, keep);
    expect(box.state.loading).toBe(true);
    const loaderA = kept;

    // Inputs change: React runs the cleanup, then the effect again.
    stopA();
    const forB = pending<string>();
    const stopB = startLoader(update, forB.request, true, keep);
    expect(kept).not.toBe(loaderA);
    forB.answer(ok('B'));
    await settle();
    expect(box.state.data).toBe('B');
    forA.answer(ok('A'));
    await settle();
    expect(box.state).toEqual({ data: 'B', error: null, loading: false });

    // Unmounted: a reload still on its way shows nothing.
    const late = pending<string>();
    const reloading = (kept as Loader<string> | null)?.load(late.request);
    stopB();
    late.answer(ok('late'));
    await reloading;
    expect(box.state.data).toBe('B');
  });

  it('does not load when disabled, but reload() still does; an answer the parent fetched is shown at once', async () => {
    const { box, update } = fakeState<string>();
    let kept: Loader<string> | null = null;
    let calls = 0;
    const request = async () => {
      calls += 1;
      return ok('fetched');
    };
    startLoader(update, request, false, (loader) => {
      kept = loader;
    });
    await settle();
    expect(calls).toBe(0);
    expect(box.state).toEqual({ data: null, error: null, loading: false });
    await (kept as Loader<string> | null)?.load(request);
    expect(calls).toBe(1);
    expect(box.state.data).toBe('fetched');

    expect(initialLoaded(ok('given'))).toEqual({ data: 'given', error: null, loading: false });
    expect(initialLoaded(failed('Accès refusé.'))).toEqual({ data: null, error: 'Accès refusé.', loading: false });
  });
});
