import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * The state a module keeps for its whole process (a top-level `let`), outside the simulator, each with why a
 * command run in a test's own process (runCliHere, test/helpers/cli.ts) leaves nothing of it to the next.
 * A new one is a decision: reset it in runCliHere, or say here why it need not be.
 */
const KNOWN: Readonly<Record<string, string>> = {
  'src/warehouse/versions.ts userCatalog': "the user's catalog file: runCliHere resets it (useCatalog(undefined))",
  'src/warehouse/versions.ts storedCopy':
    "the folder of stored catalogs' copies, removed at exit: each copy is named by its content's hash, so a command's catalog is its own file",
  'src/warehouse/versions.ts release': "this release's versions: reset with the catalog, the rest is the same files",
  'src/util/package-root.ts cached': 'the package folder: the same for every command',
  'src/warehouse/sql-graph.ts graph':
    'the files of sql/ with their headers, read and ordered once: the same for every command',
  'src/util/collect-garbage.ts collect': "Node's own collector, found once: the same for every command",
};

describe('state kept for the whole process', () => {
  it('is the known list, each reset between commands run in one process or the same for every command', async () => {
    const root = packageRoot();
    const found: string[] = [];
    for (const file of await sourceFiles(join(root, 'src'))) {
      const path = relative(root, file);
      if (path.startsWith('src/sim/')) continue;
      for (const match of (await readFile(file, 'utf8')).matchAll(/^(?:export\s+)?let\s+(\w+)/gm))
        found.push(`${path} ${match[1]}`);
    }
    expect(found.sort()).toEqual(Object.keys(KNOWN).sort());
  });
});
