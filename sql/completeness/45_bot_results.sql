-- bot_results (docs/completeness.md, "Bots and copy trading: residuals"): what the bots made or lost, per account,
-- asset and period between two snapshots of the bots' balances: the change in bot-assets less the net transfers into
-- the bots the other streams show (strategy and copy-trade transfers). No endpoint lists a bot's trades (v2 has only
-- bot-assets; v3 a bot's detail by botId, no list: research notes, [GO:uta/grid.go]), so this is a residual, labelled
-- so, and never booked: the ledger and the tax files hold no income from it. Reads the view reconciliation.
-- creates: bot_results
-- reads: reconciliation
-- params: -
CREATE OR REPLACE VIEW bot_results AS
SELECT
  account,
  asset,
  period_start,
  period_end,
  snapshot_change                         AS bot_assets_change,
  ledger_change                           AS net_strategy_transfers,
  unexplained                             AS residual,
  'residual: the bots'' result between two snapshots (bot-assets change less net strategy transfers); no record shows it, nothing is booked' AS label
FROM reconciliation
WHERE account_type = 'bots';
