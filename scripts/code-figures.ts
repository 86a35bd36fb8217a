/**
 * The figures of how the code reads that issue 46 set beside each other before and after (docs/development.md,
 * "How the code is measured"): SQL strings in `src/` outside the simulator, the session variables and the places that
 * set them, functions over 60 lines, and lines over 120 characters. Parses TypeScript with oxc-parser (a
 * devDependency: the TypeScript 7 compiler has no JavaScript API). Prints one line per figure; `--list` prints
 * what each counts.
 *
 * @example
 * node dist/scripts/code-figures.js            // on a checkout, after npm run build
 * node dist/scripts/code-figures.js --list     // and each place counted
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseSync } from 'oxc-parser';

const LONG_FUNCTION_LINES = 60;
const LONG_LINE_CHARS = 120;
/**
 * A literal that starts a statement with one of these words, in capitals, is SQL (`'SELECT 1'`, `\`CREATE TABLE\``).
 */
const SQL_STATEMENT =
  /(^|[\s(])(SELECT|INSERT INTO|CREATE (OR REPLACE )?(TEMP |TEMPORARY )?(TABLE|VIEW|MACRO|INDEX|SCHEMA)|DELETE FROM|UPDATE \w|COPY |WITH \w+ AS|ALTER TABLE|DROP (TABLE|VIEW|MACRO))\b/;
/** A variable set by its name (`SET VARIABLE lp_from`), or by a name the code passes (`SET VARIABLE ${name}`). */
const SET_VARIABLE = /(?<!RE)SET VARIABLE (lp_\w+|\$\{\w+\})/g;

/** The files below `dir` whose names end with one of `endings`, as paths relative to `root`. */
function filesBelow(root: string, dir: string, endings: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (endings.some((e) => name.endsWith(e))) out.push(relative(root, path));
    }
  };
  walk(join(root, dir));
  return out;
}

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** Every node of an ESTree-shaped tree, depth first. */
function* nodesOf(node: unknown): Generator<Node> {
  if (Array.isArray(node)) {
    for (const child of node) yield* nodesOf(child);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as Node;
  if (typeof n.type === 'string') yield n;
  for (const [key, value] of Object.entries(n))
    if (key !== 'parent' && typeof value === 'object') yield* nodesOf(value);
}

const lineOf = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

interface Figures {
  sqlStrings: string[];
  variablesSet: Map<string, string[]>;
  longFunctions: string[];
  /** By folder. */
  longLines: Map<string, string[]>;
}

/** The figures of one checkout. Strings of the simulator (src/sim/) are its own and not counted. */
export function measure(root: string): Figures {
  const figures: Figures = { sqlStrings: [], variablesSet: new Map(), longFunctions: [], longLines: new Map() };
  for (const file of filesBelow(root, 'src', ['.ts'])) {
    const text = readFileSync(join(root, file), 'utf8');
    const outsideSim = !file.startsWith('src/sim/');
    const { program } = parseSync(file, text);
    for (const node of nodesOf(program)) {
      if (outsideSim && (node.type === 'Literal' || node.type === 'TemplateLiteral')) {
        const value = node.type === 'Literal' ? node['value'] : text.slice(node.start, node.end);
        if (typeof value === 'string' && SQL_STATEMENT.test(value))
          figures.sqlStrings.push(`${file}:${lineOf(text, node.start)}`);
      }
      if (FUNCTIONS.has(node.type)) {
        const lines = lineOf(text, node.end) - lineOf(text, node.start) + 1;
        if (lines > LONG_FUNCTION_LINES)
          figures.longFunctions.push(`${file}:${lineOf(text, node.start)} (${lines} lines)`);
      }
    }
    if (outsideSim) {
      for (const match of text.matchAll(SET_VARIABLE)) {
        const name = match[1] ?? '';
        figures.variablesSet.set(name, [
          ...(figures.variablesSet.get(name) ?? []),
          `${file}:${lineOf(text, match.index)}`,
        ]);
      }
    }
  }
  for (const dir of ['src', 'sql', 'test', 'bench', 'scripts']) {
    for (const file of filesBelow(root, dir, ['.ts', '.sql'])) {
      if (file.startsWith('src/sim/') || file.startsWith('sql/generated/')) continue;
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      const long = lines.flatMap((line, i) => (line.length > LONG_LINE_CHARS ? [`${file}:${i + 1}`] : []));
      figures.longLines.set(dir, [...(figures.longLines.get(dir) ?? []), ...long]);
    }
  }
  return figures;
}

function main(argv: readonly string[]): void {
  const list = argv.includes('--list');
  const root = argv.find((a) => !a.startsWith('--')) ?? process.cwd();
  const f = measure(root);
  const places = [...f.variablesSet.values()].flat();
  const rows: [string, number, readonly string[]][] = [
    ['SQL strings in src/ outside src/sim/', f.sqlStrings.length, f.sqlStrings],
    [
      'session variables set (SET VARIABLE lp_..., or ${name}: any the caller binds)',
      f.variablesSet.size,
      [...f.variablesSet.keys()].sort(),
    ],
    ['  places that set them', places.length, places],
    [`functions over ${LONG_FUNCTION_LINES} lines in src/`, f.longFunctions.length, f.longFunctions],
    ...[...f.longLines].map(([dir, lines]): [string, number, readonly string[]] => [
      `lines over ${LONG_LINE_CHARS} characters in ${dir}/${dir === 'src' ? ' outside src/sim/' : dir === 'sql' ? ' outside sql/generated/' : ''}`,
      lines.length,
      lines,
    ]),
  ];
  for (const [name, value, what] of rows) {
    console.log(`${name}: ${value}`);
    if (list) for (const w of what) console.log(`  ${w}`);
  }
}

main(process.argv.slice(2));
