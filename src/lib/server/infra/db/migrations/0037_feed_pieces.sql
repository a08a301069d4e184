CREATE TABLE "feed_pieces" (
	"feed" text NOT NULL,
	"hash" text NOT NULL,
	"deflate" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_pieces_feed_hash_pk" PRIMARY KEY("feed","hash")
);
--> statement-breakpoint
-- The copies kept so far hold their bytes whole: a cache, dropped; the next read writes them in pieces.
DELETE FROM "feed_copies";--> statement-breakpoint
ALTER TABLE "feed_copies" ADD COLUMN "format" text NOT NULL;--> statement-breakpoint
ALTER TABLE "feed_copies" ADD COLUMN "pieces" jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "feed_copies" DROP COLUMN "gzip";