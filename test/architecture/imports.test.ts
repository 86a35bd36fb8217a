import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../scripts/layers.js';

interface Edge {
  from: string;
  to: string;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every .ts file under src/, by its path from the repository's root ('src/cli/main.ts'), with its text. */
function readSources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(`${ROOT}src`, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = posix.join(posix.relative(ROOT, entry.parentPath), entry.name);
    files.set(path, readFileSync(`${ROOT}${path}`, 'utf8'));
  }
  return files;
}

/**
 * The module paths a file's text imports: `import ... from`, `export ... from`, a bare `import '...'`, and
 * `import('...')` with a literal path. Comments that start a line are dropped first, so an example in a JSDoc
 * comment is no import.
 */
function importsOf(text: string): string[] {
  const code = text.replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
  const bindings = String.raw`(?:[\w$]+\s*,?\s*)?(?:\*\s*(?:as\s+[\w$]+)?|\{[^}]*\})?`;
  const statics = new RegExp(
    String.raw`^\s*(?:import|export)\s+(?:type\s+)?${bindings}\s*from\s*(['"])([^'"]+)\1`,
    'gm',
  );
  const bare = /^\s*import\s*(['"])([^'"]+)\1/gm;
  const dynamic = /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g;
  return [statics, bare, dynamic].flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[2] as string));
}

const folderOf = (path: string): string => path.split('/')[1] ?? '';

/** The file-to-file edges of `files` (relative imports only), and the imports that name no file of them. */
function importGraph(files: ReadonlyMap<string, string>): { edges: (Edge & { spec: string })[]; unresolved: string[] } {
  const edges: (Edge & { spec: string })[] = [];
  const unresolved: string[] = [];
  for (const [from, text] of files) {
    for (const spec of importsOf(text)) {
      if (!spec.startsWith('.')) continue;
      const to = posix.join(posix.dirname(from), spec).replace(/\.js$/, '.ts');
      if (files.has(to)) edges.push({ from, to, spec });
      else unresolved.push(`${from} imports '${spec}', which is no .ts file under src/`);
    }
  }
  return { edges, unresolved };
}

/** Each import of a folder of the same or a higher rank than the importer's own, in a line that names the rule. */
function layerViolations(files: ReadonlyMap<string, string>): string[] {
  const { edges, unresolved } = importGraph(files);
  const problems = [...unresolved];
  for (const path of files.keys()) {
    if (LAYERS[folderOf(path)] === undefined)
      problems.push(
        `${path}: folder src/${folderOf(path)}/ has no rank; add it to LAYERS in scripts/layers.ts and to ARCHITECTURE.md`,
      );
  }
  for (const edge of edges) {
    const [a, b] = [folderOf(edge.from), folderOf(edge.to)];
    const [ra, rb] = [LAYERS[a], LAYERS[b]];
    if (a === b || ra === undefined || rb === undefined || rb < ra) continue;
    const rule =
      rb === ra
        ? `${a} and ${b} are siblings (rank ${ra}): neither imports the other`
        : `${a} (rank ${ra}) may not import ${b} (rank ${rb}), its caller`;
    problems.push(`${edge.from} imports '${edge.spec}': ${rule}`);
  }
  return problems;
}

/**
 * The cycles among files, each as the files it passes through back to its first ('a.ts -> b.ts -> a.ts'): one
 * shortest cycle per strongly connected group of files (Tarjan's algorithm), starting from its first file.
 */
function importCycles(files: ReadonlyMap<string, string>): string[] {
  const next = new Map<string, string[]>([...files.keys()].map((f) => [f, []]));
  for (const { from, to } of importGraph(files).edges) next.get(from)?.push(to);
  const groups = stronglyConnected(next);
  const cycles: string[] = [];
  for (const group of groups) {
    const start = [...group].sort()[0] as string;
    if (group.size === 1 && !(next.get(start) ?? []).includes(start)) continue;
    cycles.push(shortestCycle(start, group, next).join(' -> '));
  }
  return cycles.sort();
}

function stronglyConnected(next: ReadonlyMap<string, readonly string[]>): Set<string>[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: Set<string>[] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group = new Set<string>();
    for (let member = stack.pop(); member !== undefined; member = member === node ? undefined : stack.pop())
      group.add(member);
    groups.push(group);
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** The shortest path from `start` back to itself inside `group` (breadth first). */
function shortestCycle(
  start: string,
  group: ReadonlySet<string>,
  next: ReadonlyMap<string, readonly string[]>,
): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    for (const to of next.get(node) ?? []) {
      if (to === start) {
        const trail: string[] = [];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at))
          trail.unshift(at);
        return [start, ...trail, start];
      }
      if (!group.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, node);
      queue.push(to);
    }
  }
  return [start];
}

describe('imports of src/', () => {
  const files = readSources();

  it('point only to lower layers (ARCHITECTURE.md, "Folders")', () => {
    const problems = layerViolations(files);
    expect(problems, `imports against the layers:\n${problems.join('\n')}`).toEqual([]);
  });

  it('make no cycle among files', () => {
    const cycles = importCycles(files);
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });
});

describe('the import checker', () => {
  const tree = (entries: Record<string, string>) => new Map(Object.entries(entries));

  it('reads static, re-exported, multi-line and dynamic imports, and skips those in comments', () => {
    const text = [
      "import type { A } from '../a/a.js';",
      "import x, {\n  b,\n  c,\n} from './b.js';",
      "import * as d from 'node:path';",
      "export { e } from './e.js';",
      "export * from './f.js';",
      "import './g.js';",
      '/**',
      " * const { run } = await import('./example.js');",
      " * import y from './example.js';",
      ' */',
      "// import('./example.js')",
      "const h = await import('../h/h.js');",
      'const sql = `SELECT a FROM t`;',
    ].join('\n');
    expect(importsOf(text).sort()).toEqual([
      '../a/a.js',
      '../h/h.js',
      './b.js',
      './e.js',
      './f.js',
      './g.js',
      'node:path',
    ]);
  });

  it('names an upward import and a sibling import with their rule', () => {
    const files = tree({
      'src/report/report.ts': "import { x } from '../pipeline/gaps.js';",
      'src/pipeline/gaps.ts': "import { y } from '../prices/p.js';\nimport { z } from './shard.js';",
      'src/pipeline/shard.ts': '',
      'src/prices/p.ts': "import type { T } from '../transform/t.js';",
      'src/transform/t.ts': '',
    });
    expect(layerViolations(files)).toEqual([
      "src/report/report.ts imports '../pipeline/gaps.js': report (rank 8) may not import pipeline (rank 10), its caller",
      "src/prices/p.ts imports '../transform/t.js': prices and transform are siblings (rank 7): neither imports the other",
    ]);
  });

  it('lists a cycle among files of one folder', () => {
    const files = tree({
      'src/pipeline/a.ts': "import { b } from './b.js';",
      'src/pipeline/b.ts': "import type { C } from './c.js';",
      'src/pipeline/c.ts': "const a = await import('./a.js');",
      'src/pipeline/d.ts': "import { a } from './a.js';",
    });
    expect(importCycles(files)).toEqual([
      'src/pipeline/a.ts -> src/pipeline/b.ts -> src/pipeline/c.ts -> src/pipeline/a.ts',
    ]);
  });
});
