CREATE TABLE "whatsapp_outbox" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "whatsapp_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"to" text NOT NULL,
	"template" text NOT NULL,
	"params" jsonb NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "updates_channel" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
CREATE INDEX "whatsapp_outbox_to_idx" ON "whatsapp_outbox" USING btree ("to","created_at");