import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

export interface SqlFile {
  /** Path relative to `sql/`, e.g. `warehouse/001_bookkeeping.sql`. */
  name: string;
  text: string;
}

/** The `.sql` files of one folder under `sql/`, in name order (their numeric prefixes order them). */
export async function readSqlFolder(folder: string): Promise<SqlFile[]> {
  const dir = join(packageRoot(), 'sql', folder);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  return Promise.all(names.map(async (n) => ({ name: `${folder}/${n}`, text: await readFile(join(dir, n), 'utf8') })));
}

/** The file of `files` named `name` (as SqlFile.name); a name that is not among them is a bug of ledgerpipe's own. */
export function sqlFileNamed(files: readonly SqlFile[], name: string): SqlFile {
  const file = files.find((f) => f.name === name);
  if (file === undefined) throw new Error(`the transform has no ${name}`);
  return file;
}
