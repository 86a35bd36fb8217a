-- Internal transfers pair up (docs/completeness.md, "Internal transfers"): a transfer out of one account type is a transfer into
-- another. Transfers are the ledger rows of the categories transfer_in and transfer_out (the type catalog's
-- internal transfers between account types that have records); they pair within one account and asset, the same
-- amount with the opposite sign, in another account type, at most 60 seconds apart: the first transfer out of a
-- given amount with the first transfer in of it, the second with the second, and so on. Transfers to earn, bots,
-- copy trading and locks (earn_transfer, strategy_transfer, ...) have no records on their other side: the
-- reconciliation accounts for them at that account type's balances.
CREATE OR REPLACE MACRO lp_transfer_pairs() AS TABLE
WITH transfers AS (
  SELECT entry_id, account, source, source_id, account_type, asset, ts, amount, note, abs(amount) AS size, amount > 0 AS incoming, amount < 0 AS outgoing,
    row_number() OVER (PARTITION BY account, asset, abs(amount), amount > 0 ORDER BY ts, entry_id) AS nth
  FROM ledger
  WHERE category IN ('transfer_in', 'transfer_out') AND amount <> 0
)
-- Comparisons of plain columns only, so that DuckDB hashes the join (an expression of both sides in it, the time
-- apart, makes it a nested loop: 24 s over 82k transfers); each has one candidate, whose time is checked after.
SELECT t.*,
  CASE WHEN abs(epoch_ms(o.ts) - epoch_ms(t.ts)) <= 60000 THEN o.entry_id END AS other_entry,
  CASE WHEN abs(epoch_ms(o.ts) - epoch_ms(t.ts)) <= 60000 THEN o.account_type END AS other_account_type
FROM transfers AS t
LEFT JOIN transfers AS o
  ON o.account = t.account AND o.asset = t.asset AND o.size = t.size AND o.incoming = t.outgoing AND o.nth = t.nth
  AND o.account_type <> t.account_type;

-- unpaired_transfers: every internal transfer with no counterpart, and what it may be.
CREATE OR REPLACE VIEW unpaired_transfers AS
SELECT account, source AS stream, account_type, asset, ts, source_id, amount,
  CASE
    WHEN regexp_matches(lower(note), 'strategy|copytrade|copy_trade|otc|bot')
      THEN 'a transfer with an account type that has no records (bots, copy trading, OTC): see the reconciliation of that account type'
    ELSE 'its other side is missing (a record the platform did not return), or it is a transfer with a sub-account'
  END AS possible_reason
FROM lp_transfer_pairs()
WHERE other_entry IS NULL;
