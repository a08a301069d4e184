CREATE TABLE "text_outbox" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "text_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"to" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "text_updates" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "text_outbox_to_idx" ON "text_outbox" USING btree ("to","created_at");