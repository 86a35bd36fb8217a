import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * `src/streams/index.ts`, the one list of streams, made from the stream files of `src/streams/` by `npm run generate`
 * (docs/adding-a-stream.md): each `export const <name> = defineStream({ kind: ..., ... })` of them. The list keeps the
 * order it has (the order summaries report the streams in, and the ledger's legs are unioned in); a stream not yet
 * in it goes after the last of its kind, paged streams before snapshots. It reads the files as text, so that it runs
 * before they are compiled: a new stream is listed, then built.
 */

/** One stream a file declares: the file (without `.ts`), the exported constant, and its kind. */
interface Declared {
  file: string;
  constant: string;
  kind: 'paged' | 'snapshot';
}

const DECLARATION = /^export const (\w+) = defineStream\(\{\s*kind: '(paged|snapshot)'/gm;

/** The streams the files of `dir` declare, in file and then text order. */
export async function declaredStreams(dir: string): Promise<Declared[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && f !== 'index.ts').sort();
  const out: Declared[] = [];
  for (const f of files) {
    const text = await readFile(join(dir, f), 'utf8');
    for (const m of text.matchAll(DECLARATION)) {
      out.push({ file: f.replace(/\.ts$/, ''), constant: m[1] as string, kind: m[2] as Declared['kind'] });
    }
    if (/defineStream\(/.test(text.replace(/^\s*(\*|\/\/).*$/gm, '')) && !DECLARATION.test(text)) {
      throw new Error(`src/streams/${f} calls defineStream, not as \`export const <name> = defineStream({ kind: ...\``);
    }
    DECLARATION.lastIndex = 0;
  }
  return out;
}

/** The constants the list in `index` names, in its order. */
function listed(index: string): string[] {
  const list = /export const STREAMS = \[([^\]]*)\]/.exec(index)?.[1] ?? '';
  return list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The text of `src/streams/index.ts` for the streams `declared`, keeping the order of the list in `current`. */
export function streamIndex(declared: readonly Declared[], current: string): string {
  const order = listed(current).filter((c) => declared.some((d) => d.constant === c));
  for (const d of declared) {
    if (order.includes(d.constant)) continue;
    const lastOfKind = order.findLastIndex((c) => declared.find((x) => x.constant === c)?.kind === d.kind);
    const firstSnapshot = order.findIndex((c) => declared.find((x) => x.constant === c)?.kind === 'snapshot');
    const fallback = d.kind === 'paged' && firstSnapshot >= 0 ? firstSnapshot : order.length;
    const at = lastOfKind >= 0 ? lastOfKind + 1 : fallback;
    order.splice(at, 0, d.constant);
  }
  const files = [...new Set(declared.map((d) => d.file))].sort();
  const imports = files.map((file) => {
    const names = declared
      .filter((d) => d.file === file)
      .map((d) => d.constant)
      .sort();
    return `import { ${names.join(', ')} } from './${file}.js';`;
  });
  return `// Generated from the stream files of src/streams/ by \`npm run generate\` (scripts/stream-index.ts): the
// list keeps its order, which may be changed here by hand; a new stream is added after the last of its kind.
${imports.join('\n')}
import type { StreamDef } from './stream.js';

/**
 * Every stream ledgerpipe reads, paged ones first, in the order summaries report them: the one list of streams
 * (docs/adding-a-stream.md). Each definition holds its endpoint and its table; every other list of streams
 * (src/streams/manifest.ts, src/tables/) is derived from this one.
 */
export const STREAMS = [
${order.map((c) => `  ${c},`).join('\n')}
] as const satisfies readonly StreamDef[];
`;
}
