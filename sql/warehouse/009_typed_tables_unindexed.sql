-- The typed tables without their primary keys (docs/transform.md). Building the key's index
-- over a stream typed again whole (transform --full, a change of the typing) took 1.7 s of 6 s for 983k fills,
-- and for the 2.95M fills of three years could not be done within the default memory budget at all. raw_records'
-- key keeps them one row per record: a loader deletes the earlier rows of records it loads again before typing
-- them (typeRecords in src/warehouse/typed-at-load.ts), and a transform types a stream again whenever its typed
-- rows and its raw records differ in number. Same columns, NOT NULL where they were.
-- creates: typed_margin_records_009, typed_futures_fills_009, typed_withdrawals_009, typed_deposits_009, typed_futures_tax_records_009, typed_spot_tax_records_009, typed_p2p_tax_records_009, typed_margin_records, typed_futures_fills, typed_withdrawals, typed_deposits, typed_futures_tax_records, typed_spot_tax_records, typed_p2p_tax_records
-- reads: -
-- params: -

CREATE TABLE typed_margin_records_009 AS FROM typed_margin_records;
DROP TABLE typed_margin_records;
ALTER TABLE typed_margin_records_009 RENAME TO typed_margin_records;
ALTER TABLE typed_margin_records ALTER COLUMN account SET NOT NULL;
ALTER TABLE typed_margin_records ALTER COLUMN margin_type SET NOT NULL;
ALTER TABLE typed_margin_records ALTER COLUMN key SET NOT NULL;
ALTER TABLE typed_margin_records ALTER COLUMN ts SET NOT NULL;

CREATE TABLE typed_futures_fills_009 AS FROM typed_futures_fills;
DROP TABLE typed_futures_fills;
ALTER TABLE typed_futures_fills_009 RENAME TO typed_futures_fills;
ALTER TABLE typed_futures_fills ALTER COLUMN account SET NOT NULL;
ALTER TABLE typed_futures_fills ALTER COLUMN product_type SET NOT NULL;
ALTER TABLE typed_futures_fills ALTER COLUMN key SET NOT NULL;
ALTER TABLE typed_futures_fills ALTER COLUMN ts SET NOT NULL;

CREATE TABLE typed_withdrawals_009 AS FROM typed_withdrawals;
DROP TABLE typed_withdrawals;
ALTER TABLE typed_withdrawals_009 RENAME TO typed_withdrawals;
ALTER TABLE typed_withdrawals ALTER COLUMN account SET NOT NULL;
ALTER TABLE typed_withdrawals ALTER COLUMN partition SET NOT NULL;
ALTER TABLE typed_withdrawals ALTER COLUMN key SET NOT NULL;
ALTER TABLE typed_withdrawals ALTER COLUMN ts SET NOT NULL;

CREATE TABLE typed_deposits_009 AS FROM typed_deposits;
DROP TABLE typed_deposits;
ALTER TABLE typed_deposits_009 RENAME TO typed_deposits;
ALTER TABLE typed_deposits ALTER COLUMN account SET NOT NULL;
ALTER TABLE typed_deposits ALTER COLUMN partition SET NOT NULL;
ALTER TABLE typed_deposits ALTER COLUMN key SET NOT NULL;
ALTER TABLE typed_deposits ALTER COLUMN ts SET NOT NULL;

CREATE TABLE typed_futures_tax_records_009 AS FROM typed_futures_tax_records;
DROP TABLE typed_futures_tax_records;
ALTER TABLE typed_futures_tax_records_009 RENAME TO typed_futures_tax_records;
ALTER TABLE typed_futures_tax_records ALTER COLUMN account SET NOT NULL;
ALTER TABLE typed_futures_tax_records ALTER COLUMN partition SET NOT NULL;
ALTER TABLE typed_futures_tax_records ALTER COLUMN key SET NOT NULL;
ALTER TABLE typed_futures_tax_records ALTER COLUMN ts SET NOT NULL;

CREATE TABLE typed_spot_tax_records_009 AS FROM typed_spot_tax_records;
DROP TABLE typed_spot_tax_records;
ALTER TABLE typed_spot_tax_records_009 RENAME TO typed_spot_tax_records;
ALTER TABLE typed_spot_tax_records ALTER COLUMN account SET NOT NULL;
ALTER TABLE typed_spot_tax_records ALTER COLUMN partition SET NOT NULL;
ALTER TABLE typed_spot_tax_records ALTER COLUMN key SET NOT NULL;
ALTER TABLE typed_spot_tax_records ALTER COLUMN ts SET NOT NULL;

CREATE TABLE typed_p2p_tax_records_009 AS FROM typed_p2p_tax_records;
DROP TABLE typed_p2p_tax_records;
ALTER TABLE typed_p2p_tax_records_009 RENAME TO typed_p2p_tax_records;
ALTER TABLE typed_p2p_tax_records ALTER COLUMN account SET NOT NULL;
ALTER TABLE typed_p2p_tax_records ALTER COLUMN partition SET NOT NULL;
ALTER TABLE typed_p2p_tax_records ALTER COLUMN key SET NOT NULL;
ALTER TABLE typed_p2p_tax_records ALTER COLUMN ts SET NOT NULL;
