-- Third release: the table of holdings (docs/completeness.md, "Holdings"), empty until a transform makes it
-- (sql/completeness/30_holdings.sql), so that the view holdings can be made over it on a warehouse no transform of
-- this release has run on (an export asks for its valuation first).
-- creates: holding_quantities
-- reads: -
-- params: -
CREATE TABLE IF NOT EXISTS holding_quantities (
  account VARCHAR,
  account_type VARCHAR,
  asset VARCHAR,
  "at" TIMESTAMPTZ,
  quantity DECIMAL(38, 18),
  source VARCHAR
);
