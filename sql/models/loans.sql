-- loans: the open crypto loans as of each run (src/streams/loans.ts holds the columns, each with its field and cast;
-- docs/completeness.md, "Open loans"). A table the transform makes from raw_records when a snapshot was taken since
-- the last, typed by lp_type_loans (sql/generated/typing.sql). A part the key could not read is one marker record
-- {"ledgerpipeUnavailable": why}: its row has no order and no fields.
-- creates: loans
-- reads: raw_records, lp_type_loans
-- params: -
CREATE OR REPLACE TABLE loans AS
SELECT * FROM lp_type_loans('raw_records');
