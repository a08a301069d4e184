CREATE TABLE "owed_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"payment_id" uuid,
	"return_id" uuid,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"destination" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'owed' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"last_answer" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owed_refunds_positive" CHECK ("owed_refunds"."amount_minor" > 0),
	CONSTRAINT "owed_refunds_payment_has_one" CHECK (("owed_refunds"."destination" = 'payment') = ("owed_refunds"."payment_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_pending_key" text;--> statement-breakpoint
ALTER TABLE "owed_refunds" ADD CONSTRAINT "owed_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "owed_refunds_due_idx" ON "owed_refunds" USING btree ("next_attempt_at") WHERE "owed_refunds"."status" = 'owed';--> statement-breakpoint
CREATE INDEX "owed_refunds_order_idx" ON "owed_refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "owed_refunds_status_idx" ON "owed_refunds" USING btree ("status","created_at");