CREATE TABLE "product_daily_sales" (
	"day" date NOT NULL,
	"status" text NOT NULL,
	"product_id" integer NOT NULL,
	"product_name" text NOT NULL,
	"units" integer NOT NULL,
	CONSTRAINT "product_daily_sales_day_status_product_id_product_name_pk" PRIMARY KEY("day","status","product_id","product_name")
);
--> statement-breakpoint
CREATE INDEX "payments_open_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" in ('initialized', 'pending', 'paid');--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("provider","updated_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payments_needs_refund_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'needs_refund';--> statement-breakpoint
CREATE INDEX "payments_refund_claimed_idx" ON "payments" USING btree ("updated_at") WHERE "payments"."refund_pending_minor" is not null;--> statement-breakpoint
-- Units sold per (day, status, product) follow every write of order lines and of orders, once per
-- statement, set-based (a seed's 100,000 lines are one insert), keys in order so two statements
-- cannot lock the same rows in opposite orders. A line counts under its order's UTC day and status.
CREATE FUNCTION ml_order_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO product_daily_sales AS t (day, status, product_id, product_name, units)
    SELECT (o.created_at AT TIME ZONE 'UTC')::date, o.status, i.product_id, i.product_name, sum(i.quantity)::int
    FROM new_items i JOIN orders o ON o.id = i.order_id GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (day, status, product_id, product_name) DO UPDATE SET units = t.units + excluded.units;
  ELSIF TG_OP = 'DELETE' THEN
    -- Lines deleted with their order (cascade) find no order here: ml_order_deleting took them out.
    INSERT INTO product_daily_sales AS t (day, status, product_id, product_name, units)
    SELECT (o.created_at AT TIME ZONE 'UTC')::date, o.status, i.product_id, i.product_name, -sum(i.quantity)::int
    FROM old_items i JOIN orders o ON o.id = i.order_id GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (day, status, product_id, product_name) DO UPDATE SET units = t.units + excluded.units;
  ELSE
    -- Refunds and mails update lines without moving units: only differences are written.
    INSERT INTO product_daily_sales AS t (day, status, product_id, product_name, units)
    SELECT day, status, product_id, product_name, sum(units)::int FROM (
      SELECT (o.created_at AT TIME ZONE 'UTC')::date AS day, o.status, i.product_id, i.product_name, i.quantity AS units
      FROM new_items i JOIN orders o ON o.id = i.order_id
      UNION ALL
      SELECT (o.created_at AT TIME ZONE 'UTC')::date, o.status, i.product_id, i.product_name, -i.quantity
      FROM old_items i JOIN orders o ON o.id = i.order_id) c
    GROUP BY 1, 2, 3, 4 HAVING sum(units) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (day, status, product_id, product_name) DO UPDATE SET units = t.units + excluded.units;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER order_items_daily_sales_insert AFTER INSERT ON order_items REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION ml_order_items_changed();--> statement-breakpoint
CREATE TRIGGER order_items_daily_sales_update AFTER UPDATE ON order_items REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION ml_order_items_changed();--> statement-breakpoint
CREATE TRIGGER order_items_daily_sales_delete AFTER DELETE ON order_items REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION ml_order_items_changed();--> statement-breakpoint
-- An order whose status or day changes moves its lines' units from the old key to the new one.
CREATE FUNCTION ml_orders_moved_sales() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_daily_sales AS t (day, status, product_id, product_name, units)
  SELECT day, status, product_id, product_name, sum(units)::int FROM (
    SELECT (n.created_at AT TIME ZONE 'UTC')::date AS day, n.status, i.product_id, i.product_name, i.quantity AS units
    FROM new_orders n JOIN old_orders o ON o.id = n.id JOIN order_items i ON i.order_id = n.id
    WHERE n.status IS DISTINCT FROM o.status OR (n.created_at AT TIME ZONE 'UTC')::date <> (o.created_at AT TIME ZONE 'UTC')::date
    UNION ALL
    SELECT (o.created_at AT TIME ZONE 'UTC')::date, o.status, i.product_id, i.product_name, -i.quantity
    FROM new_orders n JOIN old_orders o ON o.id = n.id JOIN order_items i ON i.order_id = n.id
    WHERE n.status IS DISTINCT FROM o.status OR (n.created_at AT TIME ZONE 'UTC')::date <> (o.created_at AT TIME ZONE 'UTC')::date) c
  GROUP BY 1, 2, 3, 4 HAVING sum(units) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (day, status, product_id, product_name) DO UPDATE SET units = t.units + excluded.units;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_daily_sales_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION ml_orders_moved_sales();--> statement-breakpoint
-- A deleted order takes its lines out while they are still there (they go by cascade after it).
CREATE FUNCTION ml_order_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_daily_sales AS t (day, status, product_id, product_name, units)
  SELECT (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.status, product_id, product_name, -sum(quantity)::int
  FROM order_items WHERE order_id = OLD.id GROUP BY product_id, product_name ORDER BY product_id, product_name
  ON CONFLICT (day, status, product_id, product_name) DO UPDATE SET units = t.units + excluded.units;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_daily_sales_delete BEFORE DELETE ON orders FOR EACH ROW EXECUTE FUNCTION ml_order_deleting();--> statement-breakpoint
INSERT INTO product_daily_sales (day, status, product_id, product_name, units)
SELECT (o.created_at AT TIME ZONE 'UTC')::date, o.status, i.product_id, i.product_name, sum(i.quantity)::int
FROM order_items i JOIN orders o ON o.id = i.order_id GROUP BY 1, 2, 3, 4;--> statement-breakpoint
ANALYZE product_daily_sales;
