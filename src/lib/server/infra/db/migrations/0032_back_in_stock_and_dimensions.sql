CREATE TABLE "back_in_stock_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "back_in_stock_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"variant_id" integer NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"market" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"due_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "back_in_stock_variant_email_uq" UNIQUE("variant_id","email")
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "dimensions_cm" text;--> statement-breakpoint
ALTER TABLE "back_in_stock_requests" ADD CONSTRAINT "back_in_stock_requests_variant_id_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "back_in_stock_due_idx" ON "back_in_stock_requests" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "back_in_stock_email_idx" ON "back_in_stock_requests" USING btree ("email");--> statement-breakpoint
-- Bags already on sale state a size from their shape (the seed's first one per shape); staff correct it in the product form.
UPDATE "products" p SET "dimensions_cm" = d.dims
FROM "categories" c, (VALUES ('totes', '38 × 30 × 14'), ('crossbody-bags', '24 × 16 × 7'), ('clutches', '28 × 14 × 4'), ('backpacks', '30 × 40 × 14'), ('bags-men', '50 × 28 × 26')) AS d(slug, dims)
WHERE c."id" = p."category_id" AND c."slug" = d.slug AND p."dimensions_cm" IS NULL;
