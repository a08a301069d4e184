/**
 * The size guides shown beside a product's sizes ("Size guide"): shoes in EU, UK and US,
 * clothing XS–XL with body measurements in centimetres, belts by waist. Which guide a product gets
 * follows from its size names.
 */

export interface SizeGuide {
  title: string;
  /** A sentence on how to measure or read it. */
  note: string;
  columns: string[];
  rows: string[][];
}

const SHOES: SizeGuide = {
  title: 'Shoes',
  note: 'Our shoes are made on European lasts. If you are between sizes, take the larger.',
  columns: ['EU', 'UK', 'US women', 'US men', 'Foot length (cm)'],
  rows: [
    ['37', '4', '6.5', '5', '23.5'],
    ['38', '5', '7.5', '6', '24.1'],
    ['39', '6', '8.5', '7', '24.8'],
    ['40', '6.5', '9', '7.5', '25.4'],
    ['41', '7.5', '10', '8.5', '26.0'],
    ['42', '8', '10.5', '9', '26.7'],
    ['43', '9', '11.5', '10', '27.3'],
    ['44', '9.5', '12', '10.5', '27.9'],
  ],
};

const CLOTHING: SizeGuide = {
  title: 'Clothing',
  note: 'Body measurements in centimetres. Measure over light clothing, with the tape level and snug.',
  columns: ['Size', 'UK', 'Bust (cm)', 'Waist (cm)', 'Hips (cm)'],
  rows: [
    ['XS', '6', '80–83', '62–65', '87–90'],
    ['S', '8–10', '84–89', '66–71', '91–96'],
    ['M', '12', '90–95', '72–77', '97–102'],
    ['L', '14–16', '96–103', '78–85', '103–110'],
    ['XL', '18', '104–111', '86–93', '111–118'],
  ],
};

const BELTS: SizeGuide = {
  title: 'Belts',
  note: 'The belt size is the length from the buckle to the middle hole. Take your trouser waist size plus 5 cm.',
  columns: ['Belt size', 'Waist (cm)', 'Trouser size (in)'],
  rows: [
    ['80 cm', '70–75', '28–30'],
    ['90 cm', '80–85', '32–34'],
    ['100 cm', '90–95', '36–38'],
  ],
};

/** The guide for a product with these sizes, or null (no sizes, or sizes no guide covers). */
export function sizeGuideFor(sizeNames: readonly string[]): SizeGuide | null {
  if (sizeNames.length === 0) return null;
  if (sizeNames.every((s) => /^EU \d+$/.test(s))) return SHOES;
  if (sizeNames.every((s) => ['XS', 'S', 'M', 'L', 'XL'].includes(s))) return CLOTHING;
  if (sizeNames.every((s) => /^\d+ cm$/.test(s))) return BELTS;
  return null;
}
