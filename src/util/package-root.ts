import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The folder holding ledgerpipe's package.json, found by walking up from this file, so that `sql/` and
 * `pipelines/` are found whether the code runs from `src/` (tests) or `dist/src/` (the CLI).
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'sql'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the ledgerpipe package root (package.json beside sql/)');
    dir = parent;
  }
  cached = dir;
  return dir;
}

/** ledgerpipe's version, from its package.json: `ledgerpipe --version` and the exports' manifest. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
