CREATE TABLE "order_daily_totals" (
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"orders" integer NOT NULL,
	"total_minor" bigint NOT NULL,
	CONSTRAINT "order_daily_totals_day_currency_status_pk" PRIMARY KEY("day","currency","status")
);
--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_collected_idx" ON "orders" USING btree ("collection_outcome") WHERE "orders"."collection_outcome" is not null;--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at" DESC NULLS FIRST,"email");--> statement-breakpoint
-- The dashboard's rollup follows every write of orders, once per statement: each changed order
-- takes itself out of its old (day, currency, status) and adds itself to its new one. Keys are
-- written in order, so two statements cannot lock the same rows in opposite orders.
CREATE FUNCTION ml_order_daily_totals_add(day date, currency text, status text, n integer, minor bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO order_daily_totals AS t (day, currency, status, orders, total_minor) VALUES (day, currency, status, n, minor)
  ON CONFLICT (day, currency, status) DO UPDATE SET orders = t.orders + excluded.orders, total_minor = t.total_minor + excluded.total_minor;
$$;--> statement-breakpoint
CREATE FUNCTION ml_orders_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ml_order_daily_totals_add(d.day, d.currency, d.status, d.n::int, d.minor) FROM (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, status, count(*) AS n, sum(total_minor)::bigint AS minor
      FROM new_orders GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) d;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM ml_order_daily_totals_add(d.day, d.currency, d.status, -d.n::int, -d.minor) FROM (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, status, count(*) AS n, sum(total_minor)::bigint AS minor
      FROM old_orders GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) d;
  ELSE
    -- Most updates (mail sent, collection noted) move nothing: only differences are written.
    PERFORM ml_order_daily_totals_add(d.day, d.currency, d.status, d.n::int, d.minor) FROM (
      SELECT day, currency, status, sum(n) AS n, sum(minor)::bigint AS minor FROM (
        SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, status, 1 AS n, total_minor AS minor FROM new_orders
        UNION ALL
        SELECT (created_at AT TIME ZONE 'UTC')::date, currency, status, -1, -total_minor FROM old_orders) c
      GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(minor) <> 0 ORDER BY 1, 2, 3) d;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_daily_totals_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION ml_orders_changed();--> statement-breakpoint
CREATE TRIGGER orders_daily_totals_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION ml_orders_changed();--> statement-breakpoint
CREATE TRIGGER orders_daily_totals_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_orders FOR EACH STATEMENT EXECUTE FUNCTION ml_orders_changed();--> statement-breakpoint
INSERT INTO order_daily_totals (day, currency, status, orders, total_minor)
SELECT (created_at AT TIME ZONE 'UTC')::date, currency, status, count(*)::int, sum(total_minor)::bigint FROM orders GROUP BY 1, 2, 3;--> statement-breakpoint
ANALYZE order_daily_totals;
