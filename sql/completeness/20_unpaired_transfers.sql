-- Internal transfers pair up (docs/completeness.md, "Internal transfers"): a transfer out of one account type is a
-- transfer into another. Transfers are the ledger rows of the categories transfer_in and transfer_out (the type
-- catalog's internal transfers between account types); they pair within one account and asset, the same amount
-- with the opposite sign, in another account type, at most 60 seconds apart: each with the nearest such
-- transfer, when each is the other's nearest (a transfer with no other side, one to a bot account say, takes
-- no one's partner). Transfers to earn, bots, copy trading and locks (earn_transfer, strategy_transfer, ...) have
-- no records on their other side: the reconciliation accounts for them at that account type's balances.
-- creates: lp_transfer_pairs, unpaired_transfers
-- reads: ledger, lp_account_mode, lp_account_type_sources, lp_covered, lp_read_spans
-- params: -
CREATE OR REPLACE MACRO lp_transfer_pairs() AS TABLE
WITH transfers AS (
  SELECT entry_id, account, source, source_id, account_type, asset, ts, amount, note, abs(amount) AS size, amount > 0 AS incoming, amount < 0 AS outgoing
  FROM ledger
  -- account_transfer: a unified account's funding transfers, in or out by their sign (docs/unified-accounts.md).
  WHERE category IN ('transfer_in', 'transfer_out', 'account_transfer') AND amount <> 0
),
-- Comparisons of plain columns in the join, so that DuckDB hashes it (an expression of both sides in it, the time
-- apart, makes it a nested loop: 24 s over 82k transfers); the time is a filter of what it finds.
candidates AS (
  SELECT t.entry_id AS one, o.entry_id AS other, abs(epoch_ms(o.ts) - epoch_ms(t.ts)) AS apart
  FROM transfers AS t
  JOIN transfers AS o
    ON o.account = t.account AND o.asset = t.asset AND o.size = t.size AND o.incoming = t.outgoing AND o.account_type <> t.account_type
  WHERE abs(epoch_ms(o.ts) - epoch_ms(t.ts)) <= 60000
),
nearest AS (
  SELECT one, arg_min(other, (apart, other)) AS other FROM candidates GROUP BY one
),
pairs AS (
  SELECT n.one, n.other FROM nearest AS n JOIN nearest AS back ON back.one = n.other AND back.other = n.one
)
SELECT t.*, p.other AS other_entry
FROM transfers AS t
LEFT JOIN pairs AS p ON p.one = t.entry_id;

-- unpaired_transfers: every internal transfer with no counterpart, and what it may be. A transfer is checked only
-- where its other side could have been read: every other account type with records (lp_account_type_sources) that
-- was read at all was read at its instant (lp_covered). Before a range, only the streams that carry lots are read
-- back to the account's opening (docs/history.md): a transfer there to or from futures has its other side in a
-- stream read over the range only.
CREATE OR REPLACE VIEW unpaired_transfers AS
SELECT account, source AS stream, account_type, asset, ts, source_id, amount,
  CASE
    WHEN regexp_matches(lower(note), 'strategy|copytrade|copy_trade|otc|bot')
      THEN 'a transfer with an account type that has no records (bots, copy trading, OTC): see the reconciliation of that account type'
    ELSE 'its other side is missing (a record the platform did not return), or it is a transfer with a sub-account'
  END AS possible_reason
FROM lp_transfer_pairs() AS t
WHERE t.other_entry IS NULL
  AND NOT EXISTS (
    SELECT 1 FROM (SELECT DISTINCT account_type, account_mode FROM lp_account_type_sources()) AS o
    WHERE o.account_type <> t.account_type AND o.account_mode = lp_account_mode(t.account)
      -- An account type read at other times, but not at this one (an account type never read is no evidence).
      AND EXISTS (SELECT 1 FROM lp_account_type_sources() AS s JOIN lp_read_spans() AS r ON r.stream = s.stream AND r.partition = s.partition
                  WHERE s.account_type = o.account_type AND r.account = t.account)
      AND NOT lp_covered(t.account, o.account_type, t.ts, t.ts + INTERVAL 1 MILLISECOND));
