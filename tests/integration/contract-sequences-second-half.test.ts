import { describe } from 'vitest';
import { randomSequences, sequenceWorld } from '#tests/support/sequences/run-sequences.ts';

/**
 * The second half of the random contract sequences (`contract-sequences.test.ts` runs the first
 * and says what they check): from the fixed seed, sequences 12 to 24 of the 25, on a product of
 * this file's own, so that the other Vitest worker runs them while the first half runs (decision
 * 226). A failure prints the seed and the path that replay it (`npm run test:sequences`).
 */

const world = sequenceWorld();

describe('the life of a contract, as random sequences through the HTTP API', () => {
  randomSequences(world, 1);
});
