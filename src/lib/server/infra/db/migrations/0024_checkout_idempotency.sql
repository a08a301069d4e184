ALTER TABLE "payments" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "request_digest" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "authorization_url" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key_idx" ON "payments" USING btree ("user_id","idempotency_key") WHERE "payments"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "payments_cart_open_idx" ON "payments" USING btree ("cart_id") WHERE "payments"."status" in ('initialized', 'paid');