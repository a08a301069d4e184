ALTER TABLE "orders" ADD COLUMN "confirmation_mailed_at" timestamp with time zone;--> statement-breakpoint
-- Orders placed before this column existed had their mail sent with them.
UPDATE "orders" SET "confirmation_mailed_at" = "created_at";--> statement-breakpoint
CREATE INDEX "orders_unmailed_idx" ON "orders" USING btree ("created_at") WHERE "orders"."confirmation_mailed_at" is null;