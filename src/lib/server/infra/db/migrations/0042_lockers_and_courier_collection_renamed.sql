ALTER TABLE "orders" RENAME COLUMN "pickup_point" TO "locker";--> statement-breakpoint
ALTER TABLE "market_settings" RENAME COLUMN "pickup_point_fee_minor" TO "locker_fee_minor";--> statement-breakpoint
ALTER TABLE "market_settings" RENAME CONSTRAINT "market_settings_pickup_point_fee" TO "market_settings_locker_fee";--> statement-breakpoint
-- Data, kept apart from the schema: a payment started before the rename keeps its locker under the new key.
UPDATE "payments" SET "snapshot" = ("snapshot" - 'pickupPoint') || jsonb_build_object('locker', "snapshot"->'pickupPoint') WHERE "snapshot"->'pickupPoint' IS NOT NULL;
--> statement-breakpoint
-- Collecting at the boutique is `collect` in the code and its tables (the API still says `pickup`).
UPDATE "carts" SET "delivery_option" = 'collect' WHERE "delivery_option" = 'pickup';--> statement-breakpoint
UPDATE "orders" SET "delivery_option" = 'collect' WHERE "delivery_option" = 'pickup';--> statement-breakpoint
UPDATE "payments" SET "snapshot" = jsonb_set("snapshot", '{deliveryOption}', '"collect"') WHERE "snapshot"->>'deliveryOption' = 'pickup';
