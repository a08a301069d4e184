DROP INDEX "shipments_one_collection_idx";--> statement-breakpoint
DROP INDEX "shipments_due_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_one_per_return_idx" ON "shipments" USING btree ("return_id","kind") WHERE "shipments"."return_id" is not null;--> statement-breakpoint
CREATE INDEX "shipments_awaiting_pickup_idx" ON "shipments" USING btree ("order_id") WHERE "shipments"."status" = 'booked' and "shipments"."kind" = 'delivery' and ("shipments"."tracking_status" is null or "shipments"."tracking_status" = 'booked');--> statement-breakpoint
CREATE INDEX "shipments_due_idx" ON "shipments" USING btree ("next_attempt_at") WHERE "shipments"."status" in ('to_book', 'to_cancel');