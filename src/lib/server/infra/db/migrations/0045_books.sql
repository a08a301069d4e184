CREATE TABLE "order_vat_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_vat_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"order_item_id" integer,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"gross_minor" bigint NOT NULL,
	"net_minor" bigint NOT NULL,
	"vat_minor" bigint NOT NULL,
	"rate_basis_points" integer NOT NULL,
	CONSTRAINT "order_vat_lines_sum" CHECK ("order_vat_lines"."net_minor" + "order_vat_lines"."vat_minor" = "order_vat_lines"."gross_minor" and "order_vat_lines"."vat_minor" >= 0 and "order_vat_lines"."net_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tax_document_counters" (
	"market" text NOT NULL,
	"kind" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "tax_document_counters_market_kind_year_pk" PRIMARY KEY("market","kind","year")
);
--> statement-breakpoint
CREATE TABLE "tax_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"market" text NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid NOT NULL,
	"reduces_id" uuid,
	"source" text NOT NULL,
	"form" text NOT NULL,
	"currency" text NOT NULL,
	"net_minor" bigint NOT NULL,
	"vat_minor" bigint NOT NULL,
	"gross_minor" bigint NOT NULL,
	"seller" jsonb NOT NULL,
	"buyer" jsonb,
	"lines" jsonb NOT NULL,
	"by_rate" jsonb NOT NULL,
	"reason" text,
	"notice" text,
	"issued_at" timestamp with time zone NOT NULL,
	"e_invoicing_status" text DEFAULT 'waiting' NOT NULL,
	"e_invoicing_attempts" integer DEFAULT 0 NOT NULL,
	"e_invoicing_next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"e_invoicing_lease_until" timestamp with time zone,
	"e_invoicing_reference" text,
	"e_invoicing_qr" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_documents_number_unique" UNIQUE("number"),
	CONSTRAINT "tax_documents_sum" CHECK ("tax_documents"."net_minor" + "tax_documents"."vat_minor" = "tax_documents"."gross_minor"),
	CONSTRAINT "tax_documents_credit_reduces" CHECK (("tax_documents"."kind" = 'credit-note') = ("tax_documents"."reduces_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "tax_settings" (
	"market" text PRIMARY KEY NOT NULL,
	"registered" boolean NOT NULL,
	"legal_name" text NOT NULL,
	"address" text NOT NULL,
	"tax_number" text NOT NULL,
	"rates" jsonb NOT NULL,
	"delivery_taxed" boolean DEFAULT true NOT NULL,
	"gift_wrap_taxed" boolean DEFAULT true NOT NULL,
	"locker_fee_taxed" boolean DEFAULT true NOT NULL,
	"period_months" integer DEFAULT 1 NOT NULL,
	"period_starts_odd" boolean DEFAULT true NOT NULL,
	"notice" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_settings_period" CHECK ("tax_settings"."period_months" in (1, 2))
);
--> statement-breakpoint
ALTER TABLE "order_vat_lines" ADD CONSTRAINT "order_vat_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_vat_lines" ADD CONSTRAINT "order_vat_lines_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_vat_lines_order_idx" ON "order_vat_lines" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_source_uq" ON "tax_documents" USING btree ("order_id","source");--> statement-breakpoint
CREATE INDEX "tax_documents_order_idx" ON "tax_documents" USING btree ("order_id","issued_at");--> statement-breakpoint
CREATE INDEX "tax_documents_period_idx" ON "tax_documents" USING btree ("market","issued_at");--> statement-breakpoint
CREATE INDEX "tax_documents_e_invoicing_idx" ON "tax_documents" USING btree ("e_invoicing_next_at") WHERE "tax_documents"."e_invoicing_status" = 'waiting';