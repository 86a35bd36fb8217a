-- Third release: the hours of a span whose candle the platform did not serve, asked twice (docs/values.md, "Where
-- prices come from"): listed per span, with the reason, never filled in.
-- creates: -
-- reads: price_coverage
-- params: -
ALTER TABLE price_coverage ADD COLUMN IF NOT EXISTS missing_hours TIMESTAMPTZ[];
ALTER TABLE price_coverage ADD COLUMN IF NOT EXISTS missing_reason VARCHAR;
