CREATE TABLE "content_pictures" (
	"hash" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"alt" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"uploaded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_pictures" ADD CONSTRAINT "content_pictures_hash_media_hash_fk" FOREIGN KEY ("hash") REFERENCES "public"."media"("hash") ON DELETE no action ON UPDATE no action;