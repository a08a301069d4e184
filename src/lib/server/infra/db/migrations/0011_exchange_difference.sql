ALTER TABLE "payments" ALTER COLUMN "cart_id" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_return_idx" ON "payments" USING btree ("return_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_checkout_has_cart" CHECK ("payments"."purpose" <> 'checkout' or "payments"."cart_id" is not null);