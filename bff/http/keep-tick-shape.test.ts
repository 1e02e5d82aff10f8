import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Decision 099. The probe runs in a child process (it needs V8's natives and `gc`): full garbage
 * collections while no tick object is alive, then V8's own print of `process.nextTick`, whose four
 * property definitions in the tick literal have one inline cache each.
 */
function probe(mode: 'keep' | 'plain') {
  // V8 prints through C's stdout. Into a pipe that Node has made non-blocking, what does not fit
  // while the reader is slow (a loaded machine) is dropped; a file takes it all.
  const dir = mkdtempSync(join(tmpdir(), 'tick-probe-'));
  const file = join(dir, 'stdout.txt');
  const out = openSync(file, 'w');
  const run = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', join(import.meta.dirname, 'keep-tick-shape.probe.ts'), mode],
    { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', out, 'pipe'] },
  );
  closeSync(out);
  const stdout = readFileSync(file, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  expect(run.status, run.stderr).toBe(0);
  const states = [...stdout.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]);
  const kept = JSON.parse(/^KEPT (.*)$/m.exec(stdout)?.[1] ?? 'null') as { keys: string[]; symbols: string[] } | null;
  return { states, kept };
}

describe('keepTickShape', () => {
  it('keeps the inline caches of the tick literal monomorphic through full collections', { timeout: 90_000 }, () => {
    const { states, kept } = probe('keep');
    expect(states).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
    // What it holds is a tick object of Node's own: its two async ids, its callback and arguments.
    expect(kept?.keys).toEqual(['callback', 'args']);
    expect(kept?.symbols).toEqual(['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)']);
  });

  it('without it, the same collections turn them megamorphic on Node 20 (the fault it guards against)', { timeout: 90_000 }, () => {
    const { states, kept } = probe('plain');
    expect(kept).toBeNull();
    expect(states).toHaveLength(4);
    // Node 20 (V8 11.3) is the runtime the project targets and measures; a later V8 may keep them.
    if (process.versions.node.startsWith('20.')) expect(states).toContain('MEGAMORPHIC');
  });
});
