-- The movements the gains engine matches (src/gains/gains.ts; docs/gains.md): every valued ledger row of an
-- asset other than the unit (the run's fiat, else USDT), as an acquisition, a disposal or a removal, with its
-- value in the unit. `value_unit` is value_fiat with a fiat, else value_usdt.
--
-- * A trade group's legs (tax class trade_leg or conversion) are one disposal and one acquisition: a leg given
--   is disposed of for the value of what was received, a leg received is acquired at the value of what was given
--   (HMRC CRYPTO22257); with several legs on one side, each has its share by its own value. When the other
--   side has no value, the leg's own value stands in (flag `own_value`).
-- * A trade group's fees (tax class trading_fee): an allowable cost of the group's disposal (column fees), or
--   part of the acquisition's cost when nothing but the unit was given; a fee paid in a token is also a disposal
--   of that token at its value (CRYPTO22280, flag `fee`).
-- * Withdrawals (external_withdrawal) leave the lots without being disposed of (kind `remove`), listed; with
--   getvariable('lp_gains_withdrawals') = 'disposal' (--withdrawals disposal) they are disposals at their value
--   (flag `withdrawal`).
-- * Transfers between the account's own wallets (internal_transfer), and rows booked elsewhere or not moved,
--   change no lot: the lots are the account's (or the pool's), whichever wallet holds the coins.
-- * Anything else received is acquired at its value (income, interest, rewards, deposits flagged
--   `deposit_at_market_value`, realized PnL, funding received, loans); anything else paid is disposed of at its
--   value (fees, funding and interest paid, liquidations, repayments), flagged with its tax class.
-- * A row without a value counts as worth zero, flagged `unvalued`.
--
-- Only the rows from getvariable('lp_gains_from') (the instant the kept computation goes on from, src/gains/kept.ts;
-- -infinity from the first) up to getvariable('lp_gains_until') (the range's end; NULL for all) are read. A trade
-- group is whole within them: its legs share their millisecond (sql/ledger/10_ledger.sql ends its key with it).
-- creates: lp_gain_events
-- reads: lp_ledger_valued_rows, lp_valuation_fiat
-- params: lp_gains_from, lp_gains_until, lp_gains_withdrawals
CREATE OR REPLACE TEMP VIEW lp_gain_events AS
WITH valued AS (
  SELECT
    account, entry_id, ts, asset, CAST(amount AS DECIMAL(38, 18)) AS amount, category, tax_class, trade_group,
    CAST(CASE WHEN lp_valuation_fiat() IS NULL THEN value_usdt ELSE value_fiat END AS DECIMAL(38, 18)) AS value_unit,
    coalesce(lp_valuation_fiat(), 'USDT') AS unit
  FROM lp_ledger_valued_rows()
  WHERE ts >= getvariable('lp_gains_from')
    AND (getvariable('lp_gains_until') IS NULL OR ts < getvariable('lp_gains_until'))
),
legs AS (
  SELECT *,
    trade_group IS NOT NULL AND tax_class IN ('trade_leg', 'conversion') AS is_leg,
    trade_group IS NOT NULL AND tax_class = 'trading_fee' AS is_group_fee
  FROM valued
),
groups AS (
  SELECT
    trade_group,
    sum(abs(value_unit)) FILTER (WHERE is_leg AND amount < 0) AS given,
    count(*) FILTER (WHERE is_leg AND amount < 0 AND value_unit IS NULL) AS given_unvalued,
    sum(value_unit) FILTER (WHERE is_leg AND amount > 0) AS received,
    count(*) FILTER (WHERE is_leg AND amount > 0 AND value_unit IS NULL) AS received_unvalued,
    count(*) FILTER (WHERE is_leg AND amount < 0) AS given_legs,
    count(*) FILTER (WHERE is_leg AND amount > 0) AS received_legs,
    count(*) FILTER (WHERE is_leg AND amount < 0 AND asset <> unit) AS token_given_legs,
    coalesce(sum(abs(value_unit)) FILTER (WHERE is_group_fee AND amount < 0), 0) - coalesce(sum(value_unit) FILTER (WHERE is_group_fee AND amount > 0), 0) AS fees
  FROM legs
  WHERE trade_group IS NOT NULL
  GROUP BY trade_group
),
shaped AS (
  SELECT
    l.account, l.entry_id, l.ts, l.asset, l.trade_group, l.tax_class, l.is_leg, l.is_group_fee,
    abs(l.amount) AS quantity,
    CASE
      WHEN l.tax_class IN ('internal_transfer', 'booked_elsewhere', 'not_moved') THEN NULL
      WHEN l.amount > 0 THEN 'acquire'
      WHEN l.tax_class = 'external_withdrawal' AND getvariable('lp_gains_withdrawals') IS DISTINCT FROM 'disposal' THEN 'remove'
      ELSE 'dispose'
    END AS kind,
    abs(l.value_unit) AS own,
    -- The other side's value, when every leg of it has one: what a leg given was disposed of for, what a leg
    -- received cost. Its share among the legs of this side (by their own values) is the engine's to take.
    CASE
      WHEN l.is_leg AND l.amount < 0 AND g.received_unvalued = 0 THEN g.received
      WHEN l.is_leg AND l.amount > 0 AND g.given_unvalued = 0 THEN g.given
    END AS other,
    CASE WHEN l.amount < 0 THEN g.given ELSE g.received END AS side_value,
    CASE WHEN l.amount < 0 THEN g.given_legs ELSE g.received_legs END AS side_legs,
    -- The group's fees: the disposal's allowable cost, or the acquisition's when only the unit was given.
    CASE
      WHEN NOT l.is_leg THEN 0
      WHEN l.amount < 0 AND l.asset <> l.unit THEN g.fees
      WHEN l.amount > 0 AND g.token_given_legs = 0 THEN g.fees
      ELSE 0
    END AS group_fees
  FROM legs AS l
  LEFT JOIN groups AS g USING (trade_group)
  WHERE l.asset <> l.unit AND l.amount <> 0
)
SELECT
  account, entry_id, ts, asset, kind, quantity, own, other, side_value, side_legs, group_fees, trade_group,
  concat_ws(' ',
    CASE WHEN other IS NULL AND own IS NULL THEN 'unvalued' END,
    CASE WHEN is_leg AND other IS NULL AND own IS NOT NULL THEN 'own_value' END,
    CASE WHEN is_group_fee THEN 'fee' END,
    CASE WHEN tax_class = 'external_deposit' AND kind = 'acquire' THEN 'deposit_at_market_value' END,
    CASE WHEN tax_class = 'external_withdrawal' AND kind = 'dispose' THEN 'withdrawal' END,
    CASE WHEN tax_class NOT IN ('trade_leg', 'conversion', 'trading_fee', 'external_deposit', 'external_withdrawal') THEN tax_class END
  ) AS flags
FROM shaped
WHERE kind IS NOT NULL;
