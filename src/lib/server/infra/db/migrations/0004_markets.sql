CREATE TABLE "product_prices" (
	"product_id" integer NOT NULL,
	"market" text NOT NULL,
	"price_minor" bigint NOT NULL,
	CONSTRAINT "product_prices_product_id_market_pk" PRIMARY KEY("product_id","market"),
	CONSTRAINT "product_prices_price_nonnegative" CHECK ("product_prices"."price_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_price_nonnegative";--> statement-breakpoint
DROP INDEX "products_price_idx";--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "market" text DEFAULT 'NG' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_prices" ADD CONSTRAINT "product_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_prices_market_price_idx" ON "product_prices" USING btree ("market","price_minor");--> statement-breakpoint
-- Keep every existing price: a store that ran in naira (STORE_CURRENCY=NGN, the default) keeps its prices as Nigeria's, one that ran in rand as South Africa's. Orders keep their own currency column.
INSERT INTO "product_prices" ("product_id", "market", "price_minor") SELECT "id", CASE WHEN "currency" = 'ZAR' THEN 'ZA' ELSE 'NG' END, "price_minor" FROM "products";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "price_minor";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "currency";