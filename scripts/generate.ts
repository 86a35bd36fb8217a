import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../src/util/package-root.js';
import { lintConfig } from './layers.js';
import { declaredStreams, streamIndex } from './stream-index.js';

// `npm run generate` (after npm run build): writes what is made from the streams and the registry of tables after a
// stream or a table's columns change, then orders the files of sql/ by their headers (src/warehouse/sql-graph.ts: a
// name nothing creates, or a cycle, fails here) and writes that order into ARCHITECTURE.md.
// test/tables/registry.test.ts and test/warehouse/sql-graph.test.ts fail while they are out of date.
const root = packageRoot();

// First the list of streams, from the stream files (scripts/stream-index.ts). A stream it adds is not in the code
// this script was built from: it is built again, and runs again.
const indexFile = join(root, 'src', 'streams', 'index.ts');
const current = await readFile(indexFile, 'utf8');
const index = streamIndex(await declaredStreams(dirname(indexFile)), current);
if (index !== current) {
  await writeFile(indexFile, index);
  process.stderr.write('wrote src/streams/index.ts: building again\n');
  const again = (command: string, args: readonly string[]): void => {
    const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
    if (status !== 0) process.exit(status ?? 1);
  };
  again('npm', ['run', 'build', '--silent']);
  again(process.execPath, [fileURLToPath(import.meta.url)]);
  process.exit(0);
}

const { generatedFiles } = await import('../src/warehouse/registry-sql.js');
const { generatedRegions, withRegion } = await import('../src/tables/stream-docs.js');
const { sqlGraph, withGraphSection } = await import('../src/warehouse/sql-graph.js');

for (const [path, text] of Object.entries(generatedFiles())) {
  const file = join(root, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  process.stderr.write(`wrote ${path}\n`);
}

// The docs' tables of the streams, between their markers in pages otherwise written by hand
// (src/tables/stream-docs.ts).
for (const [path, regions] of Object.entries(generatedRegions())) {
  const file = join(root, path);
  let text = await readFile(file, 'utf8');
  for (const [name, content] of Object.entries(regions)) text = withRegion(text, name, content);
  await writeFile(file, text);
  process.stderr.write(`wrote ${path} (${Object.keys(regions).join(', ')})\n`);
}

const architecture = join(root, 'ARCHITECTURE.md');
await writeFile(architecture, withGraphSection(await readFile(architecture, 'utf8'), (await sqlGraph()).files));
process.stderr.write('wrote ARCHITECTURE.md (the graph of sql/)\n');

// The linter's configuration, its import rules made from the layers of src/ (scripts/layers.ts).
await writeFile(join(root, '.oxlintrc.json'), `${JSON.stringify(lintConfig(), null, 2)}\n`);
process.stderr.write('wrote .oxlintrc.json (the layers of src/ as import rules)\n');
