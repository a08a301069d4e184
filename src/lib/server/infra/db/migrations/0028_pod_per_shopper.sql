CREATE TABLE "verified_phones" (
	"phone" text PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"refused_deliveries" integer DEFAULT 0 NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "market_settings" ADD COLUMN "pod_max_open_orders" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "verified_phones" ADD CONSTRAINT "verified_phones_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verified_phones_user_idx" ON "verified_phones" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "market_settings" ADD CONSTRAINT "market_settings_max_open_orders" CHECK ("market_settings"."pod_max_open_orders" between 1 and 100);--> statement-breakpoint
-- Numbers verified before: the earliest account that verified a number holds it; the refusals of
-- every account that verified it count against it.
INSERT INTO "verified_phones" ("phone", "user_id", "refused_deliveries", "verified_at")
SELECT DISTINCT ON (u."phone_verified_number") u."phone_verified_number", u."id",
  (SELECT coalesce(sum(o."refused_deliveries"), 0)::int FROM "users" o WHERE o."phone_verified_number" = u."phone_verified_number"),
  u."created_at"
FROM "users" u
WHERE u."phone_verified_number" IS NOT NULL
ORDER BY u."phone_verified_number", u."created_at", u."id";
