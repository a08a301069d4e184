CREATE TABLE "help_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "help_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"request_id" uuid NOT NULL,
	"from_staff" boolean NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "help_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"topic" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "return_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "return_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"return_id" uuid NOT NULL,
	"order_item_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"exchange_variant_id" integer,
	"exchange_unit_price_minor" bigint,
	"received_quantity" integer,
	"damaged_quantity" integer,
	CONSTRAINT "return_items_quantity_positive" CHECK ("return_items"."quantity" > 0),
	CONSTRAINT "return_items_received_within" CHECK ("return_items"."received_quantity" is null or ("return_items"."received_quantity" between 0 and "return_items"."quantity")),
	CONSTRAINT "return_items_damaged_within" CHECK ("return_items"."damaged_quantity" is null or ("return_items"."damaged_quantity" between 0 and coalesce("return_items"."received_quantity", 0)))
);
--> statement-breakpoint
CREATE TABLE "returns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"reason" text NOT NULL,
	"resolution" text NOT NULL,
	"method" text NOT NULL,
	"currency" text NOT NULL,
	"paid_minor" bigint NOT NULL,
	"difference_minor" bigint DEFAULT 0 NOT NULL,
	"difference_paid_at" timestamp with time zone,
	"rejection_reason" text,
	"refunded_minor" bigint DEFAULT 0 NOT NULL,
	"credited_minor" bigint DEFAULT 0 NOT NULL,
	"transferred_minor" bigint DEFAULT 0 NOT NULL,
	"transfer_reference" text,
	"settling_at" timestamp with time zone,
	"shipment_tracking" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "returns_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "store_credit_balances" (
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"balance_minor" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_credit_balances_user_id_currency_pk" PRIMARY KEY("user_id","currency"),
	CONSTRAINT "store_credit_nonnegative" CHECK ("store_credit_balances"."balance_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "store_credit_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "store_credit_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"delta_minor" bigint NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"order_id" uuid,
	"payment_id" uuid,
	"return_id" uuid,
	"actor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_credit_entries_nonzero" CHECK ("store_credit_entries"."delta_minor" <> 0)
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_on_delivery_charges_nothing";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "store_credit_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "purpose" text DEFAULT 'checkout' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "return_id" uuid;--> statement-breakpoint
ALTER TABLE "help_messages" ADD CONSTRAINT "help_messages_request_id_help_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."help_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_messages" ADD CONSTRAINT "help_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_requests" ADD CONSTRAINT "help_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_requests" ADD CONSTRAINT "help_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_items" ADD CONSTRAINT "return_items_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_items" ADD CONSTRAINT "return_items_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_items" ADD CONSTRAINT "return_items_exchange_variant_id_variants_id_fk" FOREIGN KEY ("exchange_variant_id") REFERENCES "public"."variants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_balances" ADD CONSTRAINT "store_credit_balances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "help_messages_request_idx" ON "help_messages" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "help_requests_order_idx" ON "help_requests" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "help_requests_status_idx" ON "help_requests" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "return_items_return_idx" ON "return_items" USING btree ("return_id");--> statement-breakpoint
CREATE INDEX "return_items_order_item_idx" ON "return_items" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "returns_order_idx" ON "returns" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "returns_status_idx" ON "returns" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "store_credit_entries_user_idx" ON "store_credit_entries" USING btree ("user_id","currency","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "store_credit_once_per_payment_uq" ON "store_credit_entries" USING btree ("payment_id","kind") WHERE "store_credit_entries"."payment_id" is not null and "store_credit_entries"."kind" in ('spend', 'release');--> statement-breakpoint
CREATE UNIQUE INDEX "store_credit_once_per_return_uq" ON "store_credit_entries" USING btree ("return_id") WHERE "store_credit_entries"."return_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "store_credit_once_per_cancellation_uq" ON "store_credit_entries" USING btree ("order_id") WHERE "store_credit_entries"."kind" = 'cancellation';--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_difference_has_return" CHECK (("payments"."purpose" = 'exchange_difference') = ("payments"."return_id" is not null));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_on_delivery_charges_nothing" CHECK ("payments"."provider" not in ('on_delivery', 'store_credit') or "payments"."amount_minor" = 0);--> statement-breakpoint
-- Orders delivered before the return window existed: their delivery is when they were last moved to delivered.
UPDATE "orders" SET "delivered_at" = coalesce((SELECT max("created_at") FROM "order_events" e WHERE e."order_id" = "orders"."id" AND e."to_status" = 'delivered'), "updated_at") WHERE "status" = 'delivered';
