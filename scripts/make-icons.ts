/**
 * The installed app's icons (public/icons, named in public/manifest.webmanifest), drawn from the
 * favicon's design: the house monogram in gold on ink. `npx tsx scripts/make-icons.ts` writes them;
 * they are committed, so a build does not depend on the fonts of the machine that runs it.
 *
 * The maskable icon fills the whole square with ink and keeps the monogram inside the centre 80%
 * (the safe zone a launcher's mask never cuts).
 */
import sharp from 'sharp';

const INK = '#16130e';
const GOLD = '#c9a14a';

function svg(size: number, { maskable }: { maskable: boolean }): string {
  const radius = maskable ? 0 : size * 0.1875;
  const fontSize = size * (maskable ? 0.36 : 0.47);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" rx="${radius}" fill="${INK}"/>
  <text x="50%" y="50%" dy="0.35em" fill="${GOLD}" font-family="Georgia, 'DejaVu Serif', serif" font-size="${fontSize}" text-anchor="middle">ML</text>
</svg>`;
}

const icons = [
  { file: 'public/icons/icon-192.png', size: 192, maskable: false },
  { file: 'public/icons/icon-512.png', size: 512, maskable: false },
  { file: 'public/icons/icon-maskable-512.png', size: 512, maskable: true },
];
for (const icon of icons) {
  await sharp(Buffer.from(svg(icon.size, icon))).png({ compressionLevel: 9, palette: true }).toFile(icon.file);
  console.log(icon.file);
}
