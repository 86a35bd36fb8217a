-- fx_rates_daily made again from fx_coverage and fx_rates (sql/warehouse/014_fx_rates.sql), every currency, after each
-- answer of the ECB is stored (src/prices/ecb-rates.ts, in the answer's transaction; docs/values.md, "A fiat"). No
-- parameters. A table, not a view: the holdings value one instant at a time (lp_fiat_rate_at,
-- sql/values/20_fiat_ecb.sql), and a view of islands and an ASOF join evaluated once per holding took 20 s for 90 of
-- them. For every day read, the ECB's euro rate that values the movements of that day (UTC): the rate published for the
-- day, else the last one published before it, as the ECB's series has none for weekends and TARGET closing days. Two
-- rules keep it from carrying a rate on where it is not known:
--  * the rate comes from the same stretch of days read without a gap (an island of fx_coverage's spans): a day read
--    after an unread stretch never takes a rate from before that stretch;
--  * it is at most 7 days older than the day: no gap between two publications is longer than 4 days (Good Friday
--    to Easter Monday), so an older one means the ECB no longer publishes the currency (BGN from 2026), and the
--    day has no rate.
-- creates: -
-- reads: fx_coverage, fx_rates, fx_rates_daily
-- params: -
DELETE FROM fx_rates_daily;
INSERT INTO fx_rates_daily
WITH spans AS (
  SELECT
    currency, source, first_date, last_date,
    -- A span that starts after every earlier span of its currency ended (or right after: adjacent days join) opens an
    -- island.
    CASE WHEN first_date <= max(last_date) OVER (
      PARTITION BY currency, source ORDER BY first_date, last_date ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) + 1 THEN 0 ELSE 1 END AS opens
  FROM fx_coverage
),
numbered AS (
  SELECT *, sum(opens) OVER (PARTITION BY currency, source ORDER BY first_date, last_date) AS island
  FROM spans
),
islands AS (
  SELECT currency, source, min(first_date) AS first_date, max(last_date) AS last_date
  FROM numbered
  GROUP BY currency, source, island
),
days AS (
  SELECT currency, source, first_date AS read_from,
    CAST(unnest(generate_series(CAST(first_date AS TIMESTAMP), CAST(last_date AS TIMESTAMP), INTERVAL 1 DAY)) AS DATE) AS date
  FROM islands
)
SELECT d.date, d.currency, r.rate, r.date AS rate_date, d.source
FROM days AS d
ASOF JOIN fx_rates AS r ON r.currency = d.currency AND r.source = d.source AND d.date >= r.date
WHERE r.date >= d.read_from AND r.date >= d.date - 7;
