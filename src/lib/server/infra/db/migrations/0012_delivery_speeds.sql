ALTER TABLE "carts" ADD COLUMN "delivery_speed" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_speed" text;