-- loans: the open crypto loans as of each run (src/streams/loans.ts holds the columns and their meaning;
-- docs/completeness.md, "Open loans"). A table the transform makes from raw_records when a snapshot was taken since
-- the last. A part the key could not read is one marker record {"ledgerpipeUnavailable": why}.
-- creates: loans
-- reads: lp_amount, lp_ms, raw_records
-- params: -
CREATE OR REPLACE TABLE loans AS
WITH source AS (
  SELECT account, key, ts, payload,
    json_transform(payload, '{"orderId":"VARCHAR","loanCoin":"VARCHAR","loanAmount":"VARCHAR","interestAmount":"VARCHAR",
      "pledgeCoin":"VARCHAR","pledgeAmount":"VARCHAR","hourInterestRate":"VARCHAR","pledgeRate":"VARCHAR",
      "borrowTime":"VARCHAR","expireTime":"VARCHAR","ledgerpipeUnavailable":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'loans'
)
SELECT
  account,
  ts                                AS as_of,
  CASE WHEN r.ledgerpipeUnavailable IS NULL THEN r.orderId END AS order_id,
  upper(r.loanCoin)                 AS coin,
  lp_amount(r.loanAmount)           AS amount,
  lp_amount(r.interestAmount)       AS interest,
  upper(r.pledgeCoin)               AS collateral_coin,
  lp_amount(r.pledgeAmount)         AS collateral_amount,
  lp_amount(r.hourInterestRate)     AS hour_interest_rate,
  lp_amount(r.pledgeRate)           AS pledge_rate,
  lp_ms(r.borrowTime)               AS borrowed_at,
  lp_ms(r.expireTime)               AS expires_at,
  r.ledgerpipeUnavailable           AS unavailable,
  CASE WHEN r.ledgerpipeUnavailable IS NULL THEN CAST(payload AS VARCHAR) END AS fields,
  key
FROM source;
