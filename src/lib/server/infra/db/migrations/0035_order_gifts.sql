ALTER TABLE "market_settings" ADD COLUMN "gift_wrap_minor" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_recipient_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_recipient_phone" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_message" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_hide_prices" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_wrap" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_wrap_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "market_settings" ADD CONSTRAINT "market_settings_gift_wrap" CHECK ("market_settings"."gift_wrap_minor" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_gift_whole" CHECK (("orders"."gift_recipient_name" is null) = ("orders"."gift_recipient_phone" is null));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_gift_wrap_fee" CHECK ("orders"."gift_wrap_minor" >= 0 and ("orders"."gift_wrap" or "orders"."gift_wrap_minor" = 0));