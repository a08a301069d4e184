CREATE TABLE "order_money" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_money_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"order_item_id" integer,
	"units" integer,
	"payment_id" uuid,
	"return_id" uuid,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_money_nonzero" CHECK ("order_money"."amount_minor" <> 0),
	CONSTRAINT "order_money_signed" CHECK (("order_money"."kind" in ('charged', 'collected', 'credit_used', 'difference_paid', 'refund_released')) = ("order_money"."amount_minor" > 0))
);
--> statement-breakpoint
ALTER TABLE "order_money" ADD CONSTRAINT "order_money_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_money_order_idx" ON "order_money" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "order_money_payment_idx" ON "order_money" USING btree ("payment_id") WHERE "order_money"."payment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "order_money_once_in_uq" ON "order_money" USING btree ("order_id","kind") WHERE "order_money"."kind" in ('charged', 'collected', 'credit_used');--> statement-breakpoint
CREATE UNIQUE INDEX "order_money_difference_once_uq" ON "order_money" USING btree ("payment_id") WHERE "order_money"."kind" = 'difference_paid';--> statement-breakpoint
CREATE UNIQUE INDEX "order_money_return_once_uq" ON "order_money" USING btree ("return_id","kind") WHERE "order_money"."return_id" is not null and "order_money"."kind" in ('credited', 'transferred');--> statement-breakpoint
CREATE UNIQUE INDEX "order_money_cancel_credit_once_uq" ON "order_money" USING btree ("order_id") WHERE "order_money"."return_id" is null and "order_money"."kind" = 'credited';--> statement-breakpoint
-- The account of every existing order, from what the tables already hold: charged online, store credit used, collected at the door.
INSERT INTO "order_money" ("order_id", "kind", "amount_minor", "currency", "payment_id", "created_at")
SELECT o."id", 'charged', p."amount_minor", o."currency", p."id", o."created_at" FROM "orders" o JOIN "payments" p ON p."id" = o."payment_id" WHERE p."amount_minor" > 0;--> statement-breakpoint
INSERT INTO "order_money" ("order_id", "kind", "amount_minor", "currency", "created_at")
SELECT o."id", 'credit_used', o."store_credit_minor", o."currency", o."created_at" FROM "orders" o WHERE o."store_credit_minor" > 0;--> statement-breakpoint
INSERT INTO "order_money" ("order_id", "kind", "amount_minor", "currency", "reason", "created_at")
SELECT o."id", 'collected', o."collected_minor", o."currency", o."collection_method", coalesce(o."collected_at", o."created_at") FROM "orders" o WHERE o."collection_outcome" = 'paid' AND o."collected_minor" > 0;--> statement-breakpoint
-- An exchange's difference: the return's first payment that was taken (a second one for the same difference was refunded without being part of the order).
INSERT INTO "order_money" ("order_id", "kind", "amount_minor", "currency", "payment_id", "return_id", "created_at")
SELECT DISTINCT ON (r."id") r."order_id", 'difference_paid', p."amount_minor", p."currency", p."id", r."id", coalesce(r."difference_paid_at", p."created_at")
FROM "payments" p JOIN "returns" r ON r."id" = p."return_id"
WHERE p."purpose" = 'exchange_difference' AND p."status" IN ('fulfilled', 'partially_refunded', 'refunded') AND r."difference_paid_at" IS NOT NULL AND p."amount_minor" > 0
ORDER BY r."id", p."created_at";--> statement-breakpoint
-- Refunds of those payments (a claim in progress counts as given back until it is recorded or let go).
INSERT INTO "order_money" ("order_id", "kind", "amount_minor", "currency", "payment_id", "created_at")
SELECT m."order_id", 'refunded', -(p."refunded_minor" + coalesce(p."refund_pending_minor", 0)), p."currency", p."id", coalesce(p."refunded_at", p."updated_at")
FROM "payments" p JOIN "order_money" m ON m."payment_id" = p."id" AND m."kind" IN ('charged', 'difference_paid')
WHERE p."refunded_minor" + coalesce(p."refund_pending_minor", 0) > 0;--> statement-breakpoint
-- What returns gave back as store credit or by bank transfer, and the credit of cancelled orders.
INSERT INTO "order_money" ("order_id", "kind", "amount_minor", "currency", "return_id", "created_at")
SELECT r."order_id", 'credited', -r."credited_minor", r."currency", r."id", r."updated_at" FROM "returns" r WHERE r."credited_minor" > 0;--> statement-breakpoint
INSERT INTO "order_money" ("order_id", "kind", "amount_minor", "currency", "return_id", "reason", "created_at")
SELECT r."order_id", 'transferred', -r."transferred_minor", r."currency", r."id", r."transfer_reference", r."updated_at" FROM "returns" r WHERE r."transferred_minor" > 0;--> statement-breakpoint
INSERT INTO "order_money" ("order_id", "kind", "amount_minor", "currency", "reason", "created_at")
SELECT e."order_id", 'credited', -e."delta_minor", e."currency", e."reason", e."created_at"
FROM "store_credit_entries" e JOIN "orders" o ON o."id" = e."order_id"
WHERE e."kind" = 'cancellation' AND e."delta_minor" > 0;
