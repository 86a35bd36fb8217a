/**
 * The layers of src/ (ARCHITECTURE.md, "Folders"): a folder may import its own files and those of folders of a
 * lower rank, never a folder of its own rank or above, so a module never imports its caller. A subfolder is part of
 * its top folder (src/sim/data/ is sim, src/cli/commands/ is cli). test/architecture/imports.test.ts checks every
 * import against it, and the linter's configuration (.oxlintrc.json, written by `npm run generate`) carries it.
 */
export const LAYERS: Readonly<Record<string, number>> = {
  errors: 1,
  util: 1,
  time: 2,
  http: 2,
  streams: 2,
  duckdb: 2,
  tables: 3,
  warehouse: 4,
  load: 5,
  reads: 5,
  extract: 6,
  sim: 6,
  prices: 7,
  transform: 7,
  gains: 7,
  report: 8,
  export: 9,
  pipeline: 10,
  cli: 11,
};

/** The rule a folder's imports break: every other folder of its rank or above, as the linter's import patterns. */
function forbiddenOf(folder: string, rank: number): { group: string[]; message: string }[] {
  return Object.entries(LAYERS)
    .filter(([other, r]) => other !== folder && r >= rank)
    .map(([other, r]) => ({
      group: [`**/${other}/**`],
      message:
        r === rank
          ? `${folder} and ${other} are siblings (rank ${rank}): neither imports the other (ARCHITECTURE.md, "Folders")`
          : `${folder} (rank ${rank}) may not import ${other} (rank ${r}), its caller (ARCHITECTURE.md, "Folders")`,
    }));
}

/**
 * The linter's configuration (oxlint): its correctness rules, no import cycle, and per folder of src/ the folders it
 * may not import.
 *
 * @example
 * JSON.stringify(lintConfig(), null, 2); // the text of .oxlintrc.json
 */
export function lintConfig(): object {
  return {
    $schema: './node_modules/oxlint/configuration_schema.json',
    plugins: ['typescript', 'unicorn', 'import'],
    categories: { correctness: 'error' },
    rules: { 'import/no-cycle': 'error', 'no-console': ['error', { allow: [] }] },
    ignorePatterns: ['dist/**', 'node_modules/**', 'test-results/**'],
    overrides: [
      ...Object.entries(LAYERS).map(([folder, rank]) => ({
        files: [`src/${folder}/**`],
        rules: { 'no-restricted-imports': ['error', { patterns: forbiddenOf(folder, rank) }] },
      })),
      // The command line and the simulator's server print by design; scripts, benches and tests too.
      { files: ['src/cli/**', 'src/sim/**', 'scripts/**', 'bench/**', 'test/**'], rules: { 'no-console': 'off' } },
    ],
  };
}
