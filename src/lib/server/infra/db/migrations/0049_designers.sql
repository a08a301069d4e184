CREATE TABLE "designers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "designers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"about" text DEFAULT '' NOT NULL,
	CONSTRAINT "designers_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "designer_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "designers_name_uq" ON "designers" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_designer_id_designers_id_fk" FOREIGN KEY ("designer_id") REFERENCES "public"."designers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_designer_idx" ON "products" USING btree ("designer_id");--> statement-breakpoint
-- A product's search document gains its designer's name beside its own (weight A), and the words
-- search knows gain the designers' names, so a designer is found by name, misspelt or not.
CREATE OR REPLACE FUNCTION ml_refresh_search(product_ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE products p SET search_document =
    setweight(to_tsvector('english', unaccent(concat_ws(' ', p.name, (SELECT d.name FROM designers d WHERE d.id = p.designer_id)))), 'A') ||
    setweight(to_tsvector('english', unaccent(concat_ws(' ', c.name, pc.name,
      (SELECT string_agg(DISTINCT co.name, ' ') FROM variants v JOIN colors co ON co.id = v.color_id WHERE v.product_id = p.id)))), 'B') ||
    setweight(to_tsvector('english', unaccent(p.description)), 'C')
  FROM categories c LEFT JOIN categories pc ON pc.id = c.parent_id
  WHERE c.id = p.category_id AND (product_ids IS NULL OR p.id = ANY(product_ids));
  INSERT INTO search_terms (term)
  SELECT DISTINCT w FROM products p
    JOIN categories c ON c.id = p.category_id LEFT JOIN categories pc ON pc.id = c.parent_id,
    LATERAL regexp_split_to_table(lower(unaccent(concat_ws(' ', p.name, c.name, pc.name,
      (SELECT d.name FROM designers d WHERE d.id = p.designer_id),
      (SELECT string_agg(DISTINCT co.name, ' ') FROM variants v JOIN colors co ON co.id = v.color_id WHERE v.product_id = p.id)))), '[^[:alnum:]]+') AS w
  WHERE length(w) >= 3 AND (product_ids IS NULL OR p.id = ANY(product_ids))
  ON CONFLICT DO NOTHING;
$$;
