-- The differences between two snapshots the ledger does not explain (docs/completeness.md, "Reconciliation"): each
-- a finding that makes a run incomplete. Earn, bots and copy trading have no records to explain them, and are
-- left out (their residuals are listed apart: bot_results_ending.sql). Read by src/reads/completeness.ts.
-- creates: -
-- reads: lp_decimal_text, reconciliation
-- params: -
SELECT account, account_type, asset, epoch_ms(period_start) AS f, epoch_ms(period_end) AS t, lp_decimal_text(snapshot_change) AS snapshot_change,
       lp_decimal_text(ledger_change) AS ledger_change, lp_decimal_text(unexplained) AS unexplained
     FROM reconciliation WHERE unexplained <> 0 AND account_type NOT IN ('earn', 'bots', 'copy')
     ORDER BY account, f, account_type, asset;
