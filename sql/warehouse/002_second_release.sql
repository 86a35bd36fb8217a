-- The second release's changes to a warehouse; runs once (schema_migrations records it).
-- creates: model_versions
-- reads: coverage
-- params: -

-- The version of each set of rules the last transform ran with, e.g. ('type_catalog', <SHA-256 of
-- sql/seeds/*.csv>), so that a reader can tell which catalog booked the ledger.
CREATE TABLE IF NOT EXISTS model_versions (
  name       VARCHAR     PRIMARY KEY,
  version    VARCHAR     NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

-- The first release read GET /api/v2/p2p/advList with limit=100 and without side and status. The live
-- service caps the page at 20 since 2024-08-28 and requires side and status (docs/platform.md, "P2P
-- advertisements"), so a window it marked done may hold advertisements it never read. Each such window
-- becomes an unfinished window of every partition this release reads (one per side and status), which the
-- next run over it, or the next nightly, reads again. The records already loaded stay; the model keeps one
-- row per advertisement, the last fetched.
INSERT INTO coverage (account, stream, partition, window_start, window_end, status, cursor, pages, rows, tie_pages, run_id, updated_at)
SELECT c.account, c.stream, p.partition, c.window_start, c.window_end, 'open', NULL, 0, 0, 0, c.run_id, c.updated_at
FROM coverage AS c
CROSS JOIN (VALUES ('buy:online'), ('buy:offline'), ('buy:editing'), ('buy:completed'),
                   ('sell:online'), ('sell:offline'), ('sell:editing'), ('sell:completed')) AS p(partition)
WHERE c.stream = 'p2p_advertisements' AND c.partition = ''
ON CONFLICT DO NOTHING;
DELETE FROM coverage WHERE stream = 'p2p_advertisements' AND partition = '';

-- The first release's marginTaxType mapping; the type catalog (sql/seeds/type_catalog.csv) replaces it.
DROP TABLE IF EXISTS margin_tax_types;
