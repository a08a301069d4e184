CREATE TABLE "feed_copies" (
	"feed" text PRIMARY KEY NOT NULL,
	"etag" text NOT NULL,
	"built_at" timestamp with time zone NOT NULL,
	"gzip" "bytea" NOT NULL
);
