import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: one folder in the system's temporary folder for the run's temporary files, removed after
 * the run. The workers vitest starts after this, and the processes the tests start, take it as TMPDIR, so that
 * os.tmpdir() is this folder: what a worker keeps for its whole life (the empty warehouse tempWarehouse copies,
 * test/helpers/raw.ts) goes with it, as would a folder a failed test left behind. A worker is ended without
 * running its exit handlers.
 */
export default function setup(): () => void {
  const before = process.env['TMPDIR'];
  const dir = mkdtempSync(join(tmpdir(), 'ledgerpipe-test-'));
  process.env['TMPDIR'] = dir;
  return () => {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
