-- Notes, in ledger_changes (sql/warehouse/016_gains_kept.sql), that the whole ledger was made again: the gains
-- kept from it (src/gains/kept.ts) are computed again from the first movement. Runs with every transform that
-- makes the ledger whole; an incremental one notes the rows it changed (sql/incremental/15_changed_rows.sql).
-- Reads nothing; no parameters.
-- creates: -
-- reads: ledger_changes
-- params: -
INSERT INTO ledger_changes VALUES (NULL, 'the whole ledger made again');
