-- margin_tax_types: marginTaxType -> ledger category and direction (contract.md, "The ledger"), as a table
-- the ledger and the checks share. A type not listed is kept as category 'unknown' and reported.
CREATE OR REPLACE TABLE margin_tax_types (margin_tax_type VARCHAR PRIMARY KEY, category VARCHAR NOT NULL, direction INTEGER NOT NULL);
INSERT INTO margin_tax_types VALUES
  ('transfer_in',     'transfer_in',       1),
  ('transfer_out',    'transfer_out',     -1),
  ('borrow',          'loan_borrow',       1),
  ('repay',           'loan_repay',       -1),
  ('interest_repay',  'interest',         -1),
  ('liquidation_fee', 'liquidation_fee',  -1),
  ('compensate',      'compensation',      1),
  ('deal_in',         'trade_in',          1),
  ('deal_out',        'trade_out',        -1),
  ('system_fee_in',   'trade_fee',        -1),
  ('confiscated',     'liquidation_loss', -1),
  ('exchange_in',     'conversion_in',     1),
  ('exchange_out',    'conversion_out',   -1);
