-- lp_futures_fills_parsed: each fill's payload parsed once (json_transform), for the two models after this
-- file: futures_fills and futures_fill_fees. A session-only table; 21_futures_fill_fees.sql drops it.
CREATE OR REPLACE TEMP TABLE lp_futures_fills_parsed AS
SELECT
  account, partition, ts,
  json_transform(payload, '{"tradeId":"VARCHAR","orderId":"VARCHAR","symbol":"VARCHAR","price":"VARCHAR",
    "baseVolume":"VARCHAR","quoteVolume":"VARCHAR","side":"VARCHAR","tradeSide":"VARCHAR","posMode":"VARCHAR",
    "tradeScope":"VARCHAR","enterPointSource":"VARCHAR","profit":"VARCHAR","marginCoin":"VARCHAR",
    "feeDetail":[{"deduction":"VARCHAR","feeCoin":"VARCHAR","totalDeductionFee":"VARCHAR","totalFee":"VARCHAR"}]}') AS r
FROM raw_records
WHERE stream = 'futures_fills';
