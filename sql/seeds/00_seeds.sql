-- The seeds: mapping tables kept as CSV files beside this file, loaded with the models. Paths are relative to
-- ledgerpipe's folder (the transform sets DuckDB's file_search_path to it; by hand, run from that folder).
-- Empty cells are '' rather than NULL, so that rules compare them with =.
-- creates: lp_catalog_csv, type_catalog, tax_classes, tax_tool_vocabulary
-- reads: -
-- params: lp_user_catalog

-- type_catalog: every type the platform documents, per stream and field, with its ledger category, direction,
-- tax class, trade role, Koinly tag and CoinTracking type, and where it is documented (docs/ledger.md, "The
-- type catalog"). The ledger, the checks and the tax files read it; nothing else lists categories.
-- Your own rows (--catalog FILE, or the config's catalog; docs/ledger.md, "Adding a type") come from the file the
-- variable lp_user_catalog names, with the same columns: a row of yours replaces the package's row of the same
-- source, field and type, and adds one where there is none. Without one, an empty file: the package's rows alone.
CREATE OR REPLACE TEMP MACRO lp_catalog_csv(path) AS TABLE
SELECT
  source, field, type,
  coalesce(category, '')         AS category,
  direction,
  tax_class,
  coalesce(trade_role, '')       AS trade_role,
  coalesce(koinly_in, '')        AS koinly_in,
  coalesce(koinly_out, '')       AS koinly_out,
  coalesce(cointracking_in, '')  AS cointracking_in,
  coalesce(cointracking_out, '') AS cointracking_out,
  meaning, documented_in
FROM read_csv(path, header = true, delim = ',', quote = '"', escape = '"', strict_mode = true,
  columns = {'source': 'VARCHAR', 'field': 'VARCHAR', 'type': 'VARCHAR', 'category': 'VARCHAR', 'direction': 'VARCHAR',
    'tax_class': 'VARCHAR', 'trade_role': 'VARCHAR', 'koinly_in': 'VARCHAR', 'koinly_out': 'VARCHAR',
    'cointracking_in': 'VARCHAR', 'cointracking_out': 'VARCHAR', 'meaning': 'VARCHAR', 'documented_in': 'VARCHAR'});

CREATE OR REPLACE TABLE type_catalog AS
WITH yours AS (SELECT * FROM lp_catalog_csv(coalesce(getvariable('lp_user_catalog'), 'sql/seeds/user/none.csv')))
SELECT p.* FROM lp_catalog_csv('sql/seeds/type_catalog.csv') AS p
WHERE NOT EXISTS (SELECT 1 FROM yours AS y WHERE y.source = p.source AND y.field = p.field AND y.type = p.type)
UNION ALL
SELECT * FROM yours;

-- tax_classes: what each tax class means, whether its rows go into the tax files, and its name in words (the report's).
CREATE OR REPLACE TABLE tax_classes AS
-- in_tax_files other than yes or no is NULL here, and the catalog check names it.
SELECT tax_class, meaning, CASE in_tax_files WHEN 'yes' THEN true WHEN 'no' THEN false END AS in_tax_files, label
FROM read_csv('sql/seeds/tax_classes.csv', header = true, delim = ',', quote = '"', escape = '"', strict_mode = true,
  columns = {'tax_class': 'VARCHAR', 'meaning': 'VARCHAR', 'in_tax_files': 'VARCHAR', 'label': 'VARCHAR'});

-- tax_tool_vocabulary: the Koinly tags and CoinTracking types the catalog may use, each from the tool's own help.
CREATE OR REPLACE TABLE tax_tool_vocabulary AS
SELECT * FROM read_csv('sql/seeds/tax_tool_vocabulary.csv', header = true, delim = ',', quote = '"', escape = '"', strict_mode = true,
  columns = {'tool': 'VARCHAR', 'side': 'VARCHAR', 'value': 'VARCHAR', 'meaning': 'VARCHAR', 'documented_in': 'VARCHAR'});
