CREATE TABLE "market_settings" (
	"market" text PRIMARY KEY NOT NULL,
	"pod_enabled" boolean NOT NULL,
	"pod_cap_minor" bigint NOT NULL,
	"pod_ceiling_minor" bigint NOT NULL,
	"pod_deposit_percent" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_settings_cap_below_ceiling" CHECK ("market_settings"."pod_cap_minor" >= 0 and "market_settings"."pod_cap_minor" <= "market_settings"."pod_ceiling_minor"),
	CONSTRAINT "market_settings_deposit_share" CHECK ("market_settings"."pod_deposit_percent" between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "due_on_delivery_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collection_outcome" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collection_method" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_minor" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "channel" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_verified_number" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "refused_deliveries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_to_collect_idx" ON "orders" USING btree ("created_at") WHERE "orders"."payment_method" = 'on_delivery' and "orders"."collection_outcome" is null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_due_on_delivery_only" CHECK ("orders"."payment_method" = 'on_delivery' or "orders"."due_on_delivery_minor" = 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_on_delivery_charges_nothing" CHECK ("payments"."provider" <> 'on_delivery' or "payments"."amount_minor" = 0);