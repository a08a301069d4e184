ALTER TABLE "product_images" ADD COLUMN "color_id" integer;--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_color_id_colors_id_fk" FOREIGN KEY ("color_id") REFERENCES "public"."colors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Images already seeded say their colour in their alt text ("… in navy, front view"): they belong to it.
UPDATE "product_images" pi SET "color_id" = c."id" FROM "colors" c WHERE pi."alt" ILIKE '% in ' || lower(c."name") || ',%';
