import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { commandArbs, firstSignArb, initialModel, type Model, type Real, startArb } from '#tests/support/sequences/contract-model.ts';
import { SequenceWorld } from '#tests/support/sequences/sequence-world.ts';

/**
 * The random contract sequences (decision 191), shared by the files that run them: `npm test`
 * runs `SEQUENCE_RUNS` (25) sequences of at most `SEQUENCE_STEPS` (15) steps from a fixed seed,
 * split in two halves, one per test file, so that the two Vitest workers run them at the same
 * time (decision 226). Each sequence starts on a clean slate at its own instant, so the halves
 * are independent: from the fixed seed, the first file runs sequences 0 to 11 (with the
 * regressions) and the second, through fast-check’s `path`, sequences 12 to 24 — the very
 * sequences one file ran before.
 */

const RUNS = Number(process.env.SEQUENCE_RUNS ?? 25);
const STEPS = Number(process.env.SEQUENCE_STEPS ?? 15);
const RANDOM_SEED = process.env.SEQUENCE_SEED === 'random';
/** CI's fixed seed; `npm run test:sequences` draws a new one (`SEQUENCE_SEED=random`) unless given one. */
const SEED = RANDOM_SEED ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.SEQUENCE_SEED ?? 20_261_207);
const PATH = process.env.SEQUENCE_PATH;
const REPLAY_PATH = process.env.SEQUENCE_REPLAY_PATH;
const SHRINK = process.env.SEQUENCE_SHRINK === '1';
/** `SEQUENCE_VERBOSE=1` prints every sequence's steps, not only a failing one's. */
const VERBOSE = process.env.SEQUENCE_VERBOSE === '1';
/** The files the sequences are split between. */
const SEQUENCE_HALVES = 2;

/** A file's world: its own product, started at its first sequence, stopped after its last. */
export function sequenceWorld(): SequenceWorld {
  const world = new SequenceWorld();
  afterAll(() => world.close());
  return world;
}

/** One sequence on a clean slate from `startMs`: every command, the invariants after each. */
export async function runSequence(world: SequenceWorld, startMs: number, cmds: Iterable<fc.AsyncCommand<Model, Real>>): Promise<Real> {
  const run = await world.beginRun(startMs);
  const real: Real = { run, trace: [], lastEvent: null };
  try {
    await fc.asyncModelRun(() => ({ model: initialModel(run.now()), real }), cmds);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n\nThe steps taken (agency's time, Paris):\n${real.trace.join('\n')}`);
  }
  if (VERBOSE) console.info(`sequence from ${new Date(startMs).toISOString()}:\n${real.trace.join('\n')}`);
  return real;
}

/**
 * Which sequences half `half` (0 or 1) runs: a share of the fixed seed's runs (the second through
 * fast-check's `path`, which drops the runs before it), a share of its own random seed's runs, or,
 * when `SEQUENCE_PATH` replays one sequence, that one in the first half and nothing in the second.
 */
function shareOf(half: number): { runs: number; path?: string } {
  if (PATH) return half === 0 ? { runs: RUNS, path: PATH } : { runs: 0 };
  const from = Math.floor((half * RUNS) / SEQUENCE_HALVES);
  const to = Math.floor(((half + 1) * RUNS) / SEQUENCE_HALVES);
  if (RANDOM_SEED || from === 0) return { runs: to - from };
  return { runs: to - from, path: String(from) };
}

/** The random sequences of half `half`, as one test that keeps every invariant. */
export function randomSequences(world: SequenceWorld, half: number): void {
  const { runs, path } = shareOf(half);
  const title = `${runs} sequences of up to ${STEPS} steps keep every invariant (half ${half + 1} of ${SEQUENCE_HALVES})`;
  it.skipIf(runs === 0)(title, { timeout: 60_000 + runs * 20_000 }, async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await fc.check(
      fc.asyncProperty(
        startArb,
        firstSignArb,
        fc.commands(commandArbs, { maxCommands: STEPS - 1, size: 'max', ...(REPLAY_PATH ? { replayPath: REPLAY_PATH } : {}) }),
        (start, sign, cmds) => runSequence(world, start.ms, [sign, ...cmds]).then(() => undefined),
      ),
      { numRuns: runs, seed: SEED, ...(path ? { path } : {}), endOnFailure: !SHRINK },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (result.failed) {
      const replay = `SEQUENCE_SEED=${result.seed} SEQUENCE_PATH=${result.counterexamplePath} npm run test:sequences`;
      const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
      throw new Error(
        `A sequence broke an invariant after ${result.numRuns} runs (${seconds} s). seed ${result.seed}, path ${result.counterexamplePath}\n` +
          `Replay: ${replay}\nCounterexample: ${fc.stringify(result.counterexample)}\n\n${error}`,
      );
    }
    const used = process.cpuUsage(cpu);
    const cpuSeconds = ((used.user + used.system) / 1e6).toFixed(1);
    console.info(
      `contract sequences, half ${half + 1}: ${result.numRuns} runs, seed ${SEED}${path ? `, path ${path}` : ''}, ${seconds} s (${cpuSeconds} s of CPU), ${world.eras} product start(s)`,
    );
    if (!PATH) expect(result.numRuns).toBe(runs);
  });
}
