-- The SQL helpers of the staging and ledger models, the checks, the exports, status and `query`: created whenever
-- a warehouse opens (src/warehouse/macros.ts), temporary on a read-only one. Safe to run again.
-- creates: lp_amount, lp_ms, lp_decimal_text, lp_whole, lp_frac, lp_small, lp_sum_whole, lp_sum_frac, lp_signed_text, lp_carried_text, lp_exact_text, lp_total, lp_csv_text, lp_time_text, lp_fee_detail, lp_transfer_reference, lp_transfer_note, lp_direction_by_name, lp_directed, lp_add_half_even, lp_units_to_decimal, lp_abs_mul_units, lp_mul_parts, lp_fits, lp_mul, lp_hour, lp_futures_account_type
-- reads: -
-- params: -

-- An amount from the platform's decimal string to DECIMAL(38,18), exactly.
-- Most amounts have at most 10 whole digits and 8 decimals: those go through DECIMAL(18,8), which DuckDB
-- reads several times faster than DECIMAL(38,18). Others are read as two integers (whole part, decimals)
-- joined by exact decimal arithmetic. Neither path rounds: more than 18 decimals is an error (extraction
-- quarantines such records before they get here). Digits are counted from the position of the point, not
-- by splitting the text, which is exact for text of the form [+-]digits[.digits]: every field read with
-- lp_amount is checked to be that, or empty, at extraction (decimalString in src/streams/fields.ts), and
-- strpos allocates nothing (docs/performance.md, "SQL").
CREATE OR REPLACE MACRO lp_amount(text) AS (
  CASE
    WHEN text IS NULL OR text = '' THEN NULL
    WHEN (CASE WHEN strpos(text, '.') = 0 THEN length(text) ELSE strpos(text, '.') - 1 END)
           - (CASE WHEN starts_with(text, '-') OR starts_with(text, '+') THEN 1 ELSE 0 END) <= 10
      AND (CASE WHEN strpos(text, '.') = 0 THEN 0 ELSE length(text) - strpos(text, '.') END) <= 8
      -- TRY_CAST: DuckDB may evaluate this branch on rows the condition rejects, then throw it away.
      THEN CAST(TRY_CAST(text AS DECIMAL(18, 8)) AS DECIMAL(38, 18))
    -- Trailing zeros carry no value ('1.000000000000000000000' is 1): only significant decimals count.
    WHEN length(rtrim(split_part(text, '.', 2), '0')) > 18 THEN error('amount ' || text || ' has more than 18 decimals')
    ELSE (CASE WHEN starts_with(text, '-') THEN -1 ELSE 1 END) * (
      CAST(CAST(split_part(ltrim(text, '+-'), '.', 1) AS HUGEINT) AS DECIMAL(38, 18))
      + CAST(CAST(rpad(left(split_part(text, '.', 2), 18), 18, '0') AS BIGINT) AS DECIMAL(18, 0))
        * CAST('0.000000000000000001' AS DECIMAL(18, 18)))
  END
);

-- A Unix-millisecond string to TIMESTAMPTZ.
CREATE OR REPLACE MACRO lp_ms(text) AS
  CASE WHEN text IS NULL OR text = '' THEN NULL ELSE make_timestamptz(CAST(text AS BIGINT) * 1000) END;

-- A decimal as the exports write it: plain, no exponent, no trailing zeros ('0.1', '-12.5', '0').
CREATE OR REPLACE MACRO lp_decimal_text(value) AS
  CASE WHEN value IS NULL THEN NULL ELSE rtrim(rtrim(CAST(value AS VARCHAR), '0'), '.') END;

-- Exact totals that cannot overflow. A DECIMAL(38,18) holds amounts below 10^20, and so does its sum: two
-- amounts the platform may send (20 whole digits, extraction's limit) already add up past it. lp_total(x) is
-- an aggregate that writes the exact total as lp_decimal_text would ('-12.5', '0'):
--   SELECT asset, lp_total(amount) FROM ledger GROUP BY asset
-- It adds amounts under 10^10 as they are (fast: DuckDB's own sum, which would need 10^10 of them to reach
-- 10^20), and the larger ones as whole and decimal parts in two HUGEINTs (up to 10^38 each, so 10^18 amounts
-- at the limit), then joins the two and carries; splitting every amount instead is some 40 times slower
-- (docs/performance.md, "SQL"). lp_sum_whole and lp_sum_frac are its two parts, for totals that choose between sums
-- (check 30): lp_exact_text(sum of wholes, sum of decimals) writes such a pair.
CREATE OR REPLACE MACRO lp_whole(value) AS CAST(trunc(value) AS HUGEINT);
CREATE OR REPLACE MACRO lp_frac(value) AS CAST((value - trunc(value)) * CAST(1000000000000000000 AS DECIMAL(19, 0)) AS HUGEINT);
CREATE OR REPLACE MACRO lp_small(value) AS value > -10000000000 AND value < 10000000000;
CREATE OR REPLACE MACRO lp_sum_whole(value) AS
  CASE WHEN count(value) = 0 THEN NULL ELSE
    coalesce(sum(CASE WHEN NOT lp_small(value) THEN lp_whole(value) END), 0)
      + coalesce(lp_whole(sum(CASE WHEN lp_small(value) THEN value END)), 0) END;
CREATE OR REPLACE MACRO lp_sum_frac(value) AS
  coalesce(sum(CASE WHEN NOT lp_small(value) THEN lp_frac(value) END), 0)
    + coalesce(lp_frac(sum(CASE WHEN lp_small(value) THEN value END)), 0);
-- Whole and decimals of one sign (|frac| < 10^18) as text.
CREATE OR REPLACE MACRO lp_signed_text(whole, frac) AS
  (CASE WHEN whole < 0 OR frac < 0 THEN '-' ELSE '' END) || CAST(abs(whole) AS VARCHAR)
    || rtrim(rtrim('.' || lpad(CAST(abs(frac) AS VARCHAR), 18, '0'), '0'), '.');
-- Whole and decimals with |frac| < 10^18, of any signs, brought to one sign.
CREATE OR REPLACE MACRO lp_carried_text(whole, frac) AS
  CASE
    WHEN whole > 0 AND frac < 0 THEN lp_signed_text(whole - 1, frac + CAST(1000000000000000000 AS HUGEINT))
    WHEN whole < 0 AND frac > 0 THEN lp_signed_text(whole + 1, frac - CAST(1000000000000000000 AS HUGEINT))
    ELSE lp_signed_text(whole, frac)
  END;
-- A total in whole and decimal parts (each summed on its own, so the decimals may pass 1) as exact text.
-- DuckDB expands a macro's argument into every use of it, and the macros above use each part five times and
-- more: lp_total's sums were bound some thirty times over, 30 ms of planning for each use of it. The lambda
-- over a one-element list binds the two parts once, as p.w and p.f (docs/performance.md, "SQL"); it also
-- runs faster (2M rows: 4.1 s instead of 7.3 s, the same texts).
CREATE OR REPLACE MACRO lp_exact_text(whole, frac) AS
  list_transform(
    [{'w': whole + frac // CAST(1000000000000000000 AS HUGEINT), 'f': frac % CAST(1000000000000000000 AS HUGEINT)}],
    lambda p: CASE WHEN p.w IS NULL THEN NULL ELSE lp_carried_text(p.w, p.f) END)[1];
CREATE OR REPLACE MACRO lp_total(value) AS lp_exact_text(lp_sum_whole(value), lp_sum_frac(value));

-- A text cell as the CSV files write it: one that a spreadsheet would take for a formula (it starts with =, +,
-- -, @, a tab or a carriage return) gets a single quote in front, as OWASP's "CSV Injection" page recommends
-- (https://owasp.org/www-community/attacks/CSV_Injection). A cell that is a plain number (-12.5, an amount
-- written as text) is no formula and stays as it is. The first characters are a list, not an IN list: DuckDB
-- turns an IN list of five or more constants into a join, and a join does not keep the rows' order, which an
-- export of a ledger already in the exports' order relies on (docs/performance.md, "Memory").
CREATE OR REPLACE MACRO lp_csv_text(value) AS
  CASE
    WHEN list_contains(['=', '+', '-', '@', chr(9), chr(13)], left(value, 1)) AND NOT regexp_full_match(value, '[+-]?[0-9]+(\.[0-9]+)?')
      THEN '''' || value
    ELSE value
  END;

-- A time as the exports write it: ISO 8601, UTC, milliseconds, 'Z'. The instant's microseconds as a plain
-- TIMESTAMP are its UTC wall time with no time zone to look up: half the time of timezone('UTC', value) over the
-- 1.5M rows of a year of 1M fills, the same texts (docs/performance.md, "Gains kept").
CREATE OR REPLACE MACRO lp_time_text(value) AS
  strftime(make_timestamp(epoch_us(value)), '%Y-%m-%dT%H:%M:%S.%gZ');

-- A fill's feeDetail (JSON) as a typed list; missing keys become NULL (the live service writes some fee
-- fields null, docs/platform.md, "Fills").
CREATE OR REPLACE MACRO lp_fee_detail(detail) AS
  json_transform(detail, '[{"deduction":"VARCHAR","feeCoin":"VARCHAR","totalDeductionFee":"VARCHAR","totalFee":"VARCHAR"}]');

-- A withdrawal's or deposit's reference in the ledger (docs/ledger.md): the chain transaction hash of an
-- on-chain one (tradeId), else its order id; and its note: where it went, and on which chain.
CREATE OR REPLACE MACRO lp_transfer_reference(dest, trade_id, order_id) AS
  CASE WHEN dest = 'on_chain' THEN coalesce(trade_id, order_id) ELSE order_id END;
CREATE OR REPLACE MACRO lp_transfer_note(dest, chain) AS dest || coalesce(' ' || chain, '');

-- The direction of a type not in the catalog, from its name: 'in' when a word of it is "in" (transfer_in,
-- USER_IN, transfer-in), 'out' when one is "out", else NULL (then the stream's own direction, or as signed).
-- A name with both says nothing. docs/ledger.md, "Types not in the catalog".
CREATE OR REPLACE MACRO lp_direction_by_name(type) AS
  CASE
    WHEN regexp_matches(lower(type), '(^|[^a-z])in([^a-z]|$)') AND NOT regexp_matches(lower(type), '(^|[^a-z])out([^a-z]|$)') THEN 'in'
    WHEN regexp_matches(lower(type), '(^|[^a-z])out([^a-z]|$)') AND NOT regexp_matches(lower(type), '(^|[^a-z])in([^a-z]|$)') THEN 'out'
  END;

-- An amount booked by a direction: 'in' is +abs, 'out' is -abs, anything else ('signed') as the platform wrote it.
CREATE OR REPLACE MACRO lp_directed(amount, direction) AS
  CASE direction WHEN 'in' THEN abs(amount) WHEN 'out' THEN -abs(amount) ELSE amount END;

-- lp_mul_parts(a, b): an exact product of two DECIMAL(38,18), rounded half-even at the 18th decimal (docs/values.md).
-- DuckDB multiplies decimals by adding their scales, which overflows at 38 digits, and its CAST rounds
-- half away from zero: so each factor is split into whole part and 18 decimal digits (lp_whole, lp_frac,
-- HUGEINTs), and with a = a1 + a0/10^18, b = b1 + b0/10^18, the product in units of 10^-18 is
--   a1*b1*10^18 + a1*b0 + a0*b1 + a0*b0/10^18,
-- where only the last term is rounded. Exact for every product below 10^20, the range of DECIMAL(38,18).
-- s + p / 10^18 in whole units, rounded half-even (s a whole number of units, p >= 0): the parity that decides a
-- tie is that of the whole result, not of p's share of it.
CREATE OR REPLACE MACRO lp_add_half_even(s, p) AS
  s + p // CAST(1000000000000000000 AS HUGEINT)
    + CASE WHEN (p % CAST(1000000000000000000 AS HUGEINT)) * 2 > CAST(1000000000000000000 AS HUGEINT)
             OR ((p % CAST(1000000000000000000 AS HUGEINT)) * 2 = CAST(1000000000000000000 AS HUGEINT)
                 AND (s + p // CAST(1000000000000000000 AS HUGEINT)) % 2 = 1)
           THEN 1 ELSE 0 END;
CREATE OR REPLACE MACRO lp_units_to_decimal(u) AS
  CAST(u // CAST(1000000000000000000 AS HUGEINT) AS DECIMAL(38, 18))
    + CAST(u % CAST(1000000000000000000 AS HUGEINT) AS DECIMAL(38, 0)) * CAST('0.000000000000000001' AS DECIMAL(18, 18));
CREATE OR REPLACE MACRO lp_abs_mul_units(a1, a0, b1, b0) AS
  lp_add_half_even(a1 * b1 * CAST(1000000000000000000 AS HUGEINT) + a1 * b0 + a0 * b1, a0 * b0);
-- Each factor's parts, and then the product's units, are bound once through a lambda, as in lp_exact_text: expanded
-- into every use, one lp_mul took 16 ms to plan, and now 4.5 ms; the rows that need the parts take half the time.
CREATE OR REPLACE MACRO lp_mul_parts(a, b) AS
  list_transform(
    [{'s': sign(a) * sign(b), 'a1': lp_whole(abs(a)), 'a0': lp_frac(abs(a)), 'b1': lp_whole(abs(b)), 'b0': lp_frac(abs(b))}],
    lambda p: list_transform([lp_abs_mul_units(p.a1, p.a0, p.b1, p.b0)], lambda u: p.s * lp_units_to_decimal(u))[1])[1];
-- Whether a DECIMAL(38,18) is below 10^10 in size with at most `scale` (8 or 10) decimals: it is that decimal exactly.
CREATE OR REPLACE MACRO lp_fits(value, scale) AS
  CASE scale
    WHEN 8 THEN CAST(TRY_CAST(value AS DECIMAL(18, 8)) AS DECIMAL(38, 18)) = value
    WHEN 10 THEN CAST(TRY_CAST(value AS DECIMAL(20, 10)) AS DECIMAL(38, 18)) = value
  END;
-- lp_mul(a, b): the exact product. Most amounts and prices are below 10^10 with at most 8 and 10 decimals:
-- DuckDB multiplies a DECIMAL(18,8) by a DECIMAL(20,10) into a DECIMAL(38,18) exactly (the product has at most
-- 18 decimals and is below 10^20, so there is nothing to round), several times faster than lp_mul_parts, whose
-- macros DuckDB expands into every use of their arguments (a pass over the 676k ledger rows of a busy year: 1.5 s
-- instead of 7.5 s, docs/performance.md, "Prices"). NULL stays NULL; every other product goes through lp_mul_parts.
CREATE OR REPLACE MACRO lp_mul(a, b) AS
  CASE
    WHEN a IS NULL OR b IS NULL THEN NULL
    WHEN lp_fits(a, 8) AND lp_fits(b, 10) THEN CAST(a AS DECIMAL(18, 8)) * CAST(b AS DECIMAL(20, 10))
    WHEN lp_fits(a, 10) AND lp_fits(b, 8) THEN CAST(a AS DECIMAL(20, 10)) * CAST(b AS DECIMAL(18, 8))
    ELSE lp_mul_parts(a, b)
  END;

-- The open of the UTC hour a time falls in: the hourly candle that holds it opens then (docs/values.md).
CREATE OR REPLACE MACRO lp_hour(ts) AS to_timestamp((epoch_ms(ts) // 3600000) * 3600);

-- The account type of a futures product type (USDT-FUTURES is usdt_futures): the names of the per-asset
-- balances (docs/completeness.md, "Balances"), which a ledger row's account_type shares.
-- Constants, not string functions: it is computed for each of a busy year's 2M fill rows.
CREATE OR REPLACE MACRO lp_futures_account_type(product_type) AS
  CASE product_type WHEN 'USDT-FUTURES' THEN 'usdt_futures' WHEN 'COIN-FUTURES' THEN 'coin_futures' WHEN 'USDC-FUTURES' THEN 'usdc_futures'
    ELSE lower(split_part(product_type, '-', 1)) || '_futures' END;
