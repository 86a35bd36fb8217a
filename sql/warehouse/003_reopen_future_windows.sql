-- The first release did not stop a range at the present: a window that ended after the moment it was read was
-- marked done, and later runs skipped it, though records of its later part did not exist yet when it was
-- read. Such a window (its end after the time it was written) is reopened from its start, so that the next run
-- over it, or the next nightly, reads it whole; records already loaded stay, and keys keep them once.
-- creates: -
-- reads: coverage
-- params: -
UPDATE coverage SET status = 'open', cursor = NULL
WHERE status = 'done' AND window_end > updated_at;
