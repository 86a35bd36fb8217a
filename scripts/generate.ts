import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
