CREATE TABLE "variant_prices" (
	"variant_id" integer NOT NULL,
	"market" text NOT NULL,
	"price_minor" bigint NOT NULL,
	CONSTRAINT "variant_prices_variant_id_market_pk" PRIMARY KEY("variant_id","market"),
	CONSTRAINT "variant_prices_price_nonnegative" CHECK ("variant_prices"."price_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "variant_prices" ADD CONSTRAINT "variant_prices_variant_id_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "variant_prices_market_idx" ON "variant_prices" USING btree ("market","variant_id");;--> statement-breakpoint
-- Prices move from products to variants: every variant keeps its product's price in each market it was sold in.
INSERT INTO "variant_prices" ("variant_id", "market", "price_minor") SELECT "v"."id", "pp"."market", "pp"."price_minor" FROM "variants" "v" JOIN "product_prices" "pp" ON "pp"."product_id" = "v"."product_id";--> statement-breakpoint
DROP TABLE "product_prices" CASCADE;
