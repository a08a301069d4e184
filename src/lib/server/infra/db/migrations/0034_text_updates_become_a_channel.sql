-- Shoppers who ticked "Text me order updates" keep getting texts.
UPDATE "users" SET "updates_channel" = 'text' WHERE "text_updates";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "text_updates";