-- The rollups an order's write keeps take their rows in one order: the day's totals
-- (order_daily_totals), then the day's sales per product (product_daily_sales). A new order does so
-- by itself (its row, then its lines); an update fires both triggers, and PostgreSQL fires triggers
-- of one event in the alphabetical order of their names, which put the sales first: a checkout and a
-- status change of another order of the same day and product deadlocked. The names now say the order.
ALTER TRIGGER orders_daily_totals_insert ON orders RENAME TO orders_rollup_1_totals_insert;--> statement-breakpoint
ALTER TRIGGER orders_daily_totals_update ON orders RENAME TO orders_rollup_1_totals_update;--> statement-breakpoint
ALTER TRIGGER orders_daily_totals_delete ON orders RENAME TO orders_rollup_1_totals_delete;--> statement-breakpoint
ALTER TRIGGER orders_daily_sales_update ON orders RENAME TO orders_rollup_2_sales_update;--> statement-breakpoint
ALTER TRIGGER orders_daily_sales_delete ON orders RENAME TO orders_rollup_2_sales_delete;
