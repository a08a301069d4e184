-- Search: full-text search over a weighted document, misspellings through trigrams.
-- Both extensions are trusted (a database owner may create them) and ship with PGlite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE TABLE "search_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "search_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"query" text NOT NULL,
	"results" integer NOT NULL,
	"market" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_document" "tsvector";--> statement-breakpoint
CREATE INDEX "search_log_created_idx" ON "search_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "search_terms_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_document");--> statement-breakpoint
-- The one definition of a product's search document and of the words search knows, for the given
-- products (null: all). src/lib/server/catalogue/search.ts calls it after every catalogue change.
CREATE FUNCTION ml_refresh_search(product_ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE products p SET search_document =
    setweight(to_tsvector('english', unaccent(p.name)), 'A') ||
    setweight(to_tsvector('english', unaccent(concat_ws(' ', c.name, pc.name,
      (SELECT string_agg(DISTINCT co.name, ' ') FROM variants v JOIN colors co ON co.id = v.color_id WHERE v.product_id = p.id)))), 'B') ||
    setweight(to_tsvector('english', unaccent(p.description)), 'C')
  FROM categories c LEFT JOIN categories pc ON pc.id = c.parent_id
  WHERE c.id = p.category_id AND (product_ids IS NULL OR p.id = ANY(product_ids));
  INSERT INTO search_terms (term)
  SELECT DISTINCT w FROM products p
    JOIN categories c ON c.id = p.category_id LEFT JOIN categories pc ON pc.id = c.parent_id,
    LATERAL regexp_split_to_table(lower(unaccent(concat_ws(' ', p.name, c.name, pc.name,
      (SELECT string_agg(DISTINCT co.name, ' ') FROM variants v JOIN colors co ON co.id = v.color_id WHERE v.product_id = p.id)))), '[^[:alnum:]]+') AS w
  WHERE length(w) >= 3 AND (product_ids IS NULL OR p.id = ANY(product_ids))
  ON CONFLICT DO NOTHING;
$$;--> statement-breakpoint
SELECT ml_refresh_search(NULL);