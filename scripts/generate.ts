import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generatedFiles } from '../src/warehouse/registry-sql.js';
import { sqlGraph, withGraphSection } from '../src/warehouse/sql-graph.js';
import { packageRoot } from '../src/util/package-root.js';

// `npm run generate`: writes the files made from the registry of models (src/warehouse/registry-sql.ts) after a
// stream or a model's columns change, then orders the files of sql/ by their headers (src/warehouse/sql-graph.ts:
// a name nothing creates, or a cycle, fails here) and writes that order into ARCHITECTURE.md.
// test/models/registry.test.ts and test/warehouse/sql-graph.test.ts fail while they are out of date.
for (const [path, text] of Object.entries(generatedFiles())) {
  const file = join(packageRoot(), path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  process.stderr.write(`wrote ${path}\n`);
}

const architecture = join(packageRoot(), 'ARCHITECTURE.md');
await writeFile(architecture, withGraphSection(await readFile(architecture, 'utf8'), (await sqlGraph()).files));
process.stderr.write('wrote ARCHITECTURE.md (the graph of sql/)\n');
