CREATE TABLE "product_from_prices" (
	"product_id" integer NOT NULL,
	"market" text NOT NULL,
	"price_minor" bigint NOT NULL,
	CONSTRAINT "product_from_prices_product_id_market_pk" PRIMARY KEY("product_id","market")
);
--> statement-breakpoint
ALTER TABLE "product_from_prices" ADD CONSTRAINT "product_from_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_from_prices_market_price_idx" ON "product_from_prices" USING btree ("market","price_minor","product_id");--> statement-breakpoint
-- The one definition of the rollup: each product's lowest variant price per market, for
-- the given products (null: all). Rows for markets a product is no longer sold in go. (Migration
-- 0005 dropped an older, unrelated product_prices table: hence the name.)
CREATE FUNCTION ml_refresh_from_prices(product_ids integer[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM product_from_prices pp
  WHERE (product_ids IS NULL OR pp.product_id = ANY(product_ids))
    AND NOT EXISTS (SELECT 1 FROM variant_prices vp JOIN variants v ON v.id = vp.variant_id WHERE v.product_id = pp.product_id AND vp.market = pp.market);
  INSERT INTO product_from_prices (product_id, market, price_minor)
  SELECT v.product_id, vp.market, min(vp.price_minor) FROM variant_prices vp JOIN variants v ON v.id = vp.variant_id
  WHERE product_ids IS NULL OR v.product_id = ANY(product_ids)
  GROUP BY v.product_id, vp.market
  ON CONFLICT (product_id, market) DO UPDATE SET price_minor = excluded.price_minor
    WHERE product_from_prices.price_minor IS DISTINCT FROM excluded.price_minor;
$$;--> statement-breakpoint
-- Whoever writes variant_prices (the catalogue admin, the seeds, a hand-run SQL fix), the rollup
-- follows in the same transaction: once per statement, for the products the statement touched.
CREATE FUNCTION ml_variant_prices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ml_refresh_from_prices(ARRAY(SELECT DISTINCT v.product_id FROM changed c JOIN variants v ON v.id = c.variant_id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER variant_prices_from_insert AFTER INSERT ON variant_prices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ml_variant_prices_changed();--> statement-breakpoint
CREATE TRIGGER variant_prices_from_update AFTER UPDATE ON variant_prices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ml_variant_prices_changed();--> statement-breakpoint
CREATE TRIGGER variant_prices_from_delete AFTER DELETE ON variant_prices REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ml_variant_prices_changed();--> statement-breakpoint
SELECT ml_refresh_from_prices(NULL);--> statement-breakpoint
ANALYZE product_from_prices;
