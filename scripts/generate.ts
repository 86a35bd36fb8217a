import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generatedRegions, withRegion } from '../src/models/stream-docs.js';
import { generatedFiles } from '../src/warehouse/registry-sql.js';
import { packageRoot } from '../src/util/package-root.js';

// `npm run generate`: writes the files made from the registry of models (src/warehouse/registry-sql.ts) after a
// stream or a model's columns change. test/models/registry.test.ts fails while they are out of date.
for (const [path, text] of Object.entries(generatedFiles())) {
  const file = join(packageRoot(), path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  process.stderr.write(`wrote ${path}\n`);
}
// The docs' tables of the streams, between their markers in pages otherwise written by hand (src/models/stream-docs.ts).
for (const [path, regions] of Object.entries(generatedRegions())) {
  const file = join(packageRoot(), path);
  let text = await readFile(file, 'utf8');
  for (const [name, content] of Object.entries(regions)) text = withRegion(text, name, content);
  await writeFile(file, text);
  process.stderr.write(`wrote ${path} (${Object.keys(regions).join(', ')})\n`);
}
