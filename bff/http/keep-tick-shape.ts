import { executionAsyncResource } from 'node:async_hooks';

/**
 * Keeps one of Node's own `process.nextTick` objects alive for the life of the process, so that
 * the hidden classes ("maps") of those objects are never collected (decision 099).
 *
 * Node 20 builds each tick as `{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback,
 * args }`. V8 reaches the maps of such an object through weak transitions only: when a full
 * garbage collection runs while no tick object is alive (a server that goes quiet after a busy
 * spell), the maps die and the next tick builds new ones. After a few such collections the
 * literal's inline caches turn megamorphic for good, and every `nextTick` (several per HTTP
 * answer) then defines its properties through the V8 runtime: ≈ 5 times the cost of a tick, and
 * the public page's cost per request grew by a third in the benchmark (decision 099).
 *
 * One live tick object holds its map, and through the maps' back pointers the whole chain, so the
 * caches stay monomorphic. It is taken through public API: inside a tick's callback,
 * `executionAsyncResource()` is that tick's object (no async hook is installed, so V8's promise
 * fast paths are untouched). It is taken again every minute, in case V8 replaced the maps (a field
 * widened); the timer does not keep the process alive.
 */
let kept: object | undefined;
let timer: NodeJS.Timeout | undefined;

const capture = () =>
  process.nextTick(() => {
    kept = executionAsyncResource();
  });

export function keepTickShape(): void {
  if (timer) return;
  capture();
  timer = setInterval(capture, 60_000).unref();
}

/** The tick object held now (undefined before the first tick has run). */
export function keptTickObject(): object | undefined {
  return kept;
}
