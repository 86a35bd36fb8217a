import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every `.ts` file below `dir`, for the tests that read the code as text (test/architecture/). */
export async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? sourceFiles(join(dir, e.name))
        : Promise.resolve(e.name.endsWith('.ts') ? [join(dir, e.name)] : []),
    ),
  );
  return nested.flat();
}
