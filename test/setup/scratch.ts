import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: one folder in the system's temporary folder for the run's temporary files, removed after
 * the run. The workers vitest starts after this, and the processes the tests start, take it as TMPDIR, so that
 * os.tmpdir() is this folder: what a worker keeps for its whole life (the empty warehouse tempWarehouse copies,
 * test/helpers/raw.ts) goes with it, as would a folder a failed test left behind. A worker is ended without
 * running its exit handlers. The machine's IP budget (docs/many-accounts.md) is kept there too
 * (LEDGERPIPE_STATE_DIR), not in the user's cache directory.
 */
export default function setup(): () => void {
  const before = { TMPDIR: process.env['TMPDIR'], LEDGERPIPE_STATE_DIR: process.env['LEDGERPIPE_STATE_DIR'] };
  const dir = mkdtempSync(join(tmpdir(), 'ledgerpipe-test-'));
  process.env['TMPDIR'] = dir;
  process.env['LEDGERPIPE_STATE_DIR'] = join(dir, 'state');
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
