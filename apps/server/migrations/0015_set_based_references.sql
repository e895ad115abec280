-- The references of the three tables the money flow writes in bulk (postings, payments,
-- invoice_events) are checked once per statement instead of once per row. A foreign key runs one
-- lookup query per inserted row and key: a BGMAX file of 100,000 payments writes ~400,000 such rows
-- with ~870,000 keys, and those lookups were a third of the import's time (docs/BENCHMARKS.md). The
-- guarantees stay those of the foreign keys they replace, enforced by the database for every writer:
--   * a new row whose key names no parent row is refused (SQLSTATE 23503, as a foreign key says), and
--     the parent rows are locked FOR KEY SHARE until commit, so no one deletes them meanwhile;
--   * an update that changes a key is checked the same way (a row trigger, only when the key changes);
--   * deleting a parent that is still referenced is refused, except invoice_events, which go with
--     their invoice (ON DELETE CASCADE before); changing a parent's id is refused; truncating a parent
--     is refused unless its children are truncated in the same statement.
-- The parents' delete checks read the children with a fresh snapshot per statement (READ COMMITTED,
-- the only isolation level the server uses); nothing in the application deletes these parents.
ALTER TABLE "postings" DROP CONSTRAINT "postings_issuer_id_issuers_id_fk";--> statement-breakpoint
ALTER TABLE "postings" DROP CONSTRAINT "postings_invoice_id_invoices_id_fk";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_file_id_payment_files_id_fk";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_issuer_id_issuers_id_fk";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_invoice_id_invoices_id_fk";--> statement-breakpoint
ALTER TABLE "invoice_events" DROP CONSTRAINT "invoice_events_invoice_id_invoices_id_fk";--> statement-breakpoint
ALTER TABLE "invoice_events" DROP CONSTRAINT "invoice_events_issuer_id_issuers_id_fk";--> statement-breakpoint
-- The error of a key that names no parent row, worded as a foreign key's.
CREATE FUNCTION reference_missing(child text, col text, key text, parent text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "%" violates its reference to "%"', child, parent
    USING ERRCODE = 'foreign_key_violation', TABLE = child, COLUMN = col,
          DETAIL = format('Key (%s)=(%s) is not present in table "%s".', col, key, parent);
END
$$;
--> statement-breakpoint
-- Child side, per statement: arguments are pairs (key column, parent table); every parent's key is
-- its uuid column "id". The distinct keys of the new rows are probed one by one on the parent's
-- primary key (a LATERAL subquery with a locking clause is never flattened into a join, so a large
-- statement cannot turn it into a scan of the parent) and locked.
CREATE FUNCTION reference_check_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  i int := 0;
  missing text;
BEGIN
  WHILE i < TG_NARGS LOOP
    EXECUTE format($q$
      SELECT min(d.k::text) FILTER (WHERE l.k IS NULL)
      FROM (SELECT DISTINCT %1$I AS k FROM new_rows WHERE %1$I IS NOT NULL) d
      LEFT JOIN LATERAL (SELECT p.id AS k FROM %2$I p WHERE p.id = d.k FOR KEY SHARE OF p) l ON true$q$,
      TG_ARGV[i], TG_ARGV[i + 1])
    INTO missing;
    IF missing IS NOT NULL THEN
      PERFORM reference_missing(TG_TABLE_NAME, TG_ARGV[i], missing, TG_ARGV[i + 1]);
    END IF;
    i := i + 2;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Child side, per row, for the rare update that changes a key (an operator assigning a payment).
CREATE FUNCTION reference_check_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  i int := 0;
  k text;
  found_key uuid;
BEGIN
  WHILE i < TG_NARGS LOOP
    k := to_jsonb(NEW) ->> TG_ARGV[i];
    IF k IS NOT NULL THEN
      EXECUTE format('SELECT p.id FROM %I p WHERE p.id = $1::uuid FOR KEY SHARE OF p', TG_ARGV[i + 1])
        INTO found_key USING k;
      IF found_key IS NULL THEN
        PERFORM reference_missing(TG_TABLE_NAME, TG_ARGV[i], k, TG_ARGV[i + 1]);
      END IF;
    END IF;
    i := i + 2;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Parent side, per statement, after a delete: arguments are triples (child table, key column,
-- 'cascade' or 'restrict').
CREATE FUNCTION reference_parent_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  i int := 0;
  referenced text;
BEGIN
  WHILE i < TG_NARGS LOOP
    IF TG_ARGV[i + 2] = 'cascade' THEN
      EXECUTE format('DELETE FROM %1$I c WHERE c.%2$I IN (SELECT id FROM old_rows)', TG_ARGV[i], TG_ARGV[i + 1]);
    ELSE
      EXECUTE format('SELECT c.%2$I::text FROM %1$I c WHERE c.%2$I IN (SELECT id FROM old_rows) LIMIT 1',
        TG_ARGV[i], TG_ARGV[i + 1])
      INTO referenced;
      IF referenced IS NOT NULL THEN
        RAISE EXCEPTION 'update or delete on table "%" violates the reference from "%"', TG_TABLE_NAME, TG_ARGV[i]
          USING ERRCODE = 'foreign_key_violation', TABLE = TG_ARGV[i], COLUMN = TG_ARGV[i + 1],
                DETAIL = format('Key (id)=(%s) is still referenced from table "%s".', referenced, TG_ARGV[i]);
      END IF;
    END IF;
    i := i + 3;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Parent side: a parent's id never changes (its children would lose it).
CREATE FUNCTION reference_parent_key_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the id of a row of "%" cannot change', TG_TABLE_NAME
    USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, COLUMN = 'id';
END
$$;
--> statement-breakpoint
-- Parent side, after a truncate: arguments are the child tables, which must be empty by then (truncated
-- in the same statement).
CREATE FUNCTION reference_parent_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  child text;
  left_over boolean;
BEGIN
  FOREACH child IN ARRAY TG_ARGV LOOP
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I)', child) INTO left_over;
    IF left_over THEN
      RAISE EXCEPTION 'cannot truncate "%": table "%" references it', TG_TABLE_NAME, child
        USING ERRCODE = 'feature_not_supported', TABLE = child;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER postings_references_insert AFTER INSERT ON "postings"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION reference_check_rows('issuer_id', 'issuers', 'invoice_id', 'invoices');
--> statement-breakpoint
CREATE TRIGGER postings_references_update AFTER UPDATE OF issuer_id, invoice_id ON "postings"
  FOR EACH ROW WHEN (OLD.issuer_id IS DISTINCT FROM NEW.issuer_id OR OLD.invoice_id IS DISTINCT FROM NEW.invoice_id)
  EXECUTE FUNCTION reference_check_row('issuer_id', 'issuers', 'invoice_id', 'invoices');
--> statement-breakpoint
CREATE TRIGGER payments_references_insert AFTER INSERT ON "payments"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION reference_check_rows('file_id', 'payment_files', 'issuer_id', 'issuers', 'invoice_id', 'invoices');
--> statement-breakpoint
CREATE TRIGGER payments_references_update AFTER UPDATE OF file_id, issuer_id, invoice_id ON "payments"
  FOR EACH ROW WHEN (OLD.file_id IS DISTINCT FROM NEW.file_id OR OLD.issuer_id IS DISTINCT FROM NEW.issuer_id
                     OR OLD.invoice_id IS DISTINCT FROM NEW.invoice_id)
  EXECUTE FUNCTION reference_check_row('file_id', 'payment_files', 'issuer_id', 'issuers', 'invoice_id', 'invoices');
--> statement-breakpoint
CREATE TRIGGER invoice_events_references_insert AFTER INSERT ON "invoice_events"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION reference_check_rows('invoice_id', 'invoices', 'issuer_id', 'issuers');
--> statement-breakpoint
CREATE TRIGGER invoice_events_references_update AFTER UPDATE OF invoice_id, issuer_id ON "invoice_events"
  FOR EACH ROW WHEN (OLD.invoice_id IS DISTINCT FROM NEW.invoice_id OR OLD.issuer_id IS DISTINCT FROM NEW.issuer_id)
  EXECUTE FUNCTION reference_check_row('invoice_id', 'invoices', 'issuer_id', 'issuers');
--> statement-breakpoint
CREATE TRIGGER invoices_references_delete AFTER DELETE ON "invoices"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION reference_parent_deleted('invoice_events', 'invoice_id', 'cascade',
    'postings', 'invoice_id', 'restrict', 'payments', 'invoice_id', 'restrict');
--> statement-breakpoint
CREATE TRIGGER issuers_references_delete AFTER DELETE ON "issuers"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION reference_parent_deleted('invoice_events', 'issuer_id', 'restrict',
    'postings', 'issuer_id', 'restrict', 'payments', 'issuer_id', 'restrict');
--> statement-breakpoint
CREATE TRIGGER payment_files_references_delete AFTER DELETE ON "payment_files"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION reference_parent_deleted('payments', 'file_id', 'restrict');
--> statement-breakpoint
CREATE TRIGGER invoices_references_key BEFORE UPDATE OF id ON "invoices"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION reference_parent_key_fixed();
--> statement-breakpoint
CREATE TRIGGER issuers_references_key BEFORE UPDATE OF id ON "issuers"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION reference_parent_key_fixed();
--> statement-breakpoint
CREATE TRIGGER payment_files_references_key BEFORE UPDATE OF id ON "payment_files"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION reference_parent_key_fixed();
--> statement-breakpoint
CREATE TRIGGER invoices_references_truncate AFTER TRUNCATE ON "invoices"
  FOR EACH STATEMENT EXECUTE FUNCTION reference_parent_truncated('invoice_events', 'postings', 'payments');
--> statement-breakpoint
CREATE TRIGGER issuers_references_truncate AFTER TRUNCATE ON "issuers"
  FOR EACH STATEMENT EXECUTE FUNCTION reference_parent_truncated('invoice_events', 'postings', 'payments');
--> statement-breakpoint
CREATE TRIGGER payment_files_references_truncate AFTER TRUNCATE ON "payment_files"
  FOR EACH STATEMENT EXECUTE FUNCTION reference_parent_truncated('payments');
