/**
 * What a SQL file of `sql/` does, read from its statements rather than from its header: the names it creates, the
 * identifiers and string literals it uses, and the parameters it reads. test/warehouse/sql-graph.test.ts holds
 * every file's header (src/warehouse/sql-graph.ts) to these. A reading of the text, not a parser: good enough for
 * ledgerpipe's own files, whose every name is plain (test/tables/keywords.test.ts).
 */
export interface Used {
  /** Every table, view, macro, sequence or type a CREATE (or ALTER TABLE ... RENAME TO) names, without its schema. */
  creates: Set<string>;
  /**
   * The identifiers of the statements that may name a relation: not a column's definition, a CTE or a column of an
   * alias.
   */
  names: Set<string>;
  /** The text of the string literals (a table macro may take a relation's name as a string). */
  strings: Set<string>;
  /** Every `getvariable('lp_...')`. */
  params: Set<string>;
}

/** The text without its comments, string literals emptied; the literals apart. */
function code(text: string): { code: string; strings: string[] } {
  let out = '';
  const strings: string[] = [];
  for (let i = 0; i < text.length;) {
    if (text.startsWith('--', i)) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
    } else if (text[i] === "'") {
      let j = i + 1;
      let s = '';
      while (j < text.length && !(text[j] === "'" && text[j + 1] !== "'")) {
        s += text[j];
        j += text[j] === "'" ? 2 : 1;
      }
      strings.push(s);
      out += "''";
      i = j + 1;
    } else {
      out += text[i];
      i++;
    }
  }
  return { code: out, strings };
}

const CREATE =
  /\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?(?:TABLE|VIEW|MACRO|SEQUENCE|TYPE)\s+(?:IF\s+NOT\s+EXISTS\s+)?((?:"[^"]+"|\w+)(?:\.(?:"[^"]+"|\w+))*)/gi;
const RENAME = /\bALTER\s+TABLE\s+[\w."]+\s+RENAME\s+TO\s+("[^"]+"|\w+)/gi;
const CTE = /(?:\bWITH|,)\s*(?:RECURSIVE\s+)?(\w+)\s+AS\s+(?:(?:NOT\s+)?MATERIALIZED\s+)?\(/gi;
/** A column's definition: its name, then its type. */
const COLUMN =
  /\b(\w+)\s+(?:VARCHAR|TEXT|TIMESTAMPTZ|TIMESTAMP|BOOLEAN|BIGINT|UBIGINT|INTEGER|INT|HUGEINT|DECIMAL|DOUBLE|DATE|JSON|STRUCT|BLOB)\b/gi;
/** Schemas a relation may be qualified with; any other `x.name` is a column of `x`. */
const SCHEMAS = new Set(['main', 'temp', 'lp_delta']);
const bare = (name: string): string => (name.split('.').at(-1) ?? name).replaceAll('"', '');

/**
 * @example used("CREATE VIEW v AS SELECT * FROM ledger WHERE ts < getvariable('lp_to')") // creates v, names ledger, params lp_to
 */
export function used(text: string): Used {
  const { code: sql, strings } = code(text);
  const creates = new Set([...sql.matchAll(CREATE)].map((m) => bare(m[1] as string)));
  for (const m of sql.matchAll(RENAME)) creates.add(bare(m[1] as string));
  const local = new Set([...sql.matchAll(CTE), ...sql.matchAll(COLUMN)].map((m) => (m[1] as string).toLowerCase()));
  const names = new Set<string>();
  for (const m of sql.matchAll(/(?:(\w+)\s*\.\s*)?(?:"([^"]+)"|\b([A-Za-z_]\w*)\b)/g)) {
    const qualifier = m[1]?.toLowerCase();
    const name = (m[2] ?? m[3] ?? '').toLowerCase();
    if (qualifier !== undefined && !SCHEMAS.has(qualifier)) continue;
    if (qualifier === undefined && local.has(name)) continue;
    names.add(name);
  }
  // The parameter's name is a string literal: read from the text without its comments.
  const uncommented = text
    .split('\n')
    .map((l) => l.replace(/--.*$/, ''))
    .join('\n');
  const params = new Set([...uncommented.matchAll(/getvariable\(\s*'(lp_\w+)'\s*\)/g)].map((m) => m[1] as string));
  return { creates, names, strings: new Set(strings), params };
}
