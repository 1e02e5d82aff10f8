/**
 * Run by keep-tick-shape.test.ts in a child process with V8's natives and `gc` exposed:
 *   node --allow-natives-syntax --expose-gc --import tsx bff/http/keep-tick-shape.probe.ts [keep]
 * Schedules ticks, lets every tick object die, collects all garbage, eight times over, then prints
 * V8's view of `process.nextTick` (its inline caches) and the tick object kept, if any.
 */
import { keepTickShape, keptTickObject } from './keep-tick-shape.ts';

const debugPrint = new Function('value', '%DebugPrint(value)') as (value: unknown) => void;
const collectGarbage = (globalThis as { gc?: () => void }).gc;
if (!collectGarbage) throw new Error('run with --expose-gc');

if (process.argv[2] === 'keep') keepTickShape();
const noop = () => {};
const ticks = () =>
  new Promise<void>((resolve) => {
    let batches = 0;
    const batch = () => {
      for (let i = 0; i < 1000; i += 1) process.nextTick(noop);
      batches += 1;
      if (batches < 50) setImmediate(batch);
      else resolve();
    };
    batch();
  });

await ticks();
for (let cycle = 0; cycle < 8; cycle += 1) {
  // Every tick has run and nothing refers to its object any more: a full collection may take the
  // objects' maps.
  await new Promise((resolve) => setTimeout(resolve, 5));
  collectGarbage();
  await ticks();
}
const kept = keptTickObject();
console.log(`KEPT ${JSON.stringify(kept ? { keys: Object.keys(kept), symbols: Object.getOwnPropertySymbols(kept).map(String) } : null)}`);
// V8 prints through C's buffered stdout, after the line above; `process.exit` flushes it (a
// process that ends by running out of work does not).
debugPrint(process.nextTick);
process.exit(0);
